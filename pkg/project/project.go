// Package project turns a working directory into the project key notes are
// filed under (seed 000, "Project resolution"). It reads .git/config itself
// instead of running git, because inject runs before every session.
package project

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/input"
)

// Trusted maps the path of each .anamnesis/project marker a person approved
// (anamnesis project trust) to the hash of the content approved
// (config.json's "trusted_markers").
type Trusted map[string]string

// Here is the project of directory dir ("" = the working directory) for the
// user cfg describes: Resolve with the user's home (config.UserHome) and the
// markers they trusted. It is the one answer to "which project is this
// directory" that every surface (hooks, CLI, doctor, native import) asks.
func Here(dir string, cfg config.Config) Resolution {
	if dir == "" {
		dir = "."
	}
	return Resolve(dir, cfg.UserHome, cfg.TrustedMarkers)
}

// Resolution is a project key and, when a marker was found, what became of it.
type Resolution struct {
	Key string
	// Marker is the marker file found (absolute), "" when none.
	Marker string
	// Hash is the marker's content hash, what trusting it records.
	Hash string
	// Ignored says why the marker was not used ("" when it was, or there is none).
	Ignored string
}

// Resolve resolves cwd: the nearest .anamnesis/project marker (searched
// upward, stopping below home and the root) when the user made it, else the
// normalized origin remote, else the repository root's name, else cwd's
// name; all lowercased; "global" if empty. A repository cannot redirect
// memory (SPEC 17): a marker tracked by the repository's git counts only
// when trusted holds its path with its current content hash, and a marker
// never names "global".
func Resolve(cwd, home string, trusted Trusted) Resolution {
	abs, err := filepath.Abs(cwd)
	if err != nil {
		abs = cwd
	}
	var r Resolution
	if path, k, hash := marker(abs, home); path != "" {
		r.Marker, r.Hash = path, hash
		switch {
		case strings.EqualFold(k, "global"):
			r.Ignored = "it names global, which a marker may not (global notes show in every project)"
		case trusted[path] == hash:
			r.Key = k
			return r
		case tracked(path):
			r.Ignored = "it is tracked by the repository's git, so whoever wrote the repository chose it; trust it with `anamnesis project trust`"
			if trusted[path] != "" {
				r.Ignored = "it changed since it was trusted; trust it again with `anamnesis project trust`"
			}
		default:
			r.Key = k
			return r
		}
	}
	r.Key = fallback(abs)
	return r
}

