package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/status"
)

// maxResult is SPEC 7's cap on one tool result. It is counted in bytes of the
// JSON text the model reads, which is never fewer than its characters: Claude
// Code 2.1.330 hands a 48 KB result to the model whole but swaps a 64 KB one
// for a short preview, so a result over the cap would silently hide notes.
const maxResult = 40000

// Caps on metadata the server prints, so one hand-edited note with a huge
// title or tag list cannot push a result over maxResult on its own.
const (
	maxTitleOut = 1000
	maxTagsOut  = 2000
)

// noteOut is the JSON note shape of SPEC 2, shared with the CLI and the
// dashboard (note.Out): body last, so the model reads the metadata first;
// list results omit it, an empty body is "".
type noteOut = note.Out

func toOut(n *note.Note, withBody bool) noteOut {
	o := n.Out(withBody)
	o.Title = clip(o.Title, maxTitleOut)
	total := 0
	for i, t := range o.Tags {
		total += len(t)
		if total > maxTagsOut {
			o.Tags = append(o.Tags[:i:i], fmt.Sprintf("… %d more tags", len(n.Tags)-i))
			break
		}
	}
	return o
}

// clip shortens s to at most max characters, marking the cut.
func clip(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return prefixRunes(s, max-1) + "…"
}

// prefixRunes returns the first n characters of s.
func prefixRunes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// encode is the JSON text of a result: no HTML escaping, so '<' costs one
// character and what is counted is what the model reads.
func encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own plain structs are encoded here; this cannot happen.
		panic(fmt.Sprintf("anamnesis-mcp: encode result: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

func fits(v any) bool { return len(encode(v)) <= maxResult }

// trimMarker ends a cut body and names the id memory_get reads it with.
func trimMarker(id string, shown, total int) string {
	return fmt.Sprintf("\n\n[… trimmed to fit the result: %d of %d characters shown. Call memory_get with id %q to read the whole note.]", shown, total, id)
}

// cutBody shortens a body to n characters plus the marker.
func cutBody(id, body string, n int) string {
	total := utf8.RuneCountInString(body)
	if total <= n {
		return body
	}
	return prefixRunes(body, n) + trimMarker(id, n, total)
}

// fitBodies trims the longest bodies first until wrap(notes) fits: it finds
// the largest per-body length c such that every body longer than c, cut to c
// characters plus a marker, makes the whole result fit. Shorter bodies are
// left whole. If even empty bodies do not fit, hits are dropped from the end
// (the lowest ranked) and the number dropped is returned.
func fitBodies(notes []noteOut, wrap func([]noteOut) any) (out []noteOut, dropped int) {
	if fits(wrap(notes)) {
		return notes, 0
	}
	full := make([]string, len(notes))
	longest := 0
	for i, n := range notes {
		if n.Body != nil {
			full[i] = *n.Body
			longest = max(longest, utf8.RuneCountInString(full[i]))
		}
	}
	at := func(c int) []noteOut {
		cp := make([]noteOut, len(notes))
		copy(cp, notes)
		for i := range cp {
			if cp[i].Body != nil {
				b := cutBody(cp[i].ID, full[i], c)
				cp[i].Body = &b
			}
		}
		return cp
	}
	// Largest c in [0, longest) that fits; -1 if none.
	if cut := at(0); fits(wrap(cut)) {
		// Each cut adds a marker, so size is not quite monotonic in c near a
		// body's own length: the search lands close, the loop makes sure.
		c := sort.Search(longest, func(c int) bool { return !fits(wrap(at(c))) }) - 1
		for step := 1; c > 0; step *= 2 {
			if cut := at(c); fits(wrap(cut)) {
				return cut, 0
			}
			c = max(c-step, 0)
		}
		return cut, 0
	}
	cut := at(0)
	for len(cut) > 0 && !fits(wrap(cut)) {
		cut = cut[:len(cut)-1]
		dropped++
	}
	return cut, dropped
}

// listPage is memory_list's result: the seed's list under "result" (the
// wrapping FastMCP gives a list-returning tool), plus where the next page starts.
type listPage struct {
	Result     []noteOut `json:"result"`
	Offset     int       `json:"offset"`
	Total      int       `json:"total"`
	NextOffset *int      `json:"next_offset" jsonschema:"where the next page starts; null when there is no more"`
	Held       int       `json:"held,omitempty" jsonschema:"notes in this scope held by the screen (left out until a person releases them)"`
	Hint       string    `json:"hint,omitempty"`
}

// searchResult is memory_search's result (see listPage).
type searchResult struct {
	Result []noteOut `json:"result"`
	Held   int       `json:"held,omitempty" jsonschema:"notes in this scope held by the screen (left out until a person releases them)"`
	Hint   string    `json:"hint,omitempty"`
}

// getResult is memory_get's result: the note, its body possibly one page of
// it, and where the next page starts.
type getResult struct {
	noteOut
	Page pageInfo `json:"page"`
}

type pageInfo struct {
	Offset     int    `json:"offset"`
	Chars      int    `json:"chars"`
	TotalChars int    `json:"total_chars"`
	NextOffset *int   `json:"next_offset" jsonschema:"where the next page starts; null when there is no more"`
	Hint       string `json:"hint,omitempty"`
}

// pageBody fills g with the page of body starting at offset (in characters):
// at most maxChars, fewer if the JSON text would pass maxResult.
func pageBody(g *getResult, body string, offset, maxChars int) {
	runes := []rune(body)
	total := len(runes)
	rest := runes[offset:]
	build := func(n int) *getResult {
		cp := *g
		page := string(rest[:n])
		cp.Body = &page
		cp.Page = pageInfo{Offset: offset, Chars: n, TotalChars: total}
		if end := offset + n; end < total {
			cp.Page.NextOffset = &end
			cp.Page.Hint = fmt.Sprintf("The body continues: call memory_get with id %q and offset %d for the next page.", g.ID, end)
		}
		return &cp
	}
	n := min(maxChars, len(rest))
	if !fits(build(n)) {
		n = sort.Search(n+1, func(k int) bool { return !fits(build(k)) }) - 1
		n = max(n, 0)
	}
	*g = *build(n)
}

// topN keeps the n largest counts and folds the rest into one entry.
func topN(m map[string]int, n int) map[string]int {
	if len(m) <= n {
		return m
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	out := make(map[string]int, n+1)
	rest, others := 0, 0
	for i, k := range keys {
		if i < n {
			out[k] = m[k]
			continue
		}
		rest += m[k]
		others++
	}
	out[fmt.Sprintf("(%d others)", others)] = rest
	return out
}

// fitStatus shrinks the open-ended parts of a status report until it fits.
func fitStatus(s status.Report) status.Report {
	for _, n := range []int{200, 50, 10, 0} {
		if fits(s) {
			return s
		}
		s.ByProject = topN(s.ByProject, n)
		s.ByMachine = topN(s.ByMachine, n)
		if len(s.Problems) > n {
			s.Problems = s.Problems[:n]
		}
		s.Sync.Detail = clip(s.Sync.Detail, 200)
		s.Sync.Last = nil
	}
	return s
}

// lines clips a multi-line message (git output) for a result field.
func lines(s string, max int) string {
	return clip(strings.TrimSpace(s), max)
}
