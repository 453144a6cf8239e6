package gitsync

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// A git process that dies (a crash, kill -9, a power cut) leaves its
// index.lock behind, and from then on every git command that writes the
// index fails ("index.lock': File exists"): every sync and every capture's
// commit. The lock is only removed when no process can be holding it, and
// only by a caller that holds the home's sync lock (so none of ours is).

// IndexLock describes memory/.git/index.lock.
type IndexLock struct {
	Path string
	Age  time.Duration
	// Stale: no live process holds it (on Linux, none has it open and no git
	// process works in the repository; elsewhere, older than staleGitLock).
	Stale bool
}

// staleGitLock is the age past which a git lock counts as abandoned where
// the holder cannot be looked up: longer than any git command we run takes,
// and than a user plausibly leaves a commit message editor open.
const staleGitLock = 10 * time.Minute

// FindIndexLock reports memory/.git/index.lock of the repository in memDir;
// ok is false when there is none.
func FindIndexLock(memDir string) (l IndexLock, ok bool) {
	p := filepath.Join(memDir, ".git", "index.lock")
	info, err := os.Lstat(p)
	if err != nil {
		return IndexLock{}, false
	}
	l = IndexLock{Path: p, Age: time.Since(info.ModTime())}
	if held, known := lockHeld(p, memDir); known {
		l.Stale = !held
	} else {
		l.Stale = l.Age > staleGitLock
	}
	return l, true
}

// removeStaleIndexLock removes a stale index.lock (the caller holds the
// sync lock) and says what it did; "" when there was nothing to remove. A
// lock a live process holds is left: git's own retries wait for it.
func removeStaleIndexLock(memDir string) (string, error) {
	l, ok := FindIndexLock(memDir)
	if !ok || !l.Stale {
		return "", nil
	}
	if err := os.Remove(l.Path); err != nil && !os.IsNotExist(err) {
		return "", fmt.Errorf("removing the stale %s: %w", l.Path, err)
	}
	return fmt.Sprintf("removed a stale %s left by a git process that no longer runs", l.Path), nil
}

// Symlinks lists the symbolic links under memDir (outside .git), as paths
// relative to it. Git commits a link as a link: a type directory moved to
// another disk and linked back would reach every other machine as a link to
// a path that does not exist there, deleting all its notes.
func Symlinks(memDir string) []string {
	var out []string
	filepath.WalkDir(memDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" && filepath.Dir(p) == memDir {
			return filepath.SkipDir
		}
		if d.Type()&os.ModeSymlink != 0 {
			rel, _ := filepath.Rel(memDir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// symlinkError refuses a commit while memory/ holds symlinks.
func symlinkError(memDir string, links []string) error {
	return fmt.Errorf("refusing to commit: %s is a symbolic link (%d in %s); git would record the link instead of the notes and delete them on every other machine. Move the files back into a real directory (remove the link, mkdir, copy the notes in), then sync",
		links[0], len(links), memDir)
}
