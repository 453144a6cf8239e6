package store

import (
	"context"
	"database/sql"
	"runtime"
	"strconv"
	"sync"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// rebuildCache is the page cache of a full rebuild, in KiB (PRAGMA
// cache_size -N): large enough that a bulk load does not spill pages again
// and again, small enough for SPEC 9's peak-RSS budget of a rebuild (the
// SQLite port gives each 4 KiB page an 8 KiB slot, so the cache costs twice
// its size in memory).
const rebuildCache = 65536

// indexBuildCache is the page cache, in KiB, while a rebuild builds the
// secondary indexes of the loaded tables: SQLite's sorter keeps up to the
// cache's size of keys in memory before it writes a sorted run to a
// temporary file.
const indexBuildCache = 16384

// rebuildGC is the garbage collector's target (GOGC) while a large store
// (more than bigRebuild files) is rebuilt: its listing and id set are most
// of the heap, collected four times as often for a peak of memory SPEC 9
// bounds. A smaller store's rebuild keeps the usual target: its heap is
// small, and GOGC=25 would collect it every megabyte or so.
const rebuildGC = 25

// bigRebuild is the number of files above which a rebuild uses rebuildGC.
const bigRebuild = 200_000

// gcFor is the collector's target for a rebuild of n files, given the
// process's own (was).
func gcFor(n, was int) int {
	if n > bigRebuild && (was < 0 || was > rebuildGC) {
		return rebuildGC
	}
	return was
}

// clearForRebuild recreates the derived tables empty inside tx for a full
// rebuild (resetTables), drops their secondary indexes and memories'
// triggers, which rebuildTx recreates (from schema) after the load, and
// gives the connection the rebuild's page cache (the caller restores the
// default).
func clearForRebuild(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(rebuildCache)); err != nil {
		return err
	}
	if err := resetTables(ctx, tx); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT upper(type), name FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL
		AND tbl_name IN ('memories', 'memory_tags', 'files', 'superseded')`)
	if err != nil {
		return err
	}
	var drop []string
	for rows.Next() {
		var kind, name string
		if err := rows.Scan(&kind, &name); err != nil {
			rows.Close()
			return err
		}
		drop = append(drop, "DROP "+kind+" IF EXISTS "+name)
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
	loadCrisisMerge = 256
	ftsAutomerge    = 4  // FTS5's default
	ftsCrisisMerge  = 16 // FTS5's default
)

// ftsConfig is the statement setting one of memories_fts's options, or
// running one of its commands that takes a number ('merge').
func ftsConfig(name string, value int) string {
	return "INSERT INTO memories_fts(memories_fts, rank) VALUES ('" + name + "', " + strconv.Itoa(value) + ")"
}

// mergeLoadedFTS merges the segments a full rebuild wrote and restores the
// merge settings clearForRebuild changed. The rebuild moves the one segment
// left out of the way of later writes once it is committed (Store.lift).
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