// fallback is the key of a directory without a marker in use: its
// repository's origin, else the name of the repository's root or of the
// directory itself, read on the physical path (symbolic links resolved), as
// Claude Code's hooks get it and the reference reads it: a shell in a link
// whose name differs (~/code/api -> /srv/quotes-api) would otherwise give
// the CLI another project than the hooks.
func fallback(abs string) string {
	if phys, err := filepath.EvalSymlinks(abs); err == nil {
		abs = phys
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

// maxMarker bounds a marker file: a project key is one short line.
const maxMarker = 64 << 10

// marker finds the nearest marker: its path, its key and its content hash.
// The path is the marker's under its directory's physical path (symlinks
// resolved), the one name a trust is recorded and looked up by: a shell in a
// symlinked directory reports the path through the link, Claude Code's hook
// payload the physical one. The .anamnesis directory itself is not
// resolved: a repository's .anamnesis linking to another project's trusted
// marker stays a marker of its own (see tracked).
func marker(dir, home string) (path, key, hash string) {
	home = filepath.Clean(home)
	for {
		if home != "" && dir == home {
			return "", "", "" // a marker at $HOME would hijack every project
		}
		p := filepath.Join(dir, ".anamnesis", "project")
		// Only a small regular file is a marker: a repository's marker may
		// be a symlink to /dev/zero or a named pipe (git keeps symlinks),
		// which no read would finish.
		if data, err := input.ReadFile(p, maxMarker); err == nil {
			for _, line := range strings.Split(string(data), "\n") {
				if l := strings.TrimSpace(line); l != "" {
					sum := sha256.Sum256(data)
					if real, err := filepath.EvalSymlinks(dir); err == nil {
						p = filepath.Join(real, ".anamnesis", "project")
					}
					return p, l, hex.EncodeToString(sum[:])
				}
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", ""
		}
		dir = parent
	}
}

// tracked reports whether the marker at path is in its repository's git
// index (tracked, or staged to be), itself or through its .anamnesis
// directory (a tracked symlink, which may point at a project file the
// repository holds or at another project's marker). It reads the index
// itself, as the rest of this package reads .git/config: no git process at
// every session start. An index it cannot read counts as tracked: the
// marker then needs trust.
func tracked(path string) bool {
	root, indexPath := workTree(filepath.Dir(filepath.Dir(path)))
	if root == "" {
		return false // not in a repository
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return true
	}
	data, err := os.ReadFile(indexPath)
	if os.IsNotExist(err) {
		return false // a repository with nothing staged yet
	}
	if err != nil {
		return true
	}
	rels := []string{filepath.ToSlash(rel), filepath.ToSlash(filepath.Dir(rel))}
	found, ok, shared := indexHas(data, rels...)
	if shared != "" && !found && ok {
		// A split index: the rest of the entries are in the shared file.
		var data []byte
		err := os.ErrNotExist
		for _, n := range []int{40, 64} {
			if n <= len(shared) && errors.Is(err, os.ErrNotExist) {
				data, err = os.ReadFile(filepath.Join(filepath.Dir(indexPath), "sharedindex."+shared[:n]))
			}
		}
		if err != nil {
			return true
		}
		found, ok, _ = indexHas(data, rels...)
	}
	return found || !ok
}

// workTree is the work tree holding dir and its index file.
func workTree(dir string) (root, index string) {
	for {
		p := filepath.Join(dir, ".git")
		if info, err := os.Stat(p); err == nil {
			if info.IsDir() {
				return dir, filepath.Join(p, "index")
			}
			if data, err := os.ReadFile(p); err == nil {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:"); ok {
					gd := strings.TrimSpace(rest)
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(dir, gd)
					}
					return dir, filepath.Join(gd, "index")
				}
			}
			return dir, ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ""
		}
		dir = parent
	}
}

// indexHas reports whether git index data (versions 2 to 4) holds an entry
// for one of rels, in any case: on a case-insensitive file system (macOS,
// Windows) a tracked .Anamnesis/Project is the file read as
// .anamnesis/project. ok is false when the data is not an index it can read.
// shared is, for a split index (core.splitIndex), the hex of the first
// bytes of its link: the shared index holding the entries data does not is
// sharedindex.<hash> beside it, the hash being its first 40 (SHA-1) or 64
// (SHA-256) digits.
func indexHas(data []byte, rels ...string) (found, ok bool, shared string) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return false, false, ""
	}
	version := binary.BigEndian.Uint32(data[4:8])
	count := binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return false, false, ""
	}
	p := 12
	var prev []byte
	for range count {
		start := p
		if p+62 > len(data) {
			return false, false, ""
		}
		flags := binary.BigEndian.Uint16(data[p+60 : p+62])
		p += 62
		if version >= 3 && flags&0x4000 != 0 {
			p += 2
		}
		if p > len(data) {
			return false, false, ""
		}
		var name []byte
		if version == 4 {
			strip, n := varint(data[p:])
			if n == 0 || strip > len(prev) {
				return false, false, ""
			}
			p += n
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return false, false, ""
			}
			name = append(append([]byte{}, prev[:len(prev)-strip]...), data[p:p+end]...)
			p += end + 1
			prev = name
		} else {
			end := bytes.IndexByte(data[p:], 0)
			if end < 0 {
				return false, false, ""
			}
			name = data[p : p+end]
			// Entries are padded with NULs to a multiple of 8 bytes.
			p = start + (62+(p-start-62)+end+8)&^7
		}
		for _, rel := range rels {
			if strings.EqualFold(string(name), rel) {
				return true, true, ""
			}
		}
	}
	// Extensions follow the entries (a signature, a 32-bit size, the data),
	// then the checksum; a split index's "link" starts with the hash that
	// names its shared index.
	for p+8 <= len(data) {
		size := int(binary.BigEndian.Uint32(data[p+4 : p+8]))
		if size > len(data)-p-8 {
			break
		}
		if string(data[p:p+4]) == "link" {
			if size < 20 {
				return false, false, ""
			}
			// The hash (20 bytes, or 32 in a SHA-256 repository), then
			// bitmaps: the caller tries both lengths.
			return false, true, hex.EncodeToString(data[p+8 : p+8+min(size, 32)])
		}
		p += 8 + size
	}
	return false, true, ""
}

// varint is git's offset encoding (index v4 path prefixes).
func varint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := int(c & 127)
	n := 1
	for c&128 != 0 {
		if n >= len(b) || n > 8 {
			return 0, 0
		}
		c = b[n]
		n++
		v = ((v + 1) << 7) | int(c&127)
	}
	return v, n
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
// equal, as the reference does (so keys match across machines still
// running it): scheme and user@ stripped, host:path turned into host/path, a
// trailing .git then trailing slashes stripped, lowercased. Unlike the
// reference, a URL's query and fragment are dropped: they name no
// repository, and what they carry is often a credential
// (?private_token=…), which would otherwise be part of the key, shown in
// every block, and change the project whenever the token is rotated.
func NormalizeRemote(url string) string {
	u := strings.TrimSpace(url)
	if schemeRE().MatchString(u) {
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
	}
	u = schemeRE().ReplaceAllString(u, "")
	u = userRE().ReplaceAllString(u, "")
	u = scpRE().ReplaceAllString(u, "$1/$2")
	u = strings.TrimSuffix(u, ".git")
	u = strings.TrimRight(u, "/")
	return strings.ToLower(u)
}
