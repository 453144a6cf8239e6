package store

import "context"

// seedMode switches s to the reference-compatible ranking (seed 004:
// FTS5's bm25 with the title weighted titleWeight and the other columns 1,
// then recency; no stop words) or, with on false, back to ours. Only tests
// use it: to check the seed's exact ranking (titleWeight 1) and to compare
// ours with the ranking it replaced (titleWeight 3).
func (s *Store) seedMode(on bool, titleWeight float64) {
	if !on {
		s.seedRank = nil
		return
	}
	s.seedRank = func(ctx context.Context, match string, f Filter, k int) ([]Hit, error) {
		args := []any{match}
		q := `SELECT ` + hitCols + ` FROM memories_fts CROSS JOIN memories m ON m.rowid = memories_fts.rowid
		WHERE memories_fts MATCH ?` + f.where(&args) + `
		AND m.id NOT IN (SELECT target FROM superseded)
		ORDER BY bm25(memories_fts, 0, ?, 1, 1), m.updated_at DESC` + limitClause(k)
		args = append(args, titleWeight)
		return s.hitRows(ctx, q, args)
	}
}
