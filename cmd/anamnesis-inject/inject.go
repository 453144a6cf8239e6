package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Seed 001's selection constants (inject.py).
const (
	maxEpisodic = 2
	header      = "# Anamnesis memory (auto-injected)"
	// listPage is how many project notes are read per query; a project
	// holds thousands of notes but only k durable and 2 episodic are used.
	listPage = 64
)

// selection is seed 001's select_inject, read lazily: every global note
// (newest first), then up to k project notes of which up to 2 are the most
// recent episodics; superseded notes and reflected episodics are excluded
// everywhere; no note appears twice. Global notes are read a page at a time
// because a large store has thousands and only the first few fit the output
// budget; the rest are counted, not read.
type selection struct {
	ctx        context.Context
	st         *store.Store
	keep       func(*note.Note) bool
	total      int          // notes in the whole selection
	project    []*note.Note // the project's part, chosen up front (k+2 at most)
	page       []*note.Note // current page of global notes
	off        int          // offset of the next global page
	globalDone bool
}

// globalPage is how many global notes are read per query.
const globalPage = 32

func newSelection(ctx context.Context, st *store.Store, project string, k int) (*selection, error) {
	superseded, err := st.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	sel := &selection{ctx: ctx, st: st, keep: func(n *note.Note) bool {
		return !superseded[n.ID] && !(n.Type == note.Episodic && n.HasTag("reflected"))
	}}
	globals, err := st.CountInjectable(ctx, note.Global)
	if err != nil {
		return nil, err
	}
	// For the global project itself the project pools hold only global
	// notes, all already selected: the seed's de-duplication drops them.
	if project != note.Global {
		durable, episodic, err := projectPools(ctx, st, project, max(k, 0), sel.keep)
		if err != nil {
			return nil, err
		}
		k = max(k, 0)
		reserve := min(len(episodic), k)
		sel.project = append(durable[:min(len(durable), k-reserve)], episodic[:reserve]...)
	}
	sel.total = globals + len(sel.project)
	return sel, nil
}

// next returns the next selected note (metadata only), nil at the end.
func (s *selection) next() (*note.Note, error) {
	for {
		for len(s.page) > 0 {
			n := s.page[0]
			s.page = s.page[1:]
			if s.keep(n) {
				return n, nil
			}
		}
		if s.globalDone {
			break
		}
		page, err := s.st.List(s.ctx, store.Filter{Project: note.Global, Limit: globalPage, Offset: s.off})
		if err != nil {
			return nil, err
		}
		s.off += len(page)
		s.page = page
		s.globalDone = len(page) < globalPage
	}
	if len(s.project) == 0 {
		return nil, nil
	}
	n := s.project[0]
	s.project = s.project[1:]
	return n, nil
}

// all drains the selection (tests, and callers that want the whole list).
func (s *selection) all() ([]*note.Note, error) {
	var out []*note.Note
	for {
		n, err := s.next()
		if err != nil || n == nil {
			return out, err
		}
		out = append(out, n)
	}
}

// projectPools reads the project's notes newest first, a page at a time,
// until it holds k durable notes, 2 episodics, and every note tied on
// updated_at with the k-th durable one (confidence breaks those ties).
func projectPools(ctx context.Context, st *store.Store, project string, k int, keep func(*note.Note) bool) (durable, episodic []*note.Note, err error) {
	for off := 0; ; off += listPage {
		page, err := st.List(ctx, store.Filter{Project: project, Limit: listPage, Offset: off})
		if err != nil {
			return nil, nil, err
		}
		for _, n := range page {
			if !keep(n) {
				continue
			}
			switch n.Type {
			case note.Procedural, note.Semantic:
				durable = append(durable, n)
			case note.Episodic:
				if len(episodic) < maxEpisodic {
					episodic = append(episodic, n)
				}
			}
		}
		if len(page) < listPage {
			break
		}
		last := page[len(page)-1].UpdatedAt
		if len(episodic) >= maxEpisodic && len(durable) >= k && (k == 0 || last < durable[k-1].UpdatedAt) {
			break
		}
	}
	// Recency first, then confidence; stable, so full ties keep list order.
	slices.SortStableFunc(durable, func(a, b *note.Note) int {
		if c := strings.Compare(b.UpdatedAt, a.UpdatedAt); c != 0 {
			return c
		}
		switch {
		case a.Confidence > b.Confidence:
			return -1
		case a.Confidence < b.Confidence:
			return 1
		}
		return 0
	})
	return durable, episodic, nil
}

// section renders one note the way the seed's render_inject does.
func section(n *note.Note) string {
	meta := "_project: " + n.Project + " | origin: " + n.MachineID
	if n.ProvSource != note.ProvHuman || n.Confidence < 1.0 {
		meta += " | source: " + n.ProvSource + " (confidence " + pyG(n.Confidence) + ")"
	}
	return "## [" + n.Type + "] " + n.Title + "\n" + meta + "_\n\n" + strings.TrimSpace(n.Body)
}

