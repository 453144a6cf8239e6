package store

import (
	"context"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// What per-prompt recall (SPEC 15) needs from the index besides Search: how
// rare each word of a prompt is, which of them a hit really holds, and which
// notes reached the index after a point in time (a background pull).

// Term is one distinct word of a query with its document frequency: in a
// store of pruneMinDocs notes or more from term_df (0 for a term new since
// its figures were computed), in a smaller one counted (cheap there, and
// term_df may lag behind a young store's growth).
type Term struct {
	Word string
	DF   int
	// Absent marks a word no note holds (after prefix matching, see
	// resolve): it tells nothing about any note.
	Absent bool
	// Also are identifiers the notes hold that have this word among
	// theirs, and another word of the query ("retry policy":
	// retrypolicy): a note holding one of them holds the word (Holds
	// counts it so), and DF counts their notes too.
	Also []string
}

// QueryTerms returns the distinct words of query (as our ranking splits
// them: Words, resolve) with their document frequencies, and how many
// notes the index holds.
func (s *Store) QueryTerms(ctx context.Context, query string) ([]Term, int, error) {
	// FTS5's own row count: one small record, where count(*) would read
	// a whole index of the memories table.
	n, err := s.docCount(ctx)
	if err != nil {
		return nil, 0, err
	}
	docs := int(n)
	words, absent, also, err := s.resolve(ctx, Words(query))
	if err != nil {
		return nil, 0, err
	}
	if len(words) > maxTerms {
		words = words[:maxTerms]
	}
	if len(words) == 0 {
		return nil, docs, nil
	}
	// The frequencies of the words and of their identifiers, in one go.
	tokens := slices.Clone(words)
	for _, w := range words {
		tokens = append(tokens, also[w]...)
	}
	tokens = dedupe(tokens)
	var df []int
	if docs >= pruneMinDocs {
		// The exact figures, not pruning's (which counts every word in at
		// most 1% of the notes as 0): recall weighs words by how rare they
		// really are.
		var dfOf map[string]int
		if _, dfOf, err = s.docFreqs(ctx, tokens, s.dfDocs(ctx)); err == nil {
			df = make([]int, len(tokens))
			for i, t := range tokens {
				for _, x := range ftsTerms(t) {
					df[i] = max(df[i], dfOf[x])
				}
			}
		}
	} else {
		df, err = s.countDocs(ctx, tokens)
	}
	if err != nil {
		return nil, 0, err
	}
	dfOf := map[string]int{}
	for i, t := range tokens {
		dfOf[strings.ToLower(t)] = df[i]
	}
	out := make([]Term, len(words))
	for i, w := range words {
		out[i] = Term{Word: w, DF: df[i], Absent: absent[w], Also: also[w]}
		for _, x := range also[w] {
			out[i].DF = min(out[i].DF+dfOf[x], docs)
		}
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

// Holds returns, for each note, the words (a subset of words, same order)
// it holds in its title, body or tags, split, folded and stemmed the way the
// index does it (FTS5's porter unicode61, ported in stem.go), so a word is
// held exactly when a search for it would match the note's current text;
// a word is also held where one of also[word] is (Term.Also). Computed
// from the notes themselves: no query.
func Holds(notes []*note.Note, words []string, also map[string][]string) map[string][]string {
	out := map[string][]string{}
	if len(notes) == 0 || len(words) == 0 {
		return out
	}
	all := slices.Clone(words)
	for _, w := range words {
		all = append(all, also[w]...)
	}
	q := newQuery(all)
	for _, n := range notes {
		c := &cand{tf: make([][4]float64, len(q.terms))}
		q.count(c, colTitle, n.Title)
		q.count(c, colBody, n.Body)
		q.count(c, colTags, strings.Join(n.Tags, " "))
		holds := func(w string) bool {
			terms := ftsTerms(w)
			held := len(terms) > 0
			for _, t := range terms {
				v := c.tf[q.index[t]]
				held = held && v[colTitle]+v[colBody]+v[colTags] > 0
			}
			return held
		}
		for _, w := range words {
			if holds(w) || slices.ContainsFunc(also[w], holds) {
				out[n.ID] = append(out[n.ID], w)
			}
		}
	}
	return out
}

// Watermark marks the index's present state: every note (re)indexed later,
// by a pull, an edit or a new capture, gets a higher sequence number in its
// rowid (an index row is replaced, never updated in place; see
// projectSlots).
func (s *Store) Watermark(ctx context.Context) (int64, error) {
	var m int64
	err := s.db.QueryRowContext(ctx, `SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'rowseq'),
		(SELECT coalesce(max(rowid), 0) FROM memories WHERE rowid < ?))`, slotSize).Scan(&m)
	return m, err
}

// Unslotted counts the notes indexed before the index had project slots
// (see projectSlots): a search in a project still tests each of them for
// its project. A full rebuild slots them all.
func (s *Store) Unslotted(ctx context.Context) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM memories WHERE rowid < ?", slotSize).Scan(&n)
	return n, err
}

// sinceRanges is the condition selecting the notes of projects
// (re)indexed after mark in a slotted index: for each project, its rows
// past mark in its slot, and in slot 0 (an index's rows from before its
// slots), each a range of idx_mem_project.
func sinceRanges(mark int64, projects []string, args *[]any) string {
	var terms []string
	for _, p := range projects {
		terms = append(terms, "m.project = ? AND m.rowid BETWEEN ? AND ?",
			"m.project = ? AND m.rowid > "+slotStart+" + ?")
		*args = append(*args, p, mark+1, slotSize-1, p, p, mark)
	}
	return "(" + strings.Join(terms, " OR ") + ")"
}

// IndexedSince lists the notes of the given projects (re)indexed after
// mark, newest first, superseded ones and the global notes of
// hideGlobalOfTeams left out, without bodies.
func (s *Store) IndexedSince(ctx context.Context, mark int64, projects, hideGlobalOfTeams []string, limit int) ([]*note.Note, error) {
	if len(projects) == 0 {
		return []*note.Note{}, nil
	}
	q, args := sinceSQL(mark, projects, hideGlobalOfTeams, limit, s.slotted)
	return s.queryMeta(ctx, q, args)
}

// sinceSQL is IndexedSince's query.
func sinceSQL(mark int64, projects, hideGlobalOfTeams []string, limit int, slotted bool) (string, []any) {
	var args []any
	where := ""
	if slotted {
		where = sinceRanges(mark, projects, &args)
	} else {
		where = "m.rowid > ? AND m.project IN (?" + strings.Repeat(",?", len(projects)-1) + ")"
		args = append(args, mark)
		for _, p := range projects {
			args = append(args, p)
		}
	}
	q := "SELECT " + metaCols + " FROM memories m JOIN files f ON f.id = m.id AND f.error IS NULL WHERE " + where
	q += hideGlobalOf(hideGlobalOfTeams, &args)
	q += " AND m.id NOT IN " + heldIDs + " AND m.id NOT IN (SELECT target FROM superseded) ORDER BY m.updated_at DESC, m.id DESC" + limitClause(max(limit, 1))
	return q, args
}
