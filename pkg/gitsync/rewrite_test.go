package gitsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// A team purges a note by rewriting its remote's history (a secret leaked:
// filter-repo and a force push, or the repository deleted and re-created
// with the cleaned history). A member's next sync takes the new history up:
// it never pushes the old one back, the purged note leaves their clone and
// their index, and notes of theirs that never reached the remote are
// re-committed on top of the new history and published.
func TestTeamHistoryRewrittenOnTheRemoteStaysRewritten(t *testing.T) {
	for _, tc := range []struct {
		name string
		// rewrite makes the remote's main the history without path, in a
		// scratch clone at dir, and force-pushes it.
		rewrite func(t *testing.T, dir, path string)
	}{
		{"re-created (no common base)", func(t *testing.T, dir, path string) {
			gitIn(t, dir, "checkout", "--quiet", "--orphan", "clean")
			gitIn(t, dir, "rm", "--quiet", "--cached", "--", path)
			os.Remove(filepath.Join(dir, filepath.FromSlash(path)))
			gitIn(t, dir, "commit", "--quiet", "-m", "purged")
			gitIn(t, dir, "push", "--quiet", "--force", "origin", "clean:main")
		}},
		{"filtered (early commits kept)", func(t *testing.T, dir, path string) {
			// The note came with the last commit: dropping it is resetting
			// past it, and the team goes on with a commit of its own.
			gitIn(t, dir, "reset", "--quiet", "--hard", "HEAD~1")
			gitIn(t, dir, "commit", "--quiet", "--allow-empty", "-m", "purged")
			gitIn(t, dir, "push", "--quiet", "--force", "origin", "HEAD:main")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needGit(t)
			isolateGit(t)
			ctx := context.Background()
			remote := newRemote(t)
			alice, bob, carol := newHome(t, "alice", ""), newHome(t, "bob", ""), newHome(t, "carol", "")
			ao, bo, co := alice.teamOpts("plat", remote, "alice", false), bob.teamOpts("plat", remote, "bob", false), carol.teamOpts("plat", remote, "carol", false)

			kept := alice.teamNote("plat", "alice", "deploy runbook")
			alice.syncTeam(ao)
			leaked := alice.teamNote("plat", "alice", "staging credentials")
			alice.syncTeam(ao)
			bob.syncTeam(bo)
			carol.syncTeam(co)
			leakedPath := note.Semantic + "/" + leaked.ID + ".md"
			oldTip := gitIn(t, remote, "rev-parse", "main")
			leakedBlob := strings.TrimSpace(gitIn(t, remote, "rev-parse", oldTip+":"+leakedPath))

			// Bob writes a note that does not reach the remote before the purge.
			mine := bob.teamNote("plat", "bob", "bob's unpublished finding")

			scratch := filepath.Join(t.TempDir(), "scratch")
			gitIn(t, ".", "clone", "--quiet", remote, scratch)
			tc.rewrite(t, scratch, leakedPath)

			r, err := Sync(ctx, bo)
			if err != nil || len(r.Teams) != 1 || r.Teams[0].Error != "" {
				t.Fatalf("bob's sync: %v %+v", err, r.Teams)
			}
			line := r.Teams[0].Line()
			if !strings.Contains(r.Teams[0].Notice, "rewritten") {
				t.Errorf("no notice of the rewrite: %q", r.Teams[0].Notice)
			}
			if !strings.Contains(line, "rewritten") {
				t.Errorf("bob's sync line does not say the history was rewritten: %s", line)
			}
			t.Log(line)
			assertPurged(t, remote, oldTip, leakedPath)
			if files := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(files, mine.ID) || !strings.Contains(files, kept.ID) {
				t.Errorf("remote main lacks bob's note %s or the kept note %s:\n%s", mine.ID, kept.ID, files)
			}
			assertGoneLocally(t, bob, "plat", leaked.ID, mine.ID, kept.ID)
			assertObjectGone(t, layout.Home(bob.dir).Team("plat"), leakedBlob)
			if out := gitIn(t, bob.store().TeamDir("plat"), "status", "--porcelain"); out != "" {
				t.Errorf("bob's clone left uncommitted: %s", out)
			}

			// Carol had nothing of her own: her sync only takes the new
			// history up, though the dashboard's Fetch now fetched it first.
			cst := carol.store()
			if err := FetchTeam(ctx, cst, "plat", 30*time.Second); err != nil {
				t.Fatal(err)
			}
			cst.Close()
			rc, err := Sync(ctx, co)
			if err != nil || rc.Teams[0].Error != "" {
				t.Fatalf("carol's sync: %v %+v", err, rc.Teams)
			}
			if !strings.Contains(rc.Teams[0].Line(), "rewritten") {
				t.Errorf("carol's sync line: %s", rc.Teams[0].Line())
			}
			assertPurged(t, remote, oldTip, leakedPath)
			assertGoneLocally(t, carol, "plat", leaked.ID, mine.ID, kept.ID)
			assertObjectGone(t, layout.Home(carol.dir).Team("plat"), leakedBlob)

			// Said once: the next sync is an ordinary one.
			rc2, err := Sync(ctx, co)
			if err != nil || strings.Contains(rc2.Teams[0].Line(), "rewritten") {
				t.Errorf("carol's next sync: %v %s", err, rc2.Teams[0].Line())
			}
			// Alice, who rewrote it from elsewhere, loses nothing either.
			alice.syncTeam(ao)
			assertPurged(t, remote, oldTip, leakedPath)
			assertGoneLocally(t, alice, "plat", leaked.ID, mine.ID, kept.ID)
			assertObjectGone(t, layout.Home(alice.dir).Team("plat"), leakedBlob)
		})
	}
}

