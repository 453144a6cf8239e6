package lifecycle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// DefaultMin is how many unreflected episodics a project needs before reflect
// (and how many durable notes before consolidate) is worth a model call.
const DefaultMin = 5

const reflectPrompt = `You distill a developer's past session notes for one project into durable, reusable memory. You are given several episodic notes, each a summary of one Claude Code session, oldest first.

Return ONLY a JSON array, no prose. Each element is an object:
{"type": "semantic" | "procedural", "title": <string>, "body": <string>}

Use "semantic" for durable facts, decisions and preferences; use "procedural" for repeatable how-tos and procedures. Merge points that recur across sessions into one entry. Omit one-off chatter, transient state, and anything specific to a single session. Keep each entry concise (title under 80 characters). Return an empty array [] if nothing is worth keeping. Never include secrets, API keys, tokens, or credentials.`

// Proposed is a note the model proposes.
type Proposed struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	Body  string `json:"body"`
	ID    string `json:"id,omitempty"` // set once written
	// HeldOnWrite is why the screen will hold (or, written, holds) the
	// note: the report's verdict (markHeld), never part of the plan.
	HeldOnWrite string `json:"held_on_write,omitempty"`
}

// ReflectPlan is what reflect does (or did) to one project.
type ReflectPlan struct {
	Project   string     `json:"project"`
	Episodics []string   `json:"episodics"` // the sources, oldest first; tagged reflected on apply
	Notes     []Proposed `json:"notes"`
	Model     string     `json:"model,omitempty"`
	Skipped   string     `json:"skipped,omitempty"` // why no model call was made
	Error     string     `json:"error,omitempty"`
}

// Unreflected is a project's portable episodics not tagged reflected, oldest first.
func Unreflected(ctx context.Context, s *store.Store, project string) ([]*note.Note, error) {
	all, err := s.List(ctx, store.Filter{Project: project, Type: note.Episodic, Scope: note.Portable})
	if err != nil {
		return nil, err
	}
	var out []*note.Note
	for _, n := range all {
		if !n.HasTag(TagReflected) {
			out = append(out, n)
		}
	}
	oldestFirst(out)
	return out, nil
}

// PlanReflect asks the model what one project's episodics teach. A project
// under min is skipped without a call; a model failure is the plan's Error.
func PlanReflect(ctx context.Context, s *store.Store, client model.Client, project string, min int) (ReflectPlan, error) {
	p := ReflectPlan{Project: project, Episodics: []string{}, Notes: []Proposed{}}
	eps, err := Unreflected(ctx, s, project)
	if err != nil {
		return p, err
	}
	switch {
	case len(eps) == 0:
		p.Skipped = "nothing to reflect: no unreflected episodic notes"
		return p, nil
	case len(eps) < min:
		p.Skipped = fmt.Sprintf("%d unreflected episodic note(s), fewer than %d", len(eps), min)
		return p, nil
	}
	if client == nil {
		return p, model.ErrNoProvider
	}
	eps, err = bodies(ctx, s, eps, true)
	if err != nil {
		return p, err
	}
	// Window: the oldest first, as many as the provider's budget holds. Only
	// the notes sent are tagged, so the rest wait for the next run.
	var b strings.Builder
	for _, n := range eps {
		part := "## " + n.Title + "\n" + redact.String(n.Body) + "\n\n"
		if b.Len() > 0 && b.Len()+len(part) > client.Budget() {
			break
		}
		if len(part) > client.Budget() {
			part = part[:client.Budget()]
		}
		b.WriteString(part)
		p.Episodics = append(p.Episodics, n.ID)
	}
	p.Model = client.Label()
	reply, err := client.Complete(ctx, reflectPrompt, b.String())
	if err != nil {
		p.Error = model.OneLine(err.Error())
		return p, nil
	}
	notes, err := parseReflection(reply)
	if err != nil {
		p.Error = err.Error()
		return p, nil
	}
	p.Notes = notes
	return p, nil
}

// parseReflection reads the model's JSON array; anything else is an error.
func parseReflection(reply string) ([]Proposed, error) {
	var items []map[string]any
	if err := json.Unmarshal([]byte(model.JSON(reply)), &items); err != nil {
		return nil, fmt.Errorf("the model's reply is not a JSON array of notes: %s", quoteReply(reply))
	}
	out := []Proposed{}
	for i, it := range items {
		p, err := proposed(it)
		if err != nil {
			return nil, fmt.Errorf("note %d: %w", i+1, err)
		}
		out = append(out, p)
	}
	return out, nil
}

