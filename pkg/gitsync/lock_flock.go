//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package gitsync

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// tryLock takes an exclusive flock without blocking. The kernel drops it when
// the process dies, so a crashed sync never leaves a stale lock behind.
func tryLock(path string) (*lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, layout.FileMode)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EAGAIN) {
			return nil, ErrBusy
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The file locked must still be the one at path: a holder may remove
	// it (RemoveLock), and a taker that opened it before then would
	// otherwise hold a lock nobody else can see. The caller retries.
	if fi, err := f.Stat(); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	} else if pi, err := os.Stat(path); err != nil || !os.SameFile(fi, pi) {
		f.Close()
		return nil, ErrBusy
	}
	// The pid is for a human looking at the file; the flock is the lock.
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return &lock{f: f, path: path}, nil
}

func (l *lock) release() {
	syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
}

// lockStale: never. A flock dies with its holder, and the file it leaves is
// the lock's resting state, which the next taker simply locks.
func lockStale(path string) bool { return false }
