package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const consolidatePrompt = `You consolidate a developer's durable memory notes for one project. You are given several notes, each with its id, type, title and body.

Return ONLY a JSON array, no prose. Find groups of REDUNDANT notes (notes that state the same information, possibly in different words). For each group of 2 or more redundant notes, return one object:
{"action": "keep", "keeper_id": <id>, "superseded_ids": [<id>, ...]}
{"action": "synthesize", "type": "semantic" | "procedural", "title": <string>, "body": <string>, "superseded_ids": [<id>, ...]}

Use "keep" when one existing note already says everything the group says: put that note's id in keeper_id and EVERY OTHER note's id in superseded_ids. Use "synthesize" when the notes are complementary and should be combined into one better note that keeps every fact of every original: write the new type/title/body and put ALL the originals' ids in superseded_ids. Leave genuinely distinct notes alone. Return an empty array [] if nothing should be merged. Use only the ids given to you. Never include secrets, API keys, tokens, or credentials.`

// Group is one merge the model proposes, with the gate's verdict.
type Group struct {
	Action     string   `json:"action"`
	KeeperID   string   `json:"keeper_id,omitempty"`
	Type       string   `json:"type,omitempty"`
	Title      string   `json:"title,omitempty"`
	Body       string   `json:"body,omitempty"`
	Superseded []string `json:"superseded_ids"`
	// The recall gate's verdict: recall@8 over the gate cases before and
	// after this group on the sandbox copy.
	Accepted     bool    `json:"accepted"`
	RecallBefore float64 `json:"recall_before"`
	RecallAfter  float64 `json:"recall_after"`
	// Lost are the values of the superseded notes (numbers, versions,
	// paths, identifiers, names) no search finds after this group: any
	// rejects it.
	Lost []string `json:"lost_values,omitempty"`
	ID   string   `json:"id,omitempty"` // the synthesized note, once written
	// HeldOnWrite is why the screen will hold (or, written, holds) an
	// accepted synthesis: the report's verdict (markHeld), never part of
	// the plan.
	HeldOnWrite string `json:"held_on_write,omitempty"`
}

// members are every note the group touches.
func (g *Group) members() []string {
	if g.Action == "keep" {
		return append([]string{g.KeeperID}, g.Superseded...)
	}
	return g.Superseded
}

// ConsolidatePlan is what consolidate does (or did) to one project.
type ConsolidatePlan struct {
	Project   string  `json:"project"`
	Notes     int     `json:"notes"`
	Model     string  `json:"model,omitempty"`
	GateCases int     `json:"gate_cases"`
	GateSet   string  `json:"gate_set,omitempty"` // "eval set" or "self-made"
	Groups    []Group `json:"groups"`
	Skipped   string  `json:"skipped,omitempty"`
	Error     string  `json:"error,omitempty"`
}

// Mergeable is a project's portable durable notes nothing supersedes.
func Mergeable(ctx context.Context, s *store.Store, project string) ([]*note.Note, error) {
	sup, err := s.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	var out []*note.Note
	for _, typ := range []string{note.Procedural, note.Semantic} {
		ns, err := s.List(ctx, store.Filter{Project: project, Type: typ, Scope: note.Portable})
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			if !sup[n.ID] {
				out = append(out, n)
			}
		}
	}
	oldestFirst(out)
	return out, nil
}

