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
// cache_size -N). A small cache spills pages again and again during a bulk
// load; a big one costs twice its size in memory (the SQLite port gives each
// 4 KiB page an 8 KiB slot) and a slow teardown. 64 MiB keeps a 100k-note
// rebuild under 300 MB of peak RSS.
const rebuildCache = 65536

// clearForRebuild empties the derived tables inside tx for a full rebuild,
// drops the secondary indexes, which reindexTx recreates (from schema)
// after the load, and gives the connection the rebuild's page cache (the
// caller restores the default).
func clearForRebuild(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(rebuildCache)); err != nil {
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
	// Recreating the FTS table is much faster than deleting its rows one by one.
	qs := append([]string{"DROP TABLE IF EXISTS memories_vocab", "DROP TABLE IF EXISTS memories_fts",
		"DELETE FROM memory_tags", "DELETE FROM superseded", "DELETE FROM files", "DELETE FROM memories", schema}, drop...)
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
