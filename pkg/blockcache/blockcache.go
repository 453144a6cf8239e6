// Package blockcache keeps the SessionStart block that anamnesis-inject
// prints, per (project, k, budget), so that the hook's common path reads a
// few small files instead of opening the index: sessions start far more
// often than notes change.
//
// The invalidation rule (one owner: this package, bumped by pkg/store):
//
//   - Every write transaction of the index (Write, Put, Delete, Reindex, a
//     rebuild) calls Bump after its commit with the projects whose notes it
//     touched, old and new. A change to a global note, to a note that
//     supersedes others (its targets may live in any project), or one the
//     writer cannot scope (a full rebuild) bumps the global stamp instead.
//   - A stamp is a fresh random token written atomically, never a counter
//     read and incremented: two writers racing cannot leave a value that a
//     reader saw before either write.
//   - A cached block records the global stamp and its project's stamp read
//     BEFORE the block was computed, and the state (size, modification
//     time, inode and change time) of the executable that rendered it and
//     of every note file the block was read from.
//   - The note directories (the type directories of memory/ and local/)
//     have a recorded state too, "the index reflects them as they were
//     then": any note file created, deleted or renamed in one, by any
//     writer (the reference, git pull, a hand edit, an editor that saves
//     by rename), changes the directory's state. A reindex or a refresh
//     of the directories records the state it read them in (Synced); a
//     write of ours records the state it leaves, but only for a directory
//     that was as recorded before the write (Bump), so another writer's
//     change is never covered by ours.
//   - A block is printed only if all of these still match, the recorded
//     directory state is the directories' state now, and its checksum
//     holds; otherwise the block is computed from the index as without a
//     cache, after refreshing what changed (Drifted says what) and saved.
//
// So a write in one project leaves the other projects' blocks valid, a
// global change invalidates all of them, a hand edit of a shown note is
// seen at once (its file stamp), and an upgraded binary recomputes.
//
// The cache's files are replaced atomically but not synced (the writes sit
// on SessionEnd's path, and a sync waits for the disk): after a crash any of
// them may be an older version. Where the file system keeps renames in
// order (ext4's journal does), that never prints a stale block: Bump
// renames the stamps before the record of the directories, so an older
// stamp goes with an older record, which a note file written since does not
// match (note files are synced, and creating or replacing one changes its
// directory's state), and the block is computed again.
//
// The package links nothing heavier than the standard library: the hook's
// fast path (cmd/anamnesis-inject) uses it without linking SQLite.
package blockcache

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// Global is the project whose stamp every block depends on (note.Global;
// not imported so the hook's fast path links nothing heavier).
const Global = "global"

// magic starts every cache file; a new layout gets a new number.
const magic = "anamnesis inject cache 4"

// Key names one cached block.
type Key struct {
	Project string
	K       int
	Budget  int
}

func dir(home string) string { return layout.Home(home).Cache() }

func hashName(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:12])
}

func stampPath(home, project string) string {
	if project == Global {
		return filepath.Join(dir(home), "stamps", "global")
	}
	return filepath.Join(dir(home), "stamps", "p-"+hashName(project))
}

func blockPath(home string, k Key) string {
	return filepath.Join(dir(home), "inject", hashName(k.Project, strconv.Itoa(k.K), strconv.Itoa(k.Budget)))
}

