//go:build unix

package project

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A repository cannot stall memory either: a marker that is a symlink to
// /dev/zero (git keeps symlinks) or a named pipe is no marker. Reading it
// used to never end, so every hook of every session in the repository ran
// into Claude Code's timeout (no memory block, 5 s on every prompt), growing
// its memory all the while.
func TestMarkerThatIsNoFile(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		name string
		make func(path string) error
	}{
		{"a symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a named pipe", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a file too large to be a key", func(p string) error {
			return os.WriteFile(p, append([]byte("acme/big\n"), make([]byte, 1<<20)...), 0o644)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "cloned")
			os.MkdirAll(filepath.Join(repo, ".anamnesis"), 0o755)
			gitC(t, repo, "init", "-q")
			gitC(t, repo, "remote", "add", "origin", "git@github.com:evil/cloned.git")
			if err := c.make(filepath.Join(repo, ".anamnesis", "project")); err != nil {
				t.Skip(err)
			}
			done := make(chan Resolution, 1)
			go func() { done <- Resolve(repo, home, nil) }()
			select {
			case r := <-done:
				if r.Key != "github.com/evil/cloned" || r.Marker != "" {
					t.Errorf("resolved %+v", r)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("resolving the project did not return")
			}
		})
	}
}
