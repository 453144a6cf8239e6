// Package inject is the SessionStart block: seed 001's selection of notes
// for a project and its rendering, within the output budget of SPEC 4. The
// hook (cmd/anamnesis-inject) keeps only its fail-open policy around it.
package inject

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Seed 001's selection constants (inject.py).
const (
	maxEpisodic = 2
	// Header starts every block; Lead, the header with the trust notice under
	// it (SPEC 17), is what a block opens with.
	Header = "# Anamnesis memory (auto-injected)"
	Lead   = Header + "\n" + screen.Notice
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

func newSelection(ctx context.Context, st *store.Store, project string, k int, without string) (*selection, error) {
	superseded, err := st.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	sel := &selection{ctx: ctx, st: st, keep: func(n *note.Note) bool {
		return !superseded[n.ID] && !(n.Type == note.Episodic && n.HasTag("reflected")) &&
			(without == "" || n.ProvSession != without)
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

// next returns the next selected note (metadata only), nil at the end,
// and whether it is a global one.
func (s *selection) next() (*note.Note, bool, error) {
	n, err := s.nextGlobal()
	if n != nil || err != nil {
		return n, true, err
	}
	if len(s.project) == 0 {
		return nil, false, nil
	}
	n = s.project[0]
	s.project = s.project[1:]
	return n, false, nil
}

// nextGlobal returns the next global note, nil after the last.
func (s *selection) nextGlobal() (*note.Note, error) {
	for {
		for len(s.page) > 0 {
			n := s.page[0]
			s.page = s.page[1:]
			if s.keep(n) {
				return n, nil
			}
		}
		if s.globalDone {
			return nil, nil
		}
		page, err := s.st.List(s.ctx, store.Filter{Project: note.Global, Limit: globalPage, Offset: s.off})
		if err != nil {
			return nil, err
		}
		s.off += len(page)
		s.page = page
		s.globalDone = len(page) < globalPage
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
	// Recency first, then confidence. Full ties keep the seed's pool order:
	// it lists procedural notes, then semantic ones (each newest first, then
	// by id descending, as List returns them) and sorts that stably.
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
		return strings.Compare(typeRank(a.Type), typeRank(b.Type))
	})
	return durable, episodic, nil
}

// typeRank orders the durable types as the seed's pool lists them.
func typeRank(t string) string {
	if t == note.Procedural {
		return "0"
	}
	return "1"
}

// section renders one note the way the seed's render_inject does: heading,
// origin line, a blank line, then the body exactly as the reference reads
// it (Python's text mode turns CRLF and a lone CR into LF; nothing else
// changes: an indented first line and a leading blank line stay) followed
// by a blank line; a note with an empty body has no body lines. Each
// section ends with its own separator; the block strips what trails the last.
func section(n *note.Note) string {
	meta := "_project: " + n.Project + " | origin: " + n.MachineID
	if n.ProvSource != note.ProvHuman || n.Confidence < 1.0 {
		meta += " | source: " + n.ProvSource + " (confidence " + pyG(n.Confidence) + ")"
	}
	s := "## [" + n.Type + "] " + n.Title + "\n" + meta + "_\n\n"
	if body := strings.ReplaceAll(strings.ReplaceAll(n.Body, "\r\n", "\n"), "\r", "\n"); body != "" {
		s += body + "\n\n"
	}
	return s
}

// pyG formats like Python's "%g": six significant digits, no trailing zeros.
func pyG(f float64) string { return strconv.FormatFloat(f, 'g', 6, 64) }

// pySpace is Python's str.isspace, which the seed's final rstrip() uses:
// Go's unicode.IsSpace plus the four information separators.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// trailing is the width of s's trailing whitespace.
func trailing(s string) int { return hook.Width(s) - hook.Width(strings.TrimRightFunc(s, pySpace)) }

// loader returns a selected note with its body, read from its file; ok is
// false when the file has gone or reads as held (the note is then left out).
type loader func(n *note.Note) (*note.Note, bool)

// render builds the block: the seed's bytes when they fit in maxChars (or
// maxChars is 0), otherwise the budgeted block of SPEC 4. It reads bodies
// only for notes it may print. cut and left count truncated and omitted notes.
func render(sel *selection, load loader, maxChars int) (block string, cut, left int, err error) {
	var secs []rendered
	total := hook.Width(Lead) + 2 + 1 // the header's blank line; the final newline
	for {
		n, global, err := sel.next()
		if err != nil {
			return "", 0, 0, err
		}
		if n == nil {
			break
		}
		r := rendered{id: n.ID, global: global}
		if full, ok := load(n); ok {
			r.text = section(full)
		}
		secs = append(secs, r)
		if r.text == "" {
			continue
		}
		total += hook.Width(r.text)
		// The seed strips what trails the last section (sections always
		// hold a heading, so nothing before it).
		if maxChars > 0 && total-trailing(r.text) > maxChars {
			return budgeted(sel, secs, load, maxChars)
		}
	}
	if !slices.ContainsFunc(secs, func(r rendered) bool { return r.text != "" }) {
		return "", 0, 0, nil // the seed prints nothing for an empty selection
	}
	return join(secs) + "\n", 0, 0, nil
}

// rendered is one note's section; text is "" when its file has gone.
type rendered struct {
	id, text string
	global   bool
}

// join is the header and the sections, with the trailing whitespace of the
// last one stripped, as the seed's rstrip() does.
func join(secs []rendered) string {
	var b strings.Builder
	b.WriteString(Lead)
	b.WriteString("\n\n")
	for _, r := range secs {
		b.WriteString(r.text)
	}
	return strings.TrimRightFunc(b.String(), pySpace)
}

// minRoom is the least room worth trying to fill with another note.
const minRoom = 160

// budgeted fills maxChars in priority order (the selection's order: globals
// newest first, durable project notes, episodics), except that global notes
// take at most half of the room while project notes remain to be shown, and
// what one pool leaves unused goes to the other (SPEC 4). In each pool the
// first note that does not fit whole is cut at a line boundary and what does
// not fit at all is left out; the block keeps the seed's order (globals,
// then the project's notes) and ends with a line counting what was left
// out. secs are the sections already rendered, in order; the rest come from sel.
func budgeted(sel *selection, secs []rendered, load loader, maxChars int) (string, int, int, error) {
	// Every section is counted whole, its trailing blank line included: the
	// last one's is stripped and replaced by the blank line before the
	// closing line, which can only make the block shorter.
	room := maxChars - hook.Width(Lead) - 2 - hook.Width(closing(sel.total, maxChars)) - 1
	if room < 0 {
		return "", 0, sel.total, nil
	}
	var globals, project []rendered
	for _, r := range secs {
		if r.global {
			globals = append(globals, r)
		} else {
			project = append(project, r)
		}
	}
	// The project's part is small (k + 2 notes at most): render all of it
	// now to know what it needs. Global notes can be thousands: they are
	// read and rendered only while there is room for them.
	for _, n := range sel.project {
		r := rendered{id: n.ID}
		if full, ok := load(n); ok {
			r.text = section(full)
		}
		project = append(project, r)
	}
	sel.project = nil
	need := 0
	for _, r := range project {
		need += hook.Width(r.text)
	}
	var ferr error
	nextGlobal := func() (rendered, bool) {
		if len(globals) > 0 {
			r := globals[0]
			globals = globals[1:]
			return r, true
		}
		n, err := sel.nextGlobal()
		if err != nil {
			ferr = err
		}
		if n == nil {
			return rendered{}, false
		}
		r := rendered{id: n.ID, global: true}
		if full, ok := load(n); ok {
			r.text = section(full)
		}
		return r, true
	}
	nextProject := func() (rendered, bool) {
		if len(project) == 0 {
			return rendered{}, false
		}
		r := project[0]
		project = project[1:]
		return r, true
	}
	gone := 0
	keptG, cutG, usedG := fill(nextGlobal, room-min(need, room/2), true, &gone)
	if ferr != nil {
		return "", 0, 0, ferr
	}
	keptP, cutP, _ := fill(nextProject, room-usedG, false, &gone)
	kept := append(keptG, keptP...)
	left := max(sel.total-gone-len(kept), 0)
	out := Lead + "\n\n" + closing(left, maxChars) + "\n"
	if len(kept) > 0 {
		out = join(kept) + "\n\n" + closing(left, maxChars) + "\n"
	}
	return out, cutG + cutP, left, nil
}

// fill keeps sections from next in order while they fit in room, cutting
// the first one that does not fit whole (when there is room worth cutting
// into); it returns what it kept, how many it cut, and the room used. A lazy
// source (global notes, possibly thousands) is not read further once too
// little room is left. Sections whose file has gone are counted in gone.
func fill(next func() (rendered, bool), room int, lazy bool, gone *int) (kept []rendered, cut, used int) {
	for !lazy || room-used >= minRoom {
		r, ok := next()
		if !ok {
			break
		}
		if r.text == "" {
			*gone++
			continue
		}
		if w := hook.Width(r.text); w <= room-used {
			kept = append(kept, r)
			used += w
			continue
		}
		if room-used < minRoom {
			continue
		}
		if t, ok := truncate(strings.TrimRightFunc(r.text, pySpace), r.id, room-used-2); ok {
			kept = append(kept, rendered{id: r.id, text: t + "\n\n", global: r.global})
			used += hook.Width(t) + 2
			cut++
		}
	}
	return kept, cut, used
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
	used := hook.Width(marker)
	n := 0
	for j, l := range lines {
		if used+hook.Width(l)+1 > room {
			break
		}
		used += hook.Width(l) + 1
		n = j + 1
	}
	// The body's first line with text (an imported note's body starts with
	// a blank line).
	first := 3
	for first < len(lines)-1 && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if n > first {
		kept := lines[:n]
		for len(kept) > first+1 && strings.TrimSpace(kept[len(kept)-1]) == "" {
			kept = kept[:len(kept)-1]
		}
		return strings.Join(kept, "\n") + "\n" + marker, true
	}
	if n < first {
		return "", false
	}
	// Only the lines before the first line of text fit whole: cut that line
	// at the last space that fits, so the note still says something.
	rest := room - used - 1 - 1 // the body line's newline and the ellipsis
	if rest < 40 {
		return "", false
	}
	line := lines[first]
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
	return strings.Join(lines[:first], "\n") + "\n" + line[:cutAt] + "…\n" + marker, true
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

// Result is a rendered block and what fitting it into the budget did.
type Result struct {
	Block    string // "" when nothing is selected
	Selected int    // notes in the seed's selection
	Cut      int    // notes truncated to fit
	Left     int    // notes left out to fit
	// Read lists the notes whose files were read, in order: the hook's
	// block cache (pkg/blockcache) checks those files have not changed.
	Read []string
	// IDs are the notes the block shows (whole or cut), for per-prompt
	// recall, which must not show them again in the same session.
	IDs []string
	// Mark is the index watermark the block was rendered at (Render only).
	Mark int64
	// SaveErr says why Render could not save the block in the cache.
	SaveErr error
}

// Block selects project's notes (k project notes at most; seed 001) and
// renders them within maxChars (0 = unlimited, exactly the seed's output).
// A note whose file cannot be read is left out and reported to skip.
func Block(ctx context.Context, st *store.Store, project string, k, maxChars int, skip func(id string, err error)) (Result, error) {
	return BlockWithout(ctx, st, project, k, maxChars, "", skip)
}

// BlockWithout is Block leaving out the notes captured from session (its
// prov_session): after a compaction the session's own note, written by the
// PreCompact capture, tells it only what it has just summarised itself.
func BlockWithout(ctx context.Context, st *store.Store, project string, k, maxChars int, session string, skip func(id string, err error)) (Result, error) {
	sel, err := newSelection(ctx, st, project, k, session)
	if err != nil {
		return Result{}, fmt.Errorf("selecting notes for %s: %w", project, err)
	}
	var read []string
	var loaded []*note.Note
	load := func(n *note.Note) (*note.Note, bool) {
		read = append(read, n.ID)
		full, err := st.Get(ctx, n.ID)
		if err == nil && screen.Held(full.Tags) {
			// Get screens the file: edited since it was indexed (in
			// place, so nothing told the index), it is held as the index
			// will hold it, and left out as held notes are.
			err = store.ErrHeld
		}
		if err != nil {
			if skip != nil {
				skip(n.ID, err)
			}
			return nil, false
		}
		loaded = append(loaded, full)
		return full, true
	}
	team, err := teamNotes(ctx, st, project, max(k, 0))
	if err != nil {
		return Result{}, fmt.Errorf("selecting team notes for %s: %w", project, err)
	}
	if len(team) == 0 {
		block, cut, left, err := render(sel, load, maxChars)
		if err != nil {
			return Result{}, fmt.Errorf("reading notes for %s: %w", project, err)
		}
		return Result{Block: block, Selected: sel.total, Cut: cut, Left: left, Read: read, IDs: shownIDs(block, loaded)}, ctx.Err()
	}
	var teamSecs []rendered
	var teamFull []*note.Note
	for _, n := range team {
		if full, ok := load(n); ok && !screen.Held(full.Tags) {
			teamSecs = append(teamSecs, rendered{id: n.ID, text: teamSection(full)})
			teamFull = append(teamFull, full)
		}
	}
	var cut, left int
	block, teamCut, err := withTeams(teamSecs, maxChars, func(budget int) (string, error) {
		var b string
		var err error
		b, cut, left, err = render(sel, load, budget)
		return b, err
	}, func(personal string, secs []rendered) []rendered { return unsaidBy(personal, loaded, teamFull, secs) })
	if err != nil {
		return Result{}, fmt.Errorf("reading notes for %s: %w", project, err)
	}
	return Result{Block: block, Selected: sel.total + len(team), Cut: cut + teamCut, Left: left, Read: read, IDs: shownIDs(block, loaded)}, ctx.Err()
}

// shownIDs are the loaded notes whose heading and origin line are in block:
// render keeps a note with at least those two lines or leaves it out whole.
func shownIDs(block string, loaded []*note.Note) []string {
	var ids []string
	for _, n := range loaded {
		s := section(n)
		if n.Team != "" {
			s = teamSection(n)
		}
		if i := strings.Index(s, "_\n"); i >= 0 && strings.Contains(block, s[:i+2]) && !slices.Contains(ids, n.ID) {
			ids = append(ids, n.ID)
		}
	}
	return ids
}
