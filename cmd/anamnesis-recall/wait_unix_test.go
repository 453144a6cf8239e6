//go:build linux || darwin

package main

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// The first prompt comes while the SessionStart sync is still pulling: recall
// waits for it (briefly) and brings what it pulled.
func TestFirstPromptWaitsForTheRunningSync(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	st, err := store.Open(ctx, f.home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mark, _ := st.Watermark(ctx)
	session.Save(f.home, "s1", session.State{Mark: mark})

	// A "sync" holds the lock, pulls (writes) a note 300 ms later, and ends.
	lf, err := os.OpenFile(gitsync.LockPath(f.home), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		n := note.New(note.Procedural, "Pulled from the desktop", "Written on another machine before this session.")
		n.Project = f.project
		st.Write(ctx, n)
		syscall.Flock(int(lf.Fd()), syscall.LOCK_UN)
		lf.Close()
	}()
	start := time.Now()
	out := f.recall(t, f.payload("s1", "hello"))
	if !strings.Contains(out, recall.ArrivedHeading) || !strings.Contains(out, "Pulled from the desktop") {
		t.Fatalf("after %s:\n%s", time.Since(start), out)
	}
}

// A sync that outlasts the wait: the prompt goes on after recall.SyncWait, and
// says why in the log.
func TestFirstPromptDoesNotWaitLong(t *testing.T) {
	f := newFixture(t)
	session.Save(f.home, "s1", session.State{Mark: 1})
	lf, err := os.OpenFile(gitsync.LockPath(f.home), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// The lock is held until the test ends: that the hook returns at all,
	// after waiting at least SyncWait and saying why in the log, is the
	// property (an upper bound on the time would measure the machine).
	start := time.Now()
	f.recall(t, f.payload("s1", "deploy billing to staging"))
	if d := time.Since(start); d < recall.SyncWait {
		t.Errorf("gave up after %s, before recall.SyncWait", d)
	}
	log, _ := os.ReadFile(f.home + "/logs/anamnesis.log")
	if !strings.Contains(string(log), "a sync was still running") {
		t.Errorf("log:\n%s", log)
	}
}
