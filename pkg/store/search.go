package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
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
// 0.5 keeps recall on the eval set identical to no pruning (lower values,
// down to 0.02, cost recall and MRR there with either ranking) while removing
// the function words that make queries slow.
const (
	maxDF = 0.5
	// workBudget bounds the postings one query scores (the sum of its terms'
	// document frequencies), so a search's cost does not grow with the
	// store. Terms beyond it are dropped, rarest kept.
	workBudget   = 5000
	pruneMinDocs = 500
	maxTerms     = 64
)

// Query is one search: its text, the notes it may return, how many.
type Query struct {
	Text   string
	Filter Filter
	// K is the most hits returned, 1 to 100 (outside that range, the nearest).
	K int
	// Marks fills each hit's TitleHL and Snippet.
	Marks bool
}

// Hit is one search result as the index holds it. Its file is read only
// when a caller asks for the note (Note, Indexed).
type Hit struct {
	ID, Type, Project, Title, Team string
	// TitleHL is the title with the matched words bracketed by HLStart and
	// HLEnd; Snippet is a short excerpt of the body around the best match,
	// marked the same way, with "…" where text was cut. Both only with
	// Query.Marks; TitleHL is the plain title when the note was reindexed
	// since the ranking read it.
	TitleHL, Snippet string

	file fileInfo
	home string // the store's home, for the screen's team releases
	// screened is the text the index screened (screenedText) of a hit
	// read from its file though the ranking read its text (a team's note).
	screened string
	// indexed is the note as the ranking read it from the index (rankNotes;
	// nil otherwise).
	indexed *note.Note
}

// Note reads the hit's note from its file, screened as Get screens it: an
// error when the file was removed or broken since it was indexed, or reads
// as held (ErrHeld: edited since, in place, so nothing told the index; a
// search leaves held notes out, and so does its hit read again).
func (h Hit) Note() (*note.Note, error) {
	n, err := readFile(h.file)
	if err != nil {
		return nil, err
	}
	if h.screened != "" && h.screened == screenedText(n.Type, n.Project, n.Title, n.Body) {
		// What the index screened, and did not hold (a search leaves held
		// notes out), read again unchanged: no second screen (about a
		// millisecond a note, on recall's path), and no hold (a team
		// note's file keeps the held tags a release here lifted). Its
		// attribution, which the index does not keep, is screened again
		// unless the file is the one indexed, whose attribution the index
		// screened.
		screen.Unhold(n)
		if !h.file.unchanged() && holdAttribution(n) && !releasedHere(h.home, n) {
			return nil, fmt.Errorf("%s: %w", h.ID, ErrHeld)
		}
		screen.Unhold(n)
		return n, nil
	}
	if screenRead(h.home, n); screen.Held(n.Tags) {
		return nil, fmt.Errorf("%s: %w", h.ID, ErrHeld)
	}
	return n, nil
}

// screenedText is what decides a note's screen that a hit can compare with
// its file: type, project, title and body (a team's release covers its
// supersedes too, which the index does not keep and nothing shows).
func screenedText(typ, project, title, body string) string {
	return typ + "\x00" + project + "\x00" + title + "\x00" + body
}

// Indexed is the note as the index holds it, where the ranking read its
// text: every field but supersedes (empty) and front-matter keys this
// version does not know, tags as the words the index keeps. A hit whose
// text the ranking did not read (every query word common, a team's note) is
// read from its file, as Note does. A file edited or removed by hand since it
// was indexed shows as indexed until the next reindex (every sync runs one).
func (h Hit) Indexed() (*note.Note, error) {
	if h.indexed != nil {
		return h.indexed, nil
	}
	return h.Note()
}

// Notes reads the hits' notes from their files, in order, leaving out any
// whose file was removed or broken since it was indexed, or reads as held.
func Notes(hits []Hit) []*note.Note {
	out, _ := NotesHeld(hits)
	return out
}

// NotesHeld is Notes, with how many of the hits it left out read as held
// (ErrHeld): files edited since they were indexed, which a surface that
// counts held notes counts too.
func NotesHeld(hits []Hit) ([]*note.Note, int) {
	out := make([]*note.Note, 0, len(hits))
	held := 0
	for _, h := range hits {
		n, err := h.Note()
		switch {
		case err == nil:
			out = append(out, n)
		case errors.Is(err, ErrHeld):
			held++
		}
	}
	return out, held
}