// proposed checks one {type, title, body} object and redacts it.
func proposed(it map[string]any) (Proposed, error) {
	str := func(k string) string { v, _ := it[k].(string); return strings.TrimSpace(v) }
	p := Proposed{Type: str("type"), Title: str("title"), Body: str("body")}
	if p.Type != note.Semantic && p.Type != note.Procedural {
		return p, fmt.Errorf("type %q is not semantic or procedural", p.Type)
	}
	if p.Title == "" || p.Body == "" {
		return p, errors.New("title or body is missing")
	}
	p.Title = strings.Join(strings.Fields(redact.String(p.Title)), " ")
	if r := []rune(p.Title); len(r) > 200 {
		p.Title = string(r[:200])
	}
	p.Body = redact.String(p.Body)
	return p, nil
}

// ApplyReflect writes the plans' notes (with the ids the plan gave them)
// and tags their sources reflected, all or nothing, across a crash too. It
// returns the changed files (relative to <home>/memory).
func ApplyReflect(ctx context.Context, s *store.Store, plans []ReflectPlan, machineID, planID string) ([]string, error) {
	return run(ctx, s, "reflect", planID, func(t *store.Tx) error {
		for i := range plans {
			p := &plans[i]
			if p.Skipped != "" || p.Error != "" {
				continue
			}
			for j := range p.Notes {
				pn := &p.Notes[j]
				n := note.New(pn.Type, pn.Title, pn.Body)
				n.Project, n.MachineID = p.Project, machineID
				n.ProvSource, n.ProvModel, n.Confidence = note.ProvReflection, p.Model, Confidence
				n.Tags = []string{TagReflection}
				if pn.ID == "" {
					pn.ID = note.NewID()
				} else if _, err := s.Path(ctx, pn.ID); err == nil {
					return fmt.Errorf("note %s of the plan exists already: the plan was applied before", pn.ID)
				}
				n.ID = pn.ID
				n.CreatedAt = note.Now()
				n.UpdatedAt = n.CreatedAt
				if err := t.Put(ctx, n); err != nil {
					return err
				}
			}
			for _, id := range p.Episodics {
				ep, err := s.Get(ctx, id)
				if err != nil {
					return err
				}
				if ep.HasTag(TagReflected) {
					continue
				}
				ep.Tags = append(slices.Clone(ep.Tags), TagReflected)
				if err := rewrite(ctx, t, ep); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// ReflectResult is a reflect run over some projects.
type ReflectResult struct {
	Apply    bool          `json:"apply"`
	Written  bool          `json:"written"`
	Plan     string        `json:"plan,omitempty"`  // the saved plan's id
	Saved    bool          `json:"saved,omitempty"` // applied from a plan saved earlier (no model call)
	Projects []ReflectPlan `json:"projects"`
	Paths    []string      `json:"-"`
	Lines    []string      `json:"sync,omitempty"`
}

// reflectInputs is the fingerprint of a reflect run's inputs.
func reflectInputs(ctx context.Context, s *store.Store, client model.Client, projects []string, min int) (string, error) {
	parts := []string{"min=" + strconv.Itoa(min)}
	if client != nil {
		parts = append(parts, client.Label())
	}
	for _, p := range projects {
		eps, err := Unreflected(ctx, s, p)
		if err != nil {
			return "", err
		}
		parts = append(parts, p, notesPrint(eps))
	}
	return fingerprint(parts...), nil
}

// Reflect plans every project (or takes the saved plan for these inputs,
// see plan.go) and, with opt.Apply, writes it, but only when no project
// failed: a failure anywhere writes nothing and is returned.
func Reflect(ctx context.Context, s *store.Store, client model.Client, projects []string, min int, opt Options) (*ReflectResult, error) {
	res := &ReflectResult{Apply: opt.Apply, Projects: []ReflectPlan{}}
	inputs, err := reflectInputs(ctx, s, client, projects, min)
	if err != nil {
		return res, err
	}
	scope := scopeOf(client, min, projects, "", opt)
	sv, err := pickPlan(s.Home(), "reflect", inputs, scope, opt)
	if err != nil {
		return res, err
	}
	if sv != nil {
		res.Plan, res.Saved, res.Projects = sv.ID, true, sv.Reflect
	} else {
		var failed []string
		for _, p := range projects {
			plan, err := PlanReflect(ctx, s, client, p, min)
			if err != nil {
				return res, err
			}
			if plan.Error == "" && len(plan.Notes) > opt.maxNew() {
				plan.Error = overBound(len(plan.Notes), opt.maxNew())
			}
			if plan.Error != "" {
				failed = append(failed, p+": "+plan.Error)
			}
			for i := range plan.Notes {
				plan.Notes[i].ID = note.NewID()
			}
			res.Projects = append(res.Projects, plan)
		}
		if len(failed) > 0 {
			return res, fmt.Errorf("reflect failed, nothing written: %s", strings.Join(failed, "; "))
		}
		if asked(res.Projects) {
			sv := &saved{Command: "reflect", Inputs: inputs, Scope: scope, Reflect: res.Projects}
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
	paths, err := ApplyReflect(ctx, s, res.Projects, opt.MachineID, res.Plan)
	if err != nil {
		return res, fmt.Errorf("reflect failed, nothing written: %w", err)
	}
	clearPreview(s.Home(), "reflect", scope)
	res.Paths, res.Written = paths, len(paths) > 0
	if !res.Written && res.Plan != "" {
		markApplied(s.Home(), res.Plan) // applied, with nothing to write: the next --apply asks again
	}
	return res, nil
}

// asked reports whether any project's plan came from the model.
func asked(ps []ReflectPlan) bool {
	for _, p := range ps {
		if p.Skipped == "" && p.Error == "" {
			return true
		}
	}
	return false
}

// markHeld fills each proposed note's HeldOnWrite for the report (Print
// and JSON alike). The plan was saved before any report: its hash is of
// what the model proposed alone.
func (r *ReflectResult) markHeld() {
	for _, p := range r.Projects {
		for i, n := range p.Notes {
			p.Notes[i].HeldOnWrite = heldOnWrite(n.Type, n.Title, n.Body, note.ProvReflection)
		}
	}
}

// MarshalJSON is the --json report: the result with its held verdicts,
// which the text report prints.
func (r *ReflectResult) MarshalJSON() ([]byte, error) {
	r.markHeld()
	type plain ReflectResult
	return json.Marshal((*plain)(r))
}

// Print is the human report.
func (r *ReflectResult) Print(w io.Writer) {
	r.markHeld()
	for _, p := range r.Projects {
		switch {
		case p.Skipped != "":
			fmt.Fprintf(w, "reflect %s: skipped (%s)\n", p.Project, p.Skipped)
			continue
		case p.Error != "":
			fmt.Fprintf(w, "reflect %s: FAILED (%s): %s\n", p.Project, p.Model, p.Error)
			continue
		}
		verb := "would write"
		if r.Written {
			verb = "wrote"
		}
		if r.Written && r.Saved {
			verb = "wrote (saved plan, no new model call)"
		}
		fmt.Fprintf(w, "reflect %s: %d episodic note(s) -> %s %d note(s) (%s)\n", p.Project, len(p.Episodics), verb, len(p.Notes), p.Model)
		for _, n := range p.Notes {
			id := n.ID
			if id == "" {
				id = "(new)"
			}
			fmt.Fprintf(w, "  + %s %-10s %s\n", id, n.Type, n.Title)
			if n.HeldOnWrite != "" {
				fmt.Fprintf(w, "    held on write: it %s; kept out of the model's context until a person releases it (anamnesis release %s)\n", n.HeldOnWrite, id)
			}
		}
		if len(p.Episodics) > 0 {
			fmt.Fprintf(w, "  tag reflected: %s\n", strings.Join(p.Episodics, " "))
		}
	}
	printPlan(w, r.Plan, r.Apply, r.Written)
}

// printPlan says which plan this was and how to apply exactly it.
func printPlan(w io.Writer, id string, apply, written bool) {
	switch {
	case id == "":
	case !apply:
		fmt.Fprintf(w, "plan %s saved: --apply applies exactly this plan (or --apply --plan %s)\n", id, id)
	case written:
		fmt.Fprintf(w, "plan %s applied\n", id)
	default:
		fmt.Fprintf(w, "plan %s: nothing to write\n", id)
	}
}
