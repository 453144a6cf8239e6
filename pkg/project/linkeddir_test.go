package project

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A trust holds for the marker whichever path reaches its directory. A
// shell in a symlinked directory (~/code -> /mnt/data/code) reports the
// path through the link ($PWD), so `anamnesis project trust` and doctor
// see that one, while Claude Code's hook payload carries the physical
// directory (Node's process.cwd()): the hooks used to ignore a marker the
// person had trusted, and doctor said it was used.
func TestTrustThroughASymlinkedDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks")
	}
	home := t.TempDir()
	root := t.TempDir()
	physical := filepath.Join(root, "data", "app")
	os.MkdirAll(filepath.Join(physical, ".anamnesis"), 0o755)
	gitC(t, physical, "init", "-q")
	gitC(t, physical, "remote", "add", "origin", "git@github.com:acme/app.git")
	os.WriteFile(filepath.Join(physical, ".anamnesis", "project"), []byte("acme/app-backend\n"), 0o644)
	gitC(t, physical, "add", "-A")
	gitC(t, physical, "commit", "-qm", "marker")
	if err := os.Symlink(filepath.Join(root, "data"), filepath.Join(root, "code")); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(root, "code", "app")
	for _, c := range []struct{ name, trustFrom, useFrom string }{
		{"trusted through the link, used from the physical path", linked, physical},
		{"trusted from the physical path, used through the link", physical, linked},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Resolve(c.trustFrom, home, nil)
			if r.Marker == "" || r.Ignored == "" {
				t.Fatalf("untrusted: %+v", r)
			}
			trusted := Trusted{r.Marker: r.Hash} // what anamnesis project trust records
			if got := Resolve(c.trustFrom, home, trusted); got.Key != "acme/app-backend" {
				t.Fatalf("from where it was trusted: %+v", got)
			}
			if got := Resolve(c.useFrom, home, trusted); got.Key != "acme/app-backend" || got.Ignored != "" {
				t.Fatalf("the same marker, reached by the other path, is not trusted: %+v", got)
			}
		})
	}
}
