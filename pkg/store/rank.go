package store

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Our ranking (README, "Ranking"). FTS5 finds the notes that hold a query
// term and orders them by its own bm25(); the best rankPool of them are then
// scored again here, where the parameters can be chosen:
//
//   - BM25 with k1 = bm25K1 and no length normalisation (FTS5 fixes b at
//     0.75, which favours short notes; b = 0 scored best and is simplest), the
//     title weighted titleBoost and the tags tagsBoost against the body;
//   - a body word inside a question (a sentence ending in '?') counts only
//     questionWeight in the note's own score: a question names a topic
//     without holding the fact asked for, and a query, itself a question,
//     shares its words with the questions more than with their answers;
//   - session context: notes that share a conversation (the same
//     prov_session, or the same session tag within a project) are also
//     scored together as one document, and sessionWeight of that score is
//     added to each one's own. There questions count fully: a question shows
//     that the conversation is about the topic, and its answer is usually a
//     note beside it. A note without a session, or the only candidate of its
//     session, is a session of its own, whose score is its own score, so
//     where no notes share a session every score is multiplied by the same
//     1 + sessionWeight and the order is exactly what the own scores give;
//   - ties: the most recently updated first, then the longest body (of two
//     notes matching alike, the one that says more; in a conversation the
//     short notes are mostly replies such as "thanks, sounds great!").
const (
	bm25K1         = 1.2
	titleBoost     = 6.0
	tagsBoost      = 1.0
	rankPool       = 30
	sessionWeight  = 0.8
	questionWeight = 0.25
)

// rankParams are the constants above as values, so the eval tests can vary them.
type rankParams struct {
	k1, title, tags float64
	pool            int
	session         float64
	question        float64
}

var defaultRank = rankParams{bm25K1, titleBoost, tagsBoost, rankPool, sessionWeight, questionWeight}

