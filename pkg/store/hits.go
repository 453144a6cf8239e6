package store

import (
	"context"
	"database/sql"
	"errors"
	"slices"

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

// SearchHits is Search (it calls it: same ranking, filters and exclusions)
// with a highlighted title and body excerpt per hit. The marks come from
// FTS5's own tokenizer with the expression Search matched, so stemmed matches
// ("indexes" for "index") are marked and pruned function words are not.
func (s *Store) SearchHits(ctx context.Context, query string, f Filter, k int) ([]Hit, error) {
	notes, err := s.Search(ctx, query, f, k)
	if err != nil || len(notes) == 0 {
		return []Hit{}, err
	}
	p, err := s.prune(ctx, dedupe(Tokens(query)))
	if err != nil {
		return nil, err
	}
	expr := MatchExpr(append(p.ranked, p.broad...))
	// Marks are computed only for the rows shown, through the rowid the FTS
	// row shares with its memories row.
	st, err := s.db.PrepareContext(ctx, `SELECT highlight(memories_fts, 1, ?, ?),
		snippet(memories_fts, 2, ?, ?, '…', ?) FROM memories_fts
		WHERE memories_fts MATCH ? AND rowid = (SELECT rowid FROM memories WHERE id = ?)`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	out := make([]Hit, 0, len(notes))
	for _, n := range notes {
		h := Hit{Note: n, TitleHL: n.Title}
		err := st.QueryRowContext(ctx, HLStart, HLEnd, HLStart, HLEnd, SnippetTokens, expr, n.ID).Scan(&h.TitleHL, &h.Snippet)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, err
		}
		if err != nil { // re-indexed since Search read it: show it unmarked
			h.TitleHL = n.Title
		}
		out = append(out, h)
	}
	return out, nil
}

// Cursor is a position in List's order (updated_at DESC, then id DESC): the
// note at it, which a page starting there leaves out.
type Cursor struct{ UpdatedAt, ID string }

// CursorOf is the position of n.
func CursorOf(n *note.Note) Cursor { return Cursor{n.UpdatedAt, n.ID} }

// Browse pages through List's order by position instead of offset, so any
// page of a large store costs the same as the first. It returns up to limit
// notes (1..1000) matching f that come after cur, or with before the ones
// just before cur (still newest first); a zero cursor starts at the newest.
// f.Limit and f.Offset are ignored.
func (s *Store) Browse(ctx context.Context, f Filter, cur Cursor, before bool, limit int) ([]*note.Note, error) {
	limit = min(max(limit, 1), 1000)
	args := []any{}
	// CROSS JOIN keeps memories the outer loop so SQLite walks the recency
	// index and stops after limit rows, instead of joining every file and sorting.
	q := "SELECT " + metaCols + " FROM memories m CROSS JOIN files f ON f.id = m.id AND f.error IS NULL WHERE 1=1" + f.where(&args)
	order := " ORDER BY m.updated_at DESC, m.id DESC"
	switch {
	case cur == Cursor{}:
	case before:
		q += " AND (m.updated_at, m.id) > (?, ?)"
		args = append(args, cur.UpdatedAt, cur.ID)
		order = " ORDER BY m.updated_at ASC, m.id ASC"
	default:
		q += " AND (m.updated_at, m.id) < (?, ?)"
		args = append(args, cur.UpdatedAt, cur.ID)
	}
	out, err := s.queryMeta(ctx, q+order+limitClause(limit), args)
	if err != nil {
		return nil, err
	}
	if before && cur != (Cursor{}) {
		slices.Reverse(out)
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