// PlanConsolidate asks the model for merge groups and runs each through the
// recall gate on a sandbox copy of the store. cases is the eval set for the
// gate (nil: cases made from the grouped notes themselves).
func PlanConsolidate(ctx context.Context, s *store.Store, client model.Client, project string, min int, cases []eval.Case) (ConsolidatePlan, error) {
	p := ConsolidatePlan{Project: project, Groups: []Group{}}
	ns, err := Mergeable(ctx, s, project)
	if err != nil {
		return p, err
	}
	p.Notes = len(ns)
	if len(ns) < min || len(ns) < 2 {
		p.Skipped = fmt.Sprintf("%d durable note(s), fewer than %d", len(ns), max(min, 2))
		return p, nil
	}
	if client == nil {
		return p, model.ErrNoProvider
	}
	if ns, err = bodies(ctx, s, ns, true); err != nil {
		return p, err
	}
	var b strings.Builder
	valid := map[string]bool{}
	for _, n := range ns {
		part := fmt.Sprintf("## [%s] [%s] %s\n%s\n\n", n.ID, n.Type, n.Title, redact.String(n.Body))
		if b.Len() > 0 && b.Len()+len(part) > client.Budget() {
			break
		}
		b.WriteString(part)
		valid[n.ID] = true
	}
	p.Model = client.Label()
	reply, err := client.Complete(ctx, consolidatePrompt, b.String())
	if err != nil {
		p.Error = model.OneLine(err.Error())
		return p, nil
	}
	groups, err := parseGroups(reply, valid)
	if err != nil {
		p.Error = err.Error()
		return p, nil
	}
	p.Groups = groups
	if len(groups) == 0 {
		return p, nil
	}
	if err := gate(ctx, s, &p, ns, cases); err != nil {
		return p, fmt.Errorf("recall gate: %w", err)
	}
	return p, nil
}

// parseGroups reads and checks the model's groups: known ids only, at least
// two notes a group, no note in two groups.
func parseGroups(reply string, valid map[string]bool) ([]Group, error) {
	var items []map[string]any
	if err := json.Unmarshal([]byte(model.JSON(reply)), &items); err != nil {
		return nil, fmt.Errorf("the model's reply is not a JSON array of groups: %s", quoteReply(reply))
	}
	seen := map[string]int{}
	out := []Group{}
	for i, it := range items {
		g := Group{}
		g.Action, _ = it["action"].(string)
		raw, _ := it["superseded_ids"].([]any)
		for _, v := range raw {
			id, _ := v.(string)
			g.Superseded = append(g.Superseded, strings.TrimSpace(id))
		}
		switch g.Action {
		case "keep":
			g.KeeperID, _ = it["keeper_id"].(string)
			g.KeeperID = strings.TrimSpace(g.KeeperID)
		case "synthesize":
			pn, err := proposed(it)
			if err != nil {
				return nil, fmt.Errorf("group %d: %w", i+1, err)
			}
			g.Type, g.Title, g.Body = pn.Type, pn.Title, pn.Body
		default:
			return nil, fmt.Errorf("group %d: action %q is not keep or synthesize", i+1, g.Action)
		}
		ms := g.members()
		if len(ms) < 2 || len(g.Superseded) == 0 {
			return nil, fmt.Errorf("group %d has fewer than two notes", i+1)
		}
		for _, id := range ms {
			if !valid[id] {
				return nil, fmt.Errorf("group %d names %q, which is not one of the notes given", i+1, id)
			}
			if j, dup := seen[id]; dup {
				return nil, fmt.Errorf("note %s is in group %d and group %d", id, j, i+1)
			}
			seen[id] = i + 1
		}
		out = append(out, g)
	}
	return out, nil
}

// applyGroup writes one group to a store through t.
func applyGroup(ctx context.Context, s *store.Store, t *store.Tx, project, label, machineID string, g *Group) error {
	if g.Action == "keep" {
		k, err := s.Get(ctx, g.KeeperID)
		if err != nil {
			return err
		}
		sup := slices.Clone(k.Supersedes)
		for _, id := range g.Superseded {
			if !slices.Contains(sup, id) {
				sup = append(sup, id)
			}
		}
		slices.Sort(sup)
		k.Supersedes = sup
		if !k.HasTag(TagMerged) {
			k.Tags = append(slices.Clone(k.Tags), TagMerged)
		}
		k.UpdatedAt = note.Now()
		return rewrite(ctx, t, k)
	}
	n := note.New(g.Type, g.Title, g.Body)
	n.Project, n.MachineID = project, machineID
	n.ProvSource, n.ProvModel, n.Confidence = note.ProvMerge, label, Confidence
	n.Tags = []string{TagMerge}
	n.Supersedes = slices.Clone(g.Superseded)
	if g.ID == "" {
		w, err := t.Write(ctx, n)
		if err != nil {
			return err
		}
		g.ID = w.ID
		return nil
	}
	// The id the plan showed.
	if _, err := s.Path(ctx, g.ID); err == nil {
		return fmt.Errorf("note %s of the plan exists already: the plan was applied before", g.ID)
	}
	n.ID, n.CreatedAt = g.ID, note.Now()
	n.UpdatedAt = n.CreatedAt
	return t.Put(ctx, n)
}

