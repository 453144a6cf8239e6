package gitsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"
)

// ErrBusy is returned when another sync holds the home's lock.
var ErrBusy = errors.New("another sync is running")

// LockPath is the per-home sync lock.
func LockPath(home string) string { return filepath.Join(home, "sync.lock") }

// lock holds <home>/sync.lock for the length of a sync (git steps and the
// index update), so two syncs of one home never interleave.
type lock struct {
	f    *os.File
	path string
}

// acquire takes the lock, retrying until wait has passed.
func acquire(ctx context.Context, path string, wait time.Duration) (*lock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
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
