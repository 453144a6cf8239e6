package gitsync

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// ErrNoGit is returned when git is not on PATH: notes are written and
// stay uncommitted until a sync with git commits them.
var ErrNoGit = errors.New("git is not on PATH")

// ErrBusy is returned when another sync holds the home's lock.
var ErrBusy = errors.New("another sync is running")

// LockPath is the per-home sync lock.
func LockPath(home string) string { return filepath.Join(home, "sync.lock") }

// CommitLockPath is the per-home lock on memory/'s repository.
func CommitLockPath(home string) string { return filepath.Join(home, "commit.lock") }

// PackLockPath is held while Pack repacks the home's repositories; it
// keeps no git step waiting (git lets others commit meanwhile).
func PackLockPath(home string) string { return filepath.Join(home, "pack.lock") }

// lock is one of a home's locks. <home>/sync.lock is held for the
// length of a sync (git steps and the index update), so two syncs of one home
// never interleave. <home>/commit.lock is held for every local change to
// memory/'s repository (commit, merge, ref update) and never across a network
// step, so a capture's local commit waits at most for a local git step, never
// for a remote that does not answer (SPEC 5: a hanging remote must not delay
// Claude Code's exit). Whoever holds both took sync.lock first.
// <home>/pack.lock (PackLockPath) is held by Pack alone, outside the others.
type lock struct {
	f    *os.File
	path string
}

// acquire takes the lock, retrying until wait has passed.
func acquire(ctx context.Context, path string, wait time.Duration) (*lock, error) {
	if err := layout.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
	delay := 20 * time.Millisecond
	for {
		l, err := tryLock(path)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, ErrBusy) {
			return nil, err
		}
		if !time.Now().Before(deadline) {
			return nil, ErrBusy
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
		if delay < 200*time.Millisecond {
			delay *= 2
		}
	}
}

// WaitIdle waits up to wait for a sync of home that is running now to
// finish (its pull indexed), by taking the lock and releasing it at once. It
// reports whether no sync was running by the end. Per-prompt recall calls it
// on a session's first prompt, so that what the SessionStart sync pulls can
// reach that same session.
func WaitIdle(ctx context.Context, home string, wait time.Duration) bool {
	l, err := acquire(ctx, LockPath(home), wait)
	if err != nil {
		return false
	}
	l.release()
	return true
}

// Hold takes the lock file at path for a caller outside this package (the
// lifecycle's apply lock), retrying until wait has passed; release frees it.
func Hold(ctx context.Context, path string, wait time.Duration) (release func(), err error) {
	l, err := acquire(ctx, path, wait)
	if err != nil {
		return nil, err
	}
	return l.release, nil
}

// RemoveLock removes the lock file at path while holding it, waiting up to
// wait for a holder to finish: for an undo that removes what it created (a
// team add whose first fetch failed). A taker that opened the file before
// it went finds, once it holds it, that it is no longer the file at path,
// and takes the new one. A file that is not there is no error.
func RemoveLock(ctx context.Context, path string, wait time.Duration) error {
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	l, err := acquire(ctx, path, wait)
	if err != nil {
		return err
	}
	defer l.release() // on Windows the release removes it
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) && runtime.GOOS != "windows" {
		return err
	}
	return nil
}

// StaleLock is one of a home's lock files left behind by a process that no
// longer runs. Where locks are flocks (Linux, macOS, the BSDs) there is none:
// the kernel drops a flock with its holder. On Windows a lock file no live
// process holds open is stale, and the next taker removes it and takes over.
type StaleLock struct {
	Path string
	Pid  int // the holder's process id as it wrote it; 0 when unreadable
	Age  time.Duration
}

// String says what the lock is and what happens to it, for status and doctor.
func (l StaleLock) String() string {
	who := "a process"
	if l.Pid > 0 {
		who += " (pid " + strconv.Itoa(l.Pid) + ")"
	}
	return fmt.Sprintf("%s was left by %s that no longer runs (%s old); the next sync or capture takes it over",
		l.Path, who, l.Age.Round(time.Second))
}

// StaleLocks reports home's sync and commit locks that are stale, without
// changing them.
func StaleLocks(home string) []StaleLock {
	var out []StaleLock
	for _, p := range []string{LockPath(home), CommitLockPath(home)} {
		info, err := os.Stat(p)
		if err != nil || !lockStale(p) {
			continue
		}
		l := StaleLock{Path: p, Age: time.Since(info.ModTime())}
		if b, err := os.ReadFile(p); err == nil {
			l.Pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		out = append(out, l)
	}
	return out
}