// Search ranks notes against q (see rank.go; ties: most recently updated),
// excluding superseded notes and those q.Filter leaves out: at most q.K
// hits, best first. Every surface that searches (the CLI, MCP, the
// dashboard, per-prompt recall, eval) calls it.
func (s *Store) Search(ctx context.Context, q Query) ([]Hit, error) {
	k := min(max(q.K, 1), 100)
	tokens := dedupe(Tokens(q.Text))
	if len(tokens) == 0 {
		return nil, nil
	}
	var absent map[string]bool
	if s.seedRank == nil {
		var err error
		var also map[string][]string
		if tokens, absent, also, err = s.resolve(ctx, Words(q.Text)); err != nil {
			return nil, err
		}
		for _, w := range slices.Sorted(maps.Keys(also)) {
			tokens = append(tokens, also[w]...)
		}
		tokens = dedupe(tokens)
	}
	p, err := s.prune(ctx, tokens, absent)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	switch {
	case len(p.ranked) == 0:
		hits, err = s.broad(ctx, p, q.Filter, k)
	case s.seedRank != nil:
		hits, err = s.seedRank(ctx, MatchExpr(p.ranked), q.Filter, k)
	default:
		hits, err = s.rankNotes(ctx, p, q.Filter, k)
	}
	if err != nil || !q.Marks || len(hits) == 0 {
		return hits, err
	}
	return hits, s.mark(ctx, q.Text, hits)
}

// broad answers a query whose every word is in a large part of the store,
// where scoring all matches would be slow and tell little apart: the most
// recent notes holding its rarest word (ties: the highest id). Each project
// of the filter is walked newest first through its recency index and each
// note probed, stopping at k, so the cost is a few notes, not the word's
// posting list nor the project's notes; the projects' lists are merged.
// Where the word is rare enough in a project that the walk would probe
// many notes for each it keeps, the project's part of its postings is read
// instead (byPostings): the same notes, at most workBudget rows.
func (s *Store) broad(ctx context.Context, pl plan, f Filter, k int) ([]Hit, error) {
	var hits []Hit
	var updated []string
	for _, p := range f.projects() {
		q, args := broadSQL(p, f, pl.broad[0], k, s.byPostings(ctx, p, pl))
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, scope, bp, typ, project, title, team, u string
			if err := rows.Scan(&id, &scope, &bp, &typ, &project, &title, &team, &u); err != nil {
				rows.Close()
				return nil, err
			}
			hits = append(hits, s.newHit(id, scope, bp, typ, project, title, team))
			updated = append(updated, u)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		if d := strings.Compare(updated[b], updated[a]); d != 0 {
			return d
		}
		return strings.Compare(hits[b].ID, hits[a].ID)
	})
	out := make([]Hit, 0, min(k, len(hits)))
	for _, i := range order[:min(k, len(order))] {
		out = append(out, hits[i])
	}
	return out, nil
}

// broadSQL is broad's walk of one project's notes (every project for ""),
// newest first, holding term, within f's other conditions: at most k. Each
// note is probed for the word, or, with postings, kept when among the
// project's part of the word's postings (its rowid range in a slotted
// index), read once into a set (byPostings).
func broadSQL(project string, f Filter, term string, k int, postings bool) (string, []any) {
	var args []any
	q := `SELECT ` + hitCols + `, m.updated_at FROM memories m`
	// Named, or the planner would rather range over idx_mem_scope when f
	// has a type (with no project, scan idx_mem_project_recency for its
	// team column), then sort every match.
	if project != "" {
		q += ` INDEXED BY idx_mem_project_recency WHERE m.project = ?`
		args = append(args, project)
	} else {
		q += ` INDEXED BY idx_mem_recency WHERE 1=1`
	}
	g := f
	g.Project, g.AndGlobal = "", false
	q += g.where(&args) + `
		AND m.id NOT IN (SELECT target FROM superseded)`
	if postings {
		q += `
		AND m.rowid IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ? AND rowid BETWEEN ` + slotStart + ` AND ` + slotStart + ` + ?)`
		args = append(args, `"`+term+`"`, project, project, slotSize-1)
	} else {
		q += `
		AND EXISTS (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? AND memories_fts.rowid = m.rowid)`
		args = append(args, `"`+term+`"`)
	}
	return q + `
		ORDER BY m.updated_at DESC, m.id DESC` + limitClause(k), args
}

