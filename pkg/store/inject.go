package store

import "context"

// CountInjectable counts the notes of project that inject may show: not
// superseded, not episodics already folded into durable notes (tag
// "reflected"), and not held by the screen (tag "held"). Inject reads only the notes that fit its output budget and
// reports the rest as a count. The subtractions are driven from the few
// superseded targets and "reflected" tags (CROSS JOIN fixes that order), so
// no term visits every note of a big project; the first is the sum of the
// project's personal rows of note_counts.
func (s *Store) CountInjectable(ctx context.Context, project string) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, countInjectable, project).Scan(&n)
	return n, err
}

const countInjectable = `SELECT
		coalesce((SELECT sum(n) FROM note_counts WHERE project = ?1 AND team = ''), 0)
		- (SELECT count(*) FROM (SELECT DISTINCT target FROM superseded) AS s
			CROSS JOIN memories m ON m.id = s.target WHERE m.project = ?1 AND m.team IS NULL)
		- (SELECT count(*) FROM memory_tags t CROSS JOIN memories m ON m.id = t.memory_id
			WHERE t.tag = 'reflected' AND m.project = ?1 AND m.team IS NULL AND m.type = 'episodic'
			AND m.id NOT IN (SELECT target FROM superseded))
		- (SELECT count(*) FROM memory_tags t CROSS JOIN memories m ON m.id = t.memory_id
			WHERE t.tag = 'held' AND m.project = ?1 AND m.team IS NULL
			AND m.id NOT IN (SELECT target FROM superseded)
			AND NOT (m.type = 'episodic' AND m.id IN (SELECT memory_id FROM memory_tags WHERE tag = 'reflected')))`
