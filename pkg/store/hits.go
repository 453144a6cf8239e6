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

// SnippetTokens is how many tokens a Snippet holds at most.
const SnippetTokens = 28

// mark sets each hit's TitleHL and Snippet. The marks come from FTS5's own
// tokenizer with the expression the search matched, so stemmed matches
// ("indexes" for "index") are marked and pruned function words are not.
func (s *Store) mark(ctx context.Context, text string, hits []Hit) error {
	p, err := s.prune(ctx, dedupe(Tokens(text)), nil)
	if err != nil {
		return err
	}
	expr := MatchExpr(append(p.ranked, p.broad...))
	// Marks are computed only for the rows shown, through the rowid the FTS
	// row shares with its memories row.
	st, err := s.db.PrepareContext(ctx, `SELECT highlight(memories_fts, 1, ?, ?),
		snippet(memories_fts, 2, ?, ?, '…', ?) FROM memories_fts
		WHERE memories_fts MATCH ? AND rowid = (SELECT rowid FROM memories WHERE id = ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i := range hits {
		h := &hits[i]
		err := st.QueryRowContext(ctx, HLStart, HLEnd, HLStart, HLEnd, SnippetTokens, expr, h.ID).Scan(&h.TitleHL, &h.Snippet)
		if errors.Is(err, sql.ErrNoRows) { // reindexed since the ranking read it: shown unmarked
			h.TitleHL, h.Snippet = h.Title, ""
		} else if err != nil {
			return err
		}
	}
	return nil
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
	return s.counts(ctx, "SELECT tag, n FROM tag_counts WHERE n > 0")
}
