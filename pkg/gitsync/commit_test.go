package gitsync

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"time"
)

// Commit (tests only) commits all the notes under <home>/memory locally, creating the
// repository if needed. It takes the home's commit lock, waiting up to wait:
// a running sync holds that lock only for its local steps, never across the
// network, so the wait is short even when the remote hangs; past wait it
// returns ErrBusy and the next sync commits the notes.
func Commit(ctx context.Context, home, machineID, msg string, wait time.Duration) (bool, error) {
	if msg == "" {
		msg = Message(machineID)
	}
	if wait <= 0 {
		wait = 10 * time.Second
	}
	lk, err := acquire(ctx, CommitLockPath(home), wait)
	if err != nil {
		return false, err
	}
	defer lk.release()
	if _, err := exec.LookPath("git"); err != nil {
		return false, errors.New("git is not on PATH")
	}
	g := &git{dir: filepath.Join(home, "memory"), machine: machineID}
	if err := ensureRepo(ctx, g); err != nil {
		return false, err
	}
	return commitAll(ctx, g, msg)
}
