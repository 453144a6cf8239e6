package store

import (
	"context"
	"path/filepath"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// HLStart and HLEnd bracket the matched terms in Hit.TitleHL and Hit.Snippet.
// They are control characters so a caller can escape the text first and then
// turn them into markup.
const (
	HLStart = "\x02"
	HLEnd   = "\x03"
)

// Hit is one search result with the words that matched marked, for display.
type Hit struct {
	*note.Note
	// TitleHL is the title with matched terms bracketed by HLStart/HLEnd.
	TitleHL string
	// Snippet is a short excerpt of the body around the best match, marked the
	// same way, with "…" where text was cut.
	Snippet string
}

// SnippetTokens is how many tokens a Snippet holds at most.
const SnippetTokens = 28

// SearchHits is Search (same query, ranking, filters and exclusions) with a
// highlighted title and body excerpt per hit. The marks come from FTS5's own
// tokenizer, so stemmed matches ("indexes" for "index") are marked too.
func (s *Store) SearchHits(ctx context.Context, query string, f Filter, k int) ([]Hit, error) {
	k = min(max(k, 1), 100)
	tokens := dedupe(Tokens(query))
	if len(tokens) == 0 {
		return []Hit{}, nil
	}
	tokens, err := s.prune(ctx, tokens)
	if err != nil {
		return nil, err
	}
	expr := MatchExpr(tokens)
	args := []any{expr}
	q := `SELECT memories_fts.rowid, m.scope, m.body_path FROM memories_fts JOIN memories m ON m.id = memories_fts.id
		WHERE memories_fts MATCH ?` + f.where(&args) + `
		AND m.id NOT IN (SELECT target FROM superseded)
		ORDER BY bm25(memories_fts), m.updated_at DESC LIMIT ?`
	args = append(args, k)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	type found struct {
		rowid int64
		f     fileInfo
	}
	var hits []found
	for rows.Next() {
		var h found
		var scope, bp string
		if err := rows.Scan(&h.rowid, &scope, &bp); err != nil {
			rows.Close()
			return nil, err
		}
		base, _ := s.dirFor(scope)
		h.f = fileInfo{abs: filepath.Join(base, filepath.FromSlash(bp)), scope: scope}
		hits = append(hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Marks are computed only for the rows shown: snippet() in the ranking
	// query would run for every match before the LIMIT applies.
	st, err := s.db.PrepareContext(ctx, `SELECT highlight(memories_fts, 1, ?, ?),
		snippet(memories_fts, 2, ?, ?, '…', ?) FROM memories_fts WHERE memories_fts MATCH ? AND rowid = ?`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := make([]Hit, 0, len(hits))
	for _, h := range hits {
		n, err := readFile(h.f)
		if err != nil { // a file removed since indexing is skipped, as in Search
			continue
		}
		hit := Hit{Note: n, TitleHL: n.Title}
		err = st.QueryRowContext(ctx, HLStart, HLEnd, HLStart, HLEnd, SnippetTokens, expr, h.rowid).Scan(&hit.TitleHL, &hit.Snippet)
		if err != nil {
			hit.TitleHL, hit.Snippet = n.Title, ""
		}
		out = append(out, hit)
	}
	return out, nil
}

// TagCounts returns every tag in the index with how many notes carry it.
func (s *Store) TagCounts(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT tag, count(*) FROM memory_tags GROUP BY tag")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var t string
		var c int
		if err := rows.Scan(&t, &c); err != nil {
			return nil, err
		}
		out[t] = c
	}
	return out, rows.Err()
}
