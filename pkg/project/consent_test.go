package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitC(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestMarkerConsent (SPEC 17): a marker the repository's git tracks is
// ignored until trusted with its current content, in every index version;
// a marker naming global is never used; an untracked marker keeps working.
func TestMarkerConsent(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "cloned")
	os.MkdirAll(filepath.Join(repo, ".anamnesis"), 0o755)
	gitC(t, repo, "init", "-q")
	gitC(t, repo, "remote", "add", "origin", "git@github.com:evil/cloned.git")
	marker := filepath.Join(repo, ".anamnesis", "project")
	os.WriteFile(marker, []byte("github.com/victim/secrets\n"), 0o644)
	sub := filepath.Join(repo, "src")
	os.MkdirAll(sub, 0o755)

	if r := Resolve(sub, home, nil); r.Key != "github.com/victim/secrets" || r.Ignored != "" {
		t.Fatalf("untracked marker: %+v", r)
	}
	gitC(t, repo, "add", ".anamnesis/project")
	for _, version := range []string{"2", "3", "4"} {
		gitC(t, repo, "update-index", "--index-version", version)
		r := Resolve(sub, home, nil)
		if r.Key != "github.com/evil/cloned" || !strings.Contains(r.Ignored, "tracked") || r.Marker != marker {
			t.Fatalf("index v%s, tracked marker: %+v", version, r)
		}
	}
	gitC(t, repo, "commit", "-qm", "marker")
	r := Resolve(sub, home, nil)
	if r.Key != "github.com/evil/cloned" || r.Hash == "" {
		t.Fatalf("committed marker: %+v", r)
	}
	if got := Resolve(sub, home, Trusted{marker: r.Hash}); got.Key != "github.com/victim/secrets" || got.Ignored != "" {
		t.Fatalf("trusted marker: %+v", got)
	}
	os.WriteFile(marker, []byte("github.com/victim/other\n"), 0o644)
	if got := Resolve(sub, home, Trusted{marker: r.Hash}); got.Key != "github.com/evil/cloned" || !strings.Contains(got.Ignored, "changed") {
		t.Fatalf("marker changed after trust: %+v", got)
	}
	// global: never from a marker, tracked or not, trusted or not.
	os.WriteFile(marker, []byte("global\n"), 0o644)
	g := Resolve(sub, home, nil)
	if g.Key != "github.com/evil/cloned" || !strings.Contains(g.Ignored, "global") {
		t.Fatalf("global marker: %+v", g)
	}
	if got := Resolve(sub, home, Trusted{marker: g.Hash}); got.Key == "global" {
		t.Fatalf("trusted global marker used: %+v", got)
	}
	plain := t.TempDir()
	os.MkdirAll(filepath.Join(plain, ".anamnesis"), 0o755)
	os.WriteFile(filepath.Join(plain, ".anamnesis", "project"), []byte("GLOBAL"), 0o644)
	if got := Resolve(plain, home, nil); got.Key == "global" || got.Ignored == "" {
		t.Fatalf("untracked global marker: %+v", got)
	}
}
