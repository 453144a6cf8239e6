package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A capture's commit must not look at the rest of the store (SPEC 9: its
// cost may not grow with the number of notes). git refreshes an index
// entry's stat data when it looks at a file whose content did not change,
// so a note whose mtime moved since it was committed keeps its old stat
// data in the index exactly when no command of the commit stat'ed it.
func TestCommitPathsLooksAtNoOtherNote(t *testing.T) {
	needGit(t)
	isolateGit(t)
	h := newHome(t, "a", "")
	old := h.write(note.Semantic, "already committed", "a note from an earlier session")
	rel := "semantic/" + old.ID + ".md"
	if _, err := CommitPaths(context.Background(), h.dir, h.machine, "first", 3*time.Second, rel); err != nil {
		t.Fatal(err)
	}
	g := &git{dir: filepath.Join(h.dir, "memory"), machine: h.machine}
	before := indexStat(t, g, rel)
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(g.dir, filepath.FromSlash(rel)), later, later); err != nil {
		t.Fatal(err)
	}
	n := h.write(note.Episodic, "captured", "the session's note")
	hash, err := CommitPaths(context.Background(), h.dir, h.machine, "capture", 3*time.Second, "episodic/"+n.ID+".md")
	if err != nil || hash == "" {
		t.Fatalf("commit: %q %v", hash, err)
	}
	if after := indexStat(t, g, rel); after != before {
		t.Fatalf("the commit refreshed another note's index entry (it stat'ed it):\nbefore %s\nafter  %s", before, after)
	}
	// The commit holds the new note and the old one, and nothing is left staged.
	files, err := g.run(context.Background(), "ls-tree", "-r", "--name-only", "HEAD")
	if err != nil || !strings.Contains(files, rel) || !strings.Contains(files, "episodic/"+n.ID+".md") {
		t.Fatalf("HEAD holds %q (%v)", files, err)
	}
	if same, err := g.ok(context.Background(), "diff", "--cached", "--quiet"); err != nil || !same {
		t.Fatalf("something is still staged after the commit (%v)", err)
	}
	if msg, _ := g.run(context.Background(), "log", "-1", "--format=%s %an"); strings.TrimSpace(msg) != "capture anamnesis" {
		t.Fatalf("last commit: %q", msg)
	}
	// The tracked note's edit is still seen by git (its stat data was left alone, not faked).
	if out, _ := g.run(context.Background(), "status", "--porcelain"); strings.Contains(out, rel) {
		t.Fatalf("status reports the untouched note as changed: %q", out)
	}
}

// indexStat is the stat data git's index holds for path.
func indexStat(t *testing.T, g *git, path string) string {
	t.Helper()
	out, err := g.run(context.Background(), "ls-files", "--debug", "--", path)
	if err != nil || !strings.Contains(out, "mtime:") {
		t.Fatalf("ls-files --debug %s: %q %v", path, out, err)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "mtime:") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}