// assertPurged fails when the remote's main holds path in any commit or
// contains the old tip.
func assertPurged(t *testing.T, remote, oldTip, path string) {
	t.Helper()
	if log := gitIn(t, remote, "log", "--format=%H", "main", "--", path); log != "" {
		t.Errorf("the purged note is back in the remote's history:\n%s", log)
	}
	if _, err := gitTry(remote, "merge-base", "--is-ancestor", oldTip, "main"); err == nil {
		t.Errorf("the remote's main contains the old history again (%s)", oldTip)
	}
}

// assertObjectGone fails when the repository at dir still holds object
// id (in any pack, loose, or through a reflog).
func assertObjectGone(t *testing.T, dir, id string) {
	t.Helper()
	if _, err := gitTry(dir, "cat-file", "-e", id); err == nil {
		t.Errorf("%s still holds the purged note's object %s", dir, id)
	}
}

// assertGoneLocally fails unless h's clone of team and its index hold the
// notes want and not gone.
func assertGoneLocally(t *testing.T, h *home, team, gone string, want ...string) {
	t.Helper()
	st := h.store()
	defer st.Close()
	dir := st.TeamDir(team)
	if _, err := os.Stat(filepath.Join(dir, note.Semantic, gone+".md")); err == nil {
		t.Errorf("%s: the purged note's file is still in the clone", h.machine)
	}
	list, err := st.List(context.Background(), store.Filter{Team: team})
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, n := range list {
		ids[n.ID] = true
	}
	if ids[gone] {
		t.Errorf("%s: the purged note is still in the index", h.machine)
	}
	for _, id := range want {
		if !ids[id] {
			t.Errorf("%s: note %s missing from the index (have %v)", h.machine, id, ids)
		}
	}
}