// pyG formats like Python's "%g": six significant digits, no trailing zeros.
func pyG(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// width counts characters the way Claude Code (JavaScript) measures hook
// output: UTF-16 code units, so a budget in characters is never overrun.
func width(s string) int {
	n := 0
	for _, r := range s { // ranging yields only valid runes (bad bytes become U+FFFD)
		n += utf16.RuneLen(r)
	}
	return n
}

// loader returns a selected note with its body, read from its file; ok is
// false when the file has gone (the note is then left out).
type loader func(n *note.Note) (*note.Note, bool)

// render builds the block: the seed's bytes when they fit in maxChars (or
// maxChars is 0), otherwise the budgeted block of SPEC 4. It reads bodies
// only for notes it may print. cut and left count truncated and omitted notes.
func render(sel *selection, load loader, maxChars int) (block string, cut, left int, err error) {
	var secs []rendered
	total := width(header) + 1 // the final newline
	for {
		n, err := sel.next()
		if err != nil {
			return "", 0, 0, err
		}
		if n == nil {
			break
		}
		r := rendered{id: n.ID}
		if full, ok := load(n); ok {
			r.text = section(full)
		}
		secs = append(secs, r)
		if r.text == "" {
			continue
		}
		total += 2 + width(r.text)
		if maxChars > 0 && total > maxChars {
			return budgeted(sel, secs, load, maxChars)
		}
	}
	if !slices.ContainsFunc(secs, func(r rendered) bool { return r.text != "" }) {
		return "", 0, 0, nil // the seed prints nothing for an empty selection
	}
	return join(secs), 0, 0, nil
}

// rendered is one note's section; text is "" when its file has gone.
type rendered struct{ id, text string }

func join(secs []rendered) string {
	var b strings.Builder
	b.WriteString(header)
	for _, r := range secs {
		if r.text != "" {
			b.WriteString("\n\n")
			b.WriteString(r.text)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// minRoom is the least room worth trying to fill with another note.
const minRoom = 160

// budgeted fills maxChars in priority order (the selection's order: globals
// newest first, durable project notes, episodics), cutting the first note
// that does not fit whole at a line boundary and leaving out what does not
// fit at all, then ends with a line counting what was left out. secs are
// the sections already rendered, in order; the rest come from sel.
func budgeted(sel *selection, secs []rendered, load loader, maxChars int) (string, int, int, error) {
	closingReserve := 2 + width(closing(sel.total, maxChars))
	room := maxChars - width(header) - 1 - closingReserve
	if room < 0 {
		return "", 0, sel.total, nil
	}
	var kept []rendered
	cut, gone := 0, 0
	for i := 0; room >= minRoom; i++ {
		var r rendered
		if i < len(secs) {
			r = secs[i]
		} else {
			n, err := sel.next()
			if err != nil {
				return "", 0, 0, err
			}
			if n == nil {
				break
			}
			r.id = n.ID
			if full, ok := load(n); ok {
				r.text = section(full)
			}
		}
		if r.text == "" { // file gone: nothing to show, nothing to count
			gone++
			continue
		}
		if w := 2 + width(r.text); w <= room {
			kept = append(kept, r)
			room -= w
			continue
		}
		if t, ok := truncate(r.text, r.id, room-2); ok {
			kept = append(kept, rendered{id: r.id, text: t})
			room -= 2 + width(t)
			cut++
		}
	}
	left := max(sel.total-gone-len(kept), 0)
	out := strings.TrimSuffix(join(kept), "\n") + "\n\n" + closing(left, maxChars) + "\n"
	return out, cut, left, nil
}

// truncMarker ends a note cut to fit (SPEC 4's wording).
func truncMarker(id string) string {
	return "… (truncated; full note: memory_search or `anamnesis get " + id + "`)"
}

// truncate keeps the longest run of whole lines of s that, with the marker,
// fits in room. The heading and origin lines must fit with at least one line
// of body; a body whose first line alone is too long is cut at a word.
func truncate(s, id string, room int) (string, bool) {
	marker := truncMarker(id)
	lines := strings.Split(s, "\n")
	if len(lines) < 4 { // heading, origin, blank, body
		return "", false
	}
	used := width(marker)
	n := 0
	for j, l := range lines {
		if used+width(l)+1 > room {
			break
		}
		used += width(l) + 1
		n = j + 1
	}
	if n >= 4 {
		kept := lines[:n]
		for len(kept) > 3 && strings.TrimSpace(kept[len(kept)-1]) == "" {
			kept = kept[:len(kept)-1]
		}
		return strings.Join(kept, "\n") + "\n" + marker, true
	}
	if n < 3 {
		return "", false
	}
	// Only heading, origin and the blank line fit whole: cut the first body
	// line at the last space that fits, so the note still says something.
	rest := room - used - 1 - 1 // the body line's newline and the ellipsis
	if rest < 40 {
		return "", false
	}
	line := lines[3]
	cutAt, w := 0, 0
	for j, r := range line {
		w += max(utf16.RuneLen(r), 1)
		if w > rest {
			break
		}
		if r == ' ' {
			cutAt = j
		}
	}
	if cutAt == 0 {
		return "", false
	}
	return strings.Join(lines[:3], "\n") + "\n" + line[:cutAt] + "…\n" + marker, true
}

// closing is the last line of a budgeted block.
func closing(left, maxChars int) string {
	return fmt.Sprintf("_(%d more %s left out to keep this block under %s characters; "+
		"find them with memory_search or `anamnesis list`.)_", left, plural(left, "note", "notes"), thousands(maxChars))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
