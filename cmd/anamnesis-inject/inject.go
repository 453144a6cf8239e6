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

// selectNotes is seed 001's select_inject: every global note (newest first),
// then up to k project notes of which up to 2 are the most recent episodics;
// superseded notes and reflected episodics are excluded everywhere; the
// result is de-duplicated by id. Returned notes carry metadata, not bodies.
func selectNotes(ctx context.Context, st *store.Store, project string, k int) ([]*note.Note, error) {
	superseded, err := st.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	keep := func(n *note.Note) bool {
		return !superseded[n.ID] && !(n.Type == note.Episodic && n.HasTag("reflected"))
	}
	globals, err := st.List(ctx, store.Filter{Project: note.Global})
	if err != nil {
		return nil, err
	}
	out := slices.DeleteFunc(globals, func(n *note.Note) bool { return !keep(n) })
	if k < 0 {
		k = 0
	}
	durable, episodic, err := projectPools(ctx, st, project, k, keep)
	if err != nil {
		return nil, err
	}
	reserve := min(len(episodic), k)
	durable = durable[:min(len(durable), k-reserve)]
	seen := make(map[string]bool, len(out))
	for _, n := range out {
		seen[n.ID] = true
	}
	for _, n := range append(durable, episodic[:reserve]...) {
		if !seen[n.ID] {
			seen[n.ID] = true
			out = append(out, n)
		}
	}
	return out, nil
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
func render(sel []*note.Note, load loader, maxChars int) (block string, cut, left int) {
	if len(sel) == 0 {
		return "", 0, 0
	}
	var secs []string
	total := width(header) + 1 // the final newline
	i := 0
	for ; i < len(sel); i++ {
		n, ok := load(sel[i])
		if !ok {
			secs = append(secs, "")
			continue
		}
		s := section(n)
		secs = append(secs, s)
		total += 2 + width(s)
		if maxChars > 0 && total > maxChars {
			break
		}
	}
	if i == len(sel) {
		return join(secs), 0, 0
	}
	return budgeted(sel, secs, load, maxChars)
}

func join(secs []string) string {
	var b strings.Builder
	b.WriteString(header)
	for _, s := range secs {
		if s != "" {
			b.WriteString("\n\n")
			b.WriteString(s)
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
// fit at all, then ends with a line counting what was left out.
func budgeted(sel []*note.Note, secs []string, load loader, maxChars int) (string, int, int) {
	closingReserve := 2 + width(closing(len(sel), maxChars))
	room := maxChars - width(header) - 1 - closingReserve
	if room < 0 {
		return "", 0, len(sel)
	}
	var kept []string
	cut, left := 0, 0
	for i := range sel {
		if room < minRoom {
			left += len(sel) - i
			break
		}
		var s string
		if i < len(secs) {
			s = secs[i]
		} else if n, ok := load(sel[i]); ok {
			s = section(n)
		}
		if s == "" { // file gone: nothing to show, nothing to count
			continue
		}
		if w := 2 + width(s); w <= room {
			kept = append(kept, s)
			room -= w
			continue
		}
		if t, ok := truncate(s, sel[i].ID, room-2); ok {
			kept = append(kept, t)
			room -= 2 + width(t)
			cut++
			continue
		}
		left++
	}
	out := join(kept)
	if left > 0 || cut > 0 {
		out = strings.TrimSuffix(out, "\n") + "\n\n" + closing(left, maxChars) + "\n"
	}
	return out, cut, left
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