// byPostings tells whether broad reads project's part of its word's
// postings rather than walk the project's notes: in a slotted index with no
// rows from before the slots, when the word's notes expected in the project
// (its document frequency times the project's share of the notes) are
// within workBudget. Otherwise the word is common there and the walk finds
// k of its notes after a few probes.
func (s *Store) byPostings(ctx context.Context, project string, pl plan) bool {
	if !s.slotted || s.legacy || project == "" || pl.docs <= 0 {
		return false
	}
	var n int64
	if err := s.db.QueryRowContext(ctx, `SELECT coalesce(sum(n), 0) FROM note_counts WHERE project = ?`, project).Scan(&n); err != nil {
		return false
	}
	return fewPostings(int64(pl.broadDF), n, int64(pl.docs))
}

// fewPostings tells whether a word in df of docs notes has at most
// workBudget of them expected among a project's n.
func fewPostings(df, n, docs int64) bool {
	return df*n <= int64(workBudget)*docs
}

// limitClause is a query's LIMIT, written into its text. A bound LIMIT
// ("LIMIT ?") makes SQLite recompile the statement at its first step, once the
// value is bound (it reads the value to plan the query), so every query with
// one would be compiled twice.
func limitClause(n int) string { return " LIMIT " + strconv.Itoa(n) }

// hitCols are the columns of memories m a hit is made of (newHit).
const hitCols = `m.id, m.scope, m.body_path, m.type, m.project, m.title, coalesce(m.team, '')`

// hitRows runs a query returning hitCols.
func (s *Store) hitRows(ctx context.Context, q string, args []any) ([]Hit, error) {
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var id, scope, bp, typ, project, title, team string
		if err := rows.Scan(&id, &scope, &bp, &typ, &project, &title, &team); err != nil {
			return nil, err
		}
		hits = append(hits, s.newHit(id, scope, bp, typ, project, title, team))
	}
	return hits, rows.Err()
}

// newHit locates a hit's file (rel holds its id: a hit is looked up by id).
func (s *Store) newHit(id, scope, bodyPath, typ, project, title, team string) Hit {
	base, _ := s.treeDir(scope, team)
	return Hit{ID: id, Type: typ, Project: project, Title: title, Team: team, home: s.home,
		file: fileInfo{rel: id, abs: filepath.Join(base, filepath.FromSlash(bodyPath)), scope: scope, team: team}}
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

// plan is what a query will be evaluated with: ranked terms for BM25, or,
// when every term is too common to score cheaply, the rarest ones for broad.
// docs and df are what pruning read (the note count and the term_df figures
// of the query's terms, if it read them), which ranking reuses.
type plan struct {
	ranked, broad []string
	docs          int
	df            map[string]int
	// broadDF is the broad word's document frequency.
	broadDF int
}

// prune drops the query words that carry no information: stop words (not in
// the reference-compatible ranking) and, on stores of pruneMinDocs notes or
// more, words whose term occurs in more than maxDF of the notes, keeping the
// rest rarest first within workBudget. Document frequencies come from
// term_df, looked up with the index's own terms (ftsTerms), so no query
// needs SQLite to tokenize.
func (s *Store) prune(ctx context.Context, tokens []string, absent map[string]bool) (plan, error) {
	if s.seedRank == nil {
		var kept []string
		for _, t := range tokens {
			if !stopWords[strings.ToLower(t)] {
				kept = append(kept, t)
			}
		}
		if len(kept) > 0 { // a query of stop words only is left to the rules below
			tokens = kept
		}
	}
	docs := s.dfDocs(ctx)
	if docs < pruneMinDocs {
		if len(tokens) > maxTerms {
			tokens = tokens[:maxTerms]
		}
		return plan{ranked: tokens, docs: docs}, nil
	}
	df, dfOf, err := s.docFreqs(ctx, tokens, docs)
	if err != nil {
		return plan{}, err
	}
	limit := int(maxDF * float64(docs))
	order := make([]int, len(tokens))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return df[a] - df[b] })
	// Rarest first, while the postings to score stay within the work budget.
	var keep []int
	work := 0
	for _, i := range order {
		if df[i] <= limit && work+df[i] <= workBudget && len(keep) < maxTerms {
			keep = append(keep, i)
			work += df[i]
		}
	}
	pick := func(idx []int) []string {
		out := make([]string, len(idx))
		for j, i := range idx {
			out[j] = tokens[i]
		}
		return out
	}
	if !slices.ContainsFunc(keep, func(i int) bool { return !absent[tokens[i]] }) {
		// Nothing kept but words no note holds (absent, from resolve),
		// which would match nothing where the other words' notes answer
		// broadly.
		for _, i := range order {
			if !absent[tokens[i]] {
				return plan{broad: pick([]int{i}), docs: docs, broadDF: df[i]}, nil
			}
		}
		if len(keep) == 0 {
			return plan{broad: pick(order[:1]), docs: docs, broadDF: df[order[0]]}, nil
		}
	}
	slices.Sort(keep)
	return plan{ranked: pick(keep), docs: docs, df: dfOf}, nil
}

