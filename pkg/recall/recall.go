// Package recall is per-prompt recall (SPEC 15), the UserPromptSubmit
// hook's logic: the notes a prompt is about, chosen without a model by the
// store's own search plus a relevance floor (Find), rendered within a small
// budget (Render), and, on a session's first prompt, the notes a background
// pull indexed after its SessionStart block (Prompt). What a session was
// shown and the injection trace are pkg/session's.
package recall

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Heading starts recall's output; ArrivedHeading starts the part of a
// session's first recall that carries notes a background pull brought in
// after the SessionStart block was rendered.
const (
	Heading        = "# Anamnesis: notes related to this prompt"
	ArrivedHeading = "# Anamnesis: notes synced since this session started"
)

// MaxNotes is the most notes one prompt gets.
const MaxNotes = 3

// Floor is the relevance floor a hit must clear to be shown: it must hold
// at least MinWords informative prompt words, or one rare one. A word is
// informative when it is not a function word and is in at most Common of
// the notes; rare when it is in at most Rare of them. Shares mean
// little in a small store: below judgeCommon notes no word is too common
// (the function-word list does that work), below judgeRare none is rare.
type Floor struct {
	MinWords int
	Common   float64
	Rare     float64
	// Coverage is the least share of the prompt's informative weight
	// (summed inverse document frequency) the note must hold.
	Coverage float64
}

// DefaultFloor is the floor the hook uses: two informative words or one
// rare one, holding half the prompt's weight. It was chosen on the LoCoMo
// dev set used as prompts, where Coverage is what tells on-topic prompts
// from off-topic ones (figures: docs/performance.md).
var DefaultFloor = Floor{MinWords: 2, Common: 0.1, Rare: 0.01, Coverage: 0.5}

// passable reports whether words, informative prompt words a note holds,
// are enough for f: MinWords of them, or one rare one. A prompt's words
// that are not cannot be enough for any note, which holds at most those.
func (f Floor) passable(words []string, rare map[string]bool) bool {
	return len(words) >= f.MinWords || slices.ContainsFunc(words, func(w string) bool { return rare[w] })
}

const (
	judgeCommon = 50
	judgeRare   = 100
)

// maxWords bounds the words of a long prompt (a pasted log) that are
// checked; the rarest are kept.
const maxWords = 24

// perPool is how many hits the search yields at most from each of the
// project and the global notes: as many as are shown.
const perPool = 3

// Candidate is a hit that cleared the floor.
type Candidate struct {
	Note *note.Note
	// Words are the informative prompt words the note holds.
	Words []string
	Score float64 // summed inverse document frequency of Words
}

// Find searches prompt in project's notes and the global ones (one search,
// at most perPool hits from each) and returns the
// hits that clear floor, best score first (equal scores keep the search's
// order, project first), leaving out the notes skip reports (already in the
// session's context). The global notes of a team whose --projects globs
// do not match project are not searched (config.HiddenGlobal, as inject).
// A nil skip keeps every hit. Each note is as the
// index holds it (store.Hit.Indexed), body included, which is what
// Render shows; supersedes is empty.
func Find(ctx context.Context, st *store.Store, prompt, project string, floor Floor, skip func(n *note.Note) bool) ([]Candidate, error) {
	var hidden []string
	if f, _ := config.Load(st.Home()); f != nil {
		hidden = config.HiddenGlobal(f.Teams(), project)
	}
	return find(ctx, st, prompt, project, hidden, floor, skip)
}