// The same holds for a person's own store: a remote rewritten from one
// machine (a secret purged) is not undone by another machine's sync.
func TestPersonalRemoteRewrittenFromAnotherMachine(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	kept := a.write(note.Semantic, "kept", "a note that stays")
	leaked := a.write(note.Semantic, "leaked", "a note purged from the remote")
	a.sync()
	b.sync()
	oldTip := gitIn(t, remote, "rev-parse", "main")
	leakedBlob := strings.TrimSpace(gitIn(t, remote, "rev-parse", oldTip+":"+note.Semantic+"/"+leaked.ID+".md"))
	mine := b.write(note.Semantic, "beta's own", "written on beta, not yet synced")

	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", remote, scratch)
	leakedPath := note.Semantic + "/" + leaked.ID + ".md"
	gitIn(t, scratch, "checkout", "--quiet", "--orphan", "clean")
	gitIn(t, scratch, "rm", "--quiet", "--cached", "--", leakedPath)
	gitIn(t, scratch, "commit", "--quiet", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", "--force", "origin", "clean:main")

	r := b.sync()
	if !strings.Contains(r.Line(), "rewritten") || !r.Pushed {
		t.Errorf("beta's sync: %s", r.Line())
	}
	assertPurged(t, remote, oldTip, leakedPath)
	ns := b.notes()
	if ns[leaked.ID] != nil || ns[kept.ID] == nil || ns[mine.ID] == nil {
		t.Errorf("beta holds leaked=%t kept=%t own=%t, want false true true", ns[leaked.ID] != nil, ns[kept.ID] != nil, ns[mine.ID] != nil)
	}
	b.assertClean()
	assertObjectGone(t, layout.Home(b.dir).Memory(), leakedBlob)
	if d := State(context.Background(), b.dir, remote, nil).Detail; !strings.Contains(d, "rewritten") {
		t.Errorf("status after the sync that took the rewrite up: %s", d)
	}
	b.sync()
	if d := State(context.Background(), b.dir, remote, nil).Detail; strings.Contains(d, "rewritten") {
		t.Errorf("status repeats the rewrite after the next sync: %s", d)
	}
	a.sync()
	assertPurged(t, remote, oldTip, leakedPath)
	if ns := a.notes(); ns[leaked.ID] != nil || ns[mine.ID] == nil {
		t.Errorf("alpha holds leaked=%t beta's=%t, want false true", ns[leaked.ID] != nil, ns[mine.ID] != nil)
	}
	st := a.store()
	if _, err := st.Get(context.Background(), leaked.ID); err == nil {
		t.Error("alpha's index still finds the purged note")
	}
	assertObjectGone(t, layout.Home(a.dir).Memory(), leakedBlob)
}

// A team repository deleted and re-created empty: a member who syncs
// before the cleaned history is pushed pushes nothing (their old history
// would come back whole), says why, and takes the cleaned history up once
// it is there, their own note published on top of it.
func TestTeamRemoteRecreatedEmptyIsNotRefilled(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	alice, bob := newHome(t, "alice", ""), newHome(t, "bob", "")
	ao, bo := alice.teamOpts("plat", remote, "alice", false), bob.teamOpts("plat", remote, "bob", false)
	kept := alice.teamNote("plat", "alice", "deploy runbook")
	leaked := alice.teamNote("plat", "alice", "staging credentials")
	alice.syncTeam(ao)
	bob.syncTeam(bo)
	oldTip := gitIn(t, remote, "rev-parse", "main")
	leakedPath := note.Semantic + "/" + leaked.ID + ".md"

	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", remote, scratch)
	if err := os.RemoveAll(remote); err != nil {
		t.Fatal(err)
	}
	gitIn(t, ".", "init", "--quiet", "--bare", remote)
	gitIn(t, remote, "symbolic-ref", "HEAD", "refs/heads/main")

	mine := bob.teamNote("plat", "bob", "bob's finding")
	r, err := Sync(ctx, bo)
	if err != nil || r.Teams[0].Error != "" {
		t.Fatalf("bob's sync: %v %+v", err, r.Teams)
	}
	if line := r.Teams[0].Line(); r.Teams[0].Pushed || !strings.Contains(line, "gone") {
		t.Errorf("bob's sync into the empty remote: %s", line)
	}
	if _, err := gitTry(remote, "rev-parse", "--verify", "main"); err == nil {
		t.Fatal("bob's sync pushed the old history into the re-created remote")
	}
	// The same again: still nothing pushed.
	if r, _ := Sync(ctx, bo); r.Teams[0].Pushed {
		t.Fatalf("bob's second sync pushed: %s", r.Teams[0].Line())
	}

	gitIn(t, scratch, "checkout", "--quiet", "--orphan", "clean")
	gitIn(t, scratch, "rm", "--quiet", "--cached", "--", leakedPath)
	gitIn(t, scratch, "commit", "--quiet", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", "origin", "clean:main")

	r, err = Sync(ctx, bo)
	if err != nil || r.Teams[0].Error != "" || !r.Teams[0].Pushed || !strings.Contains(r.Teams[0].Line(), "rewritten") {
		t.Fatalf("bob's sync after the cleaned history: %v %s", err, r.Teams[0].Line())
	}
	assertPurged(t, remote, oldTip, leakedPath)
	assertGoneLocally(t, bob, "plat", leaked.ID, kept.ID, mine.ID)
	if l := Last(bob.dir); l == nil || !strings.Contains(l.Result.Teams[0].Line(), "rewritten") {
		t.Error("the last sync's record (what status shows) does not say the history was rewritten")
	}
}

// A remote changed to another repository is not a rewrite: a home moved to
// a new, empty remote pushes everything there. The same repository with a
// new token in its URL keeps what the clone knew of it.
func TestRemoteMovedToAnotherRepositoryIsNotARewrite(t *testing.T) {
	needGit(t)
	isolateGit(t)
	first, second := newRemote(t), newRemote(t)
	h := newHome(t, "alpha", first)
	n := h.write(note.Semantic, "moves along", "a note")
	h.sync()
	h.remote = second
	r := h.sync()
	if !r.Pushed || strings.Contains(r.Line(), "gone") || strings.Contains(r.Line(), "rewritten") {
		t.Fatalf("moving to an empty remote: %s", r.Line())
	}
	if files := gitIn(t, second, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(files, n.ID) {
		t.Errorf("the new remote lacks the note:\n%s", files)
	}
	for _, c := range [][2]string{
		{"https://user:old@host/team.git", "https://user:new@host/team"},
		{"https://tok1@host/team/", "https://tok2@host/team.git"},
	} {
		if repoOf(c[0]) != repoOf(c[1]) {
			t.Errorf("%s and %s name different repositories (%s, %s)", c[0], c[1], repoOf(c[0]), repoOf(c[1]))
		}
	}
	if repoOf("https://host/a") == repoOf("https://host/b") {
		t.Error("two repositories read as one")
	}
}

// A member in review mode: their proposal branch held the old history; the
// sync that takes the rewrite up replaces it with their note on top of the
// new main, the purged note in neither.
func TestReviewMemberTakesARewriteUp(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	alice, bob := newHome(t, "alice", ""), newHome(t, "bob", "")
	ao, bo := alice.teamOpts("plat", remote, "alice", false), bob.teamOpts("plat", remote, "bob", true)
	alice.teamNote("plat", "alice", "deploy runbook")
	leaked := alice.teamNote("plat", "alice", "staging credentials")
	alice.syncTeam(ao)
	bob.syncTeam(bo)
	mine := bob.teamNote("plat", "bob", "bob's proposal")
	bob.syncTeam(bo)
	branch := ProposalBranch("bob")
	leakedPath := note.Semantic + "/" + leaked.ID + ".md"
	if log := gitIn(t, remote, "log", "--format=%H", branch, "--", leakedPath); log == "" {
		t.Fatal("setup: the proposal branch does not hold the old history")
	}
	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", remote, scratch)
	gitIn(t, scratch, "checkout", "--quiet", "--orphan", "clean")
	gitIn(t, scratch, "rm", "--quiet", "--cached", "--", leakedPath)
	gitIn(t, scratch, "commit", "--quiet", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", "--force", "origin", "clean:main")

	bob.syncTeam(bo)
	if log := gitIn(t, remote, "log", "--format=%H", branch, "--", leakedPath); log != "" {
		t.Errorf("the purged note is in bob's proposal branch again:\n%s", log)
	}
	if files := gitIn(t, remote, "ls-tree", "-r", "--name-only", branch); !strings.Contains(files, mine.ID) {
		t.Errorf("bob's proposal lost his note:\n%s", files)
	}
	assertGoneLocally(t, bob, "plat", leaked.ID, mine.ID)
}

// A team that moves to a new repository holding its cleaned history (the
// old one deleted): a member's sync with the new URL takes it up as a
// rewrite, the purged note not sent to the new repository.
func TestTeamMovedToACleanedRepository(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote, moved := newRemote(t), newRemote(t)
	alice, bob := newHome(t, "alice", ""), newHome(t, "bob", "")
	ao, bo := alice.teamOpts("plat", remote, "alice", false), bob.teamOpts("plat", remote, "bob", false)
	kept := alice.teamNote("plat", "alice", "deploy runbook")
	leaked := alice.teamNote("plat", "alice", "staging credentials")
	alice.syncTeam(ao)
	bob.syncTeam(bo)
	leakedPath := note.Semantic + "/" + leaked.ID + ".md"
	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", remote, scratch)
	gitIn(t, scratch, "checkout", "--quiet", "--orphan", "clean")
	gitIn(t, scratch, "rm", "--quiet", "--cached", "--", leakedPath)
	gitIn(t, scratch, "commit", "--quiet", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", moved, "clean:main")

	mine := bob.teamNote("plat", "bob", "bob's finding")
	bo.Teams[0].URL = moved
	bob.syncTeam(bo)
	if log := gitIn(t, moved, "log", "--format=%H", "main", "--", leakedPath); log != "" {
		t.Errorf("the purged note reached the new repository:\n%s", log)
	}
	assertGoneLocally(t, bob, "plat", leaked.ID, kept.ID, mine.ID)
}

// A fetch of a team (the dashboard's Fetch, team review) waits for a sync
// of the home, which may prune what no ref holds, and gives up when the
// sync does not end in time.
func TestFetchTeamWaitsForASync(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	alice := newHome(t, "alice", "")
	ao := alice.teamOpts("plat", remote, "alice", false)
	alice.teamNote("plat", "alice", "deploy runbook")
	alice.syncTeam(ao)
	st := alice.store()
	lk, err := acquire(ctx, LockPath(alice.dir), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := FetchTeam(ctx, st, "plat", 300*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("a fetch while a sync holds the home: %v, want ErrBusy", err)
	}
	lk.release()
	if err := FetchTeam(ctx, st, "plat", 10*time.Second); err != nil {
		t.Fatal(err)
	}
}
