// Package project turns a working directory into the project key notes are
// filed under (seed 000, "Project resolution"). It reads .git/config itself
// instead of running git, because inject runs before every session.
package project

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// Key resolves cwd: the nearest .anamnesis/project marker (searched upward,
// stopping below home and the root), else the normalized origin remote, else
// the repository root's name, else cwd's name; all lowercased; "global" if empty.
func Key(cwd, home string) string {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		abs = cwd
	}
	if k := marker(abs, home); k != "" {
		return k
	}
	if root, gitDir := findRepo(abs); root != "" {
		if url := originURL(gitDir); url != "" {
			if k := NormalizeRemote(url); k != "" {
				return k
			}
		}
		return strings.ToLower(filepath.Base(root))
	}
	if b := strings.ToLower(filepath.Base(abs)); b != "" && b != "." && b != string(filepath.Separator) {
		return b
	}
	return "global"
}

func marker(dir, home string) string {
	home = filepath.Clean(home)
	for {
		if home != "" && dir == home {
			return "" // a marker at $HOME would hijack every project
		}
		if data, err := os.ReadFile(filepath.Join(dir, ".anamnesis", "project")); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if l := strings.TrimSpace(line); l != "" {
					return l
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// findRepo returns the work-tree root and the git directory holding config.
func findRepo(dir string) (root, gitDir string) {
	for {
		p := filepath.Join(dir, ".git")
		if info, err := os.Stat(p); err == nil {
			if info.IsDir() {
				return dir, p
			}
			// A worktree or submodule: ".git" is a file naming the real git dir.
			if data, err := os.ReadFile(p); err == nil {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
					gd := strings.TrimSpace(rest)
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(dir, gd)
					}
					if common, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
						c := strings.TrimSpace(string(common))
						if !filepath.IsAbs(c) {
							c = filepath.Join(gd, c)
						}
						gd = c
					}
					return dir, gd
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// The patterns below are compiled on first use (lazily): every hook links
// this package, and a project with a marker file never needs them.
var sectionRE = lazy(`^\[\s*remote\s+"origin"\s*\]`)

func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

func originURL(gitDir string) string {
	f, err := os.Open(filepath.Join(gitDir, "config"))
	if err != nil {
		return ""
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = sectionRE().MatchString(line)
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "url") {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

var (
	schemeRE = lazy(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)
	userRE   = lazy(`^[^@/]+@`)
	scpRE    = lazy(`^([^/:]+):(.*)$`)
)

// NormalizeRemote makes ssh, scp-style and https forms of one repository
// equal, exactly as the reference does (so keys match across machines still
// running it): scheme and user@ stripped, host:path turned into host/path, a
// trailing .git then trailing slashes stripped, lowercased.
func NormalizeRemote(url string) string {
	u := strings.TrimSpace(url)
	u = schemeRE().ReplaceAllString(u, "")
	u = userRE().ReplaceAllString(u, "")
	u = scpRE().ReplaceAllString(u, "$1/$2")
	u = strings.TrimSuffix(u, ".git")
	u = strings.TrimRight(u, "/")
	return strings.ToLower(u)
}
