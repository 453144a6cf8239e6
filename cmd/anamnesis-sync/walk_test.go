package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/walktest"
)

// A sync finds what changed from git, never from a walk of the store (SPEC
// 9): after the first sync of a store of 1,200 notes, the next one, which
// commits and pushes one new note, lists no note directory but through git
// (whose own walk is git's cost) and looks at a few note files, whatever
// the store holds. Counted with strace on the real process tree.
func TestSyncWalksNoDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("builds and traces a unix binary")
	}
	walktest.Available(t)
	home, remote := setup(t)
	ctx := context.Background()
	const notes = 1200
	walktest.Notes(t, home, "github.com/acme/quotes", notes)
	if _, _, err := runSync(t, "--home", home); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	n := note.New(note.Semantic, "Quotes cache", "The quotes service caches rates for an hour now.")
	if _, err := st.Write(ctx, n); err != nil {
		t.Fatal(err)
	}
	st.Close()

	bin := filepath.Join(t.TempDir(), "anamnesis-sync")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out, tr := walktest.Run(t, exec.Command(bin, "--home", home))
	if !strings.Contains(out, "pushed=true") {
		t.Fatalf("sync printed %q", out)
	}
	if !tr.Started("git") {
		t.Fatalf("the trace holds no git (ran %v)", tr.Ran)
	}
	for prog, k := range tr.ListedBy {
		if prog != "git" {
			t.Errorf("%s listed note directories %d times (all listings: %v)", prog, k, tr.Listed)
		}
	}
	if k := tr.By["anamnesis-sync"]; k > 10 {
		t.Errorf("the sync looked at %d of the store's %d note files (by program: %v)", k, notes+1, tr.By)
	}
	if got := gitOut(t, remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(got, n.ID) {
		t.Errorf("the remote lacks the new note")
	}
	t.Logf("listings by program %v; note files looked at by program %v", tr.ListedBy, tr.By)
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"--git-dir", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}
