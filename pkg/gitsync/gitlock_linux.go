package gitsync

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockHeld looks through /proc for a process that has the lock file open,
// or a git process working in the repository (git commit closes index.lock
// while the message editor is open, so an open file alone is not enough).
func lockHeld(lockPath, repo string) (held, known bool) {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	targets := []string{lockPath}
	if real, err := filepath.EvalSymlinks(filepath.Dir(lockPath)); err == nil {
		targets = append(targets, filepath.Join(real, filepath.Base(lockPath)))
	}
	repos := []string{repo}
	if real, err := filepath.EvalSymlinks(repo); err == nil {
		repos = append(repos, real)
	}
	self := os.Getpid()
	for _, p := range procs {
		pid := p.Name()
		if pid == "" || pid[0] < '0' || pid[0] > '9' || pid == strconv.Itoa(self) {
			continue
		}
		dir := filepath.Join("/proc", pid)
		if comm, err := os.ReadFile(filepath.Join(dir, "comm")); err == nil && strings.HasPrefix(string(comm), "git") {
			if cwd, err := os.Readlink(filepath.Join(dir, "cwd")); err == nil {
				for _, r := range repos {
					if cwd == r || strings.HasPrefix(cwd, r+"/") {
						return true, true
					}
				}
			}
		}
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			continue // another user's process, or gone: it cannot hold our lock unseen for long
		}
		for _, fd := range fds {
			link, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
			if err != nil {
				continue
			}
			for _, t := range targets {
				if link == t {
					return true, true
				}
			}
		}
	}
	return false, true
}
