package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
)

// ReindexResult says what a reindex did.
type ReindexResult struct {
	Indexed   int // notes (re)read and indexed
	Removed   int // index entries dropped because their file is gone
	Skipped   int // unreadable or malformed files
	Unchanged int
	Total     int // notes in the index afterwards
	// touched lists the projects whose notes changed (see Store.touched).
	touched map[string]bool
}

// Projects are the projects whose notes the reindex changed; note.Global
// among them means every project may have (a global note, a supersession,
// a rebuild).
func (r ReindexResult) Projects() []string {
	out := make([]string, 0, len(r.touched))
	for p := range r.touched {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// Problem is a file under the store that could not be indexed.
type Problem struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Reindex brings the index up to date with the files: a refresh, or with
// full a rebuild. Both leave the same index.
func (s *Store) Reindex(ctx context.Context, full bool) (ReindexResult, error) {
	if full {
		return s.rebuild(ctx)
	}
	return s.refreshAll(ctx, false)
}

// refreshAll re-reads only the files whose size or modification time changed
// and drops the rows of files that are gone, in one transaction. fromGit
// says a sync that just committed and merged asks (see writer.fromGit).
func (s *Store) refreshAll(ctx context.Context, fromGit bool) (ReindexResult, error) {
	before := blockcache.Dirs(s.home) // what the walk will read, at the latest
	tx, err := s.begin(ctx)
	if err != nil {
		return ReindexResult{}, err
	}
	defer tx.Rollback()
	r, err := s.refreshTx(ctx, tx, fromGit)
	if err != nil {
		return r, err
	}
	if err := s.commitReindex(tx, r, before); err != nil {
		return r, err
	}
	s.maybeRefreshDF(ctx, r)
	return r, nil
}

// rebuild empties the index and reads every file into it, in one
// transaction. It drops every old table first, reading each page as it
// frees it, so it fails with a corruption error on damage the header check
// at Open does not show (Rebuild then replaces the file).
func (s *Store) rebuild(ctx context.Context) (ReindexResult, error) {
	r, err := s.rebuildCommitted(ctx)
	if err != nil {
		return r, err
	}
	// Once the rebuild's connection has copied its WAL into the database:
	// a commit on another connection before that would copy it there
	// itself and reset the rebuild's page cache (beginRebuild).
	return r, s.lift(ctx)
}

func (s *Store) rebuildCommitted(ctx context.Context) (ReindexResult, error) {
	before := blockcache.Dirs(s.home) // what the walk will read, at the latest
	tx, done, err := s.beginRebuild(ctx)
	if err != nil {
		return ReindexResult{}, err
	}
	defer done()
	defer tx.Rollback()
	r, err := s.rebuildTx(ctx, tx)
	if err != nil {
		return r, err
	}
	return r, s.commitReindex(tx, r, before)
}

type fileInfo struct {
	rel   string // relative to home, slash-separated: memory/semantic/X.md
	abs   string
	scope string
	size  int64
	mtime int64
	// team is the team store the file is in ("" for memory/ and local/).
	team string
	// indexed is the note's tags as the index has them, set by locate when
	// the file's size and modification time are the ones indexed.
	indexed []string
	// link is set for a symlink or other non-regular entry: it is listed as
	// a problem, never followed (it could expose a file outside the store,
	// or name a device or FIFO that never ends).
	link bool
}

func (s *Store) walk() ([]fileInfo, error) {
	var out []fileInfo
	trees := []tree{{s.memDir, layout.TreeName(note.Portable), note.Portable, ""}, {s.localDir, layout.TreeName(note.MachineLocal), note.MachineLocal, ""}}
	for _, team := range s.teamNames() {
		trees = append(trees, tree{s.TeamDir(team), "teams/" + team, note.Portable, team})
	}
	for _, t := range trees {
		var err error
		if out, err = listTree(out, t.base, t.base, t.prefix, t.scope, t.team); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// listTree appends to out the note files under root, which is base (the
// tree of scope and team, whose home-relative path is prefix) or a
// directory in it, and removes the temporary files killed writers left.
// Symlinks are listed (as links), never followed; an unreadable
// directory is skipped.
func listTree(out []fileInfo, root, base, prefix, scope, team string) ([]fileInfo, error) {
	info, err := os.Lstat(root)
	if err != nil || !info.IsDir() {
		return out, nil
	}
	rel, err := filepath.Rel(base, root)
	if err != nil {
		return out, err
	}
	t := tree{base: base, prefix: prefix, scope: scope, team: team}
	return t.list(out, root, filepath.ToSlash(rel)), nil
}

// tree is where a walk is: the tree's directory, its home-relative path,
// its scope and team.
type tree struct{ base, prefix, scope, team string }

// list appends the note files of dir (rel to the tree's base) and of its
// subdirectories, in name order, as filepath.WalkDir visits them.
func (t tree) list(out []fileInfo, dir, rel string) []fileInfo {
	entries, _ := os.ReadDir(dir) // what it could read, on an error too
	relDir := path.Join(t.prefix, rel) + "/"
	var notes []fs.DirEntry
	for _, d := range entries {
		switch name := d.Name(); {
		case d.IsDir():
			out = t.stat(out, dir, relDir, notes)
			notes = notes[:0]
			if name != ".git" {
				out = t.list(out, filepath.Join(dir, name), path.Join(rel, name))
			}
		case strings.HasPrefix(name, atomicfile.TempPrefix):
			staleTemp(filepath.Join(dir, name), d)
		case noteName(name):
			notes = append(notes, d)
		}
	}
	return t.stat(out, dir, relDir, notes)
}

// noteName reports whether a file of that name in one of the store's trees
// is a note: a .md file that is not a writer's temporary file. A walk
// (tree.list) and what git reports changed (noteFile) both read it.
func noteName(name string) bool {
	return strings.HasSuffix(name, ".md") && !strings.HasPrefix(name, atomicfile.TempPrefix)
}

// stat appends the files of dir named by notes, stated by as many
// goroutines as there are CPUs (a stat per note is what a walk of the store
// costs, one system call after another); one gone since it was listed is
// left out.
func (t tree) stat(out []fileInfo, dir, relDir string, notes []fs.DirEntry) []fileInfo {
	if len(notes) == 0 {
		return out
	}
	start := len(out)
	out = slices.Grow(out, len(notes))[:start+len(notes)]
	workers := min(runtime.GOMAXPROCS(0), len(notes)/256+1)
	per := (len(notes) + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < len(notes); lo += per {
		hi := min(lo+per, len(notes))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				f := &out[start+i]
				info, err := notes[i].Info()
				if err != nil {
					*f = fileInfo{}
					continue
				}
				name := notes[i].Name()
				abs := filepath.Join(dir, name)
				*f = fileInfo{rel: relOf(abs, relDir, name), abs: abs, scope: t.scope, team: t.team,
					size: info.Size(), mtime: info.ModTime().UnixNano(), link: !info.Mode().IsRegular()}
			}
		}()
	}
	wg.Wait()
	kept := slices.DeleteFunc(out[start:], func(f fileInfo) bool { return f.rel == "" })
	return out[:start+len(kept)]
}

// relOf is relDir+name, taken from the end of abs where abs ends so (where
// the separator is a slash): a rebuild holds the listing of every file, so
// each path it holds twice costs memory in proportion to the store.
func relOf(abs, relDir, name string) string {
	if head, ok := strings.CutSuffix(abs, name); ok && strings.HasSuffix(head, relDir) {
		return abs[len(head)-len(relDir):]
	}
	return relDir + name
}

// staleAfter is how old a writer's temporary file must be before the
// next reindex takes it for the leftover of a killed writer (a live
// writer renames its file within moments).
const staleAfter = 10 * time.Minute

// staleTemp removes the temporary file at p when a killed writer left it.
func staleTemp(p string, d fs.DirEntry) {
	if info, err := d.Info(); err == nil && info.Mode().IsRegular() && time.Since(info.ModTime()) > staleAfter {
		os.Remove(p)
	}
}

// commitReindex commits tx, which brought the index up to date with the
// trees whose state was before (blockcache.Dirs), and tells the block cache.
func (s *Store) commitReindex(tx *sql.Tx, r ReindexResult, before string) error {
	if err := tx.Commit(); err != nil {
		return err
	}
	s.touched(r.touched, "", "")
	blockcache.Synced(s.home, before)
	return nil
}

// walkAsync lists the trees while the caller works on the index (clears
// it, or reads what it holds): neither waits for the other. The listing is
// what the returned function gives.
func (s *Store) walkAsync() func() ([]fileInfo, error) {
	type listing struct {
		files []fileInfo
		err   error
	}
	walked := make(chan listing, 1) // buffered: an early return leaves no goroutine behind
	go func() {
		files, err := s.walk()
		walked <- listing{files, err}
	}()
	return func() ([]fileInfo, error) {
		l := <-walked
		return l.files, l.err
	}
}

// walkedWriter waits for the walk started by walkAsync and opens the index
// writer inside tx: how a rebuild and a refresh both begin.
func (s *Store) walkedWriter(ctx context.Context, tx *sql.Tx, listed func() ([]fileInfo, error)) ([]fileInfo, *writer, error) {
	files, err := listed()
	if err != nil {
		return nil, nil, err
	}
	w, err := newWriter(ctx, s.home, tx)
	return files, w, err
}

// rebuildTx fills the emptied tables inside tx from every file.
func (s *Store) rebuildTx(ctx context.Context, tx *sql.Tx) (ReindexResult, error) {
	// It holds the listing of every file and the load's rows at once, for
	// a peak of memory SPEC 9 bounds (whoever rebuilds: reindex --full, or
	// the Open of a home whose index is missing or not ours): the files the
	// index knew set the collector's target for the listing, the files
	// listed for the rest (gcFor).
	var known int
	tx.QueryRowContext(ctx, "SELECT count(*) FROM files").Scan(&known)
	was := debug.SetGCPercent(-1)
	debug.SetGCPercent(gcFor(known, was))
	defer debug.SetGCPercent(was)
	var r ReindexResult
	listed := s.walkAsync()
	defer tx.ExecContext(context.WithoutCancel(ctx), "PRAGMA cache_size = "+cacheSize)
	if err := clearForRebuild(ctx, tx); err != nil {
		return r, err
	}
	files, w, err := s.walkedWriter(ctx, tx, listed)
	if err != nil {
		return r, err
	}
	defer w.close()
	debug.SetGCPercent(gcFor(len(files), was))
	if err := w.stageFor(ctx, len(files)); err != nil {
		return r, err
	}
	w.fresh = newIDSet(s.home)
	if w.batch, err = newBatch(ctx, tx, w.staged != nil); err != nil {
		return r, err
	}
	if err := w.indexAll(ctx, files, &r); err != nil {
		return r, err
	}
	// The listing and the id set are garbage now, and the steps below
	// allocate in SQLite, not on Go's heap, so no collection would return
	// them: give them back before the merge and the index builds add their
	// own peak.
	w.fresh = nil
	debug.FreeOSMemory()
	if err := mergeLoadedFTS(ctx, tx); err != nil {
		return r, err
	}
	// The secondary indexes and the counts, dropped by clearForRebuild,
	// are built once from the loaded tables: cheaper than row by row. Each
	// index's sort holds as much in memory as the page cache may (and the
	// port's allocations several times that): a smaller cache bounds it.
	if _, err := tx.ExecContext(ctx, "PRAGMA cache_size = -"+strconv.Itoa(indexBuildCache)+"; "+schema+";"+countNotes+";"+countTags); err != nil {
		return r, err
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&r.Total); err != nil {
		return r, err
	}
	if err := refreshDF(ctx, tx); err != nil {
		return r, err
	}
	// Every note was screened as it was read: under the current rules.
	if err := screenedUnder(ctx, tx, screen.Version); err != nil {
		return r, err
	}
	r.touched = map[string]bool{note.Global: true}
	return r, nil
}

// refreshTx brings the index inside tx up to date with the files whose size
// or modification time differ from what it recorded, and drops the rows of
// files that are gone.
func (s *Store) refreshTx(ctx context.Context, tx *sql.Tx, fromGit bool) (ReindexResult, error) {
	var r ReindexResult
	listed := s.walkAsync()
	known, err := recorded(ctx, tx, "")
	if err != nil {
		return r, err
	}
	files, w, err := s.walkedWriter(ctx, tx, listed)
	if err != nil {
		return r, err
	}
	defer w.close()
	w.fromGit = fromGit
	changed, err := w.compare(ctx, known, files, nil, &r)
	if err != nil {
		return r, err
	}
	if err := w.stageFor(ctx, len(changed)); err != nil {
		return r, err
	}
	if err := w.indexAll(ctx, changed, &r); err != nil {
		return r, err
	}
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&r.Total); err != nil {
		return r, err
	}
	r.touched = w.touched
	return r, nil
}

// fileRec is what the index recorded of a file.
type fileRec struct {
	id          string
	size, mtime int64
}

// recorded is what the index recorded of the files (the files table's
// rows) matching where (SQL on the column path; "" = every file).
func recorded(ctx context.Context, tx *sql.Tx, where string, args ...any) (map[string]fileRec, error) {
	q := "SELECT path, coalesce(id,''), size, mtime FROM files"
	if where != "" {
		q += " WHERE " + where
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	known := map[string]fileRec{}
	for rows.Next() {
		var p string
		var x fileRec
		if err := rows.Scan(&p, &x.id, &x.size, &x.mtime); err != nil {
			return nil, err
		}
		known[p] = x
	}
	return known, rows.Err()
}

// compare sets listed (the files now) against known (what the index
// recorded of the same files): it counts in r the files whose size and
// modification time are unchanged, drops the rows of the files gone
// (counting the notes among them as removed), and returns the files to read
// again: the changed, the new and those in forced (by path).
func (w *writer) compare(ctx context.Context, known map[string]fileRec, listed []fileInfo, forced map[string]bool, r *ReindexResult) ([]fileInfo, error) {
	var changed []fileInfo
	present := make(map[string]bool, len(listed))
	for _, f := range listed {
		present[f.rel] = true
		if k, ok := known[f.rel]; ok && k.size == f.size && k.mtime == f.mtime && !forced[f.rel] {
			r.Unchanged++
			continue
		}
		changed = append(changed, f)
	}
	for p, k := range known {
		if present[p] {
			continue
		}
		if err := w.dropPath(ctx, p, k.id); err != nil {
			return nil, err
		}
		if k.id != "" {
			r.Removed++
		}
	}
	return changed, nil
}

// indexAll indexes files, counting each in r as indexed or skipped. Files
// are read and parsed in parallel, a chunk ahead of the inserts (bounded
// memory), and indexed in walk order so duplicate ids resolve the same way.
func (w *writer) indexAll(ctx context.Context, files []fileInfo, r *ReindexResult) error {
	chunks, stop := parseAhead(ctx, files)
	defer stop()
	n := 0
	for c := range chunks {
		for i, f := range c.files {
			if err := ctx.Err(); err != nil {
				return err
			}
			ok, err := w.indexFile(ctx, f, c.notes[i], c.reasons[i])
			if err != nil {
				return err
			}
			if ok {
				r.Indexed++
			} else {
				r.Skipped++
			}
		}
		if n++; n%4 == 0 { // bound the staged rows held in memory
			if err := w.flush(ctx); err != nil {
				return err
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return w.flush(ctx)
}

// idSet is the ids a full rebuild has indexed, each with the file it came
// from, to catch a second file claiming one without a query per note. It
// keeps a 64-bit hash of each id, not the id (the ids themselves were a
// large part of a rebuild's peak memory); a hash seen before is confirmed
// by reading the earlier file's id again, which only a real duplicate, or a
// far rarer collision, costs.
type idSet struct {
	home  string
	seed  maphash.Seed
	first map[uint64]string // hash -> the first file with an id of that hash
	more  map[string]string // id -> file, for an id whose hash an earlier id had
}

func newIDSet(home string) *idSet {
	return &idSet{home: home, seed: maphash.MakeSeed(), first: map[uint64]string{}, more: map[string]string{}}
}

// add records that the file at rel has id; dup reports that another file,
// other, had it first.
func (s *idSet) add(id, rel string) (other string, dup bool) {
	h := maphash.String(s.seed, id)
	first, seen := s.first[h]
	if !seen {
		s.first[h] = rel
		return "", false
	}
	if other, ok := s.more[id]; ok {
		return other, true
	}
	if n, reason := readNote(fileInfo{rel: first, abs: filepath.Join(s.home, filepath.FromSlash(first))}); reason == "" && n.ID == id {
		return first, true
	}
	s.more[strings.Clone(id)] = rel
	return "", false
}

// writer holds the prepared statements of one indexing transaction.
type writer struct {
	home                                               string
	tx                                                 *sql.Tx
	upMem, delTags, insTag, delFTS, insFTS, upFile     *sql.Stmt
	delSup, insSup, fileByID, delFile, delMem, rowidOf *sql.Stmt
	// staged, when set, collects FTS rows in a temp table: FTS5 flushes its
	// pending data at every statement of a transaction, so one INSERT ... SELECT
	// at the end is many times faster than a row at a time.
	staged *sql.Stmt
	// recWrite records a written file for the next sync (recordWrite).
	recWrite *sql.Stmt
	// fromGit is set while a sync follows what it committed and merged
	// (Follow): what it reads is in git already (or, changed in place by
	// hand, left to the next whole staging), so nothing is recorded for
	// the next sync (recordWrite).
	fromGit bool
	// fresh is set while filling empty tables (a full rebuild): nothing needs
	// deleting first, and duplicate ids are caught in memory.
	fresh *idSet
	// batch, set with fresh, buffers the rows for multi-row inserts.
	batch *batch
	// touched collects the projects whose notes this transaction changed,
	// for inject's block cache (pkg/blockcache) once it commits.
	touched map[string]bool
	// idents holds the identifiers whose words this transaction recorded
	// in term_parts (a row at a time: a store holds few identifiers
	// beside its words).
	idents  map[string]bool
	insPart *sql.Stmt
	// slots caches project_slots; seq is the last sequence number given
	// (meta's rowseq, read at the first rowid), seqSaved what meta holds.
	slots     map[string]int64
	seq       int64
	seqLoaded bool
	seqSaved  int64
}

// rowidFor gives the next note of project its rowid: the project's slot
// (numbered now if it has none) and the next sequence number (see
// projectSlots). The batch of a rebuild saves the sequence at its flush,
// any other write with the row.
func (w *writer) rowidFor(ctx context.Context, project string) (int64, error) {
	slot, ok := w.slots[project]
	if !ok {
		err := w.tx.QueryRowContext(ctx, "SELECT slot FROM project_slots WHERE project = ?", project).Scan(&slot)
		if errors.Is(err, sql.ErrNoRows) {
			err = w.tx.QueryRowContext(ctx, `INSERT INTO project_slots (project, slot)
				SELECT ?, coalesce(max(slot), 0) + 1 FROM project_slots RETURNING slot`, project).Scan(&slot)
		}
		if err != nil {
			return 0, err
		}
		w.slots[strings.Clone(project)] = slot
	}
	if !w.seqLoaded {
		// An index without rowseq holds only rows of slot 0, numbered by SQLite.
		err := w.tx.QueryRowContext(ctx, `SELECT coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'rowseq'),
			(SELECT coalesce(max(rowid), 0) FROM memories WHERE rowid < ?))`, slotSize).Scan(&w.seq)
		if err != nil {
			return 0, err
		}
		w.seqLoaded, w.seqSaved = true, w.seq
	}
	if w.seq+1 >= slotSize {
		return 0, errors.New("store: the index has used every rowid of its slots; run anamnesis reindex --full")
	}
	w.seq++
	if w.batch == nil {
		if err := w.saveSeq(ctx); err != nil {
			return 0, err
		}
	}
	return slot<<slotBits | w.seq, nil
}

// saveSeq records the last sequence number given in meta.
func (w *writer) saveSeq(ctx context.Context) error {
	if !w.seqLoaded || w.seq == w.seqSaved {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES ('rowseq', ?)", strconv.FormatInt(w.seq, 10)); err != nil {
		return err
	}
	w.seqSaved = w.seq
	return nil
}

func newWriter(ctx context.Context, home string, tx *sql.Tx) (*writer, error) {
	w := &writer{home: home, tx: tx, touched: map[string]bool{}, idents: map[string]bool{}, slots: map[string]int64{}}
	for _, p := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&w.upMem, `INSERT OR REPLACE INTO memories (rowid, id, type, title, body_path, project, machine_id, scope,
			created_at, updated_at, prov_source, prov_model, prov_session, confidence, supersedes, team)
			VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`},
		{&w.delTags, "DELETE FROM memory_tags WHERE memory_id = ?"},
		{&w.insTag, "INSERT OR IGNORE INTO memory_tags (memory_id, tag) VALUES (?, ?)"},
		{&w.delFTS, "DELETE FROM memories_fts WHERE rowid = ?"},
		{&w.rowidOf, "SELECT rowid FROM memories WHERE id = ?"},
		{&w.insFTS, "INSERT INTO memories_fts (rowid, id, title, body, tags) VALUES (?, ?, ?, ?, ?)"},
		{&w.upFile, "INSERT OR REPLACE INTO files (path, id, size, mtime, tags, error) VALUES (?, ?, ?, ?, ?, ?)"},
		{&w.delSup, "DELETE FROM superseded WHERE memory_id = ?"},
		{&w.insSup, "INSERT OR IGNORE INTO superseded (memory_id, target) VALUES (?, ?)"},
		{&w.fileByID, "SELECT path FROM files WHERE id = ? AND path <> ?"},
		{&w.delFile, "DELETE FROM files WHERE path = ?"},
		{&w.delMem, "DELETE FROM memories WHERE id = ?"},
		{&w.insPart, "INSERT OR IGNORE INTO term_parts (part, word) VALUES (?, ?)"},
	} {
		st, err := tx.PrepareContext(ctx, p.q)
		if err != nil {
			w.close()
			return nil, err
		}
		*p.dst = st
	}
	return w, nil
}

func (w *writer) close() {
	for _, st := range []*sql.Stmt{w.upMem, w.delTags, w.insTag, w.delFTS, w.insFTS, w.upFile, w.delSup, w.insSup, w.fileByID, w.delFile, w.delMem, w.rowidOf, w.insPart} {
		if st != nil {
			st.Close()
		}
	}
	if w.staged != nil {
		w.staged.Close()
	}
	if w.recWrite != nil {
		w.recWrite.Close()
	}
	if w.batch != nil {
		w.batch.close()
	}
}

// stageFor collects the FTS rows of more than a few files (n) in a temp
// table, written at flush (see staged).
func (w *writer) stageFor(ctx context.Context, n int) error {
	if n <= 8 {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS fts_stage
		(rowid INTEGER PRIMARY KEY, id TEXT, title TEXT, body TEXT, tags TEXT); DELETE FROM temp.fts_stage`); err != nil {
		return err
	}
	st, err := w.tx.PrepareContext(ctx, "INSERT INTO temp.fts_stage (rowid, id, title, body, tags) VALUES (?, ?, ?, ?, ?)")
	w.staged = st
	return err
}

func (w *writer) flush(ctx context.Context) error {
	if w.batch != nil {
		if err := w.batch.flush(ctx, w.tx); err != nil {
			return err
		}
		if err := w.saveSeq(ctx); err != nil {
			return err
		}
	}
	if w.staged == nil {
		return nil
	}
	if _, err := w.tx.ExecContext(ctx, `INSERT INTO memories_fts (rowid, id, title, body, tags)
		SELECT rowid, id, title, body, tags FROM temp.fts_stage ORDER BY rowid`); err != nil {
		return err
	}
	_, err := w.tx.ExecContext(ctx, "DELETE FROM temp.fts_stage")
	return err
}

// indexFile indexes one read file, or records why it cannot be.
func (w *writer) indexFile(ctx context.Context, f fileInfo, n *note.Note, reason string) (bool, error) {
	ok, err := w.indexFileRows(ctx, f, n, reason)
	if err == nil && w.batch != nil {
		err = w.batch.noteDone(ctx, w.tx)
	}
	return ok, err
}

func (w *writer) indexFileRows(ctx context.Context, f fileInfo, n *note.Note, reason string) (bool, error) {
	if w.fresh == nil && !w.fromGit {
		// A file changed on disk by another writer (by hand, by the
		// reference): the next sync stages it with the store's own writes.
		if err := w.recordWrite(ctx, f.rel); err != nil {
			return false, err
		}
	}
	if reason == "" && w.fresh != nil {
		if other, dup := w.fresh.add(n.ID, f.rel); dup {
			reason = fmt.Sprintf("duplicate id %s (also in %s)", n.ID, other)
		}
	} else if reason == "" {
		// Two files claiming one id: the first indexed keeps it; the other is reported.
		var other string
		err := w.fileByID.QueryRowContext(ctx, n.ID, f.rel).Scan(&other)
		switch {
		case err == nil:
			if _, serr := os.Stat(filepath.Join(w.home, filepath.FromSlash(other))); serr == nil {
				reason = fmt.Sprintf("duplicate id %s (also in %s)", n.ID, other)
			} else if _, err := w.delFile.ExecContext(ctx, other); err != nil {
				return false, err
			}
		case !errors.Is(err, sql.ErrNoRows):
			return false, err
		}
	}
	if reason != "" && w.fresh == nil {
		// The path may previously have held a good note: drop its rows.
		var oldID sql.NullString
		w.tx.QueryRowContext(ctx, "SELECT id FROM files WHERE path = ?", f.rel).Scan(&oldID)
		if oldID.Valid && oldID.String != "" {
			if err := w.dropID(ctx, oldID.String); err != nil {
				return false, err
			}
		}
	}
	if reason != "" {
		// The reason may quote the file (an unknown type, a bad date) and
		// a hand-written file may hold a secret there: status, doctor and
		// the dashboard print it.
		reason = redact.String(reason)
		if w.batch != nil {
			w.batch.files.args = append(w.batch.files.args, f.rel, nil, f.size, f.mtime, nil, reason)
			return false, nil
		}
		_, err := w.upFile.ExecContext(ctx, f.rel, nil, f.size, f.mtime, nil, reason)
		return false, err
	}
	n.Scope, n.Team = f.scope, f.team // the tree is authoritative
	if err := w.index(ctx, n, bodyPathOf(f.rel)); err != nil {
		return false, err
	}
	return true, w.file(ctx, n, f)
}

func readNote(f fileInfo) (*note.Note, string) {
	if f.link {
		return nil, "not a regular file (symlinks are not followed)"
	}
	if f.size > note.MaxFile {
		return nil, fmt.Sprintf("too large (%d bytes; the limit is %d)", f.size, note.MaxFile)
	}
	data, err := readRegular(f.abs)
	if err != nil {
		return nil, "unreadable: " + err.Error()
	}
	n, err := note.Parse(data)
	if err != nil {
		return nil, err.Error()
	}
	if !note.ValidID(n.ID) {
		return nil, fmt.Sprintf("invalid id %q", n.ID)
	}
	if !slices.Contains(note.Types, n.Type) {
		return nil, fmt.Sprintf("unknown type %q (want procedural, semantic or episodic)", n.Type)
	}
	if !slices.Contains(note.ProvSources, n.ProvSource) {
		return nil, fmt.Sprintf("unknown prov_source %q", n.ProvSource)
	}
	// A hand edit may have put a newline or an escape sequence in the title;
	// the index (and so list, search, inject) holds it as one printable line.
	// So too the author and machine id printed beside it (a teammate writes
	// them as freely): a line break there would forge a heading.
	n.Title = note.OneLine(n.Title)
	n.Author, n.MachineID = note.OneLine(n.Author), note.OneLine(n.MachineID)
	if n.Title == "" {
		return nil, "empty title"
	}
	// Notes in the store before the screen, or written by another tool,
	// are screened as they are indexed; the hold lives in the index's tags.
	// A team's notes may be another person's: screened whatever they say
	// their provenance is.
	if f.team != "" {
		screenTeamFile(f, n)
	} else {
		screen.Apply(n)
	}
	return n, ""
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// index writes n's rows but the files row (file).
func (w *writer) index(ctx context.Context, n *note.Note, bodyPath string) error {
	sup := ""
	supersedes := n.Supersedes
	if n.Team != "" || screen.Held(n.Tags) {
		// A teammate's note, or one the screen holds until a person
		// releases it, may not hide anyone's notes: its supersedes stays
		// in its file, out of the index.
		supersedes = nil
	}
	if len(supersedes) > 0 {
		sup = supersedes[0]
	}
	// The FTS row shares the memories row's rowid, so it can be replaced and
	// joined by rowid instead of scanning the UNINDEXED id column.
	if w.fresh == nil {
		if err := w.touch(ctx, n.ID); err != nil {
			return err
		}
		if err := w.dropFTS(ctx, n.ID); err != nil {
			return err
		}
	}
	if !w.touched[n.Project] {
		w.touched[strings.Clone(n.Project)] = true
	}
	if len(supersedes) > 0 {
		w.touched[note.Global] = true // its targets may be in any project
	}
	if err := w.parts(ctx, n); err != nil {
		return err
	}
	rowid, err := w.rowidFor(ctx, n.Project)
	if err != nil {
		return err
	}
	if w.batch != nil {
		b := w.batch
		b.mem.args = append(b.mem.args, rowid, n.ID, n.Type, n.Title, bodyPath, n.Project, n.MachineID, n.Scope,
			n.CreatedAt, n.UpdatedAt, n.ProvSource, nullable(n.ProvModel), nullable(n.ProvSession), n.Confidence, nullable(sup), nullable(n.Team))
		for _, t := range n.Tags {
			b.tags.args = append(b.tags.args, n.ID, t)
		}
		for _, t := range supersedes {
			b.sup.args = append(b.sup.args, n.ID, t)
		}
		if b.fts != nil {
			b.fts.args = append(b.fts.args, rowid, n.ID, n.Title, n.Body, strings.Join(n.Tags, " "))
			return nil
		}
		_, err := w.insFTS.ExecContext(ctx, rowid, n.ID, n.Title, n.Body, strings.Join(n.Tags, " "))
		return err
	}
	if _, err := w.upMem.ExecContext(ctx, rowid, n.ID, n.Type, n.Title, bodyPath, n.Project, n.MachineID, n.Scope,
		n.CreatedAt, n.UpdatedAt, n.ProvSource, nullable(n.ProvModel), nullable(n.ProvSession), n.Confidence, nullable(sup), nullable(n.Team)); err != nil {
		return err
	}
	if w.fresh == nil {
		if _, err := w.delTags.ExecContext(ctx, n.ID); err != nil {
			return err
		}
		if _, err := w.delSup.ExecContext(ctx, n.ID); err != nil {
			return err
		}
	}
	for _, t := range n.Tags {
		if _, err := w.insTag.ExecContext(ctx, n.ID, t); err != nil {
			return err
		}
	}
	for _, t := range supersedes {
		if _, err := w.insSup.ExecContext(ctx, n.ID, t); err != nil {
			return err
		}
	}
	ins := w.insFTS
	if w.staged != nil {
		ins = w.staged
	}
	_, err = ins.ExecContext(ctx, rowid, n.ID, n.Title, n.Body, strings.Join(n.Tags, " "))
	return err
}

// file records the file f that holds n, as it is on disk.
func (w *writer) file(ctx context.Context, n *note.Note, f fileInfo) error {
	tags, _ := json.Marshal(n.Tags)
	if w.batch != nil {
		w.batch.files.args = append(w.batch.files.args, f.rel, n.ID, f.size, f.mtime, string(tags), nil)
		return nil
	}
	_, err := w.upFile.ExecContext(ctx, f.rel, n.ID, f.size, f.mtime, string(tags), nil)
	return err
}

// parts records in term_parts the words of the identifiers n holds that
// this transaction has not recorded yet.
func (w *writer) parts(ctx context.Context, n *note.Note) error {
	var err error
	add := func(word string) {
		l := strings.ToLower(word)
		if err != nil || w.idents[l] {
			return
		}
		w.idents[l] = true
		for _, p := range identifierParts(word) {
			t := ftsTerms(p)
			if len(t) != 1 {
				continue
			}
			if err == nil {
				_, err = w.insPart.ExecContext(ctx, t[0], l)
			}
		}
	}
	identifiers(n.Title, add)
	identifiers(n.Body, add)
	for _, t := range n.Tags {
		identifiers(t, add)
	}
	return err
}

// dropFTS removes id's full-text row, found through the memories rowid.
func (w *writer) dropFTS(ctx context.Context, id string) error {
	var rowid int64
	err := w.rowidOf.QueryRowContext(ctx, id).Scan(&rowid)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = w.delFTS.ExecContext(ctx, rowid)
	return err
}

// dropPath forgets a file that is gone; its note's rows go too unless another
// file still carries the same id.
func (w *writer) dropPath(ctx context.Context, rel, id string) error {
	if _, err := w.delFile.ExecContext(ctx, rel); err != nil {
		return err
	}
	if !w.fromGit {
		// Removed by another writer: the next sync stages the removal.
		if err := w.recordWrite(ctx, rel); err != nil {
			return err
		}
	}
	if id == "" {
		return nil
	}
	var other string
	err := w.fileByID.QueryRowContext(ctx, id, rel).Scan(&other)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return w.dropID(ctx, id)
}

// touch records the project of id's indexed row, if any, before the row
// changes; a row that superseded notes touches every project.
func (w *writer) touch(ctx context.Context, id string) error {
	var project string
	var sup sql.NullString
	err := w.tx.QueryRowContext(ctx, "SELECT project, supersedes FROM memories WHERE id = ?", id).Scan(&project, &sup)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	w.touched[project] = true
	if sup.Valid {
		w.touched[note.Global] = true
	}
	return nil
}

func (w *writer) dropID(ctx context.Context, id string) error {
	if err := w.touch(ctx, id); err != nil {
		return err
	}
	if err := w.dropFTS(ctx, id); err != nil {
		return err
	}
	for _, st := range []*sql.Stmt{w.delTags, w.delSup, w.delMem} {
		if _, err := st.ExecContext(ctx, id); err != nil {
			return err
		}
	}
	return nil
}

// Problems lists files that could not be indexed, with the reason.
func (s *Store) Problems(ctx context.Context) ([]Problem, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT path, error FROM files WHERE error IS NOT NULL ORDER BY path")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Problem
	for rows.Next() {
		var p Problem
		if err := rows.Scan(&p.Path, &p.Reason); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
