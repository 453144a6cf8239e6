package lifecycle

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// dedup plans from the files: a copy whose file another writer removed is
// not planned (the index was stale), and the apply succeeds.
func TestDedupPlansFromDisk(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	a := add(t, s, note.Semantic, "demo", "A", "same text", "2026-01-01T00:00:00+00:00")
	b := add(t, s, note.Semantic, "demo", "B", "same text", "2026-01-02T00:00:00+00:00")
	c := add(t, s, note.Semantic, "demo", "C", "same text", "2026-01-03T00:00:00+00:00")
	p, _ := s.Path(ctx, b.ID)
	if err := os.Remove(p); err != nil { // behind the index's back
		t.Fatal(err)
	}
	res, err := Dedup(ctx, s, true)
	if err != nil {
		t.Fatalf("dedup with a stale index: %v", err)
	}
	if len(res.Changes) != 1 || res.Changes[0].ID != c.ID || res.Changes[0].KeptID != a.ID {
		t.Errorf("changes %+v", res.Changes)
	}
	if _, err := s.Get(ctx, a.ID); err != nil {
		t.Errorf("the keeper: %v", err)
	}
	if n, _ := s.Count(ctx, store.Filter{Project: "demo"}); n != 1 {
		t.Errorf("%d notes left, want 1", n)
	}
}

// dedup never deletes the only visible copy of a text: a copy nothing
// supersedes is kept over an older one that is superseded; and a keeper
// takes over what the deleted copies superseded, so nothing they hid comes
// back.
func TestDedupKeepsTheVisibleCopy(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	old := add(t, s, note.Semantic, "demo", "Port", "The port is 8803.", "2026-01-01T00:00:00+00:00")
	newer := add(t, s, note.Semantic, "demo", "Port", "The port is 8803.", "2026-01-02T00:00:00+00:00")
	hider := add(t, s, note.Semantic, "demo", "Port (new)", "The port moved.", "2026-01-03T00:00:00+00:00")
	hider.Supersedes = []string{old.ID}
	if err := s.Put(ctx, hider); err != nil {
		t.Fatal(err)
	}
	// A second text: x is older and visible; y supersedes stale.
	stale := add(t, s, note.Semantic, "demo", "Stale", "outdated", "2026-01-01T00:00:00+00:00")
	x := add(t, s, note.Semantic, "demo", "X", "the build uses make", "2026-01-01T00:00:00+00:00")
	y := add(t, s, note.Semantic, "demo", "Y", "the build uses make", "2026-01-05T00:00:00+00:00")
	y.Supersedes = []string{stale.ID}
	if err := s.Put(ctx, y); err != nil {
		t.Fatal(err)
	}
	res, err := Dedup(ctx, s, true)
	if err != nil {
		t.Fatal(err)
	}
	var deleted []string
	for _, c := range res.Changes {
		deleted = append(deleted, c.ID)
	}
	slices.Sort(deleted)
	want := []string{old.ID, y.ID}
	slices.Sort(want)
	if !slices.Equal(deleted, want) {
		t.Errorf("deleted %v, want the superseded copy %s and the later copy %s", deleted, old.ID, y.ID)
	}
	hits, err := s.Search(ctx, store.Query{Text: "port 8803", Filter: store.Filter{Project: "demo"}, K: 8})
	if err != nil || len(hits) == 0 || hits[0].ID != newer.ID {
		t.Errorf("the visible copy is not found: %v %v", hits, err)
	}
	if got, _ := s.Get(ctx, x.ID); got == nil || !slices.Contains(got.Supersedes, stale.ID) {
		t.Errorf("the keeper did not take over what the deleted copy superseded: %+v", got)
	}
	if sup, _ := s.SupersededIDs(ctx); !sup[stale.ID] {
		t.Error("a note the deleted copy hid came back")
	}
}

// A copy that was never committed is deleted and the commit is clean.
func TestDedupUncommittedCopyCommitsCleanly(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	s := openStore(t)
	add(t, s, note.Semantic, "demo", "A", "same text", "2026-01-01T00:00:00+00:00")
	mem := s.MemoryDir()
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "setup"}} {
		if out, err := exec.Command("git", append([]string{"-C", mem}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	b := add(t, s, note.Semantic, "demo", "B", "same text", "2026-01-02T00:00:00+00:00") // never committed
	res, err := Dedup(ctx, s, true)
	if err != nil || len(res.Changes) != 1 || res.Changes[0].ID != b.ID {
		t.Fatalf("dedup: %+v %v", res, err)
	}
	if _, err := Finish(ctx, s.Home(), "box", nil, res.Paths, "anamnesis dedup (box)"); err != nil {
		t.Fatalf("commit: %v", err)
	}
	out, err := exec.Command("git", "-C", mem, "status", "--porcelain").Output()
	if err != nil || strings.TrimSpace(string(out)) != "" {
		t.Errorf("git status after dedup: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(s.Home(), "state", "lifecycle", "journal")); !os.IsNotExist(err) {
		t.Errorf("the journal is still there after the commit: %v", err)
	}
}
