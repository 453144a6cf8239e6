package lifecycle

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Change is one note a repair touches.
type Change struct {
	ID      string `json:"id"`
	Project string `json:"project"`
	Title   string `json:"title"`
	From    string `json:"from,omitempty"`
	To      string `json:"to,omitempty"`
	KeptID  string `json:"kept_id,omitempty"` // dedup: the keeper
}

// RepairResult is what dedup, migrate or backfill-provenance did (or would do).
type RepairResult struct {
	Command string     `json:"command"`
	Apply   bool       `json:"apply"`
	Written bool       `json:"written"`
	Changes []Change   `json:"changes"`
	Near    [][]string `json:"near_duplicates,omitempty"` // dedup: listed, never touched
	Paths   []string   `json:"-"`
	Lines   []string   `json:"sync,omitempty"`
}

// Print is the human report.
func (r *RepairResult) Print(w io.Writer) {
	verb := "would"
	if r.Written {
		verb = "did"
	}
	switch r.Command {
	case "dedup":
		for _, c := range r.Changes {
			fmt.Fprintf(w, "delete %s (%s) %q: same body as %s\n", c.ID, c.Project, c.Title, c.KeptID)
		}
		for _, g := range r.Near {
			fmt.Fprintf(w, "near-duplicates (left alone): %s\n", strings.Join(g, " "))
		}
	case "migrate":
		for _, c := range r.Changes {
			fmt.Fprintf(w, "project %s: %s -> %s\n", c.ID, c.From, c.To)
		}
	default:
		for _, c := range r.Changes {
			from := c.From
			if from == "" {
				from = "(missing)"
			}
			fmt.Fprintf(w, "prov_source %s %q: %s -> %s\n", c.ID, c.Title, from, c.To)
		}
	}
	fmt.Fprintf(w, "%s: %s change %d note(s)\n", r.Command, verb, len(r.Changes))
}

// all returns every note of the store with its body.
func all(ctx context.Context, s *store.Store, scope string) ([]*note.Note, error) {
	ns, err := s.List(ctx, store.Filter{Scope: scope})
	if err != nil {
		return nil, err
	}
	oldestFirst(ns)
	return bodies(ctx, s, ns, scope != "")
}

