package lifecycle

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func requests(s *standIn) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// A dry run saves its plan; --apply over the same inputs writes exactly
// that plan (the ids and texts the preview showed) without asking the model
// again, even though the model would now answer differently; a plan is
// applied once.
func TestApplyWritesThePreviewedPlan(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "Previewed fact", "body": "What the preview showed."}]`)
	srv.answer(`[{"type": "semantic", "title": "Unseen fact", "body": "What nobody saw."}]`)
	c := srv.client(t, 5*time.Second)
	dry, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil || len(dry.Plan) != 16 || len(dry.Projects[0].Notes) != 1 {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	var out strings.Builder
	dry.Print(&out)
	if !strings.Contains(out.String(), "plan "+dry.Plan+" saved") || !strings.Contains(out.String(), dry.Projects[0].Notes[0].ID) {
		t.Errorf("the dry run does not print its plan id and note id:\n%s", out.String())
	}
	res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written || !res.Saved || res.Plan != dry.Plan {
		t.Fatalf("apply: %+v %v", res, err)
	}
	if n := requests(srv); n != 1 {
		t.Errorf("the model was asked %d times, want once (the dry run)", n)
	}
	got, err := s.Get(ctx, dry.Projects[0].Notes[0].ID)
	if err != nil || got.Title != "Previewed fact" || got.Body != "What the preview showed." {
		t.Fatalf("written note: %+v %v", got, err)
	}
	if n, _ := s.Count(ctx, store.Filter{Prov: note.ProvReflection}); n != 1 {
		t.Errorf("%d reflection notes", n)
	}
	if _, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box", Plan: dry.Plan}); err == nil {
		t.Error("a plan whose inputs changed (its sources are tagged now) was applied again")
	}
}

// --apply --plan ID applies the named plan; one whose inputs changed is
// refused; --apply with no saved plan asks once, applies and names that
// answer's plan.
func TestApplyNamedPlanAndFreshApply(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "First", "body": "one"}]`)
	srv.answer(`[{"type": "semantic", "title": "Second", "body": "two"}]`)
	c := srv.client(t, 5*time.Second)
	first, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil || second.Plan == first.Plan {
		t.Fatalf("second dry run: %+v %v", second, err)
	}
	if _, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box", Plan: "../../etc"}); err == nil {
		t.Error("a plan id that is not one was accepted")
	}
	// A new episodic: the named plan no longer describes the inputs.
	extra := add(t, s, note.Episodic, "demo", "Later", "later work", "2026-02-01T00:00:00+00:00", "session")
	if _, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box", Plan: first.Plan}); err == nil || !strings.Contains(err.Error(), "no longer applies") {
		t.Errorf("a stale plan: %v", err)
	}
	if err := s.Delete(ctx, extra.ID); err != nil {
		t.Fatal(err)
	}
	res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box", Plan: first.Plan})
	if err != nil || !res.Written || res.Projects[0].Notes[0].Title != "First" {
		t.Fatalf("named plan: %+v %v", res, err)
	}
	if n := requests(srv); n != 2 {
		t.Errorf("%d model calls, want 2", n)
	}
	// No saved plan for these inputs: ask once, apply, print the plan.
	episodics(t, s, "fresh", 5)
	srv.answer(`[{"type": "procedural", "title": "Fresh", "body": "three"}]`)
	res, err = Reflect(ctx, s, c, []string{"fresh"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written || res.Saved || res.Plan == "" || requests(srv) != 3 {
		t.Fatalf("fresh apply: %+v %v", res, err)
	}
	var out strings.Builder
	res.Print(&out)
	if !strings.Contains(out.String(), "plan "+res.Plan+" applied") || !strings.Contains(out.String(), "Fresh") {
		t.Errorf("fresh apply report:\n%s", out.String())
	}
}

// A reply over the bound (50 new notes per project per run by default)
// writes nothing and says why; the bound is configurable.
func TestReplyIsBounded(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	var items []string
	for i := range 51 {
		items = append(items, fmt.Sprintf(`{"type": "semantic", "title": "Fact %d", "body": "body %d"}`, i, i))
	}
	reply := "[" + strings.Join(items, ",") + "]"
	srv := newStandIn(t)
	srv.answer(reply)
	srv.answer(reply)
	c := srv.client(t, 5*time.Second)
	snap := tree(t, s)
	res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err == nil || !strings.Contains(err.Error(), "51 new notes, over the limit of 50") || res.Written {
		t.Fatalf("over the bound: %v", err)
	}
	sameTree(t, snap, tree(t, s))
	res, err = Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box", MaxNew: 60})
	if err != nil || !res.Written || len(res.Projects[0].Notes) != 51 {
		t.Fatalf("with --max-new 60: %v", err)
	}
	// Consolidate's synthesized notes count too.
	var groups []string
	ns, _ := Mergeable(ctx, s, "demo")
	for i := 0; i+1 < 6; i += 2 {
		groups = append(groups, fmt.Sprintf(`{"action": "synthesize", "type": "semantic", "title": "Merged %d", "body": "body %d and %d", "superseded_ids": [%q, %q]}`, i, i, i+1, ns[i].ID, ns[i+1].ID))
	}
	srv.answer("[" + strings.Join(groups, ",") + "]")
	snap = tree(t, s)
	if _, err := Consolidate(ctx, s, c, []string{"demo"}, 2, nil, Options{Apply: true, MachineID: "box", MaxNew: 2}); err == nil || !strings.Contains(err.Error(), "3 new notes, over the limit of 2") {
		t.Errorf("consolidate over the bound: %v", err)
	}
	sameTree(t, snap, tree(t, s))
}

// Without git on PATH (a Windows machine without Git for Windows) an apply
// writes its notes and says they are not committed; its journal must not
// stop every later apply ("completing the interrupted reflect: git is not
// on PATH", found under Wine), whether Finish ran or the command was cut
// short before it.
func TestApplyWithoutGit(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	c := srv.client(t, 5*time.Second)
	t.Setenv("PATH", t.TempDir())
	for i, title := range []string{"One", "Two", "Three"} {
		srv.answer(`[{"type": "semantic", "title": "` + title + `", "body": "b"}]`)
		res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
		if err != nil || !res.Written {
			t.Fatalf("apply %d: %+v %v", i, res, err)
		}
		episodics(t, s, "demo", 5)
		if i == 1 {
			continue // cut short before Finish: the next apply recovers its journal
		}
		if _, err := Finish(ctx, s.Home(), "box", nil, res.Paths, "anamnesis reflect (box)"); err == nil || !strings.Contains(err.Error(), "git is not on PATH") {
			t.Errorf("apply %d: Finish without git: %v", i, err)
		}
	}
	if _, err := os.Stat(journalPath(s.Home())); err == nil {
		t.Error("a journal was left")
	}
}

// Saving a plan prunes the plans already applied and those older than
// planAge, with the current-plan pointers naming them; a recent unapplied
// plan stays and can still be applied by id.
func TestSavedPlansArePruned(t *testing.T) {
	home := t.TempDir()
	save := func(inputs string) *saved {
		t.Helper()
		sv := &saved{Command: "reflect", Inputs: inputs, Reflect: []ReflectPlan{{Project: inputs}}}
		if err := savePlan(home, sv); err != nil {
			t.Fatal(err)
		}
		return sv
	}
	applied, old, recent := save("a"), save("b"), save("c")
	markApplied(home, applied.ID)
	past := time.Now().Add(-planAge - time.Hour)
	os.Chtimes(filepath.Join(plansDir(home), old.ID+".json"), past, past)
	if _, err := os.Stat(filepath.Join(plansDir(home), old.ID+".json")); err != nil {
		t.Fatal("the old plan is gone before the next save:", err)
	}
	fresh := save("d")
	entries, _ := os.ReadDir(plansDir(home))
	var names []string
	for _, de := range entries {
		names = append(names, de.Name())
	}
	for _, gone := range []*saved{applied, old} {
		if _, err := os.Stat(filepath.Join(plansDir(home), gone.ID+".json")); !os.IsNotExist(err) {
			t.Errorf("plan %s (inputs %s) was kept: %v", gone.ID, gone.Inputs, names)
		}
	}
	if _, err := os.Stat(currentPath(home, "reflect", "b")); !os.IsNotExist(err) {
		t.Errorf("the pointer to the pruned plan was kept: %v", names)
	}
	for _, kept := range []*saved{recent, fresh} {
		if sv, err := loadPlan(home, "reflect", kept.ID); err != nil || currentPlan(home, "reflect", kept.Inputs) == nil {
			t.Errorf("plan %s (inputs %s) was pruned: %v %v", kept.ID, kept.Inputs, sv, err)
		}
	}
	if len(names) != 4 { // two plans, two pointers
		t.Errorf("state/plans holds %v", names)
	}
	if _, err := loadPlan(home, "reflect", old.ID); err == nil || !strings.Contains(err.Error(), "removed") {
		t.Errorf("loading a pruned plan: %v", err)
	}
}

// The dry run prints "--apply applies exactly this plan". When the notes
// change before --apply (a session ends in the project: capture adds an
// episodic; a durable note is edited), that plan no longer holds, and
// --apply asked the model again and wrote its new answer, which nobody had
// seen (SPEC 17: never a second, unseen answer). --apply now refuses and
// says to run the dry run again; --apply with no dry run before it still
// asks once and applies, and a dry run again makes --apply work.
func TestApplyAfterStaleDryRunRefuses(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "Previewed fact", "body": "What the preview showed."}]`)
	srv.answer(`[{"type": "semantic", "title": "Unseen fact", "body": "What nobody saw."}]`)
	srv.answer(`[{"type": "semantic", "title": "Second preview", "body": "Seen again."}]`)
	c := srv.client(t, 5*time.Second)
	dry, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil || dry.Plan == "" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	add(t, s, note.Episodic, "demo", "A session that ended meanwhile", "more work", "2026-02-01T00:00:00+00:00", "session")
	before := tree(t, s)
	res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err == nil || !strings.Contains(err.Error(), dry.Plan) {
		t.Errorf("apply after a stale dry run: err %v, result %+v", err, res)
	}
	sameTree(t, before, tree(t, s))
	if n := requests(srv); n != 1 {
		t.Errorf("the model was asked %d times, want once (the dry run)", n)
	}
	// The dry run again: its plan is what --apply writes.
	dry2, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{MachineID: "box"})
	if err != nil {
		t.Fatal(err)
	}
	srv.answer(`[{"type": "semantic", "title": "Never asked", "body": "x"}]`)
	res, err = Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written || res.Plan != dry2.Plan || res.Projects[0].Notes[0].Title != dry2.Projects[0].Notes[0].Title {
		t.Fatalf("apply after a fresh dry run: %+v %v", res, err)
	}
	// Applied: the next --apply (no dry run since) asks once as before.
	add(t, s, note.Episodic, "demo", "Yet another session", "x", "2026-03-01T00:00:00+00:00", "session")
	for range 4 {
		add(t, s, note.Episodic, "demo", "More", "y", "2026-03-02T00:00:00+00:00", "session")
	}
	if res, err := Reflect(ctx, s, c, []string{"demo"}, 5, Options{Apply: true, MachineID: "box"}); err != nil || !res.Written {
		t.Fatalf("apply with no dry run since the last apply: %+v %v", res, err)
	}
}

// With --all the projects are every project with notes of the kind, so a
// session ending in a project that had none changes the list: the scope of
// a dry run of --all is "all projects", not the list it found, or its stale
// plan would go unrecognised and --apply would ask the model again.
func TestApplyAllAfterStaleDryRunRefuses(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "Previewed fact", "body": "What the preview showed."}]`)
	srv.answer(`[{"type": "semantic", "title": "Unseen fact", "body": "What nobody saw."}]`)
	c := srv.client(t, 5*time.Second)
	all := func() []string {
		ps, err := Projects(ctx, s, note.Episodic)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	dry, err := Reflect(ctx, s, c, all(), 5, Options{MachineID: "box", AllProjects: true})
	if err != nil || dry.Plan == "" {
		t.Fatalf("dry run: %+v %v", dry, err)
	}
	add(t, s, note.Episodic, "elsewhere", "A session in another project", "work", "2026-02-01T00:00:00+00:00", "session")
	before := tree(t, s)
	if res, err := Reflect(ctx, s, c, all(), 5, Options{Apply: true, MachineID: "box", AllProjects: true}); err == nil || !strings.Contains(err.Error(), dry.Plan) {
		t.Errorf("apply --all after a stale dry run: err %v, result %+v", err, res)
	}
	sameTree(t, before, tree(t, s))
	if n := requests(srv); n != 1 {
		t.Errorf("the model was asked %d times, want once (the dry run)", n)
	}
}