// dfDocs is the note count term_df was computed for (meta's df_docs).
func (s *Store) dfDocs(ctx context.Context) int {
	if s.known != nil {
		return s.known.docs
	}
	var v string
	var docs int
	if err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'df_docs'").Scan(&v); err == nil {
		docs, _ = strconv.Atoi(v)
	}
	return docs
}

// docFreqs returns each token's document frequency from term_df, for
// pruning and recall: a term in at most 1% of the docs notes counts as 0
// there, rare (a token FTS5 splits into several terms takes the largest).
// It also returns every frequency found, by term, for the IDFs.
func (s *Store) docFreqs(ctx context.Context, tokens []string, docs int) ([]int, map[string]int, error) {
	terms := make([][]string, len(tokens))
	var all []any
	for i, t := range tokens {
		terms[i] = ftsTerms(t)
		for _, x := range terms[i] {
			all = append(all, x)
		}
	}
	dfOf := map[string]int{}
	if s.known != nil {
		// A reader asks only for the terms it has not looked up yet.
		var ask []any
		for _, x := range all {
			if n, ok := s.known.df[x.(string)]; !ok {
				ask = append(ask, x)
			} else if n >= 0 {
				dfOf[x.(string)] = n
			}
		}
		all = ask
	}
	if len(all) > 0 {
		found, err := s.counts(ctx, "SELECT term, df FROM term_df WHERE term IN (?"+strings.Repeat(",?", len(all)-1)+")", all...)
		if err != nil {
			return nil, nil, err
		}
		maps.Copy(dfOf, found)
		if s.known != nil {
			for _, x := range all {
				n, ok := dfOf[x.(string)]
				if !ok {
					n = -1
				}
				s.known.df[x.(string)] = n
			}
		}
	}
	df := make([]int, len(tokens))
	for i := range tokens {
		for _, x := range terms[i] {
			if n := dfOf[x]; n > docs/100 {
				df[i] = max(df[i], n)
			}
		}
	}
	return df, dfOf, nil
}

// maybeRefreshDF recomputes document frequencies after an incremental
// reindex once the note count has drifted by more than a tenth since the last
// computation (a full rebuild always does, in its transaction), or when
// term_df holds only the common terms (as indexes written before it kept
// every term do). Stale figures are harmless: a term that was common stays
// common, and a new term without a figure is treated as rare and kept (its
// IDF read from FTS5's vocabulary).
func (s *Store) maybeRefreshDF(ctx context.Context, r ReindexResult) {
	var v, all sql.NullString
	last := -1
	if err := s.db.QueryRowContext(ctx, "SELECT (SELECT value FROM meta WHERE key = 'df_docs'), (SELECT value FROM meta WHERE key = 'df_all')").Scan(&v, &all); err == nil && v.Valid {
		last, _ = strconv.Atoi(v.String)
	}
	if last >= 0 && all.String == "1" && abs(r.Total-last)*10 <= max(last, 1) {
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
	if err := refreshDF(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// refreshDF is RefreshDF inside tx: a full rebuild runs it before it
// commits, so no reader sees the new index without its figures.
func refreshDF(ctx context.Context, tx *sql.Tx) error {
	var total int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&total); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM term_df"); err != nil {
		return err
	}
	// Every term: a search reads its IDFs here, in the lookup pruning
	// makes anyway, instead of asking FTS5's vocabulary table (a virtual
	// table to connect and a statement more, in a process that searches
	// once). Pruning and recall count a term in at most 1% of the notes as
	// rare: docFreqs.
	if _, err := tx.ExecContext(ctx, "INSERT INTO term_df (term, df) SELECT term, doc FROM memories_vocab"); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES ('df_docs', ?), ('df_all', '1')", strconv.Itoa(total))
	return err
}
