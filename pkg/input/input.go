// Package input opens files a user or a hook payload names. Such a path may
// be a FIFO (open blocks until a writer appears, forever if none does), a
// device (/dev/zero never ends) or a directory; only regular files are read,
// and opening never blocks.
package input

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

// ErrNotRegular is returned for anything but a regular file.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is returned by ReadFile for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// Open opens path for reading if it is a regular file (symlinks followed).
// O_NONBLOCK makes opening a FIFO return at once, so the type is checked on
// the open descriptor, not on a name that could be swapped in between.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		what := "not a file"
		switch t := info.Mode().Type(); {
		case t&os.ModeDir != 0:
			what = "a directory"
		case t&os.ModeNamedPipe != 0:
			what = "a named pipe"
		case t&os.ModeSocket != 0:
			what = "a socket"
		case t&os.ModeDevice != 0:
			what = "a device"
		}
		return nil, fmt.Errorf("%s is %s: %w", path, what, ErrNotRegular)
	}
	return f, nil
}

// ReadFile reads a regular file of at most max bytes.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w (over %d bytes)", path, ErrTooLarge, max)
	}
	return data, nil
}
