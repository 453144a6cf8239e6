package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Experiment is eval experiment's report: retrieval before and after reflect
// (or consolidate) on a sandbox copy, and how many notes inject could show.
type Experiment struct {
	Pass             string      `json:"pass"` // "reflect" or "consolidate"
	Before           eval.Report `json:"before"`
	After            eval.Report `json:"after"`
	InjectableBefore int         `json:"injectable_before"`
	InjectableAfter  int         `json:"injectable_after"`
	// The inject blocks' total characters over the set's projects.
	InjectCharsBefore int      `json:"inject_chars_before"`
	InjectCharsAfter  int      `json:"inject_chars_after"`
	NotesWritten      int      `json:"notes_written"`
	Failures          []string `json:"failures,omitempty"`
}

// RunExperiment copies the store to a sandbox, measures, runs the pass over
// every project of the eval set, and measures again. The live store is never
// touched. budget is inject's output budget (0 = unlimited).
func RunExperiment(ctx context.Context, s *store.Store, client model.Client, cases []eval.Case, consolidate bool, min, budget int) (*Experiment, error) {
	x := &Experiment{Pass: "reflect"}
	if consolidate {
		x.Pass = "consolidate"
	}
	sb, done, err := Sandbox(ctx, s)
	if err != nil {
		return nil, err
	}
	defer done()
	var projects []string
	for _, c := range cases {
		if c.Project != "" && !slices.Contains(projects, c.Project) {
			projects = append(projects, c.Project)
		}
	}
	if len(projects) == 0 {
		if projects, err = Projects(ctx, sb, ""); err != nil {
			return nil, err
		}
	}
	slices.Sort(projects)
	if x.Before, err = Measure(ctx, sb, cases); err != nil {
		return nil, err
	}
	if x.InjectableBefore, err = injectable(ctx, sb, projects); err != nil {
		return nil, err
	}
	if x.InjectCharsBefore, err = blocks(ctx, sb, projects, budget); err != nil {
		return nil, err
	}
	// Each project on its own: one project's failure is reported, not fatal.
	for _, p := range projects {
		if consolidate {
			r, err := Consolidate(ctx, sb, client, []string{p}, min, nil, Options{Apply: true, MachineID: "sandbox", MaxNew: 1 << 30})
			if err != nil {
				x.Failures = append(x.Failures, err.Error())
				continue
			}
			for _, pl := range r.Projects {
				for _, g := range pl.Groups {
					if g.Accepted {
						x.NotesWritten++
					}
				}
			}
			continue
		}
		r, err := Reflect(ctx, sb, client, []string{p}, min, Options{Apply: true, MachineID: "sandbox", MaxNew: 1 << 30})
		if err != nil {
			x.Failures = append(x.Failures, err.Error())
			continue
		}
		for _, pl := range r.Projects {
			x.NotesWritten += len(pl.Notes)
		}
	}
	if x.After, err = Measure(ctx, sb, cases); err != nil {
		return nil, err
	}
	if x.InjectableAfter, err = injectable(ctx, sb, projects); err != nil {
		return nil, err
	}
	if x.InjectCharsAfter, err = blocks(ctx, sb, projects, budget); err != nil {
		return nil, err
	}
	return x, nil
}

// blocks is the characters of inject's blocks for projects, as the hook
// renders them (k = 8, the configured budget).
func blocks(ctx context.Context, s *store.Store, projects []string, budget int) (int, error) {
	total := 0
	for _, p := range projects {
		r, err := inject.Block(ctx, s, p, 8, budget, nil)
		if err != nil {
			return 0, err
		}
		total += hook.Width(r.Block)
	}
	return total, nil
}