// find is Find with the teams whose global notes are hidden already known
// (Prompt has the configuration read: config.json is not read again).
func find(ctx context.Context, st *store.Store, prompt, project string, hidden []string, floor Floor, skip func(n *note.Note) bool) ([]Candidate, error) {
	terms, docs, err := st.QueryTerms(ctx, prompt)
	if err != nil || docs == 0 {
		return nil, err
	}
	idf := map[string]float64{}
	rare := map[string]bool{}
	also := map[string][]string{}
	var words, search []string
	slices.SortStableFunc(terms, func(a, b store.Term) int { return a.DF - b.DF })
	for _, t := range terms {
		if !t.Absent {
			search = append(search, t.Word)
		}
		// A word no note holds tells nothing about a note: it must not
		// count against the floor (SPEC 15).
		if t.Absent || stopWord(t.Word) || (docs >= judgeCommon && float64(t.DF) > floor.Common*float64(docs)) || len(words) == maxWords {
			continue
		}
		words = append(words, t.Word)
		also[t.Word] = t.Also
		idf[t.Word] = math.Log(float64(docs+1) / float64(t.DF+1))
		rare[t.Word] = docs >= judgeRare && float64(t.DF) <= floor.Rare*float64(docs)
	}
	if len(words) == 0 || !floor.passable(words, rare) {
		// No note could clear the floor: it holds at most these words.
		return nil, nil
	}
	weight := 0.0
	for _, w := range words {
		weight += idf[w]
	}
	pools := []string{project}
	if project != note.Global {
		pools = append(pools, note.Global)
	}
	// One search over both pools, at most perPool hits from each, project
	// first. It is the prompt's search, as `anamnesis search` would run it
	// (every word the store holds, common ones and names included: the
	// ranking weighs them), while the floor judges by the informative words.
	found, err := st.Search(ctx, store.Query{Text: strings.Join(search, " "), Filter: store.Filter{Project: project, AndGlobal: true, Teams: true, HideGlobalOf: hidden}, K: perPool * len(pools)})
	if err != nil {
		return nil, err
	}
	// A note saying what another says (a note shared with a team is in the
	// team's store too, title and body alike) is shown once: the person's
	// own, else the first; and not at all when skip left the other out
	// (already in the session's context).
	xs, keys := make([]*note.Note, len(found)), make([]string, len(found))
	gone := map[string]bool{}
	for i, h := range found {
		// Read where the ranking did not keep the note; a file removed
		// since indexing is left out.
		x, err := h.Indexed()
		if err != nil {
			continue
		}
		keys[i] = x.TextKey()
		if skip != nil && skip(x) {
			gone[keys[i]] = true
			continue
		}
		xs[i] = x
	}
	var hits []*note.Note
	said := map[string]int{}
	for _, p := range pools {
		n := 0
		for i, h := range found {
			x := xs[i]
			if x == nil || h.Project != p || n == perPool || gone[keys[i]] {
				continue
			}
			if j, ok := said[keys[i]]; ok {
				if hits[j].Team != "" && x.Team == "" {
					hits[j] = x
				}
				continue
			}
			said[keys[i]] = len(hits)
			hits = append(hits, x)
			n++
		}
	}
	held := store.Holds(hits, words, also)
	var out []Candidate
	for _, h := range hits {
		c := Candidate{Note: h, Words: held[h.ID]}
		for _, w := range c.Words {
			c.Score += idf[w]
		}
		if floor.passable(c.Words, rare) && c.Score >= floor.Coverage*weight {
			out = append(out, c)
		}
	}
	// Stable: equal scores keep the search's order, project first.
	slices.SortStableFunc(out, func(a, b Candidate) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out, nil
}

// distinct keeps one of the notes of ns that say the same thing
// (note.TextKey), where the first of them stood: the person's own over a
// team's copy, else the first.
func distinct(ns []*note.Note) []*note.Note {
	at := map[string]int{}
	var out []*note.Note
	for _, n := range ns {
		k := n.TextKey()
		if i, ok := at[k]; ok {
			if out[i].Team != "" && n.Team == "" {
				out[i] = n
			}
			continue
		}
		at[k] = len(out)
		out = append(out, n)
	}
	return out
}

// Render prints arrived notes (under ArrivedHeading) and related ones
// (under Heading), at most MaxNotes in all, within maxChars UTF-16 units,
// each note cut at a line or word boundary to its share of the budget. It
// returns the text and the ids it shows ("" and nil when none fits).
func Render(arrived, related []*note.Note, maxChars int) (string, []string) {
	type part struct {
		heading string
		notes   []*note.Note
	}
	parts := []part{{ArrivedHeading, arrived}, {Heading, related}}
	total := 0
	for i := range parts {
		parts[i].notes = parts[i].notes[:min(len(parts[i].notes), MaxNotes-total)]
		total += len(parts[i].notes)
	}
	var b strings.Builder
	var ids []string
	room := maxChars - 1 // the final newline
	left := total
	for _, p := range parts {
		wroteHeading := false
		for _, n := range p.notes {
			share := room / left
			left--
			head := ""
			if !wroteHeading {
				head = p.heading + "\n\n"
				if b.Len() > 0 {
					head = "\n\n" + head
				} else {
					head = p.heading + "\n" + screen.Notice + "\n\n"
				}
			} else {
				head = "\n\n"
			}
			sec, ok := section(n, share-hook.Width(head))
			if !ok {
				continue
			}
			b.WriteString(head + sec)
			room -= hook.Width(head + sec)
			wroteHeading = true
			ids = append(ids, n.ID)
		}
	}
	if len(ids) == 0 {
		return "", nil
	}
	return b.String() + "\n", ids
}

// cutMarker ends a note cut to fit.
func cutMarker(id string) string {
	return "… (cut; full note: memory_get or `anamnesis get " + id + "`)"
}

// section renders one note within room: heading, origin line, body (cut at
// a line, else a word, boundary when it does not fit whole).
func section(n *note.Note, room int) (string, bool) {
	title := n.Title
	if a := n.Attribution(); a != "" {
		title += " " + a
	}
	head := "## [" + n.Type + "] " + title + "\n_project: " + n.Project + " | origin: " + n.MachineID + " | id: " + n.ID + "_\n\n"
	body := strings.TrimSpace(n.Body)
	if hook.Width(head+body) <= room {
		return head + body, true
	}
	marker := cutMarker(n.ID)
	avail := room - hook.Width(head) - hook.Width(marker) - 1
	if avail < 40 {
		return "", false
	}
	// Whole lines first; a first line too long is cut at a word.
	kept, w := 0, 0
	for i, r := range body {
		w += hook.Width(string(r))
		if w > avail {
			break
		}
		kept = i + len(string(r))
	}
	cut := body[:kept]
	if i := strings.LastIndexByte(cut, '\n'); i > len(cut)/2 {
		cut = cut[:i]
	} else if i := strings.LastIndexAny(cut, " \t\n"); i > 0 {
		cut = cut[:i]
	}
	return head + strings.TrimRight(cut, " \t\n") + "\n" + marker, true
}

// stopWord reports the words a prompt is made of that name nothing: the
// store's function words (store.StopWord) and promptWords. In a small store
// they are in too few notes for their frequency alone to show they carry
// nothing.
func stopWord(w string) bool { return store.StopWord(w) || promptWords[strings.ToLower(w)] }

// Informative reports whether prompt has a word that is not a stop word:
// without one there is nothing to search for ("yes", "ok, do it").
func Informative(prompt string) bool {
	for _, w := range store.Tokens(prompt) {
		if !stopWord(w) {
			return true
		}
	}
	return false
}

// promptWords are what people type around a request ("please", "can
// you show me", "thanks"), and the function words the store's list lacks.
var promptWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`cannot let us also get got make made use used using want need like
		know think tell show give thing things way yes ok okay hi hello thanks thank please`) {
		m[w] = true
	}
	return m
}()
