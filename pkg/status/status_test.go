package status

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestReport(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	n := note.New(note.Semantic, "a fact", "body")
	n.MachineID = "box"
	if _, err := st.Write(ctx, n); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "memory", "semantic", "bad.md"), []byte("no front-matter"), 0o644)
	if _, err := st.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	rep, err := Build(ctx, st, "box", gitsync.State(ctx, home, "https://bob:s3cret@host.invalid/x.git", st))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 1 || rep.ByMachine["box"] != 1 || rep.Unreadable != 1 || len(rep.Problems) != 1 || rep.Problems[0].Path != "memory/semantic/bad.md" {
		t.Fatalf("report %+v", rep)
	}
	js, _ := json.Marshal(rep)
	var text bytes.Buffer
	rep.Text(&text)
	for _, out := range []string{string(js), text.String()} {
		if strings.Contains(out, "s3cret") || !strings.Contains(out, "bob:***@host.invalid") {
			t.Errorf("remote not masked in %s", out)
		}
	}
	// Seed 003's keys come first, in its order.
	keys := []string{`"root"`, `"db_path"`, `"total"`, `"by_type"`, `"by_project"`, `"by_scope"`, `"sync"`}
	last := -1
	for _, k := range keys {
		i := strings.Index(string(js), k)
		if i < last {
			t.Errorf("%s out of seed 003's order in %s", k, js)
		}
		last = i
	}
}

// A team's rewrite found by a fetch after the last sync (the dashboard's
// Fetch, team review) is said under that team's line, which predates it;
// a team with no line gets its own; a line that says it already is not
// repeated.
func TestTextSaysPendingTeamRewrites(t *testing.T) {
	pending := gitsync.Pending{Detail: "the remote's main was rewritten or deleted: ...", Fix: "anamnesis sync"}
	r := Report{Sync: gitsync.RepoState{
		Detail: "ok",
		Last: &gitsync.LastSync{At: "2026-01-01T00:00:00Z", Result: gitsync.Result{Teams: []gitsync.TeamResult{
			{Name: "plat", Head: "abc1234", Detail: "ok"},
			{Name: "ops", Head: "def5678", Detail: "it said so: " + pending.Detail},
		}}},
		TeamRewrites: []gitsync.TeamRewrite{{Team: "plat", Pending: pending}, {Team: "ops", Pending: pending}, {Team: "web", Pending: pending}},
	}}
	var b bytes.Buffer
	if err := r.Text(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, pending.Detail); n != 3 {
		t.Errorf("the pending rewrite is said %d times, want 3 (plat's, ops's line, web's):\n%s", n, out)
	}
	for _, want := range []string{"team:     plat: ", "          since then: " + pending.Detail, "team:     web: " + pending.Detail} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
