package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// rebuildCache is the page cache of a full rebuild, in KiB (PRAGMA
// cache_size -N): large enough that a bulk load does not spill pages again
// and again, small enough for SPEC 9's peak-RSS budget of a rebuild (the
// SQLite port gives each 4 KiB page an 8 KiB slot, so the cache costs twice
// its size in memory).
const rebuildCache = 65536

// clearForRebuild recreates the derived tables empty inside tx for a full
// rebuild (resetTables), drops their secondary indexes, which rebuildTx
// recreates (from schema) after the load, and gives the connection the rebuild's page cache (the
// caller restores the default).
func clearForRebuild(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(rebuildCache)); err != nil {
		return err
	}
	if err := resetTables(ctx, tx); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
		AND tbl_name IN ('memories', 'memory_tags', 'files', 'superseded')`)
	if err != nil {
		return err
	}
	var drop []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		drop = append(drop, "DROP INDEX IF EXISTS "+name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, q := range append(drop, ftsConfig("automerge", 0), ftsConfig("crisismerge", loadCrisisMerge)) {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// A full rebuild leaves FTS5's segments unmerged while it loads (automerge
// 0; a crisis merge only past loadCrisisMerge segments on one level, each
// segment being one flush of the staged rows) and merges them all into one at
// the end ('optimize'), a single pass. That costs less than FTS5's default
// incremental merges during the load and leaves one segment per index, so a
// search reads one b-tree per term, whatever the store's size.
// The defaults (ftsAutomerge, ftsCrisisMerge) then apply again to later
// writes.
const (
	loadCrisisMerge = 64
	ftsAutomerge    = 4  // FTS5's default
	ftsCrisisMerge  = 16 // FTS5's default
)

// ftsConfig is the statement setting one of memories_fts's options.
func ftsConfig(name string, value int) string {
	return "INSERT INTO memories_fts(memories_fts, rank) VALUES ('" + name + "', " + strconv.Itoa(value) + ")"
}

// mergeLoadedFTS merges the segments a full rebuild wrote and restores the
// merge settings clearForRebuild changed.
func mergeLoadedFTS(ctx context.Context, tx *sql.Tx) error {
	qs := []string{ftsConfig("automerge", ftsAutomerge), ftsConfig("crisismerge", ftsCrisisMerge)}
	var segments int
	if err := tx.QueryRowContext(ctx, "SELECT count(DISTINCT segid) FROM memories_fts_idx").Scan(&segments); err != nil {
		return err
	}
	if segments > 1 {
		qs = append([]string{"INSERT INTO memories_fts(memories_fts) VALUES ('optimize')"}, qs...)
	}
	for _, q := range qs {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// parsedChunk is a run of files read and parsed: notes[i] (or reasons[i],
// why it could not be) belongs to files[i].
type parsedChunk struct {
	files   []fileInfo
	notes   []*note.Note
	reasons []string
}

// parseChunk is how many files are parsed together; one chunk is parsed
// while the previous one is inserted.
const parseChunk = 1024

// parseAhead reads and parses files in parallel, a chunk at a time and in
// order, one chunk ahead of the caller. stop ends it early.
func parseAhead(ctx context.Context, files []fileInfo) (<-chan parsedChunk, func()) {
	out := make(chan parsedChunk, 1)
	done := make(chan struct{})
	go func() {
		defer close(out)
		for start := 0; start < len(files); start += parseChunk {
			if ctx.Err() != nil {
				return
			}
			part := files[start:min(start+parseChunk, len(files))]
			c := parsedChunk{files: part, notes: make([]*note.Note, len(part)), reasons: make([]string, len(part))}
			var wg sync.WaitGroup
			next := make(chan int)
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range next {
						c.notes[i], c.reasons[i] = readNote(part[i])
					}
				}()
			}
			for i := range part {
				next <- i
			}
			close(next)
			wg.Wait()
			select {
			case out <- c:
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return out, func() { once.Do(func() { close(done) }) }
}

// freshPrefix begins the name of the file beside the index that a full
// rebuild builds the new index in (index.db.rebuild-PID-TIME): a name of
// its own per rebuild, as another process's rebuild may begin while this
// one copies its file in.
const freshPrefix = ".rebuild-"

// copyStep is how many pages the copy moves at a time: between steps it
// marks its file as in use (see removeStaleFresh) and checks ctx.
const copyStep = 16384

// replaceIndex rebuilds the index from every file. It holds the index's
// write lock throughout, so no write is lost between the walk and the
// switch, while readers go on reading the old index: the new one is built in
// a file of its own beside it (freshSuffix), without a journal (nothing in
// it needs recovering: a killed rebuild leaves the old index as it was, and
// the next rebuild removes the file), then copied into the index with
// SQLite's backup in one write transaction, which readers see whole or not
// at all. The index file itself is never renamed or replaced: processes
// that hold it open (hooks, the MCP server, the dashboard) share its WAL
// and shared-memory files, which a renamed-in file would inherit; the copy
// keeps SQLite's own locking in charge, on every platform. done, if set, is
// asked under the lock whether the rebuild is still needed (another process
// may have done it while this one waited).
func (s *Store) replaceIndex(ctx context.Context, done func(*sql.Tx) (bool, error)) (ReindexResult, error) {
	var r ReindexResult
	before := blockcache.Dirs(s.home) // what the walk will read, at the latest
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return r, err
	}
	defer conn.Close()
	// A reader's connection too: Open rebuilds an unusable index whoever
	// opens it. Without the memory map, the pages the copy writes count
	// in the page cache's bound, not as the process's memory.
	if _, err := conn.ExecContext(ctx, writePragmas()+"PRAGMA mmap_size = 0"); err != nil {
		return r, err
	}
	tx, err := beginOn(ctx, conn)
	if err != nil {
		return r, err
	}
	defer tx.Rollback()
	if done != nil {
		if ok, err := done(tx); err != nil || ok {
			return r, err
		}
	}
	var pageSize int
	if err := tx.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return r, err
	}
	removeStaleFresh(s.DBPath())
	fresh := fmt.Sprintf("%s%s%d-%d", s.DBPath(), freshPrefix, os.Getpid(), time.Now().UnixNano())
	defer removeFresh(fresh)
	if r, err = s.buildFresh(ctx, fresh, pageSize); err != nil {
		return r, err
	}
	if err := tx.Rollback(); err != nil {
		return r, err
	}
	if err := copyIndex(ctx, conn, fresh); err != nil {
		return r, err
	}
	// A write that committed between the lock's release and the copy was
	// overwritten by it (its file is on disk): bring the index level with
	// the files again, as an incremental reindex does.
	if tx, err = beginOn(ctx, conn); err != nil {
		return r, err
	}
	again, err := s.refreshTx(ctx, tx)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return r, err
	}
	r = r.then(again)
	if again.Indexed+again.Removed > 0 {
		s.maybeRefreshDF(ctx, r)
	}
	// The copy went through the WAL: move it into the database now, so the
	// next opener does not read it from there (and a command may exit
	// without Close).
	conn.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA cache_size = "+cacheSize)
	s.touched(r.touched, "", "")
	blockcache.Synced(s.home, before)
	return r, nil
}

// then is what a rebuild (r) and the refresh after it (again) did together.
func (r ReindexResult) then(again ReindexResult) ReindexResult {
	r.Indexed += again.Indexed
	r.Removed += again.Removed
	r.Skipped += again.Skipped
	r.Total = again.Total
	for p := range again.touched {
		if r.touched == nil {
			r.touched = map[string]bool{}
		}
		r.touched[p] = true
	}
	return r
}

// buildFresh builds a new index from every file in the new file path,
// with pages of pageSize bytes (a backup copies only between equal sizes).
func (s *Store) buildFresh(ctx context.Context, path string, pageSize int) (ReindexResult, error) {
	var r ReindexResult
	// Made here, empty, for its mode: SQLite would make it 0644.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, layout.FileMode)
	if err != nil {
		return r, fmt.Errorf("store: rebuild: %w", err)
	}
	f.Close()
	d := "file:" + path + "?_pragma=page_size(" + strconv.Itoa(pageSize) + ")&_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)" +
		"&_pragma=locking_mode(EXCLUSIVE)&_pragma=temp_store(MEMORY)&_pragma=mmap_size(0)"
	db, err := sql.Open("sqlite", d)
	if err != nil {
		return r, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return r, err
	}
	defer tx.Rollback()
	if r, err = s.rebuildTx(ctx, tx); err != nil {
		return r, err
	}
	if err := tx.Commit(); err != nil {
		return r, err
	}
	return r, db.Close()
}

// copyIndex copies the database at path over the index conn is connected
// to, in one write transaction (SQLite's backup), waiting while another
// process holds the write lock.
func copyIndex(ctx context.Context, conn *sql.Conn, path string) error {
	deadline := time.Now().Add(lockWait)
	for {
		err := conn.Raw(func(dc any) error {
			c, ok := dc.(interface {
				NewRestore(string) (*sqlite.Backup, error)
			})
			if !ok {
				return errors.New("store: the SQLite driver cannot copy a database")
			}
			b, err := c.NewRestore("file:" + path + "?mode=ro")
			if err != nil {
				return err
			}
			for more := true; more && err == nil; {
				now := time.Now()
				os.Chtimes(path, now, now)
				if err = ctx.Err(); err == nil {
					more, err = b.Step(copyStep)
				}
			}
			return errors.Join(err, b.Finish())
		})
		if err == nil || !isBusy(err) || time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// removeFresh removes a rebuild's new file (and a journal, should one
// have been made).
func removeFresh(path string) {
	os.Remove(path)
	os.Remove(path + "-journal")
}

// removeStaleFresh removes the new files that killed rebuilds left beside
// the index db: those unchanged for staleAfter (a live rebuild writes its
// file while it builds and marks it at every step of the copy).
func removeStaleFresh(db string) {
	dir, base := filepath.Split(db)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, base+freshPrefix) && !strings.HasSuffix(name, "-journal") {
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > staleAfter {
				removeFresh(filepath.Join(dir, name))
			}
		}
	}
}
