package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// The index is derived from the notes, so an index that cannot be used is
// never repaired in place: it is moved aside (kept for a post-mortem, never
// deleted) and rebuilt from the markdown by whichever process meets it first.

// badIndex says why the file at path cannot be an index ("" when it may be
// one: missing, empty, or a plausible SQLite file). It reads only the
// 100-byte header, so every open can afford it.
func badIndex(path string) string {
	info, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	if !info.Mode().IsRegular() {
		return "not a regular file"
	}
	if info.Size() == 0 {
		return "" // SQLite makes a new database in an empty file
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var h [100]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return "shorter than a SQLite header"
	}
	if string(h[:16]) != "SQLite format 3\x00" {
		return "not a SQLite database (bad header)"
	}
	pageSize := int64(binary.BigEndian.Uint16(h[16:18]))
	if pageSize == 1 {
		pageSize = 65536
	}
	if pageSize < 512 || pageSize&(pageSize-1) != 0 {
		return "bad page size in the header"
	}
	// The header's page count is valid when the change counter matches
	// version-valid-for. A file shorter than that count was cut off; with a
	// non-empty WAL the newest pages may still be there, so it is left to SQLite.
	pages := int64(binary.BigEndian.Uint32(h[28:32]))
	valid := binary.BigEndian.Uint32(h[24:28]) == binary.BigEndian.Uint32(h[92:96])
	if wal, err := os.Lstat(path + "-wal"); err == nil && wal.Size() > 0 {
		return ""
	}
	if valid && pages > 0 && info.Size() < pages*pageSize {
		return fmt.Sprintf("truncated (%d of %d bytes)", info.Size(), pages*pageSize)
	}
	return ""
}

// isCorrupt reports an error SQLite gives for a file that is not (or no
// longer) a usable database, as opposed to a busy or transient one. "Unable
// to open" is not among them: out of file descriptors or a read-only home
// say that of a good index too (a directory in its place is caught by badIndex).
func isCorrupt(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	for _, s := range []string{"file is not a database", "database disk image is malformed", "SQLITE_CORRUPT",
		"SQLITE_NOTADB", "malformed database schema"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// identify is the file at path as setAside compares it (nil if none). On
// Windows os.SameFile reads a file's identity from its path when first
// compared, which would make the file seen before and whatever lies at the
// path now always the same file: SameFile with itself reads it here.
func identify(path string) os.FileInfo {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil
	}
	os.SameFile(fi, fi)
	return fi
}

// setAside renames the index (and its WAL and shared-memory files, which
// must never be replayed into a new database) to index.db.corrupt-<time>,
// unless another process already replaced it since it was found bad: then
// the new file is left alone. It returns the new name, "" if nothing moved.
// Openers of one home may meet the same bad file at once (hooks of parallel
// sessions): a directory made next to it is their mutex, so none can move
// another's fresh rebuild.
func setAside(path string, seen os.FileInfo) (string, error) {
	mu := path + ".recovering"
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := os.Mkdir(mu, 0o700)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("moving the unusable index aside: %w", err)
		}
		// Left by an opener that died while holding it: a move takes
		// milliseconds.
		if info, serr := os.Stat(mu); serr == nil && time.Since(info.ModTime()) > time.Minute {
			os.Remove(mu)
			continue
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("moving the unusable index aside: %s is held by another process", mu)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer os.Remove(mu)
	now, err := os.Lstat(path)
	if err != nil {
		return "", nil // gone: someone else moved it
	}
	if seen == nil || !os.SameFile(seen, now) {
		return "", nil // already replaced by another opener's rebuild
	}
	dst := fmt.Sprintf("%s.corrupt-%s-%d", path, time.Now().UTC().Format("20060102T150405.000000000Z"), os.Getpid())
	// The bad file's companions first, while it still holds the name: once
	// it is moved, another opener makes a new index there at once, and the
	// companions at those names are the new index's.
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err := rename(path+suffix, dst+suffix, deadline); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("moving the unusable index's %s aside: %w", suffix, err)
		}
	}
	if err := rename(path, dst, deadline); err != nil {
		return "", fmt.Errorf("moving the unusable index aside: %w", err)
	}
	return dst, nil
}

// rename is os.Rename that waits (until deadline) while another handle has
// the file open: on Windows another opener reading the bad file's header,
// or closing the connection that found it bad, holds it for moments.
func rename(from, to string, deadline time.Time) error {
	for {
		err := os.Rename(from, to)
		if err == nil || !heldOpen(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// heldOpen says a rename failed because another handle has the file open:
// Windows refuses to rename such a file (ERROR_SHARING_VIOLATION, or
// ERROR_ACCESS_DENIED while its deletion is pending); Unix never does.
func heldOpen(err error) bool {
	var errno syscall.Errno
	return runtime.GOOS == "windows" && errors.As(err, &errno) && (errno == 32 || errno == 5)
}

// Rebuild is the repair `reindex --full` runs: a full Reindex that, when it
// meets damage in the old file, moves the file aside (as Open does with an
// unusable one) and indexes the notes into a new one. This replaces a
// quick_check before the rebuild, which read the whole file once more. It
// replaces the store's connection pool, so nothing else may be using the
// store meanwhile: it is for a command's own store. A server's full Reindex
// (the dashboard's button) reports the damage as an error instead.
func (s *Store) Rebuild(ctx context.Context) (ReindexResult, error) {
	r, err := s.Reindex(ctx, true)
	if !isCorrupt(err) {
		return r, err
	}
	if err := s.replaceUnusable(err.Error()); err != nil {
		return r, err
	}
	return s.Reindex(ctx, true)
}

// replaceUnusable moves the open index aside after a full rebuild met
// damage in it (why), and connects to a new, empty file in its place, which
// the caller's rebuild fills (rebuildTx creates the schema).
func (s *Store) replaceUnusable(why string) error {
	path := s.DBPath()
	seen := identify(path)
	s.db.Close()
	moved, err := setAside(path, seen)
	if err != nil {
		return fmt.Errorf("store: index %s is unusable (%s); %w", path, why, err)
	}
	if moved != "" {
		s.setAside, s.setAsideWhy = moved, why
	}
	return s.connect()
}

// SetAside is where Open moved an unusable index before rebuilding it ("" if it did not).
func (s *Store) SetAside() (path, reason string) { return s.setAside, s.setAsideWhy }

// quickCheck runs SQLite's quick_check: every page and index is read, so it
// is for explicit repairs (reindex --full, doctor), not every open.
func (s *Store) quickCheck(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(problems) > 0 {
		if len(problems) > 3 {
			problems = append(problems[:3], "...")
		}
		return errors.New("database disk image is malformed: quick_check: " + strings.Join(problems, "; "))
	}
	return nil
}