func fold(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// Dedup collapses portable notes whose trimmed body is byte-identical to one
// keeper (global before project, then oldest, then lowest id) and deletes the
// rest; near-duplicates (same title and body after case and whitespace
// folding) are listed and left alone.
//
// It plans from what is on disk (the index is brought level with the files
// first: a note deleted or added by another writer is seen), keeps a visible
// copy (one nothing supersedes) over a superseded one, and the keeper takes
// over what the deleted copies superseded, so deleting a copy never brings
// back a note it hid.
func Dedup(ctx context.Context, s *store.Store, apply bool) (*RepairResult, error) {
	res := &RepairResult{Command: "dedup", Apply: apply, Changes: []Change{}}
	if _, err := s.Reindex(ctx, false); err != nil {
		return res, err
	}
	sup, err := s.SupersededIDs(ctx)
	if err != nil {
		return res, err
	}
	ns, err := all(ctx, s, note.Portable)
	if err != nil {
		return res, err
	}
	exact := map[[32]byte][]*note.Note{}
	var order [][32]byte
	near := map[string][]*note.Note{}
	var nearOrder []string
	for _, n := range ns {
		h := sha256.Sum256([]byte(strings.TrimSpace(n.Body)))
		if exact[h] == nil {
			order = append(order, h)
		}
		exact[h] = append(exact[h], n)
		k := fold(n.Title) + "\x00" + fold(n.Body)
		if near[k] == nil {
			nearOrder = append(nearOrder, k)
		}
		near[k] = append(near[k], n)
	}
	removed := map[string]bool{}
	type keeperEdit struct {
		n   *note.Note
		add []string
	}
	var keepers []keeperEdit
	for _, h := range order {
		g := exact[h]
		if len(g) < 2 {
			continue
		}
		slices.SortStableFunc(g, func(a, b *note.Note) int {
			if sup[a.ID] != sup[b.ID] {
				if !sup[a.ID] {
					return -1
				}
				return 1
			}
			if (a.Project == note.Global) != (b.Project == note.Global) {
				if a.Project == note.Global {
					return -1
				}
				return 1
			}
			if c := strings.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
				return c
			}
			return strings.Compare(a.ID, b.ID)
		})
		for _, n := range g[1:] {
			removed[n.ID] = true
			res.Changes = append(res.Changes, Change{ID: n.ID, Project: n.Project, Title: n.Title, KeptID: g[0].ID})
		}
		// The keeper supersedes what the copies did (less the copies
		// themselves and itself).
		var inherit []string
		for _, n := range g[1:] {
			for _, id := range n.Supersedes {
				if id != g[0].ID && !slices.Contains(g[0].Supersedes, id) && !slices.Contains(inherit, id) {
					inherit = append(inherit, id)
				}
			}
		}
		if len(inherit) > 0 {
			keepers = append(keepers, keeperEdit{g[0], inherit})
		}
	}
	for i := range keepers {
		// A copy the keeper inherits that is itself deleted needs no hiding.
		keepers[i].add = slices.DeleteFunc(keepers[i].add, func(id string) bool { return removed[id] })
	}
	for _, k := range nearOrder {
		var left []string
		for _, n := range near[k] {
			if !removed[n.ID] {
				left = append(left, n.ID)
			}
		}
		if len(left) > 1 {
			res.Near = append(res.Near, left)
		}
	}
	if !apply || len(res.Changes) == 0 {
		return res, nil
	}
	res.Paths, err = run(ctx, s, "dedup", "", func(t *store.Tx) error {
		for _, k := range keepers {
			if len(k.add) == 0 {
				continue
			}
			k.n.Supersedes = append(slices.Clone(k.n.Supersedes), k.add...)
			if err := rewrite(ctx, t, k.n); err != nil {
				return err
			}
		}
		for _, c := range res.Changes {
			if err := t.Delete(ctx, c.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("dedup failed, nothing deleted: %w", err)
	}
	res.Written = true
	return res, nil
}

// ProjectMap is migrate's map file: {"old": "new", ..., "ids": {"ID": "new"}}.
type ProjectMap struct {
	Projects map[string]string
	IDs      map[string]string
}

// ParseMap reads a map file; each new key is trimmed of spaces.
func ParseMap(data []byte) (ProjectMap, error) {
	var raw map[string]json.RawMessage
	m := ProjectMap{Projects: map[string]string{}, IDs: map[string]string{}}
	if err := json.Unmarshal(data, &raw); err != nil {
		return m, fmt.Errorf("the map is not a JSON object: %w", err)
	}
	for k, v := range raw {
		var err error
		if k == "ids" {
			err = json.Unmarshal(v, &m.IDs)
		} else {
			var to string
			err = json.Unmarshal(v, &to)
			m.Projects[k] = strings.TrimSpace(to)
		}
		if err != nil {
			return m, fmt.Errorf("map key %q: want a string (or, for \"ids\", an object of strings)", k)
		}
	}
	// A new key typed with spaces around it is the key (write --project
	// takes it so); an old key is matched as stored, spaces and all, so a
	// note written with them can be re-keyed.
	for k, v := range m.IDs {
		m.IDs[k] = strings.TrimSpace(v)
	}
	for k, v := range m.IDs {
		if err := note.CheckID(k); err != nil {
			return m, err
		}
		if err := checkNewProject(v); err != nil {
			return m, fmt.Errorf("ids[%s]: %w", k, err)
		}
	}
	for k, v := range m.Projects {
		if err := checkNewProject(v); err != nil {
			return m, fmt.Errorf("%q: %w", k, err)
		}
	}
	return m, nil
}

// checkNewProject holds a project key migrate would write to the rules a
// write holds it to: migrate rewrites the project line in place (no store
// write redacts or checks it), and the key is printed by list, inject and
// the dashboard and synced to every machine.
func checkNewProject(v string) error {
	if strings.TrimSpace(v) == "" || strings.ContainsAny(v, "\r\n") {
		return errors.New("the new project must be one non-empty line")
	}
	if err := note.CheckLimits(&note.Note{Project: v}); err != nil {
		return err
	}
	if _, kinds := redact.Redact(v); len(kinds) > 0 {
		return fmt.Errorf("the new project holds a secret (%s); a project key is shown everywhere", strings.Join(kinds, ", "))
	}
	return nil
}

// Migrate re-keys projects: only each file's project line changes, byte for
// byte, so updated_at and everything else stay as they were.
func Migrate(ctx context.Context, s *store.Store, m ProjectMap, apply bool) (*RepairResult, error) {
	res := &RepairResult{Command: "migrate", Apply: apply, Changes: []Change{}}
	ns, err := s.List(ctx, store.Filter{})
	if err != nil {
		return res, err
	}
	// Held notes are the project's notes too: left under the old key, one a
	// person released later would show under a project that is gone.
	held, err := s.List(ctx, store.Filter{Held: true})
	if err != nil {
		return res, err
	}
	ns = append(ns, held...)
	oldestFirst(ns)
	type edit struct {
		path string
		data []byte
	}
	var edits []edit
	for _, n := range ns {
		to, ok := m.IDs[n.ID]
		if !ok {
			to, ok = m.Projects[n.Project]
		}
		if !ok || to == n.Project {
			continue
		}
		p, err := s.Path(ctx, n.ID)
		if err != nil {
			return res, err
		}
		old, err := os.ReadFile(p)
		if err != nil {
			return res, err
		}
		data, err := note.SetProject(old, to)
		if err != nil {
			return res, fmt.Errorf("%s: %w", n.ID, err)
		}
		// The rewritten file must read back as the same note in the new project.
		before, err1 := note.Parse(old)
		after, err2 := note.Parse(data)
		if err1 != nil || err2 != nil || after.Project != to {
			return res, fmt.Errorf("%s: the project line could not be rewritten in place", n.ID)
		}
		after.Project = before.Project
		if string(after.Marshal()) != string(before.Marshal()) {
			return res, fmt.Errorf("%s: rewriting the project line would change other fields", n.ID)
		}
		edits = append(edits, edit{p, data})
		res.Changes = append(res.Changes, Change{ID: n.ID, Project: n.Project, Title: n.Title, From: n.Project, To: to})
	}
	if !apply || len(edits) == 0 {
		return res, nil
	}
	res.Paths, err = run(ctx, s, "migrate", "", func(t *store.Tx) error {
		for _, e := range edits {
			if err := t.WriteRaw(e.path, e.data); err != nil {
				return err
			}
		}
		_, err := s.Reindex(ctx, false)
		return err
	})
	if err != nil {
		return res, fmt.Errorf("migrate failed, nothing changed: %w", err)
	}
	res.Written = true
	return res, nil
}

// inferSource is prov_source as the tags say: import, then session, else human.
func inferSource(n *note.Note) string {
	switch {
	case n.HasTag("import"):
		return note.ProvImport
	case n.HasTag("session"):
		return note.ProvSessionEnd
	}
	return note.ProvHuman
}

// Backfill sets prov_source from the tags where the file has none, or where
// it is plainly wrong: the tags say import or session and the value says
// otherwise (a reflection or merge note is never relabelled).
func Backfill(ctx context.Context, s *store.Store, apply bool) (*RepairResult, error) {
	res := &RepairResult{Command: "backfill-provenance", Apply: apply, Changes: []Change{}}
	ns, err := all(ctx, s, "")
	if err != nil {
		return res, err
	}
	var fix []*note.Note
	for _, n := range ns {
		p, err := s.Path(ctx, n.ID)
		if err != nil {
			return res, err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return res, err
		}
		want, from := inferSource(n), n.ProvSource
		missing := !note.HasKey(raw, "prov_source")
		wrong := want != note.ProvHuman && from != want && from != note.ProvReflection && from != note.ProvMerge
		if !missing && !wrong {
			continue
		}
		if missing {
			from = ""
		}
		res.Changes = append(res.Changes, Change{ID: n.ID, Project: n.Project, Title: n.Title, From: from, To: want})
		n.ProvSource = want
		fix = append(fix, n)
	}
	if !apply || len(fix) == 0 {
		return res, nil
	}
	res.Paths, err = run(ctx, s, "backfill-provenance", "", func(t *store.Tx) error {
		for _, n := range fix {
			if err := rewrite(ctx, t, n); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("backfill-provenance failed, nothing changed: %w", err)
	}
	res.Written = true
	return res, nil
}
