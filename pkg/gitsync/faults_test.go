package gitsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A sync or commit killed while git held memory/.git/index.lock leaves the
// file behind; the next sync (under the sync lock) must remove it instead of
// failing for ever, and status must say so (issue 12, item 3).
func TestStaleIndexLockRemoved(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	a.write(note.Semantic, "first", "one")
	a.sync()
	mem := filepath.Join(a.dir, "memory")
	lockPath := filepath.Join(mem, ".git", "index.lock")
	if err := os.WriteFile(lockPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	l, ok := FindIndexLock(mem)
	if !ok || !l.Stale {
		t.Fatalf("FindIndexLock = %+v, %v; want a stale lock", l, ok)
	}
	if st := State(context.Background(), a.dir, remote, nil); !strings.Contains(st.Detail, "stale") {
		t.Errorf("status detail %q does not report the stale lock", st.Detail)
	}
	a.write(note.Semantic, "second", "two")
	r := a.sync()
	if !r.Committed || !r.Pushed {
		t.Errorf("sync after a crash: %s", r.Line())
	}
	if _, err := os.Stat(lockPath); err == nil {
		t.Error("the stale index.lock is still there")
	}
	a.assertClean()

	// The capture path (CommitPaths) recovers too.
	os.WriteFile(lockPath, nil, 0o644)
	n := a.write(note.Episodic, "session", "three")
	if _, err := CommitPaths(context.Background(), a.dir, a.machine, "capture", 5*time.Second, "episodic/"+n.ID+".md"); err != nil {
		t.Fatalf("commit with a stale index.lock: %v", err)
	}
}

// A lock a live process holds is not stale and is left alone.
func TestLiveIndexLockKept(t *testing.T) {
	needGit(t)
	isolateGit(t)
	a := newHome(t, "alpha", "")
	a.write(note.Semantic, "first", "one")
	a.sync()
	mem := filepath.Join(a.dir, "memory")
	lockPath := filepath.Join(mem, ".git", "index.lock")
	holder := exec.Command("sh", "-c", "exec 3>>\"$1\"; sleep 30", "sh", lockPath)
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { holder.Process.Kill(); holder.Wait() }()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if l, ok := FindIndexLock(mem); ok && !l.Stale {
			break
		}
		if time.Now().After(deadline) {
			l, ok := FindIndexLock(mem)
			t.Fatalf("a lock held open by pid %d is reported %+v, %v", holder.Process.Pid, l, ok)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if msg, err := removeStaleIndexLock(mem); err != nil || msg != "" {
		t.Errorf("removeStaleIndexLock on a held lock: %q, %v", msg, err)
	}
	if _, err := os.Stat(lockPath); err != nil {
		t.Error("a held lock was removed")
	}
}

// A type directory moved to another disk and linked back must not be
// committed as a link (which deletes its notes on every other machine):
// sync refuses and says why, and status reports it (issue 12, item 4).
func TestSymlinkedTypeDirNotCommitted(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	n := a.write(note.Procedural, "keep me", "procedure body")
	a.sync()
	b.sync()
	mem := filepath.Join(a.dir, "memory")
	elsewhere := filepath.Join(t.TempDir(), "other-disk", "procedural")
	os.MkdirAll(filepath.Dir(elsewhere), 0o755)
	if err := os.Rename(filepath.Join(mem, "procedural"), elsewhere); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(mem, "procedural")); err != nil {
		t.Fatal(err)
	}
	r, err := Sync(context.Background(), a.opts())
	if err == nil || !strings.Contains(r.Detail, "procedural is a symbolic link") {
		t.Fatalf("sync with a symlinked type dir: err=%v detail=%q", err, r.Detail)
	}
	if st := State(context.Background(), a.dir, remote, nil); !strings.Contains(st.Detail, "symbolic link") {
		t.Errorf("status detail %q does not report the link", st.Detail)
	}
	b.sync()
	if b.notes()[n.ID] == nil {
		t.Fatal("the other machine lost the note behind the symlink")
	}
	if out := gitIn(t, remote, "ls-tree", "-r", "main"); !strings.Contains(out, "procedural/"+n.ID+".md") || strings.Contains(out, "120000") {
		t.Errorf("remote tree:\n%s", out)
	}
}

// A note replaced by a link, and a link in a directory git has never seen,
// are found too: the candidates are what git status names, not a walk.
func TestSymlinkedNoteNotCommitted(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	n := a.write(note.Procedural, "keep me", "procedure body")
	a.sync()
	mem := filepath.Join(a.dir, "memory")
	rel := "procedural/" + n.ID + ".md"
	outside := filepath.Join(t.TempDir(), n.ID+".md")
	if err := os.Rename(filepath.Join(mem, rel), outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(mem, rel)); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(mem, "drafts", "deep"), 0o755)
	if err := os.Symlink(outside, filepath.Join(mem, "drafts", "deep", "x.md")); err != nil {
		t.Fatal(err)
	}
	links, err := Symlinks(context.Background(), mem)
	if err != nil || strings.Join(links, ",") != "drafts/deep/x.md,"+rel && strings.Join(links, ",") != rel+",drafts/deep/x.md" {
		t.Fatalf("Symlinks = %v, %v", links, err)
	}
	if r, err := Sync(context.Background(), a.opts()); err == nil || !strings.Contains(r.Detail, "is a symbolic link (2 in") {
		t.Fatalf("sync with a linked note: err=%v detail=%q", err, r.Detail)
	}
	if out := gitIn(t, remote, "ls-tree", "-r", "main"); strings.Contains(out, "120000") || !strings.Contains(out, rel) {
		t.Errorf("remote tree:\n%s", out)
	}
}

