package gitsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// recordedSync is a hook's sync: it stages what the store's writers recorded.
func (h *home) recordedSync() Result {
	h.t.Helper()
	o := h.opts()
	o.Recorded = true
	r, err := Sync(context.Background(), o)
	if err != nil {
		h.t.Fatalf("%s: sync: %v (%s)", h.machine, err, r.Line())
	}
	return r
}

// committed lists the files HEAD holds.
func (h *home) committed() string {
	return gitIn(h.t, filepath.Join(h.dir, "memory"), "ls-tree", "-r", "--name-only", "HEAD")
}

// A hook's sync commits the notes the store wrote and removed, and looks at
// nothing else: a file nobody recorded, in a directory the store's writes
// account for, waits for a person's sync (or the hourly whole staging),
// which commits it. A file created by hand in a note directory changes that
// directory, and the hook's sync then stages everything itself.
func TestRecordedSyncStagesWhatTheStoreWrote(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a := newHome(t, "alpha", remote)
	first := a.write(note.Semantic, "First note", "Written before any sync.")
	a.sync() // a person's sync: every file, and the record starts
	// A directory of the tree whose changes no writer records: a file
	// added inside it changes no note directory's state.
	sub := filepath.Join(a.dir, "memory", "semantic", "nested")
	if err := os.MkdirAll(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	a.sync()

	n := a.write(note.Procedural, "Recorded note", "Written through the store.")
	gone := a.write(note.Episodic, "Deleted note", "Removed through the store.")
	a.sync()
	st := a.store()
	if err := st.Delete(context.Background(), gone.ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	hand := filepath.Join(sub, "by-hand.md")
	if err := os.WriteFile(hand, []byte("a file nobody recorded\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := a.recordedSync()
	files := a.committed()
	if !strings.Contains(files, "procedural/"+n.ID+".md") || !strings.Contains(files, "semantic/"+first.ID+".md") {
		t.Fatalf("the hook's sync did not commit the store's notes (%s):\n%s", r.Line(), files)
	}
	if strings.Contains(files, "episodic/"+gone.ID+".md") {
		t.Fatalf("the hook's sync did not commit the store's deletion:\n%s", files)
	}
	if strings.Contains(files, "by-hand.md") {
		t.Fatalf("the hook's sync staged a file no writer recorded, in a directory no write changed: it looked at every file\n%s", files)
	}
	if got := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(got, "procedural/"+n.ID+".md") {
		t.Fatalf("the recorded note did not reach the remote:\n%s", got)
	}

	a.sync() // a person's sync stages every file
	if files := a.committed(); !strings.Contains(files, "semantic/nested/by-hand.md") {
		t.Fatalf("a person's sync did not commit the file written by hand:\n%s", files)
	}
	a.assertClean()

	// A note file created by hand in a type directory changes it: the
	// hook's sync cannot tell what else changed and stages everything.
	other := filepath.Join(a.dir, "memory", "semantic", "01JZZZZZZZZZZZZZZZZZZZZZZZ.md")
	if err := os.WriteFile(other, []byte("---\nid: 01JZZZZZZZZZZZZZZZZZZZZZZZ\n---\nby hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a.recordedSync()
	if files := a.committed(); !strings.Contains(files, "semantic/01JZZZZZZZZZZZZZZZZZZZZZZZ.md") {
		t.Fatalf("a note file added by hand to a type directory was not committed by the hook's sync:\n%s", files)
	}
	a.assertClean()

	// A reindex (or SessionStart's catching up) that reads a file added by
	// hand takes the directory's change as read: it records the file, so
	// the hook's sync after it still commits it.
	third := filepath.Join(a.dir, "memory", "procedural", "01JYYYYYYYYYYYYYYYYYYYYYYY.md")
	if err := os.WriteFile(third, []byte("---\nid: 01JYYYYYYYYYYYYYYYYYYYYYYY\n---\nby hand\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st = a.store()
	if _, err := st.Reindex(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	st.Close()
	a.recordedSync()
	if files := a.committed(); !strings.Contains(files, "procedural/01JYYYYYYYYYYYYYYYYYYYYYYY.md") {
		t.Fatalf("a note file added by hand and read by a reindex before the hook's sync was not committed:\n%s", files)
	}
	a.assertClean()
}

// A hook's sync stages every file when the record cannot be trusted: no
// whole staging yet (a new repository, an index made since), or the last
// one more than wholeEvery ago (an edit made in place by hand reaches git
// within it).
func TestRecordedSyncStagesEverythingWhenUnsure(t *testing.T) {
	needGit(t)
	isolateGit(t)
	a := newHome(t, "alpha", "")
	n := a.write(note.Semantic, "A note", "Its first text.")
	a.recordedSync() // the first: no record yet, every file
	if files := a.committed(); !strings.Contains(files, n.ID) {
		t.Fatalf("the first sync did not commit the note:\n%s", files)
	}
	// Edited in place by hand: the directory does not change.
	p := filepath.Join(a.dir, "memory", "semantic", n.ID+".md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(strings.Replace(string(data), "Its first text.", "Edited in place.", 1)))
	f.Close()
	a.recordedSync()
	if got := gitIn(t, filepath.Join(a.dir, "memory"), "show", "HEAD:semantic/"+n.ID+".md"); strings.Contains(got, "Edited in place.") {
		t.Fatal("the hook's sync staged an edit nobody recorded within the hour: it looked at every file")
	}
	st := a.store()
	if err := st.Synced(context.Background(), "memory", 0, true, time.Now().Add(-wholeEvery-time.Minute)); err != nil {
		t.Fatal(err)
	}
	st.Close()
	a.recordedSync()
	if got := gitIn(t, filepath.Join(a.dir, "memory"), "show", "HEAD:semantic/"+n.ID+".md"); !strings.Contains(got, "Edited in place.") {
		t.Fatalf("an hour after the last whole staging, the hook's sync did not commit the edit made in place:\n%s", got)
	}
	a.assertClean()
}

// gitCalls puts a git first on PATH that logs its arguments (one call a
// line) and runs the real one; it returns the log's path.
func gitCalls(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the logging git is a shell script")
	}
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not on PATH")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// Status, memory_status and the dashboard's overview say whether notes wait
// for a sync from the store's record of its writes, once a sync started
// it: never git status, which stats every file of the store.
func TestStateReadsTheRecordNotTheTree(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	a := newHome(t, "alpha", newRemote(t))
	a.write(note.Semantic, "First note", "Synced.")
	a.sync()
	calls := gitCalls(t)
	st := a.store()
	if s := State(ctx, a.dir, a.remote, st); s.Dirty || !s.Initialized || s.Head == nil || s.Unpushed != 0 {
		t.Fatalf("after a sync: %+v", s)
	}
	a.write(note.Procedural, "Second note", "Waiting for the next sync.")
	if s := State(ctx, a.dir, a.remote, st); !s.Dirty {
		t.Fatalf("a note written since the sync is not reported: %+v", s)
	}
	data, _ := os.ReadFile(calls)
	if len(data) == 0 {
		t.Fatal("the logging git never ran: the test sees nothing")
	}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.Contains(" "+l+" ", " status ") || strings.Contains(" "+l+" ", " add ") {
			t.Errorf("State ran git over the whole tree: git %s", l)
		}
	}
	if n := strings.Count(string(data), "\n"); n > 6 {
		t.Errorf("two States ran git %d times:\n%s", n, data)
	}
	a.recordedSync()
	if s := State(ctx, a.dir, a.remote, st); s.Dirty || s.Unpushed != 0 {
		t.Fatalf("after the hook's sync: %+v", s)
	}
	// Without a store (or a record) it is git status, as before.
	a.write(note.Episodic, "Third note", "Also waiting.")
	if s := State(ctx, a.dir, a.remote, nil); !s.Dirty {
		t.Fatalf("git status did not see the note waiting: %+v", s)
	}
}
