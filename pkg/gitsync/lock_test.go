package gitsync

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

// A sync killed while it holds the home's lock (kill -9, a closed terminal,
// Task Manager) must not block the next one: on Windows, where the lock is a
// file, its holder's death makes it stale at once (issue 30: every sync said
// "skipped (another sync is running)" for 15 minutes), status and doctor
// say so, and the next taker takes it over. While the holder lives, nobody
// takes it and nothing calls it stale. The holder is this test binary run
// again as a separate process (TestLockHolderProcess).
func TestLockTakenOverFromDeadHolder(t *testing.T) {
	home := t.TempDir()
	path := LockPath(home)
	holder := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	holder.Env = append(os.Environ(), "ANAMNESIS_TEST_LOCK_HOLDER="+path)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	holder.Stdin = strings.NewReader("") // the holder never reads it
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "held" {
		t.Fatalf("holder said %q (%v)", line, err)
	}

	ctx := context.Background()
	if _, err := acquire(ctx, path, 0); !errors.Is(err, ErrBusy) {
		t.Fatalf("a live holder's lock was taken: %v", err)
	}
	if s := StaleLocks(home); len(s) != 0 {
		t.Fatalf("a live holder's lock is called stale: %+v", s)
	}

	holder.Process.Kill()
	holder.Wait()
	stale := StaleLocks(home)
	if runtime.GOOS == "windows" {
		if len(stale) != 1 || stale[0].Path != path || stale[0].Pid != holder.Process.Pid {
			t.Fatalf("the dead holder's lock is not reported stale (pid %d): %+v", holder.Process.Pid, stale)
		}
		if d := State(ctx, home, "", nil).Detail; !strings.Contains(d, "no longer runs") || !strings.Contains(d, path) {
			t.Errorf("status does not report the stale lock: %q", d)
		}
	} else if len(stale) != 0 {
		t.Fatalf("a flock left by a dead holder is reported stale: %+v", stale)
	}

	start := time.Now()
	l, err := acquire(ctx, path, 0)
	if err != nil {
		t.Fatalf("the dead holder's lock was not taken over: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("taking over took %s", d)
	}
	if s := StaleLocks(home); len(s) != 0 {
		t.Errorf("the new holder's lock is called stale: %+v", s)
	}
	if _, err := acquire(ctx, path, 0); !errors.Is(err, ErrBusy) {
		t.Fatalf("a held lock was taken twice: %v", err)
	}
	l.release()
	l, err = acquire(ctx, path, 0)
	if err != nil {
		t.Fatalf("a released lock cannot be taken: %v", err)
	}
	l.release()
}

// TestLockHolderProcess is TestLockTakenOverFromDeadHolder's holder: it takes
// the lock, says so, and waits to be killed.
func TestLockHolderProcess(t *testing.T) {
	path := os.Getenv("ANAMNESIS_TEST_LOCK_HOLDER")
	if path == "" {
		t.Skip("run by TestLockTakenOverFromDeadHolder")
	}
	if os.Getenv("ANAMNESIS_TEST_LOCK_VIA_CHILD") != "" {
		// Stand in for git: the lock is held by this process's child (ssh).
		child := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
		child.Env = append(os.Environ(), "ANAMNESIS_TEST_LOCK_VIA_CHILD=")
		child.Stdout = os.Stdout
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
	}
	if _, err := acquire(context.Background(), path, 0); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("held\n")
	time.Sleep(time.Hour)
}

// A git command cancelled (a sync's deadline) takes its children with it:
// git's ssh must not keep running, and holding what it holds, after the
// git that started it is gone (a process group on Unix, a job object on
// Windows). The stand-in git starts a child that holds a lock; once the
// command is cancelled the lock must be free.
func TestGitChildrenDieWithCancelledGit(t *testing.T) {
	path := LockPath(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLockHolderProcess$")
	cmd.Env = append(os.Environ(), "ANAMNESIS_TEST_LOCK_HOLDER="+path, "ANAMNESIS_TEST_LOCK_VIA_CHILD=1")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd.Stdout = w
	cmd.WaitDelay = 2 * time.Second
	done := make(chan error, 1)
	go func() { done <- runGroup(cmd); w.Close() }()
	line, err := bufio.NewReader(r).ReadString('\n')
	if strings.TrimSpace(line) != "held" {
		t.Fatalf("the child said %q (%v)", line, err)
	}
	if _, err := acquire(context.Background(), path, 0); !errors.Is(err, ErrBusy) {
		t.Fatalf("the child's lock is not held: %v", err)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled command did not return")
	}
	l, err := acquire(context.Background(), path, 5*time.Second)
	if err != nil {
		t.Fatalf("the cancelled git's child still holds its lock: %v", err)
	}
	l.release()
}

// RemoveLock takes the lock before removing its file: it waits for a
// holder, and whoever takes the lock after it holds the file at the path.
func TestRemoveLockWaitsForTheHolder(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/sync.lock"
	if err := RemoveLock(ctx, path, time.Second); err != nil {
		t.Fatalf("a lock file not there: %v", err)
	}
	l, err := acquire(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := RemoveLock(ctx, path, 100*time.Millisecond); !errors.Is(err, ErrBusy) {
		t.Fatalf("removed while held: %v", err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the held lock's file went: %v", err)
	}
	l.release()
	if err := RemoveLock(ctx, path, time.Second); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the lock file is still there: %v", err)
	}
	l, err = acquire(ctx, path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer l.release()
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("the lock taken after the removal has no file: %v", err)
	}
}
