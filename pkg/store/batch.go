package store

import (
	"context"
	"database/sql"
	"strings"
)

// batchNotes is how many notes' rows a full rebuild buffers before inserting
// them with one multi-row INSERT per table. Row-at-a-time statements spent
// about a fifth of a 100k-note rebuild in per-statement work (database/sql,
// the driver, opening and closing cursors) rather than in the b-trees.
const batchNotes = 64

// rowBuf holds the values of rows waiting for one table's INSERT.
type rowBuf struct {
	head string // INSERT ... (columns) VALUES
	cols int
	args []any
}

// batch buffers the rows of a full rebuild (a fresh load: no row is replaced
// or deleted). Rows reach each table in the order they were added, and the
// tables in the order of bufs (memories first: the others' foreign keys
// point at it), so the result is the same as inserting row by row.
type batch struct {
	mem, tags, sup, files, fts *rowBuf
	bufs                       []*rowBuf
	notes                      int
	stmts                      map[string]*sql.Stmt
}

func newBatch(ctx context.Context, tx *sql.Tx, staged bool) (*batch, error) {
	b := &batch{
		mem: &rowBuf{head: `INSERT INTO memories (rowid, id, type, title, body_path, project, machine_id, scope,
			created_at, updated_at, prov_source, prov_model, prov_session, confidence, supersedes, team) VALUES `, cols: 16},
		tags:  &rowBuf{head: "INSERT OR IGNORE INTO memory_tags (memory_id, tag) VALUES ", cols: 2},
		sup:   &rowBuf{head: "INSERT OR IGNORE INTO superseded (memory_id, target) VALUES ", cols: 2},
		files: &rowBuf{head: "INSERT INTO files (path, id, size, mtime, tags, error) VALUES ", cols: 6},
		stmts: map[string]*sql.Stmt{},
	}
	b.bufs = []*rowBuf{b.mem, b.tags, b.sup, b.files}
	if staged {
		b.fts = &rowBuf{head: "INSERT INTO temp.fts_stage (rowid, id, title, body, tags) VALUES ", cols: 5}
		b.bufs = append(b.bufs, b.fts)
	}
	return b, nil
}

// noteDone counts a note (or a file that could not be indexed) whose rows are
// all added, and inserts the buffered rows every batchNotes of them.
func (b *batch) noteDone(ctx context.Context, tx *sql.Tx) error {
	if b.notes++; b.notes < batchNotes {
		return nil
	}
	return b.flush(ctx, tx)
}

// flush inserts every buffered row.
func (b *batch) flush(ctx context.Context, tx *sql.Tx) error {
	for _, buf := range b.bufs {
		n := len(buf.args) / buf.cols
		if n == 0 {
			continue
		}
		row := "(" + strings.Repeat("?,", buf.cols-1) + "?)"
		q := buf.head + strings.Repeat(row+",", n-1) + row
		st := b.stmts[q]
		if st == nil {
			var err error
			if st, err = tx.PrepareContext(ctx, q); err != nil {
				return err
			}
			b.stmts[q] = st
		}
		if _, err := st.ExecContext(ctx, buf.args...); err != nil {
			return err
		}
		clear(buf.args) // the notes' text is not kept alive
		buf.args = buf.args[:0]
	}
	b.notes = 0
	return nil
}

func (b *batch) close() {
	for _, st := range b.stmts {
		st.Close()
	}
}
