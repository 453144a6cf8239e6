package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// refLocks are the other locks a git process killed mid-step leaves in a
// repository's git directory: main's and HEAD's (a commit, a merge's
// update-ref), origin/main's (a fetch), the config's (set-url) and
// packed-refs'. Each makes every later step that takes it fail.
var refLocks = []string{"HEAD.lock", "ORIG_HEAD.lock", "config.lock", "packed-refs.lock",
	"refs/heads/main.lock", "refs/remotes/origin/main.lock"}

// removeStaleRefLocks removes those of refLocks in gitDir that no live
// process holds (the caller holds the sync or commit lock, as for
// removeStaleIndexLock).
func removeStaleRefLocks(gitDir, memDir string) error {
	for _, rel := range refLocks {
		p := filepath.Join(gitDir, filepath.FromSlash(rel))
		info, err := os.Lstat(p)
		if err != nil {
			continue
		}
		stale := time.Since(info.ModTime()) > staleGitLock
		if held, known := lockHeld(p, memDir); known {
			stale = !held
		}
		if !stale {
			continue
		}
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("removing the stale %s: %w", p, err)
		}
	}
	return nil
}

// Symlinks lists the symbolic links a commit of everything under memDir
// would record, as paths relative to it. Git commits a link as a link: a
// type directory moved to another disk and linked back would reach every
// other machine as a link to a path that does not exist there, deleting all
// its notes. The candidates are what git status reports (changed, added,
// untracked), never a walk of every note.
func Symlinks(ctx context.Context, memDir string) ([]string, error) {
	_, links, err := worktree(ctx, &git{dir: memDir, readOnly: true})
	return links, err
}

// worktree runs git status in g's repository and returns its porcelain
// output (empty when nothing is to commit) and the symbolic links among the
// paths it names.
func worktree(ctx context.Context, g *git) (string, []string, error) {
	out, err := g.run(ctx, "status", "--porcelain", "-z", "--untracked-files=all")
	if err != nil {
		return "", nil, err
	}
	var named []string
	fields := strings.Split(out, "\x00")
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if len(f) < 4 {
			continue
		}
		if f[0] == 'R' || f[0] == 'C' {
			i++ // the path it was renamed or copied from
		}
		named = append(named, f[3:])
	}
	return out, linksAmong(g.dir, named), nil
}

// stagedLinks lists the paths that `git diff --cached --raw -z
// --no-renames` reports staged as symbolic links (mode 120000).
func stagedLinks(raw string) []string {
	var links []string
	fields := strings.Split(raw, "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(fields[i])
		if len(meta) >= 2 && meta[1] == "120000" {
			links = append(links, fields[i+1])
		}
	}
	return links
}

// symlinkError refuses a commit while memory/ holds symlinks.
func symlinkError(memDir string, links []string) error {
	return fmt.Errorf("refusing to commit: %s is a symbolic link (%d in %s); git would record the link instead of the notes and delete them on every other machine. Move the files back into a real directory (remove the link, mkdir, copy the notes in), then sync",
		links[0], len(links), memDir)
}
