//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package gitsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// staleAfter is how old a lock file must be before it is taken over: longer
// than any sync runs (its network deadline plus the index update).
const staleAfter = 15 * time.Minute

// tryLock creates the lock file exclusively. Without flock a crashed sync
// leaves the file behind, so an old one is treated as stale.
func tryLock(path string) (*lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, layout.FileMode)
	if errors.Is(err, fs.ErrExist) {
		if lockStale(path) {
			os.Remove(path)
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, layout.FileMode)
		}
		if errors.Is(err, fs.ErrExist) {
			return nil, ErrBusy
		}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return &lock{f: f, path: path}, nil
}

func (l *lock) release() {
	l.f.Close()
	os.Remove(l.path)
}

// lockStale: here only the file's age tells.
func lockStale(path string) bool {
	info, err := os.Stat(path)
	return err == nil && time.Since(info.ModTime()) > staleAfter
}
