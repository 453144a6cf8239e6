package store

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Tokens splits a query into words the way Python's \w+ does: runs of
// Unicode letters, digits and '_'. Everything else, FTS5 syntax included, is dropped.
func Tokens(q string) []string {
	var out []string
	start := -1
	for i, r := range q {
		w := r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
		if w && start < 0 {
			start = i
		} else if !w && start >= 0 {
			out = append(out, q[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, q[start:])
	}
	return out
}

// MatchExpr is the seed's FTS5 expression: every token quoted, joined with OR.
func MatchExpr(tokens []string) string {
	q := make([]string, len(tokens))
	for i, t := range tokens {
		q[i] = `"` + t + `"`
	}
	return strings.Join(q, " OR ")
}

// Pruning: a term found in more than maxDF of the notes carries almost no
// information for BM25 but makes FTS5 score nearly every note ("how did
// the ..."), so it is dropped once the store is big enough for that to cost.
// 0.5 keeps recall on the eval set identical to no pruning (lower values
// cost MRR there) while removing the function words that make queries slow.
const (
	maxDF        = 0.5
	pruneMinDocs = 500
	maxTerms     = 64
)

// TitleWeight is the BM25 weight of a title match relative to the body (the
// seed weighs all columns 1). Titles are short summaries, so a word there
// says more; on the LoCoMo eval set 3 raises recall@5 from 0.602 to 0.621 and
// MRR from 0.466 to 0.480 (see README, "Retrieval").
const TitleWeight = 3.0

// Search ranks notes against query with BM25 (ties: most recently updated),
// excluding superseded notes, and re-reads each hit from its file.
func (s *Store) Search(ctx context.Context, query string, f Filter, k int) ([]*note.Note, error) {
	k = min(max(k, 1), 100)
	tokens := dedupe(Tokens(query))
	if len(tokens) == 0 {
		return []*note.Note{}, nil
	}
	tokens, err := s.prune(ctx, tokens)
	if err != nil {
		return nil, err
	}
	args := []any{MatchExpr(tokens)}
	q := `SELECT m.id, m.scope, m.body_path FROM memories_fts JOIN memories m ON m.rowid = memories_fts.rowid
		WHERE memories_fts MATCH ?` + f.where(&args) + `
		AND m.id NOT IN (SELECT target FROM superseded)
		ORDER BY bm25(memories_fts, 0, ?, 1, 1), m.updated_at DESC LIMIT ?`
	args = append(args, s.titleWeight)
	args = append(args, k)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	var hits []fileInfo
	for rows.Next() {
		var id, scope, bp string
		if err := rows.Scan(&id, &scope, &bp); err != nil {
			rows.Close()
			return nil, err
		}
		base, _ := s.dirFor(scope)
		hits = append(hits, fileInfo{abs: filepath.Join(base, filepath.FromSlash(bp)), scope: scope})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]*note.Note, 0, len(hits))
	for _, h := range hits {
		if n, err := readFile(h); err == nil { // a file removed since indexing is skipped
			out = append(out, n)
		}
	}
	return out, nil
}

func dedupe(tokens []string) []string {
	seen := map[string]bool{}
	out := tokens[:0:0]
	for _, t := range tokens {
		l := strings.ToLower(t)
		if !seen[l] {
			seen[l] = true
			out = append(out, t)
		}
	}
	return out
}

// prune drops tokens whose stem occurs in more than maxDF of the notes,
// keeping the two rarest if that would leave none. Stems come from FTS5's own
// porter tokenizer (a scratch temp table), so they match the index exactly.
func (s *Store) prune(ctx context.Context, tokens []string) ([]string, error) {
	var docs int
	var v string
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'df_docs'").Scan(&v); err == nil {
		docs, _ = strconv.Atoi(v)
	}
	if docs < pruneMinDocs {
		if len(tokens) > maxTerms {
			tokens = tokens[:maxTerms]
		}
		return tokens, nil
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.qtok USING fts5(t, tokenize='porter unicode61');
		CREATE VIRTUAL TABLE IF NOT EXISTS temp.qtok_v USING fts5vocab(temp, qtok, instance);
		DELETE FROM temp.qtok;`); err != nil {
		return nil, err
	}
	var ins strings.Builder
	args := make([]any, 0, 2*len(tokens))
	ins.WriteString("INSERT INTO temp.qtok(rowid, t) VALUES ")
	for i, t := range tokens {
		if i > 0 {
			ins.WriteString(",")
		}
		ins.WriteString("(?,?)")
		args = append(args, i, t)
	}
	if _, err := conn.ExecContext(ctx, ins.String(), args...); err != nil {
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT v.doc, coalesce(d.df, 0) FROM temp.qtok_v v
		LEFT JOIN term_df d ON d.term = v.term`)
	if err != nil {
		return nil, err
	}
	df := make([]int, len(tokens))
	for rows.Next() {
		var i, n int
		if err := rows.Scan(&i, &n); err != nil {
			rows.Close()
			return nil, err
		}
		if i >= 0 && i < len(df) {
			df[i] = max(df[i], n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	conn.ExecContext(ctx, "DELETE FROM temp.qtok")
	limit := int(maxDF * float64(docs))
	order := make([]int, len(tokens))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return df[a] - df[b] })
	var keep []int
	for _, i := range order {
		if df[i] <= limit || len(keep) < 2 && df[order[0]] > limit {
			keep = append(keep, i)
		}
		if len(keep) == maxTerms {
			break
		}
	}
	slices.Sort(keep)
	out := make([]string, len(keep))
	for j, i := range keep {
		out[j] = tokens[i]
	}
	return out, nil
}

// maybeRefreshDF recomputes document frequencies after a full rebuild or once
// the note count has drifted by more than a tenth since the last computation.
// Stale figures are harmless: a term that was common stays common, and a new
// term without a figure is treated as rare and kept.
func (s *Store) maybeRefreshDF(ctx context.Context, r ReindexResult, full bool) {
	var v string
	last := -1
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'df_docs'").Scan(&v); err == nil {
		last, _ = strconv.Atoi(v)
	}
	if !full && last >= 0 && abs(r.Total-last)*10 <= max(last, 1) {
		return
	}
	s.RefreshDF(ctx)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// RefreshDF recomputes the document frequency table from the FTS index.
func (s *Store) RefreshDF(ctx context.Context) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&total); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM term_df"); err != nil {
		return err
	}
	// Only terms common enough to matter are kept; the rest read as rare.
	if _, err := tx.ExecContext(ctx, "INSERT INTO term_df (term, df) SELECT term, doc FROM memories_vocab WHERE doc > ?", total/100); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES ('df_docs', ?)", strconv.Itoa(total)); err != nil {
		return err
	}
	return tx.Commit()
}
