package store

import (
	"context"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// What per-prompt recall (SPEC 15) needs from the index besides Search: how
// rare each word of a prompt is, which of them a hit really holds, and which
// notes reached the index after a point in time (a background pull).

// Term is one distinct word of a query with its document frequency. In a
// store of pruneMinDocs notes or more it comes from term_df, where DF is 0
// for a word in at most 1% of the notes; in a smaller one it is counted
// (cheap there, and term_df may lag behind a young store's growth).
type Term struct {
	Word string
	DF   int
}

// QueryTerms returns the distinct words of query (as Search splits them)
// with their document frequencies, and how many notes the index holds.
func (s *Store) QueryTerms(ctx context.Context, query string) ([]Term, int, error) {
	var docs int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&docs); err != nil {
		return nil, 0, err
	}
	tokens := dedupe(Tokens(query))
	if len(tokens) > maxTerms {
		tokens = tokens[:maxTerms]
	}
	if len(tokens) == 0 {
		return nil, docs, nil
	}
	var df []int
	var err error
	if docs >= pruneMinDocs {
		df, _, err = s.docFreqs(ctx, tokens)
	} else {
		df, err = s.countDocs(ctx, tokens)
	}
	if err != nil {
		return nil, 0, err
	}
	out := make([]Term, len(tokens))
	for i, t := range tokens {
		out[i] = Term{Word: t, DF: df[i]}
	}
	return out, docs, nil
}

func (s *Store) countDocs(ctx context.Context, tokens []string) ([]int, error) {
	df := make([]int, len(tokens))
	for i, t := range tokens {
		err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?",
			`{title body tags}: "`+strings.ReplaceAll(t, `"`, `""`)+`"`).Scan(&df[i])
		if err != nil {
			return nil, err
		}
	}
	return df, nil
}

// Holds returns, for each of ids, the words (a subset of words, same order)
// the note holds in its title, body or tags, stemmed the way the index
// stems them. One query per word covers every note.
func (s *Store) Holds(ctx context.Context, ids, words []string) (map[string][]string, error) {
	out := map[string][]string{}
	if len(ids) == 0 || len(words) == 0 {
		return out, nil
	}
	in := "(?" + strings.Repeat(",?", len(ids)-1) + ")"
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := s.db.QueryContext(ctx, "SELECT rowid, id FROM memories WHERE id IN "+in, args...)
	if err != nil {
		return nil, err
	}
	idOf := map[int64]string{}
	var rowids []any
	for rows.Next() {
		var r int64
		var id string
		if err := rows.Scan(&r, &id); err != nil {
			rows.Close()
			return nil, err
		}
		idOf[r] = id
		rowids = append(rowids, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(rowids) == 0 {
		return out, err
	}
	st, err := s.db.PrepareContext(ctx, "SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid IN (?"+strings.Repeat(",?", len(rowids)-1)+")")
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, w := range words {
		rows, err := st.QueryContext(ctx, append([]any{`{title body tags}: "` + strings.ReplaceAll(w, `"`, `""`) + `"`}, rowids...)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var r int64
			if err := rows.Scan(&r); err != nil {
				rows.Close()
				return nil, err
			}
			out[idOf[r]] = append(out[idOf[r]], w)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Watermark marks the index's present state: every note (re)indexed later,
// by a pull, an edit or a new capture, gets a higher row id (an index row
// is replaced, never updated in place).
func (s *Store) Watermark(ctx context.Context) (int64, error) {
	var m int64
	err := s.db.QueryRowContext(ctx, "SELECT coalesce(max(rowid), 0) FROM memories").Scan(&m)
	return m, err
}

// IndexedSince lists the notes of the given projects (re)indexed after
// mark, newest first, superseded ones left out, without bodies.
func (s *Store) IndexedSince(ctx context.Context, mark int64, projects []string, limit int) ([]*note.Note, error) {
	if len(projects) == 0 {
		return []*note.Note{}, nil
	}
	args := []any{mark}
	q := "SELECT " + metaCols + " FROM memories m JOIN files f ON f.id = m.id AND f.error IS NULL WHERE m.rowid > ?" +
		" AND m.project IN (?" + strings.Repeat(",?", len(projects)-1) + ")"
	for _, p := range projects {
		args = append(args, p)
	}
	q += " AND m.id NOT IN (SELECT target FROM superseded) ORDER BY m.updated_at DESC, m.id DESC LIMIT ?"
	return s.queryMeta(ctx, q, append(args, max(limit, 1)))
}
