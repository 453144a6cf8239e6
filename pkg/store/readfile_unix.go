//go:build unix

package store

import (
	"fmt"
	"io/fs"
	"slices"
	"syscall"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// readRegular reads a note file without following a symlink and without
// reading past the size limit (note.Parse rejects what is over it). One
// open that refuses a symlink and never waits (a FIFO), one fstat, reads
// sized by it: an os.File would add a stat before the open, four fcntl and
// a netpoll registration, and reads that grow a buffer from 512 bytes (a
// rebuild reads every note this way).
func readRegular(path string) ([]byte, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
		return err
	})
	if err == syscall.ELOOP {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := retry(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	limit := note.MaxFile + 1
	buf := make([]byte, 0, min(int(st.Size)+1, limit))
	for len(buf) < limit {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, min(cap(buf), limit-len(buf))) // it grew since the fstat
		}
		var n int
		err := retry(func() (err error) {
			n, err = syscall.Read(fd, buf[len(buf):min(cap(buf), limit)])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

// retry runs a system call again while a signal interrupts it (the Go
// runtime preempts with signals).
func retry(call func() error) error {
	for {
		if err := call(); err != syscall.EINTR {
			return err
		}
	}
}
