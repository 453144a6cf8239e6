package gitsync

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestLooseObjects(t *testing.T) {
	out := "count: 2003\nsize: 8012\nin-pack: 5\npacks: 1\nsize-pack: 3\nprune-packable: 0\ngarbage: 0\nsize-garbage: 0\n"
	if n, b := looseObjects(out); n != 2003 || b != 8012<<10 {
		t.Errorf("looseObjects = %d, %d; want 2003, %d", n, b, 8012<<10)
	}
	if n, b := looseObjects("fatal: not a git repository\n"); n != 0 || b != 0 {
		t.Errorf("looseObjects of an error = %d, %d", n, b)
	}
}

// looseRepo makes a git repository at dir with commits and n objects
// written loose besides (as a commit's blobs and trees are).
func looseRepo(t *testing.T, dir string, n int) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, "semantic"), 0o755)
	gitIn(t, dir, "init", "-q", "-b", "main")
	for i := range 3 {
		os.WriteFile(filepath.Join(dir, "semantic", fmt.Sprintf("n%d.md", i)), []byte(fmt.Sprintf("note %d\n", i)), 0o644)
		gitIn(t, dir, "add", "-A")
		gitIn(t, dir, "commit", "-q", "-m", fmt.Sprint(i))
	}
	src := t.TempDir()
	var paths []string
	for i := range n {
		p := filepath.Join(src, fmt.Sprint(i))
		os.WriteFile(p, []byte(fmt.Sprintf("object %d of %s\n", i, dir)), 0o644)
		paths = append(paths, p)
	}
	cmd := exec.Command("git", "-C", dir, "hash-object", "-w", "--stdin-paths")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_DIR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hash-object: %v %s", err, out)
	}
}

func loose(t *testing.T, dir string) (count int, packs string) {
	t.Helper()
	out := gitIn(t, dir, "count-objects", "-v")
	count, _ = looseObjects(out)
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "packs: "); ok {
			packs = v
		}
	}
	return count, packs
}

func TestPackLoosePacksPastEitherBound(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	dir := t.TempDir()
	looseRepo(t, dir, 40)
	head, tree := gitIn(t, dir, "rev-parse", "HEAD"), gitIn(t, dir, "rev-parse", "HEAD^{tree}")
	before, _ := loose(t, dir)
	if before < 40 {
		t.Fatalf("%d loose objects to start with", before)
	}
	g := &git{dir: dir}
	if line := packLoose(ctx, g, before+1, 1<<40); line != "" {
		t.Errorf("below both bounds: %q", line)
	}
	if n, packs := loose(t, dir); n != before || packs != "0" {
		t.Fatalf("below both bounds: %d loose, %s packs", n, packs)
	}
	if line := packLoose(ctx, g, 1<<30, 1); !strings.HasPrefix(line, fmt.Sprintf("packed %d loose objects", before)) {
		t.Errorf("past the size bound: %q", line)
	}
	if n, packs := loose(t, dir); n != 0 || packs == "0" {
		t.Fatalf("after packing: %d loose, %s packs", n, packs)
	}
	if h, tr := gitIn(t, dir, "rev-parse", "HEAD"), gitIn(t, dir, "rev-parse", "HEAD^{tree}"); h != head || tr != tree {
		t.Errorf("packing moved HEAD %s -> %s or its tree %s -> %s", head, h, tree, tr)
	}
	gitIn(t, dir, "fsck", "--no-dangling")
	// The count bound alone.
	os.WriteFile(filepath.Join(dir, "semantic", "n9.md"), []byte("note 9\n"), 0o644)
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "9")
	if n, _ := loose(t, dir); n == 0 {
		t.Fatal("a commit wrote no loose object")
	} else if line := packLoose(ctx, g, n, 1<<40); !strings.HasPrefix(line, "packed") {
		t.Errorf("at the count bound: %q", line)
	}
	if n, _ := loose(t, dir); n != 0 {
		t.Errorf("%d objects left loose", n)
	}
}

// Pack takes the personal repository and each team store's, and nothing
// that is not a repository.
func TestPackTakesEveryRepositoryOfTheHome(t *testing.T) {
	needGit(t)
	isolateGit(t)
	home := t.TempDir()
	mine, team := filepath.Join(home, "memory"), filepath.Join(home, "teams", "core")
	looseRepo(t, mine, packLooseCount)
	looseRepo(t, team, packLooseCount)
	os.MkdirAll(filepath.Join(home, "teams", "gone"), 0o755)
	lines := Pack(context.Background(), Options{Home: home, Teams: []TeamSpec{{Name: "core"}, {Name: "gone"}, {Name: "../x"}}})
	if len(lines) != 2 || !strings.Contains(lines[0], mine+": packed") || !strings.Contains(lines[1], team+": packed") {
		t.Errorf("Pack's lines: %q", lines)
	}
	for _, dir := range []string{mine, team} {
		if n, _ := loose(t, dir); n != 0 {
			t.Errorf("%s: %d objects left loose", dir, n)
		}
	}
	if lines := Pack(context.Background(), Options{Home: home, Teams: []TeamSpec{{Name: "core"}}}); len(lines) != 0 {
		t.Errorf("nothing loose, yet: %q", lines)
	}
}

// A sync that finds another packing the home leaves it to that one.
func TestPackLeavesItToAnotherPacker(t *testing.T) {
	needGit(t)
	isolateGit(t)
	home := t.TempDir()
	looseRepo(t, filepath.Join(home, "memory"), packLooseCount)
	lk, err := acquire(context.Background(), PackLockPath(home), 0)
	if err != nil {
		t.Fatal(err)
	}
	if lines := Pack(context.Background(), Options{Home: home}); len(lines) != 0 {
		t.Errorf("packed beside another packer: %q", lines)
	}
	lk.release()
	if lines := Pack(context.Background(), Options{Home: home}); len(lines) != 1 || !strings.Contains(lines[0], "packed") {
		t.Errorf("after the other packer: %q", lines)
	}
}