// stopWords are English function words, and the pieces contractions leave
// ("Caroline's" is "caroline" and "s"): they never decide which note is
// meant, and they make FTS5 score nearly every note.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be because been
		before being below between both but by can could did do does doing down during each few for from further
		had has have having he her here hers herself him himself his how i if in into is it its itself just me
		more most my myself no nor not now of off on once only or other our ours ourselves out over own same she
		should so some such than that the their theirs them themselves then there these they this those through
		to too under until up very was we were what when where which while who whom why will with would you your
		yours yourself yourselves s t d ll m re ve don doesn didn isn aren wasn weren hasn haven hadn won wouldn
		shouldn couldn`) {
		m[w] = true
	}
	return m
}()

// StopWord reports an English function word (stopWords): our ranking
// never scores one, and per-prompt recall (pkg/recall) never counts one.
func StopWord(w string) bool { return stopWords[strings.ToLower(w)] }

// cand is one candidate note with what scoring needs from its text.
type cand struct {
	hit     Hit
	updated string
	session string
	// tf holds per query term its count in the title, the body and the
	// tags, and the part of the body count inside questions.
	tf    [][4]float64
	words int // in the body
	score float64
}

// query is the weighted terms a ranking scores, in a fixed order (so equal
// scores add up equal), with what counting them needs.
type query struct {
	terms []string
	idf   []float64
	index map[string]int
	// first holds the first byte of every term: a word can only stem to a
	// term it shares its first byte with, so other words are not stemmed.
	first [256]bool
	stems map[string]string
}

func newQuery(words []string) *query {
	q := &query{index: map[string]int{}, stems: map[string]string{}}
	for _, w := range words {
		for _, t := range ftsTerms(w) {
			if _, ok := q.index[t]; !ok {
				q.index[t] = -1
				q.terms = append(q.terms, t)
			}
		}
	}
	slices.Sort(q.terms)
	for i, t := range q.terms {
		q.index[t] = i
		q.first[t[0]] = true
	}
	return q
}

// Columns of cand.tf.
const (
	colTitle = iota
	colBody
	colTags
	colAsked
)

// maxWord is the longest word, in bytes, a query term is looked for as:
// FTS5 does not stem longer ones.
const maxWord = 64

// count adds text's words to c as column col; in the body it also counts
// the words of sentences that end with '?' as colAsked, and the words.
func (q *query) count(c *cand, col int, text string) {
	var buf [maxWord]byte
	// The terms found since the last sentence end, in case it is a '?'.
	var pbuf [16]int
	pending := pbuf[:0]
	scanWords(text, buf[:0], func(word []byte) {
		if col == colBody {
			c.words++
		}
		if len(word) > maxWord || !q.first[word[0]] {
			return
		}
		st, ok := q.stems[string(word)]
		if !ok {
			st = porterStem(string(word))
			q.stems[string(word)] = st
		}
		if i, ok := q.index[st]; ok {
			c.tf[i][col]++
			if col == colBody {
				pending = append(pending, i)
			}
		}
	}, func(r rune) {
		switch r {
		case '?':
			for _, i := range pending {
				c.tf[i][colAsked]++
			}
			pending = pending[:0]
		case '.', '!', '\n':
			pending = pending[:0]
		}
	})
}

// rankNotes scores the notes matching words (see the constants above).
func (s *Store) rankNotes(ctx context.Context, pl plan, f Filter, k int) ([]Hit, error) {
	p, words := s.rank, pl.ranked
	q := newQuery(words)
	cands, err := s.pool(ctx, q, MatchExpr(words), f, max(p.pool, k))
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	// A term no candidate holds scores nothing: its IDF is not looked up.
	held := make([]bool, len(q.terms))
	for _, c := range cands {
		for t, v := range c.tf {
			held[t] = held[t] || v != [4]float64{}
		}
	}
	if q.idf, err = s.idfs(ctx, q.terms, held, pl); err != nil {
		return nil, err
	}
	p.score(cands, q)
	slices.SortStableFunc(cands, func(a, b *cand) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		if d := strings.Compare(b.updated, a.updated); d != 0 {
			return d
		}
		return b.words - a.words
	})
	out := make([]Hit, 0, k)
	for _, c := range cands[:min(k, len(cands))] {
		out = append(out, c.hit)
	}
	return out, nil
}

// pool returns up to limit notes matching match within f, best first by
// FTS5's bm25, with their counts of q's terms.
func (s *Store) pool(ctx context.Context, q *query, match string, f Filter, limit int) ([]*cand, error) {
	sq, args := poolSQL(match, f, limit, s.rank, indexShape{s.projectIndex, s.slotted, s.legacy})
	rows, err := s.db.QueryContext(ctx, sq, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cands []*cand
	for rows.Next() {
		var id, scope, bp, typ, project, provSession, title, body, tags, team, filed string
		c := &cand{tf: make([][4]float64, len(q.terms))}
		n := &note.Note{Supersedes: []string{}}
		if err := rows.Scan(&id, &scope, &bp, &typ, &c.updated, &project, &provSession, &title, &body, &tags,
			&n.MachineID, &n.CreatedAt, &n.ProvSource, &n.ProvModel, &n.Confidence, &team, &filed); err != nil {
			return nil, err
		}
		c.hit = s.newHit(id, scope, bp, typ, project, title, team)
		n.ID, n.Type, n.Title, n.Project, n.Scope, n.UpdatedAt, n.ProvSession, n.Body = id, typ, title, project, scope, c.updated, provSession, body
		n.Tags = strings.Fields(tags) // the index keeps them as words
		if team == "" {
			c.hit.indexed = n // a team's note is read from its file, for its author
		} else {
			c.hit.screened = screenedText(typ, project, title, body)
			s.indexedAs(&c.hit.file, filed)
		}
		c.session = sessionKey(id, project, provSession, tags)
		q.count(c, colTitle, title)
		q.count(c, colBody, body)
		q.count(c, colTags, tags)
		cands = append(cands, c)
	}
	return cands, rows.Err()
}

// poolSQL is pool's query: FTS5 walks the postings of match (pruning bounds
// how many: workBudget), each is joined to its note, which f judges, and
// the best limit by bm25 are kept (a LIMIT sort holds at most limit rows)
// and read, their text from FTS5's content table itself (c1, c2, c3: title,
// body, tags), which the full-text table would read for them through a
// statement of its own. In a slotted index (s.slotted, projectSlots) f's projects are
// rowid ranges: FTS5 reads only the part of each term's postings in each
// project's range, one range after the other, so other projects' notes
// cost nothing. Rows from before the slots (slot 0, when legacy) and an
// index without them test f's projects on each match before its note is
// read: a probe of idx_mem_project at (project, rowid) per project touches
// only the few pages of the project's part of that narrow index, where
// reading every match's row of memories touched a page of that wide table
// per match. Without that index (projectIndex false: made by an earlier
// version and not yet opened by a writer) the probe is of idx_mem_scope,
// once for each type and scope the schema allows. The probe's LIMIT 1
// keeps SQLite from turning the EXISTS into a join, which its planner
// places after the read of the note's row.
func poolSQL(match string, f Filter, limit int, p rankParams, ix indexShape) (string, []any) {
	var args []any
	// arm selects the matches in rows, a condition on memories_fts.rowid
	// (with its arguments), with their ranking; in a project's slot
	// (project not ""), its range read from project_slots by a join,
	// which SQLite compiles faster than two scalar subqueries.
	arm := func(project, rows string, rowArgs []any, probe bool) string {
		args = append(args, p.title, p.tags)
		from := "memories_fts"
		where := "memories_fts MATCH ?"
		if project != "" {
			from = "project_slots ps CROSS JOIN memories_fts"
			where = "ps.project = ? AND " + where
			args = append(args, project)
		}
		args = append(args, match)
		args = append(args, rowArgs...)
		q := `SELECT m.rowid AS r, bm25(memories_fts, 0, ?, 1, ?) AS s, m.updated_at AS u
		FROM ` + from + ` CROSS JOIN memories m ON m.rowid = memories_fts.rowid
		WHERE ` + where + rows
		if probe && f.Project != "" {
			ps := f.projects()
			for _, x := range ps {
				args = append(args, x)
			}
			in := `p.project IN (?` + strings.Repeat(",?", len(ps)-1) + `)`
			if ix.projectIndex {
				q += ` AND EXISTS (SELECT 1 FROM memories p INDEXED BY idx_mem_project WHERE ` + in + ` AND p.rowid = memories_fts.rowid LIMIT 1)`
			} else {
				q += ` AND EXISTS (SELECT 1 FROM memories p INDEXED BY idx_mem_scope WHERE ` + in + `
				AND p.type IN ('` + strings.Join(note.Types, "','") + `') AND p.scope IN ('` + strings.Join(note.Scopes, "','") + `')
				AND p.rowid = memories_fts.rowid LIMIT 1)`
			}
		}
		return q + f.where(&args) + `
		AND m.id NOT IN (SELECT target FROM superseded)`
	}
	var from string
	if !ix.slotted || f.Project == "" {
		from = arm("", "", nil, true)
	} else {
		var arms []string
		if ix.legacy {
			arms = append(arms, arm("", " AND memories_fts.rowid < ?", []any{slotSize}, true))
		}
		for _, x := range f.projects() {
			arms = append(arms, arm(x, " AND memories_fts.rowid BETWEEN (ps.slot << 32) AND (ps.slot << 32) + ?", []any{slotSize - 1}, false))
		}
		from = strings.Join(arms, "\n\t\tUNION ALL ")
	}
	sq := `WITH top AS (SELECT r FROM (` + from + `)
		ORDER BY s, u DESC` + limitClause(limit) + `)
		SELECT m.id, m.scope, m.body_path, m.type, m.updated_at, m.project, coalesce(m.prov_session, ''), x.c1, x.c2, x.c3,
			m.machine_id, m.created_at, m.prov_source, coalesce(m.prov_model, ''), m.confidence, coalesce(m.team, ''),
			CASE WHEN m.team <> '' THEN (SELECT size || ' ' || mtime || ' ' || path FROM files WHERE id = m.id AND error IS NULL) ELSE '' END
		FROM top JOIN memories m ON m.rowid = top.r JOIN memories_fts_content x ON x.id = top.r`
	return sq, args
}

// indexShape is what an index made by an earlier version may lack, which
// poolSQL works around.
type indexShape struct {
	projectIndex bool // idx_mem_project exists
	slotted      bool // project_slots exists
	legacy       bool // rows of slot 0 may exist
}

// score sets each candidate's score: its own BM25 (questions discounted)
// plus sessionWeight times its session's (questions counted fully).
func (p rankParams) score(cands []*cand, q *query) {
	bm25 := func(counts [][4]float64, asked float64) float64 {
		var sum float64
		for t, v := range counts {
			body := v[colBody] - (1-asked)*v[colAsked]
			if w := p.title*v[colTitle] + body + p.tags*v[colTags]; w > 0 {
				sum += q.idf[t] * w * (p.k1 + 1) / (w + p.k1)
			}
		}
		return sum
	}
	// A session's counts are its candidates' added up.
	type session struct {
		counts [][4]float64
		n      int
	}
	sessions := map[string]*session{}
	for _, c := range cands {
		s := sessions[c.session]
		if s == nil {
			s = &session{counts: make([][4]float64, len(q.terms))}
			sessions[c.session] = s
		}
		s.n++
		for t, v := range c.tf {
			for col := range v {
				s.counts[t][col] += v[col]
			}
		}
	}
	sessScore := map[string]float64{}
	for key, s := range sessions {
		if s.n > 1 {
			sessScore[key] = bm25(s.counts, 1)
		}
	}
	for _, c := range cands {
		own := bm25(c.tf, p.question)
		if sessions[c.session].n == 1 {
			c.score = own + p.session*own // a session of its own
		} else {
			c.score = own + p.session*sessScore[c.session]
		}
	}
}

// sessionKey names the conversation a note belongs to: its prov_session,
// else its first tag "session" followed by '_', '-' or ':' and more (within
// its project: such tags are numbered per project), else the note alone.
func sessionKey(id, project, provSession, tags string) string {
	if provSession != "" {
		return "s\x00" + provSession
	}
	for _, t := range strings.Fields(tags) {
		if len(t) > 8 && strings.EqualFold(t[:7], "session") && strings.ContainsRune("_-:", rune(t[7])) {
			return "t\x00" + project + "\x00" + t
		}
	}
	return "n\x00" + id
}

// docCount is the number of notes in the index, from FTS5's own averages
// record (a varint row count, then a token total per column); a reader has
// it from its open (readerReady).
func (s *Store) docCount(ctx context.Context) (float64, error) {
	if s.known != nil {
		return s.known.rows, nil
	}
	var block []byte
	if err := s.db.QueryRowContext(ctx, averagesSQL).Scan(&block); err != nil {
		return 0, err
	}
	return ftsRows(block), nil
}

// averagesSQL reads FTS5's averages record.
const averagesSQL = "SELECT block FROM memories_fts_data WHERE id = 1"

// ftsRows is the row count of FTS5's averages record, at least 1.
func ftsRows(averages []byte) float64 {
	n, _ := ftsVarint(averages)
	return float64(max(n, 1))
}

// ftsVarint decodes SQLite's big-endian varint (FTS5 records use it).
func ftsVarint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < len(b) && i < 9; i++ {
		if i == 8 {
			return v<<8 | uint64(b[i]), 9
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// idfs returns FTS5's IDF, log((N - df + 0.5) / (df + 0.5)) floored at a
// millionth, for each term a candidate holds (held): N and the dfs as
// pruning read them from meta and term_df (else read here); a term new
// since term_df was computed, from the vocabulary table.
func (s *Store) idfs(ctx context.Context, terms []string, held []bool, pl plan) ([]float64, error) {
	docs := float64(pl.docs)
	if docs <= 0 {
		n, err := s.docCount(ctx)
		if err != nil {
			return nil, err
		}
		docs = n
	}
	df := map[string]float64{}
	var args []any
	for i, t := range terms {
		if n, ok := pl.df[t]; ok {
			df[t] = float64(n)
		} else if held[i] {
			args = append(args, t)
		}
	}
	queries := []string{"SELECT term, df FROM term_df WHERE term IN ", "SELECT term, doc FROM memories_vocab WHERE term IN "}
	if pl.df != nil { // pruning looked in term_df already
		queries = queries[1:]
	}
	for _, q := range queries {
		if len(args) == 0 {
			break
		}
		rows, err := s.db.QueryContext(ctx, q+"(?"+strings.Repeat(",?", len(args)-1)+")", args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var t string
			var n float64
			if err := rows.Scan(&t, &n); err != nil {
				rows.Close()
				return nil, err
			}
			df[t] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		args = args[:0]
		for i, t := range terms {
			if _, ok := df[t]; !ok && held[i] {
				args = append(args, t)
			}
		}
	}
	out := make([]float64, len(terms))
	for i, t := range terms {
		out[i] = max(math.Log((docs-df[t]+0.5)/(df[t]+0.5)), 1e-6)
	}
	return out, nil
}
