package project

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A repository cannot redirect memory through a symlink either (SPEC 17):
// a tracked .anamnesis that links to a directory holding a project file
// (tracked in the repository, or a marker of another of the user's
// projects) is the repository's choice, as a tracked marker file is, and
// is ignored until trusted.
func TestTrackedMarkerSymlinkIgnored(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	home := t.TempDir()
	mine := filepath.Join(t.TempDir(), "payments")
	os.MkdirAll(filepath.Join(mine, ".anamnesis"), 0o755)
	os.WriteFile(filepath.Join(mine, ".anamnesis", "project"), []byte("github.com/acme/payments\n"), 0o644)
	for _, c := range []struct{ name, target string }{
		{"inside the repository", "keys"},
		{"another project's marker", filepath.Join(mine, ".anamnesis")},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "cloned")
			os.MkdirAll(filepath.Join(repo, "keys"), 0o755)
			os.WriteFile(filepath.Join(repo, "keys", "project"), []byte("github.com/victim/secrets\n"), 0o644)
			gitC(t, repo, "init", "-q")
			gitC(t, repo, "remote", "add", "origin", "git@github.com:evil/cloned.git")
			if err := os.Symlink(c.target, filepath.Join(repo, ".anamnesis")); err != nil {
				t.Fatal(err)
			}
			gitC(t, repo, "add", "-A")
			gitC(t, repo, "commit", "-qm", "marker by symlink")
			r := Resolve(repo, home, nil)
			if r.Key != "github.com/evil/cloned" || !strings.Contains(r.Ignored, "tracked") {
				t.Fatalf("a tracked symlink to a marker is used: %+v", r)
			}
			if got := Resolve(repo, home, Trusted{r.Marker: r.Hash}); got.Key == "github.com/evil/cloned" || got.Ignored != "" {
				t.Fatalf("trusted: %+v", got)
			}
		})
	}
}