// Bump gives each project's stamp (Global's when projects include it, since
// that invalidates every block) a fresh value, then records, for each note
// directory our write changed (its state differs between before and after,
// both from Dirs, taken right before and right after the write's file
// operations), the state the write left, when its state before the write
// was the recorded one. A directory another writer changed, before our
// write or after it, stays unrecorded until a refresh reads it; only a
// change landing between before and after, in the directory we wrote, is
// credited to us. The store calls it after committing a write; a missing
// home is not an error.
func Bump(home, before, after string, projects ...string) error {
	for _, p := range projects {
		if p == Global {
			projects = []string{Global}
			break
		}
	}
	var errs []error
	for _, p := range projects {
		if _, err := newStamp(home, p); err != nil {
			errs = append(errs, err)
		}
	}
	if before != "" && after != before {
		rec := strings.Split(recorded(home), ";")
		pre := strings.Split(before, ";")
		post := strings.Split(after, ";")
		if len(rec) == len(post) && len(pre) == len(post) {
			for i := range rec {
				if rec[i] == pre[i] && pre[i] != post[i] {
					rec[i] = post[i]
				}
			}
			errs = append(errs, record(home, strings.Join(rec, ";")))
		}
	}
	return errors.Join(errs...)
}

// Synced records that the index reflects the note directories as they
// were in state (Dirs, taken before they were read): a reindex or a
// refresh of every directory whose state was not the recorded one calls
// it after its commit, and after bumping what it changed.
func Synced(home, state string) error { return record(home, state) }

func record(home, state string) error {
	return atomicfile.WriteCache(recordPath(home), []byte(state), layout.FileMode)
}

// recorded is the recorded directory state ("" when none: every directory
// then counts as changed).
func recorded(home string) string {
	b, _ := os.ReadFile(recordPath(home))
	return string(b)
}

func recordPath(home string) string { return filepath.Join(dir(home), "stamps", "dirs") }

// Drift is what the index may not reflect for one key: the note
// directories whose state is not the recorded one, and the files its
// saved block was read from that changed since.
type Drift struct {
	State string   // the directories' state now (Dirs); Synced takes it once they are refreshed
	Dirs  []string // directories to read again
	Files []string // files to read again, whatever their size and modification time say
}

// Drifted says what changed for key since the index last reflected the
// note directories and since key's block was saved.
func Drifted(home string, key Key) Drift {
	d := DriftedDirs(home)
	data, err := os.ReadFile(blockPath(home, key))
	if err != nil {
		return d
	}
	head, _, _ := strings.Cut(string(data), "\nblock ")
	for _, l := range strings.Split(head, "\n") {
		f, ok := strings.CutPrefix(l, "file ")
		if !ok {
			continue
		}
		parts := strings.SplitN(f, " ", 4)
		if len(parts) != 4 {
			continue
		}
		p, err := strconv.Unquote(parts[3])
		if err != nil {
			continue
		}
		var now Entry
		now.Track(p)
		if now.files[0] != f {
			d.Files = append(d.Files, p)
		}
	}
	return d
}

// DriftedDirs is Drifted without a block: the note directories whose state
// is not the recorded one.
func DriftedDirs(home string) Drift {
	d := Drift{State: Dirs(home)}
	rec := strings.Split(recorded(home), ";")
	dirs := noteDirs(home)
	for i, s := range strings.Split(d.State, ";")[:len(dirs)] {
		if i >= len(rec) || rec[i] != s {
			d.Dirs = append(d.Dirs, dirs[i])
		}
	}
	return d
}

// Any reports whether anything drifted.
func (d Drift) Any() bool { return len(d.Dirs) > 0 || len(d.Files) > 0 }

func newStamp(home, project string) (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(b[:])
	// A reader that finds no stamp while it is replaced makes one of its own,
	// which matches no block saved before either.
	return tok, atomicfile.Rewrite(stampPath(home, project), []byte(tok), layout.FileMode)
}

