package gitsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A rewrite of a team's remote found by a fetch outside a sync (the
// dashboard's Fetch, anamnesis team review) is pending until a sync takes
// it up, and State says so: status printed only the last sync's team
// lines, which predate the fetch and said all was well.
func TestStateShowsATeamRewriteAFetchFound(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	alice, carol := newHome(t, "alice", ""), newHome(t, "carol", "")
	ao, co := alice.teamOpts("plat", remote, "alice", false), carol.teamOpts("plat", remote, "carol", false)
	alice.teamNote("plat", "alice", "deploy runbook")
	alice.syncTeam(ao)
	carol.syncTeam(co)
	if rw := State(ctx, carol.dir, "", nil).TeamRewrites; len(rw) != 0 {
		t.Fatalf("after a clean sync: %+v", rw)
	}
	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", remote, scratch)
	gitIn(t, scratch, "commit", "--quiet", "--amend", "-m", "rewritten")
	gitIn(t, scratch, "push", "--quiet", "--force", "origin", "HEAD:main")

	st := carol.store()
	if err := FetchTeam(ctx, st, "plat", 30*time.Second); err != nil {
		t.Fatal(err)
	}
	st.Close()
	rw := State(ctx, carol.dir, "", nil).TeamRewrites
	if len(rw) != 1 || rw[0].Team != "plat" || !strings.Contains(rw[0].Detail, "rewritten") || rw[0].Fix != "anamnesis sync" {
		t.Fatalf("State after the fetch: %+v, want plat's rewrite pending, fix anamnesis sync", rw)
	}
	if p := RewritePending(ctx, layout.Home(carol.dir).Team("plat")); p == nil || p.Detail != rw[0].Detail {
		t.Errorf("RewritePending says %+v, State %+v", p, rw[0])
	}
	carol.syncTeam(co)
	if rw := State(ctx, carol.dir, "", nil).TeamRewrites; len(rw) != 0 {
		t.Errorf("after the sync that took it up: %+v", rw)
	}
}

// While the remote's main is gone (the repository re-created empty), a
// sync pushes nothing and the rewrite stays pending: doctor's fix,
// `anamnesis sync`, changed nothing. The fix it gives now works as written:
// the push it names, then a sync, leave nothing pending and the remote
// holding this clone's notes.
func TestMainGoneFixWorks(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	first := a.write(note.Semantic, "kept", "a note that reached the remote")
	a.sync()
	if err := os.RemoveAll(remote); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ".", "init", "--quiet", "--bare", remote)
	gitIn(t, remote, "symbolic-ref", "HEAD", "refs/heads/main")
	second := a.write(note.Semantic, "later", "a note written while the remote was empty")
	a.sync()
	mem := layout.Home(a.dir).Memory()
	p := RewritePending(ctx, mem)
	if p == nil || !strings.Contains(p.Detail, "main is gone") {
		t.Fatalf("pending: %+v", p)
	}
	a.sync() // what the old fix said: nothing changes
	if RewritePending(ctx, mem) == nil {
		t.Fatal("a sync took up a remote with no main")
	}
	_, cmdline, ok := strings.Cut(p.Fix, "instead: ")
	cmdline, _, ok2 := strings.Cut(cmdline, ", then `anamnesis sync`")
	if !ok || !ok2 {
		t.Fatalf("the fix names no command: %q", p.Fix)
	}
	cmd := exec.Command("sh", "-c", cmdline)
	// The user's git, not the hostile configuration isolateGit installs.
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_NO_SUCH_VAR=")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "GIT_DIR=") {
			cmd.Env[i] = "GIT_NO_SUCH_VAR="
		}
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmdline, err, out)
	}
	r := a.sync()
	if p := RewritePending(ctx, mem); p != nil {
		t.Errorf("still pending after the fix and a sync (%s): %+v", r.Line(), p)
	}
	files := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main")
	for _, n := range []*note.Note{first, second} {
		if !strings.Contains(files, n.ID) {
			t.Errorf("the remote lacks %s:\n%s", n.ID, files)
		}
	}
	a.assertClean()
}

// A new home whose first sync found nothing to sync (no notes, an empty
// remote) holds only the store's .gitignore, which no sync commits: status
// said dirty=true and the dashboard "uncommitted changes" on every fresh
// install.
func TestFreshHomeIsNotDirty(t *testing.T) {
	needGit(t)
	isolateGit(t)
	h := newHome(t, "alpha", newRemote(t))
	h.store().Close()
	if r := h.sync(); !strings.Contains(r.Detail, "nothing to sync") {
		t.Fatalf("first sync: %s", r.Line())
	}
	if st := State(context.Background(), h.dir, h.remote, nil); st.Dirty || !st.Initialized {
		t.Errorf("a fresh home: %+v", st)
	}
	h.write(note.Semantic, "first", "a note not yet committed")
	if st := State(context.Background(), h.dir, h.remote, nil); !st.Dirty {
		t.Errorf("a note waiting is not reported: %+v", st)
	}
}
