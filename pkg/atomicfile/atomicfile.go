// Package atomicfile writes a file so that a reader, or a crash, never sees
// it half-written: every writer of the store (notes, config.json,
// settings.json, sync state) goes through Write.
package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"time"
)

// TempPrefix starts the name of every temporary file Write makes; the store
// skips such files and its .gitignore keeps them out of git.
const TempPrefix = ".tmp-"

// Write writes data to a temporary file in path's directory (created if
// needed), syncs it, sets perm and renames it over path.
func Write(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, true, false)
}

// WriteCache is Write without the sync: a reader still never sees half a
// file, but a crash may lose the new content. For state a hook rewrites on
// the hot path of a prompt (an fsync costs several ms on a virtual disk)
// whose loss costs nothing worse than a repeat.
func WriteCache(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false, false)
}

// Rewrite is WriteCache for a file whose absence says no more than its old
// content would (a session's state: none is a session that was shown
// nothing yet). The old file is removed right before the new one is
// renamed in: on ext4 a rename over an existing file first starts the new
// file's writeback (auto_da_alloc), a cost a hook that rewrites the file
// at every prompt would pay each time. A reader in between finds no file,
// never half of one.
func Rewrite(path string, data []byte, perm os.FileMode) error {
	return write(path, data, perm, false, true)
}

func write(path string, data []byte, perm os.FileMode, sync, unlink bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, TempPrefix+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if unlink {
			os.Remove(path) // gone already, or in use on Windows: rename decides
		}
		err = rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// rename replaces path. On Windows a rename over a file that another process
// has open (an editor, a virus scanner, the dashboard reading it) fails for
// a moment with "access denied"; it is retried briefly there.
func rename(from, to string) error {
	err := os.Rename(from, to)
	for i := 0; err != nil && runtime.GOOS == "windows" && i < 20; i++ {
		time.Sleep(time.Duration(10*(i+1)) * time.Millisecond)
		err = os.Rename(from, to)
	}
	return err
}

// LinkTarget is the file a write to path replaces so that a symlink there
// (a dotfiles-managed settings.json or config.json) stays a link: the file
// it points to, through any chain of links; path itself when it is no
// link. A link to a file not made yet resolves to that file, so the write
// creates it (or fails when its directory is missing) and the link stays.
func LinkTarget(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	for range 40 { // the kernel's own limit on a chain of links
		dest, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path
}