// stamp reads a project's stamp, creating one when there is none: a block is
// never saved against a missing stamp, so removing the stamps can never make
// an old block match again.
func stamp(home, project string) (string, error) {
	b, err := os.ReadFile(stampPath(home, project))
	if err == nil && len(b) > 0 {
		return string(b), nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	return newStamp(home, project)
}

// Block is a cached block and what it shows: the ids of the notes in it and
// the index watermark it was rendered at (recall's bookkeeping, so that a
// session served from the cache is recorded like one that rendered).
type Block struct {
	Text string
	IDs  []string
	Mark int64
}

// Entry is one lookup: the stamps as they were before the block was
// computed, and the files it was read from.
type Entry struct {
	home          string
	key           Key
	global, local string
	files         []string // "size mtime sys quoted-path"
	block         Block    // what Cached found
	err           error
}

// Open reads the stamps for key. Call it before computing the block: the
// running executable is tracked as the block's renderer.
func Open(home string, key Key) *Entry {
	e := &Entry{home: home, key: key}
	e.global, e.err = stamp(home, Global)
	if e.err == nil {
		e.local, e.err = stamp(home, key.Project)
	}
	if e.err == nil {
		var exe string
		exe, e.err = os.Executable()
		e.Track(exe)
	}
	return e
}

// Dirs is the state of the note directories, one fileID each, each
// followed by ";". Six stats, whatever the store's size.
func Dirs(home string) string {
	var b strings.Builder
	for _, d := range noteDirs(home) {
		id := "-1 0 -"
		if fi, err := os.Lstat(d); err == nil {
			id = fileID(fi)
		}
		b.WriteString(strings.ReplaceAll(id, " ", "/") + ";")
	}
	return b.String()
}

// fileID is what a file's or directory's state is compared by: size and
// modification time, and where the system has them the inode and the
// change time, which no tool can set back (cp -p, touch -r and sync tools
// restore a modification time; the kernel still moves the change time).
func fileID(fi os.FileInfo) string {
	return strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + sysID(fi)
}

// Unchanged reports whether b shows a file in the state a showed it, as
// fileID compares them. It says so only where the system gives the inode
// and change time: elsewhere an edit that kept size and modification time
// would look unchanged.
func Unchanged(a, b os.FileInfo) bool {
	return sysID(a) != " -" && fileID(a) == fileID(b)
}

// noteDirs are the directories whose state every block depends on: any
// note file created, deleted or renamed in them, by any writer (the
// reference, git pull, an editor that saves by rename), changes their
// modification and change times, and one created or replaced changes its
// own. Six stats, whatever the store's size. memory/ and local/ themselves
// are left out: git's first commit (.git) and the store's .gitignore change
// them without changing any note.
func noteDirs(home string) []string {
	var out []string
	for _, tree := range layout.Home(home).Trees() {
		for _, typ := range []string{"episodic", "semantic", "procedural"} {
			out = append(out, filepath.Join(tree, typ))
		}
	}
	return out
}

// Track records a note file the block was read from, so an edit of a shown
// note by any writer (no reindex, same size, mtime set back) is a miss. Taken after the read: an edit landing
// within that instant is seen at the next write or reindex of its project.
func (e *Entry) Track(path string) {
	id := "-1 0 -"
	if fi, err := os.Lstat(path); err == nil {
		id = fileID(fi)
	}
	e.files = append(e.files, id+" "+strconv.Quote(path))
}

// header is everything a block's validity depends on, one item a line.
func (e *Entry) header() string {
	var b strings.Builder
	b.WriteString(magic + "\n")
	fmt.Fprintf(&b, "key %q %d %d\n", e.key.Project, e.key.K, e.key.Budget)
	b.WriteString("stamp " + e.global + " " + e.local + "\n")
	fmt.Fprintf(&b, "mark %d\n", e.block.Mark)
	b.WriteString("ids " + strings.Join(e.block.IDs, " ") + "\n")
	for _, f := range e.files {
		b.WriteString("file " + f + "\n")
	}
	return b.String()
}

// Cached returns the saved block if it is still the block the index would
// give. Anything unexpected (no file, another layout, a changed stamp or
// file, a bad checksum) is a miss.
func (e *Entry) Cached() (Block, bool) {
	if e.err != nil {
		return Block{}, false
	}
	data, err := os.ReadFile(blockPath(e.home, e.key))
	if err != nil {
		return Block{}, false
	}
	text, ok := e.parse(string(data))
	if !ok {
		return Block{}, false
	}
	b := e.block
	b.Text = text
	return b, true
}

// parse checks a cache file against the entry's stamps and the files it
// names, keeping the mark and ids it records.
func (e *Entry) parse(s string) (string, bool) {
	i := strings.Index(s, "\nblock ")
	if i < 0 {
		return "", false
	}
	head, rest := s[:i+1], s[i+len("\nblock "):]
	nl := strings.IndexByte(rest, '\n')
	if nl < 0 {
		return "", false
	}
	var size int
	var sum uint32
	if _, err := fmt.Sscanf(rest[:nl], "%d %d", &size, &sum); err != nil {
		return "", false
	}
	block := rest[nl+1:]
	if len(block) != size || crc32.ChecksumIEEE([]byte(head+block)) != sum {
		return "", false
	}
	lines := strings.Split(strings.TrimSuffix(head, "\n"), "\n")
	// A note directory changed and the index may not have seen it: a
	// miss, whose render refreshes what changed.
	if rec := recorded(e.home); rec == "" || rec != Dirs(e.home) {
		return "", false
	}
	want := &Entry{key: e.key, global: e.global, local: e.local}
	for _, l := range lines {
		if m, ok := strings.CutPrefix(l, "mark "); ok {
			var err error
			if want.block.Mark, err = strconv.ParseInt(m, 10, 64); err != nil {
				return "", false
			}
		}
		if ids, ok := strings.CutPrefix(l, "ids "); ok {
			want.block.IDs = strings.Fields(ids)
		}
		if f, ok := strings.CutPrefix(l, "file "); ok {
			// "size mtime sys quoted-path": re-stat the path now.
			parts := strings.SplitN(f, " ", 4)
			if len(parts) != 4 {
				return "", false
			}
			p, err := strconv.Unquote(parts[3])
			if err != nil {
				return "", false
			}
			want.Track(p)
		}
	}
	if head != want.header() {
		return "", false
	}
	e.block = want.block
	return block, true
}

// Save stores b against the stamps read by Open and the files tracked
// since. A save that fails leaves no partial file (atomicfile).
func (e *Entry) Save(b Block) error {
	if e.err != nil {
		return e.err
	}
	for _, id := range b.IDs {
		if id == "" || strings.ContainsAny(id, " \n") {
			return fmt.Errorf("blockcache: note id %q cannot be recorded", id)
		}
	}
	e.block = Block{IDs: b.IDs, Mark: b.Mark}
	head := e.header()
	block := b.Text
	sum := crc32.ChecksumIEEE([]byte(head + block))
	data := head + "block " + strconv.Itoa(len(block)) + " " + strconv.FormatUint(uint64(sum), 10) + "\n" + block
	// A reader that finds no block while it is replaced renders its own.
	return atomicfile.Rewrite(blockPath(e.home, e.key), []byte(data), layout.FileMode)
}

// Keys lists the blocks saved in home (current or not): the writers that
// render ahead of the next session (capture) refresh these.
func Keys(home string) []Key {
	entries, err := os.ReadDir(filepath.Join(dir(home), "inject"))
	if err != nil {
		return nil
	}
	var out []Key
	for _, de := range entries {
		f, err := os.Open(filepath.Join(dir(home), "inject", de.Name()))
		if err != nil {
			continue
		}
		var head [1024]byte
		n, _ := f.Read(head[:])
		f.Close()
		lines := strings.SplitN(string(head[:n]), "\n", 3)
		if len(lines) < 3 || lines[0] != magic {
			continue
		}
		var k Key
		if _, err := fmt.Sscanf(lines[1], "key %q %d %d", &k.Project, &k.K, &k.Budget); err == nil {
			out = append(out, k)
		}
	}
	return out
}

// Clear removes every cached block: the fallback when a stamp could not be
// bumped, so that no block computed before a write survives it.
func Clear(home string) error {
	return os.RemoveAll(filepath.Join(dir(home), "inject"))
}