func injectable(ctx context.Context, s *store.Store, projects []string) (int, error) {
	total := 0
	for _, p := range append([]string{note.Global}, projects...) {
		n, err := s.CountInjectable(ctx, p)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// Print is the human report.
func (x *Experiment) Print(w io.Writer) {
	fmt.Fprintf(w, "eval experiment (%s on a sandbox copy): %d case(s), %d note(s)/group(s) written\n", x.Pass, x.Before.Cases, x.NotesWritten)
	fmt.Fprintf(w, "%-10s %8s %8s\n", "", "before", "after")
	for _, k := range eval.Ks {
		fmt.Fprintf(w, "%-10s %8.3f %8.3f\n", fmt.Sprintf("recall@%d", k), x.Before.Recall[k], x.After.Recall[k])
	}
	fmt.Fprintf(w, "%-10s %8.3f %8.3f\n", "MRR", x.Before.MRR, x.After.MRR)
	fmt.Fprintf(w, "%-10s %8d %8d  (notes inject may show, global + the set's projects)\n", "injectable", x.InjectableBefore, x.InjectableAfter)
	fmt.Fprintf(w, "%-10s %8d %8d  (characters of the inject blocks, summed over the set's projects)\n", "inject", x.InjectCharsBefore, x.InjectCharsAfter)
	for _, f := range x.Failures {
		fmt.Fprintf(w, "failed: %s\n", f)
	}
}

const buildPrompt = `You write retrieval test queries for a developer's memory notes. For each note given (with its id), write ONE short natural question a developer would ask whose answer is in that note, without copying the note's title word for word.

Return ONLY a JSON array, no prose: [{"id": <note id>, "query": <string>}, ...], one element per note, using only the ids given.`

// Build samples up to n notes of types (not superseded, spread evenly over
// the store) and asks the model for one query each; the cases come back
// unapproved, for a human to review.
func Build(ctx context.Context, s *store.Store, client model.Client, n int, types []string, project string) ([]eval.Case, error) {
	if client == nil {
		return nil, model.ErrNoProvider
	}
	sup, err := s.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	var pool []*note.Note
	for _, t := range types {
		ns, err := s.List(ctx, store.Filter{Type: t, Project: project})
		if err != nil {
			return nil, err
		}
		for _, x := range ns {
			if !sup[x.ID] {
				pool = append(pool, x)
			}
		}
	}
	slices.SortFunc(pool, func(a, b *note.Note) int { return strings.Compare(a.ID, b.ID) })
	var sample []*note.Note
	if len(pool) <= n {
		sample = pool
	} else {
		for i := range n {
			sample = append(sample, pool[i*len(pool)/n])
		}
	}
	if len(sample) == 0 {
		return []eval.Case{}, nil
	}
	if sample, err = bodies(ctx, s, sample, false); err != nil {
		return nil, err
	}
	var b strings.Builder
	byID := map[string]*note.Note{}
	for _, x := range sample {
		part := fmt.Sprintf("## [%s] %s\n%s\n\n", x.ID, x.Title, redact.String(x.Body))
		if b.Len() > 0 && b.Len()+len(part) > client.Budget() {
			break
		}
		b.WriteString(part)
		byID[x.ID] = x
	}
	reply, err := client.Complete(ctx, buildPrompt, b.String())
	if err != nil {
		return nil, err
	}
	var items []struct{ ID, Query string }
	if err := json.Unmarshal([]byte(model.JSON(reply)), &items); err != nil {
		return nil, fmt.Errorf("the model's reply is not a JSON array of queries: %s", quoteReply(reply))
	}
	no := false
	out := []eval.Case{}
	for i, it := range items {
		x := byID[it.ID]
		if x == nil {
			return nil, fmt.Errorf("query %d names %q, which is not one of the notes given", i+1, it.ID)
		}
		q := strings.Join(strings.Fields(redact.String(it.Query)), " ")
		if q == "" {
			return nil, fmt.Errorf("query %d is empty", i+1)
		}
		out = append(out, eval.Case{Query: q, RelevantIDs: []string{x.ID}, Project: x.Project, Approved: &no, Source: "eval-build:" + client.Label()})
	}
	return out, nil
}