// Two machines merging the same conflict at once (both fetched the same
// third version before either pushed) must save its losing version once:
// three versions give two conflict copies, not three (issue 12, item 8).
func TestSameConflictMergedTwiceSavedOnce(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	a, b, c := newHome(t, "alpha", remote), newHome(t, "beta", remote), newHome(t, "gamma", remote)
	n := a.write(note.Semantic, "shared", "base")
	a.sync()
	b.sync()
	c.sync()
	now := time.Now()
	c.edit(n.ID, "v gamma oldest", now.Add(-3*time.Second))
	a.edit(n.ID, "v alpha middle", now.Add(-2*time.Second))
	b.edit(n.ID, "v beta newest", now.Add(-1*time.Second))
	c.sync()
	// beta fetches and merges gamma's version, but alpha pushes first.
	bs := &syncer{o: b.opts(), res: &Result{}, g: &git{dir: filepath.Join(b.dir, "memory"), machine: b.machine}}
	if err := bs.commit(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := bs.fetch(ctx); err != nil {
		t.Fatal(err)
	}
	if err := bs.integrate(ctx); err != nil {
		t.Fatal(err)
	}
	if len(bs.res.ConflictIDs) != 1 {
		t.Fatalf("beta's first merge: %+v", bs.res.Conflicts)
	}
	a.sync() // alpha merges gamma's version too, and pushes
	b.sync() // beta's push was beaten: it merges alpha's result
	for range 2 {
		for _, h := range []*home{a, b, c} {
			h.sync()
		}
	}
	for _, h := range []*home{a, b, c} {
		var copies []string
		bodies := ""
		for _, x := range h.notes() {
			bodies += x.Body + "\n"
			if x.HasTag("conflict") {
				copies = append(copies, x.ID+": "+strings.TrimSpace(x.Body[strings.LastIndex(x.Body, "\n"):]))
			}
		}
		if len(copies) != 2 {
			t.Errorf("%s: %d conflict copies, want 2: %v", h.machine, len(copies), copies)
		}
		for _, v := range []string{"v gamma oldest", "v alpha middle", "v beta newest"} {
			if !strings.Contains(bodies, v) {
				t.Errorf("%s: version %q lost", h.machine, v)
			}
		}
		if got := h.get(n.ID).Body; got != "v beta newest" {
			t.Errorf("%s: the note holds %q, want the newest version", h.machine, got)
		}
	}
}

// idsInTwoFiles lists ids held by more than one file across memory/ and local/.
func idsInTwoFiles(h *home) []string {
	h.t.Helper()
	count := map[string]int{}
	for _, tree := range []string{"memory", "local"} {
		for id, paths := range notePaths(filepath.Join(h.dir, tree)) {
			count[id] += len(paths)
		}
	}
	var out []string
	for id, c := range count {
		if c > 1 {
			out = append(out, id)
		}
	}
	return out
}

// A move to machine-local on one machine racing an edit on another: the
// edit stays portable under the note's id (every machine sees it), the
// moving machine's version stays machine-local under a new id if it says
// something else, and no id is ever held by two files (issue 12, item 2).
func TestMoveToLocalRacingRemoteEdit(t *testing.T) {
	needGit(t)
	isolateGit(t)
	for _, editedToo := range []bool{false, true} {
		t.Run(map[bool]string{false: "move only", true: "move and edit"}[editedToo], func(t *testing.T) {
			remote := newRemote(t)
			a, b, c := newHome(t, "alpha", remote), newHome(t, "beta", remote), newHome(t, "gamma", remote)
			n := a.write(note.Semantic, "shared", "original")
			a.sync()
			b.sync()
			c.sync()
			// beta moves it to machine-local (maybe changing it); gamma edits it.
			st := b.store()
			moved, err := st.Get(context.Background(), n.ID)
			if err != nil {
				t.Fatal(err)
			}
			moved.Scope = note.MachineLocal
			if editedToo {
				moved.Body = "beta's private version"
			}
			moved.UpdatedAt = note.Now()
			if err := st.Put(context.Background(), moved); err != nil {
				t.Fatal(err)
			}
			st.Close()
			c.edit(n.ID, "gamma's edit", time.Now().Add(-time.Second))
			c.sync()
			r := b.sync()
			if !r.Conflicted {
				t.Errorf("beta's sync: %s", r.Line())
			}
			if dup := idsInTwoFiles(b); len(dup) > 0 {
				t.Fatalf("beta: ids in two files: %v", dup)
			}
			// beta's next edit of the note (the dashboard's path) keeps gamma's text.
			got := b.get(n.ID)
			if got.Body != "gamma's edit" || got.Scope != note.Portable {
				t.Errorf("beta holds %q (%s), want gamma's edit, portable", got.Body, got.Scope)
			}
			b.edit(n.ID, "gamma's edit, then beta's", time.Time{})
			for range 2 {
				for _, h := range []*home{a, b, c} {
					h.sync()
				}
			}
			for _, h := range []*home{a, b, c} {
				if body := h.get(n.ID).Body; body != "gamma's edit, then beta's" {
					t.Errorf("%s: note holds %q", h.machine, body)
				}
				if dup := idsInTwoFiles(h); len(dup) > 0 {
					t.Errorf("%s: ids in two files: %v", h.machine, dup)
				}
			}
			locals := notePaths(filepath.Join(b.dir, "local"))
			if editedToo {
				found := false
				for _, paths := range locals {
					data, _ := os.ReadFile(paths[0])
					found = found || strings.Contains(string(data), "beta's private version")
				}
				if len(locals) != 1 || !found {
					t.Errorf("beta's own version is not kept machine-local: %v", locals)
				}
				for _, h := range []*home{a, c} {
					for _, x := range h.notes() {
						if strings.Contains(x.Body, "beta's private version") {
							t.Errorf("%s: beta's machine-local version reached it", h.machine)
						}
					}
				}
			} else if len(locals) != 0 {
				t.Errorf("beta keeps a machine-local copy saying the same: %v", locals)
			}
		})
	}
}

// handNamed writes a note to memory/<type>/<name> the way a person would:
// valid front-matter, a file name that is not <id>.md.
func (h *home) handNamed(typ, name, body string) *note.Note {
	h.t.Helper()
	n := note.New(typ, "hand written "+name, body)
	n.ID = note.NewID()
	n.MachineID = h.machine
	now := note.Now()
	n.CreatedAt, n.UpdatedAt = now, now
	p := filepath.Join(h.dir, "memory", typ, name)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, n.Marshal(), 0o644); err != nil {
		h.t.Fatal(err)
	}
	st := h.store() // index it, as any open-and-reindex would
	if _, err := st.Reindex(context.Background(), false); err != nil {
		h.t.Fatal(err)
	}
	st.Close()
	return n
}

