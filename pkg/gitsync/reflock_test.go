package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A git process killed while it held a ref's or the config's lock (a
// commit or merge updating main, a fetch updating origin/main, set-url
// rewriting the config) leaves that .lock behind as it leaves index.lock;
// the next sync must remove it (no process holds it) instead of failing
// for ever, as must a capture's commit.
func TestStaleRefLockRemoved(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for _, rel := range []string{"HEAD.lock", "refs/heads/main.lock", "refs/remotes/origin/main.lock", "config.lock"} {
		t.Run(rel, func(t *testing.T) {
			remote := newRemote(t)
			a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
			a.write(note.Semantic, "first", "one")
			a.sync()
			b.sync()
			b.write(note.Semantic, "from beta", "two")
			b.sync()
			lockPath := filepath.Join(a.dir, "memory", ".git", filepath.FromSlash(rel))
			if err := os.WriteFile(lockPath, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			a.write(note.Semantic, "second", "three")
			r, err := Sync(context.Background(), a.opts())
			if err != nil || !r.Committed || !r.Pushed || r.Pulled == 0 {
				t.Fatalf("sync with a stale %s: %v (%s)", rel, err, r.Line())
			}
			a.assertClean()
			os.WriteFile(lockPath, nil, 0o644)
			n := a.write(note.Episodic, "session", "four")
			if _, err := CommitPaths(context.Background(), a.dir, a.machine, "capture", 5*time.Second, "episodic/"+n.ID+".md"); err != nil {
				t.Fatalf("capture's commit with a stale %s: %v", rel, err)
			}
		})
	}
}