// ConsolidateResult is a consolidate run over some projects.
type ConsolidateResult struct {
	Apply    bool              `json:"apply"`
	Written  bool              `json:"written"`
	Plan     string            `json:"plan,omitempty"`  // the saved plan's id
	Saved    bool              `json:"saved,omitempty"` // applied from a plan saved earlier (no model call)
	Projects []ConsolidatePlan `json:"projects"`
	Paths    []string          `json:"-"`
	Lines    []string          `json:"sync,omitempty"`
}

// consolidateInputs is the fingerprint of a consolidate run's inputs.
func consolidateInputs(ctx context.Context, s *store.Store, client model.Client, projects []string, min int, cases []eval.Case) (string, error) {
	parts := []string{"min=" + strconv.Itoa(min)}
	if client != nil {
		parts = append(parts, client.Label())
	}
	if cases != nil {
		b, _ := json.Marshal(cases)
		parts = append(parts, "eval="+fingerprint(string(b)))
	}
	for _, p := range projects {
		ns, err := Mergeable(ctx, s, p)
		if err != nil {
			return "", err
		}
		parts = append(parts, p, notesPrint(ns))
	}
	return fingerprint(parts...), nil
}

// Consolidate plans every project (or takes the saved plan for these
// inputs, see plan.go) and, with opt.Apply, writes the accepted groups; a
// failure anywhere writes nothing and is returned.
func Consolidate(ctx context.Context, s *store.Store, client model.Client, projects []string, min int, cases []eval.Case, opt Options) (*ConsolidateResult, error) {
	res := &ConsolidateResult{Apply: opt.Apply, Projects: []ConsolidatePlan{}}
	inputs, err := consolidateInputs(ctx, s, client, projects, min, cases)
	if err != nil {
		return res, err
	}
	evalSet := ""
	if cases != nil {
		b, _ := json.Marshal(cases)
		evalSet = "eval=" + fingerprint(string(b))
	}
	scope := scopeOf(client, min, projects, evalSet, opt)
	sv, err := pickPlan(s.Home(), "consolidate", inputs, scope, opt)
	if err != nil {
		return res, err
	}
	if sv != nil {
		res.Plan, res.Saved, res.Projects = sv.ID, true, sv.Consolidate
	} else {
		var failed []string
		askedAny := false
		for _, p := range projects {
			plan, err := PlanConsolidate(ctx, s, client, p, min, cases)
			if err != nil {
				return res, err
			}
			newNotes := 0
			for i := range plan.Groups {
				if g := &plan.Groups[i]; g.Action == "synthesize" {
					newNotes++
					g.ID = note.NewID()
				}
			}
			if plan.Error == "" && newNotes > opt.maxNew() {
				plan.Error = overBound(newNotes, opt.maxNew())
			}
			if plan.Error != "" {
				failed = append(failed, p+": "+plan.Error)
			}
			askedAny = askedAny || plan.Skipped == ""
			res.Projects = append(res.Projects, plan)
		}
		if len(failed) > 0 {
			return res, fmt.Errorf("consolidate failed, nothing written: %s", strings.Join(failed, "; "))
		}
		if askedAny {
			sv := &saved{Command: "consolidate", Inputs: inputs, Scope: scope, Consolidate: res.Projects}
			if err := savePlan(s.Home(), sv); err != nil {
				return res, err
			}
			res.Plan = sv.ID
			if !opt.Apply {
				savePreview(s.Home(), sv)
			}
		}
	}
	if !opt.Apply {
		return res, nil
	}
	paths, err := run(ctx, s, "consolidate", res.Plan, func(t *store.Tx) error {
		for i := range res.Projects {
			p := &res.Projects[i]
			for j := range p.Groups {
				if g := &p.Groups[j]; g.Accepted {
					if err := applyGroup(ctx, s, t, p.Project, p.Model, opt.MachineID, g); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("consolidate failed, nothing written: %w", err)
	}
	clearPreview(s.Home(), "consolidate", scope)
	res.Paths, res.Written = paths, len(paths) > 0
	if !res.Written && res.Plan != "" {
		markApplied(s.Home(), res.Plan) // applied, with nothing to write: the next --apply asks again
	}
	return res, nil
}

// markHeld fills each accepted synthesis's HeldOnWrite for the report
// (Print and JSON alike). The plan was saved before any report: its hash
// is of what the model proposed and the gate's verdicts alone.
func (r *ConsolidateResult) markHeld() {
	for _, p := range r.Projects {
		for i, g := range p.Groups {
			p.Groups[i].HeldOnWrite = ""
			if g.Accepted && g.Action == "synthesize" {
				p.Groups[i].HeldOnWrite = heldOnWrite(g.Type, g.Title, g.Body, note.ProvMerge)
			}
		}
	}
}

// MarshalJSON is the --json report: the result with its held verdicts,
// which the text report prints.
func (r *ConsolidateResult) MarshalJSON() ([]byte, error) {
	r.markHeld()
	type plain ConsolidateResult
	return json.Marshal((*plain)(r))
}

// Print is the human report: every group with its verdict.
func (r *ConsolidateResult) Print(w io.Writer) {
	r.markHeld()
	lists := false
	for _, p := range r.Projects {
		switch {
		case p.Skipped != "":
			fmt.Fprintf(w, "consolidate %s: skipped (%s)\n", p.Project, p.Skipped)
			continue
		case p.Error != "":
			fmt.Fprintf(w, "consolidate %s: FAILED (%s): %s\n", p.Project, p.Model, p.Error)
			continue
		}
		fmt.Fprintf(w, "consolidate %s: %d durable note(s), %d group(s) proposed (%s); gate: %d %s case(s), recall@8\n",
			p.Project, p.Notes, len(p.Groups), p.Model, p.GateCases, p.GateSet)
		for _, g := range p.Groups {
			verdict := "REJECTED"
			if g.Accepted {
				verdict = "accepted"
				if r.Written {
					verdict = "applied"
				}
			}
			what := "keep " + g.KeeperID
			if g.Action == "synthesize" {
				what = fmt.Sprintf("synthesize %s %q", g.Type, g.Title)
				if g.ID != "" {
					what += " as " + g.ID
				}
			}
			fmt.Fprintf(w, "  %-8s recall %.3f -> %.3f  %s, superseding %s\n", verdict, g.RecallBefore, g.RecallAfter, what, strings.Join(g.Superseded, " "))
			if len(g.Lost) > 0 {
				fmt.Fprintf(w, "           would make unfindable: %s\n", strings.Join(g.Lost, ", "))
			}
			if g.HeldOnWrite != "" {
				fmt.Fprintf(w, "           held on write: it %s; it supersedes nothing (the notes stay shown) until a person releases it\n", g.HeldOnWrite)
			}
			if g.Accepted && len(g.Superseded) > 1 {
				lists = true
			}
		}
	}
	if lists {
		fmt.Fprintln(w, SeedEraNotice)
	}
	printPlan(w, r.Plan, r.Apply, r.Written)
}

// SeedEraNotice is said wherever a note gets a supersedes list of several
// ids: no single value says "supersedes these" to both reference versions.
const SeedEraNotice = "note: a note superseding several notes lists them (supersedes: [...]), as the newest reference implementation writes; the seed-era reference cannot read such a note and its reindex, search and sync stop on a home that holds one (anamnesis doctor says when that version indexed the home last)"