// A hand-written note whose file is not <id>.md is the note everywhere:
// concurrent edits on two machines conflict (both versions kept), an edit
// through the store keeps its one file, and delete removes it (issue 12, item 5).
func TestHandNamedNote(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	n := a.handNamed(note.Semantic, "deploy-notes.md", "original")
	a.sync()
	b.sync()
	now := time.Now()
	a.edit(n.ID, "alpha's edit", now.Add(-2*time.Second))
	b.edit(n.ID, "beta's edit", now.Add(-1*time.Second))
	for _, h := range []*home{a, b} {
		files := h.files()
		if len(files) != 1 || files["semantic/deploy-notes.md"] == "" {
			t.Fatalf("%s: an edit left %v", h.machine, keys(files))
		}
	}
	a.sync()
	r := b.sync()
	if !r.Conflicted {
		t.Errorf("concurrent edits of a hand-named note: %s", r.Line())
	}
	a.sync()
	for _, h := range []*home{a, b} {
		ns := h.notes() // fails on an id in two files
		if ns[n.ID] == nil || ns[n.ID].Body != "beta's edit" {
			t.Errorf("%s: note holds %v", h.machine, ns[n.ID])
		}
		found := false
		for _, x := range ns {
			found = found || (x.HasTag("conflict") && strings.Contains(x.Body, "alpha's edit"))
		}
		if !found {
			t.Errorf("%s: alpha's edit was dropped", h.machine)
		}
	}
	// A type change moves it to <type>/<id>.md while the other machine
	// edits the old file: one file per id afterwards, both texts kept.
	st := a.store()
	moved := a.get(n.ID)
	moved.Type = note.Procedural
	moved.Body = "alpha moved it"
	moved.UpdatedAt = note.Now()
	if err := st.Put(context.Background(), moved); err != nil {
		t.Fatal(err)
	}
	st.Close()
	b.edit(n.ID, "beta edited the old file", time.Now().Add(-time.Second))
	a.sync()
	b.sync()
	a.sync()
	for _, h := range []*home{a, b} {
		ns := h.notes()
		bodies := ""
		for _, x := range ns {
			bodies += x.Body
		}
		if !strings.Contains(bodies, "alpha moved it") || !strings.Contains(bodies, "beta edited the old file") {
			t.Errorf("%s: a version was lost: %q", h.machine, bodies)
		}
		if dup := idsInTwoFiles(h); len(dup) > 0 {
			t.Errorf("%s: ids in two files: %v", h.machine, dup)
		}
	}
	// rm removes the note's file, whatever its name.
	hn := b.handNamed(note.Episodic, "my session.md", "to delete")
	st = b.store()
	if err := st.Delete(context.Background(), hn.ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(filepath.Join(b.dir, "memory", "episodic", "my session.md")); err == nil {
		t.Error("delete left the hand-named file")
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
