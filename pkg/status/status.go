// Package status is the one health report of a store: note counts, the
// files that could not be read, and the sync state with the remote's
// password masked. `anamnesis status`, MCP memory_status and the
// dashboard's overview all render this report.
package status

import (
	"context"
	"fmt"
	"io"
	"maps"
	"path"
	"sort"
	"strings"
	"unicode"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Report is the store's health (seed 003's memory_status shape, plus the
// machine, per-machine counts and the unreadable files).
type Report struct {
	Root       string            `json:"root"`
	DBPath     string            `json:"db_path"`
	Total      int               `json:"total"`
	ByType     map[string]int    `json:"by_type"`
	ByProject  map[string]int    `json:"by_project"`
	ByScope    map[string]int    `json:"by_scope"`
	Sync       gitsync.RepoState `json:"sync"`
	MachineID  string            `json:"machine_id" jsonschema:"this machine's id, stamped on every note written here"`
	ByMachine  map[string]int    `json:"by_machine"`
	Unreadable int               `json:"unreadable" jsonschema:"how many files could not be read as notes"`
	Problems   []store.Problem   `json:"problems" jsonschema:"the files that could not be read as notes, with the reason"`
	// ConfigError says config.json could not be read (it is then read as empty).
	ConfigError string `json:"config_error,omitempty"`
	Held        []Held `json:"held,omitempty" jsonschema:"notes the screen holds out of inject, recall and search until a person releases them"`
}

// Held is one note the screen holds, and why.
type Held struct {
	ID      string `json:"id"`
	Title   string `json:"title"`
	Project string `json:"project"`
	Source  string `json:"prov_source"`
	Reason  string `json:"reason"`
	Why     string `json:"why"`
}

// HeldNotes lists the notes the screen holds, newest first.
func HeldNotes(ctx context.Context, st *store.Store) ([]Held, error) {
	notes, err := st.List(ctx, store.Filter{Held: true, Teams: true})
	if err != nil {
		return nil, err
	}
	out := make([]Held, len(notes))
	for i, n := range notes {
		r := screen.Reason(n.Tags)
		out[i] = Held{ID: n.ID, Title: n.Title, Project: n.Project, Source: n.ProvSource, Reason: r, Why: screen.Describe(r)}
	}
	return out, nil
}

// Build gathers the report of st. sync is the repository's state as
// gitsync.State returned it (the one place that reads it and masks the
// remote; the dashboard passes a cached copy).
func Build(ctx context.Context, st *store.Store, machineID string, sync gitsync.RepoState) (Report, error) {
	stats, err := st.Stats(ctx)
	if err != nil {
		return Report{}, err
	}
	probs, err := st.Problems(ctx)
	if err != nil {
		return Report{}, err
	}
	if probs == nil {
		probs = []store.Problem{}
	}
	held, err := HeldNotes(ctx, st)
	if err != nil {
		return Report{}, err
	}
	return Report{Held: held, Root: st.Home(), DBPath: st.DBPath(), MachineID: machineID, Total: stats.Total,
		ByType: stats.ByType, ByProject: stats.ByProject, ByScope: stats.ByScope, ByMachine: stats.ByMachine,
		Sync: sync, Unreadable: len(probs), Problems: probs}, nil
}

// ForModel is the report as MCP memory_status gives it to the model: the
// held notes by id, project and reason, without their titles (part of the
// text the screen held), and the unreadable files without the values their
// reasons quote (an unknown type, prov_source or id: whoever wrote the file
// chose them), a file whose name or reason the screen holds by its
// directory only. A project key or machine id the screen holds (a
// teammate's held note is counted by both) is not shown either. `anamnesis
// status` and the dashboard, for a person, show everything.
func (r Report) ForModel() Report {
	if r.Held != nil {
		held := make([]Held, len(r.Held))
		for i, h := range r.Held {
			h.Title = ""
			if heldKey(h.Project) {
				h.Project = heldKeyName
			}
			held[i] = h
		}
		r.Held = held
	}
	r.ByProject, r.ByMachine = withoutHeldKeys(r.ByProject), withoutHeldKeys(r.ByMachine)
	if r.Problems != nil {
		probs := make([]store.Problem, len(r.Problems))
		for i, p := range r.Problems {
			if q := strings.IndexAny(p.Reason, "\"'`"); q >= 0 {
				p.Reason = strings.TrimSpace(p.Reason[:q]) + " (the value is not shown here; anamnesis status shows it)"
			}
			if screen.Check(p.Path+"\n"+p.Reason) != "" {
				p.Path = path.Dir(p.Path) + "/…"
				p.Reason = "its name or reason reads as an instruction (anamnesis status shows it)"
			}
			probs[i] = p
		}
		r.Problems = probs
	}
	return r
}

// heldKeyName stands for a project key or machine id the screen holds.
const heldKeyName = "(held by the screen; anamnesis status shows it)"

// heldKey reports whether the screen holds key: one without a space holds
// no sentence, and is not checked.
func heldKey(key string) bool {
	return strings.ContainsFunc(key, unicode.IsSpace) && screen.Check(key) != ""
}

// withoutHeldKeys is counts with the keys the screen holds counted under
// heldKeyName.
func withoutHeldKeys(counts map[string]int) map[string]int {
	var out map[string]int
	for k, n := range counts {
		if heldKey(k) {
			if out == nil {
				out = maps.Clone(counts)
			}
			delete(out, k)
			out[heldKeyName] += n
		}
	}
	if out == nil {
		return counts
	}
	return out
}

// Text writes the report for a terminal.
func (r Report) Text(w io.Writer) error {
	fmt.Fprintf(w, "home:     %s\nindex:    %s\nmachine:  %s\nnotes:    %d\n", r.Root, r.DBPath, r.MachineID, r.Total)
	for _, part := range []struct {
		name string
		m    map[string]int
	}{{"by type", r.ByType}, {"by scope", r.ByScope}, {"by project", r.ByProject}, {"by machine", r.ByMachine}} {
		fmt.Fprintf(w, "%s:\n", part.name)
		keys := make([]string, 0, len(part.m))
		for k := range part.m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			// Keys come from the notes' files (a pulled note's project):
			// one printable line each, as titles are.
			fmt.Fprintf(w, "  %-40s %d\n", note.OneLine(k), part.m[k])
		}
	}
	fmt.Fprintf(w, "sync:     %s\n", r.Sync.Line())
	said := map[string]bool{}
	if l := r.Sync.Last; l != nil {
		for _, t := range l.Result.Teams {
			fmt.Fprintf(w, "team:     %s\n", strings.TrimPrefix(t.Line(), "team "))
			if t.ReadOnly {
				fmt.Fprintf(w, "          you may only read team %s: %d commit(s) of your notes there stay on this machine, unpublished\n", t.Name, t.Unpublished)
			}
			if p := r.Sync.TeamRewrite(t.Name); p != nil && !strings.Contains(t.Detail, p.Detail) {
				fmt.Fprintf(w, "          since then: %s\n", p.Line())
			}
			said[t.Name] = true
		}
	}
	for _, p := range r.Sync.TeamRewrites {
		if !said[p.Team] {
			fmt.Fprintf(w, "team:     %s: %s\n", p.Team, p.Line())
		}
	}
	if r.ConfigError != "" {
		fmt.Fprintf(w, "config:   %s (read as empty)\n", r.ConfigError)
	}
	if len(r.Held) > 0 {
		fmt.Fprintf(w, "held:     %d (kept out of the model's context; read one with anamnesis get ID, release it with anamnesis release ID)\n", len(r.Held))
		for _, h := range r.Held {
			fmt.Fprintf(w, "  %s  %s  [%s: %s]\n", h.ID, h.Title, h.Source, h.Why)
		}
	}
	if len(r.Problems) == 0 {
		_, err := fmt.Fprintln(w, "unreadable files: none")
		return err
	}
	fmt.Fprintf(w, "unreadable files: %d\n", len(r.Problems))
	for _, p := range r.Problems {
		fmt.Fprintf(w, "  %s\n", note.OneLine(p.Path+": "+p.Reason))
	}
	return nil
}
