package store

import "context"

// CountInjectable counts the notes of project that inject may show: not
// superseded, and not episodics already folded into durable notes (tag
// "reflected"). Inject reads only the notes that fit its output budget and
// reports the rest as a count. Written as differences of counts the indexes
// answer directly: a project can hold thousands of notes, and inject runs at
// every SessionStart.
func (s *Store) CountInjectable(ctx context.Context, project string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM memories WHERE project = ?1)
		- (SELECT count(*) FROM memories m WHERE m.project = ?1 AND m.id IN (SELECT target FROM superseded))
		- (SELECT count(*) FROM memories m WHERE m.project = ?1 AND m.type = 'episodic'
			AND m.id NOT IN (SELECT target FROM superseded)
			AND EXISTS (SELECT 1 FROM memory_tags t WHERE t.memory_id = m.id AND t.tag = 'reflected'))`, project).Scan(&n)
	return n, err
}
