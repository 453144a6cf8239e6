//go:build windows

package gitsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// tryLock creates the lock file exclusively and keeps it open while held.
// Windows has no flock, but it refuses to delete a file another handle has
// open without FILE_SHARE_DELETE (Go opens files without it), and closes
// every handle of a process that dies. So an existing lock file is removed
// and created again: the removal succeeds only when no live process holds
// the file, which makes a crashed sync's lock stale at once, not after a
// timeout, and never takes a live holder's.
func tryLock(path string) (*lock, error) {
	f, err := createLock(path)
	if errors.Is(err, fs.ErrExist) {
		rerr := os.Remove(path)
		switch {
		case rerr == nil || errors.Is(rerr, fs.ErrNotExist):
			f, err = createLock(path)
		case errors.Is(rerr, errSharingViolation), errors.Is(rerr, syscall.ERROR_ACCESS_DENIED):
			// Held: a live process has it open (access denied: its
			// deletion is pending while the holder still has it open).
			return nil, ErrBusy
		default:
			return nil, fmt.Errorf("lock %s: %w", path, rerr)
		}
		if errors.Is(err, fs.ErrExist) {
			return nil, ErrBusy // another taker won the race
		}
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
	return &lock{f: f, path: path}, nil
}

func createLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
}

// release closes the file, then removes it; a removal that fails because
// the next holder already has it open leaves that holder's file alone.
func (l *lock) release() {
	l.f.Close()
	os.Remove(l.path)
}

// lockStale reports whether the lock file at path exists with no live
// holder, without changing it: opening it for deletion (and not deleting)
// fails with a sharing violation exactly when a holder has it open.
func lockStale(path string) bool {
	p, err := syscall.UTF16PtrFromString(path)
	if err != nil {
		return false
	}
	const deleteAccess = 0x00010000 // DELETE
	h, err := syscall.CreateFile(p, deleteAccess,
		syscall.FILE_SHARE_READ|syscall.FILE_SHARE_WRITE|syscall.FILE_SHARE_DELETE,
		nil, syscall.OPEN_EXISTING, syscall.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return false // gone, or held
	}
	syscall.CloseHandle(h)
	return true
}

const errSharingViolation = syscall.Errno(32) // ERROR_SHARING_VIOLATION
