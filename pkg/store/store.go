// Package store keeps notes as markdown files under a home directory and
// maintains the derived SQLite FTS5 index over them. The files are the source
// of truth: every index row can be rebuilt from them at any time.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the only importer of the driver

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// SchemaVersion identifies this code's index schema. It is kept in our own
// meta table (key "schema"), not in PRAGMA user_version, which stays 0: both
// reference versions rebuild an index whose user_version is lower than their
// own (the newest one only then), so a 0 makes them rebuild what we leave,
// and the non-zero version they set makes us rebuild what they leave.
const SchemaVersion = 1007 // 1007: term_parts (identifiers' words, words.go)

// ErrNotFound is returned when no note has the id.
var ErrNotFound = errors.New("note not found")

// Store is one home: memory/ (portable, synced), local/ (machine-local) and index.db.
type Store struct {
	home     string
	memDir   string
	localDir string
	db       *sql.DB
	// seedRank, set only by tests (seed_test.go), replaces our ranking with
	// the reference-compatible one (and keeps stop words), which they
	// compare ours with and check the seed's exact ranking by.
	seedRank func(ctx context.Context, match string, f Filter, k int) ([]Hit, error)
	// rank is the tuning of our own ranking (defaultRank; the eval tests vary it).
	rank rankParams
	// setAside is where an unusable index was moved by Open, and why.
	setAside, setAsideWhy string
	// reader is set by OpenReader: connections without the write settings.
	reader bool
	// known holds, in a reader, what it has read of the pruning figures:
	// a reader lives for one search or two (recall looks the prompt's
	// words up, then searches), and asking SQLite again costs a statement.
	known *pruneFigures
	// projectIndex says idx_mem_project exists: search's pool probes it. A
	// reader of an index made before it (a writer's Open adds it) probes
	// idx_mem_scope instead.
	projectIndex bool
	// slotted says the index has project_slots (projectSlots): search's
	// pool reads each project's rowid range. A reader of an index made
	// before it probes the project of every match instead.
	slotted bool
	// legacy says rows of slot 0 may exist (indexed before the slots).
	legacy bool
	// wrote holds the files this Store wrote and indexed, by path, as
	// they were then (see ownWrite).
	mu    sync.Mutex
	wrote map[string]os.FileInfo
}

// wroteFile records that the file at abs, as info shows it, holds what the
// index now has for it.
func (s *Store) wroteFile(abs string, info os.FileInfo) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.wrote == nil {
		s.wrote = map[string]os.FileInfo{}
	}
	s.wrote[abs] = info
}

// ownWrite reports whether the file at abs is still as this Store wrote and
// indexed it (blockcache.Unchanged: an edit that kept size and modification
// time still moves the change time).
func (s *Store) ownWrite(abs string) bool {
	s.mu.Lock()
	was, ok := s.wrote[abs]
	s.mu.Unlock()
	if !ok {
		return false
	}
	now, err := os.Lstat(abs)
	return err == nil && blockcache.Unchanged(was, now)
}

// pruneFigures are meta's df_docs and the term_df rows a reader has read
// (a term absent from term_df is kept as -1).
type pruneFigures struct {
	docs int
	df   map[string]int
	// rows is FTS5's row count as the open read it (docCount).
	rows float64
	// idents holds identRows' answers (identsOf).
	idents []identAnswer
	// vocab holds whether FTS5's vocabulary has each term term_df lacks.
	vocab map[string]bool
}

// Home returns the store root.
func (s *Store) Home() string { return s.home }

// MemoryDir is the git-synced tree of portable notes.
func (s *Store) MemoryDir() string { return s.memDir }

// LocalDir is the tree of machine-local notes.
func (s *Store) LocalDir() string { return s.localDir }

// TeamsDir holds the team stores, one clone per team (SPEC 18).
func (s *Store) TeamsDir() string { return layout.Home(s.home).Teams() }

// TeamDir is team's store: <home>/teams/NAME, notes as <type>/<id>.md. The
// name must be a valid team name (config.ValidTeamName).
func (s *Store) TeamDir(team string) string { return layout.Home(s.home).Team(team) }

// DBPath is the index file.
func (s *Store) DBPath() string { return filepath.Join(s.home, "index.db") }

// dsn returns the connection string for the index: pragmas in the
// _pragma=name(value) form so they apply to every pooled connection. A
// reader's connections leave out what only writes need (each pragma is a
// statement every new process runs: together a tenth of a search run as a
// command); writePragmas brings them to the connection of a rebuild.
func dsn(path string, reader bool) string {
	d := "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=temp_store(MEMORY)&_txlock=immediate"
	if !reader {
		for _, p := range writeSettings {
			d += "&_pragma=" + p[0] + "(" + p[1] + ")"
		}
	}
	if runtime.GOOS != "windows" {
		// Reads through a memory map: a hook process that searches once
		// then exits would otherwise allocate, fault in and fill a page
		// cache for every page it reads (a fifth of a cold search). As
		// much of the file as this SQLite maps (SQLITE_MAX_MMAP_SIZE, 2
		// GiB): a million notes' index is larger, and each page past the
		// map is read into a fresh cache page. Not on Windows, where a
		// mapped file cannot be truncated by another process (a reference
		// version rebuilding the index).
		d += "&_pragma=mmap_size(2147418112)"
	}
	return d
}

// writeSettings are the pragmas only writes need: a writer's connections
// get them from dsn, a rebuild's connection from writePragmas.
var writeSettings = [][2]string{{"journal_mode", "WAL"}, {"synchronous", "NORMAL"}, {"foreign_keys", "1"}, {"cache_size", cacheSize}}

// cacheSize is a writer's page cache (KiB, negative), which a rebuild
// raises for its load and then restores.
const cacheSize = "-32000"

// writePragmas is writeSettings as statements.
func writePragmas() string {
	var b strings.Builder
	for _, p := range writeSettings {
		b.WriteString("PRAGMA " + p[0] + " = " + p[1] + "; ")
	}
	return b.String()
}

// errReader is what a write through a store opened with OpenReader returns.
var errReader = errors.New("store: opened for reading (store.OpenReader); this write needs store.Open")

// gitignore keeps derived and temporary files out of the synced repo.
const gitignore = "*.db\n*.db-*\n*-wal\n*-shm\n.tmp-*\n*.tmp\n"

// Open opens (creating if needed) the store at home and makes sure the index
// matches this code's schema and is not empty while notes exist on disk. An
// index that cannot be used (not a SQLite file, cut short, a directory in its
// place, or SQLite calls it corrupt) is moved aside and rebuilt from the notes.
func Open(ctx context.Context, home string) (*Store, error) {
	return openStore(ctx, home, false, false)
}

// OpenReader is Open for a process that only reads (a hook, a search): its
// connections skip the settings only writes need. Open still rebuilds an
// unusable or foreign index; any other write returns an error.
func OpenReader(ctx context.Context, home string) (*Store, error) {
	return openStore(ctx, home, false, true)
}

// OpenChecked is Open that also runs SQLite's quick_check over the whole
// index first (reading every page, so it is for repairs: doctor).
func OpenChecked(ctx context.Context, home string) (*Store, error) {
	return openStore(ctx, home, true, false)
}

func openStore(ctx context.Context, home string, check, reader bool) (*Store, error) {
	if home == "" {
		return nil, errors.New("store: empty home")
	}
	abs, err := filepath.Abs(home)
	if err != nil {
		return nil, err
	}
	s := &Store{home: abs, memDir: layout.Home(abs).Memory(), localDir: layout.Home(abs).Local(), rank: defaultRank, reader: reader}
	// A home is private however it is made (SPEC 17): the first write or
	// capture creates it as init does.
	for _, d := range []string{abs, s.memDir, s.localDir} {
		if err := layout.MkdirAll(d); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	// A home made before homes were private (or by the reference, under
	// the default umask) is closed on the next write: with the home 0700,
	// nothing under it is reachable by another local user.
	if fi, err := os.Stat(abs); err == nil && !reader && fi.Mode().Perm()&0o077 != 0 {
		_ = os.Chmod(abs, layout.DirMode)
	}
	gi := filepath.Join(s.memDir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, fs.ErrNotExist) {
		if err := atomicfile.Write(gi, []byte(gitignore), layout.FileMode); err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
	}
	path := s.DBPath()
	for attempt := 0; ; attempt++ {
		seen := identify(path)
		why := badIndex(path)
		if why == "" {
			err := s.openDB(ctx, check)
			if err == nil {
				private(path)
				return s, nil
			}
			if !isCorrupt(err) || attempt > 2 {
				return nil, fmt.Errorf("store: index %s: %w", path, err)
			}
			why = err.Error()
		} else if attempt > 2 {
			return nil, fmt.Errorf("store: index %s: %s", path, why)
		}
		moved, err := setAside(path, seen)
		if err != nil {
			return nil, fmt.Errorf("store: index %s is unusable (%s); %w", path, why, err)
		}
		if moved != "" {
			s.setAside, s.setAsideWhy = moved, why
		}
	}
}

// openDB opens the index file and brings it to this code's schema.
func (s *Store) openDB(ctx context.Context, check bool) error {
	if err := s.connect(); err != nil {
		return err
	}
	db := s.db
	if s.reader && !check {
		if s.readerReady(ctx) {
			return nil
		}
		// The full check below, on fresh connections: a statement that
		// failed to prepare (no such table, in a new file) leaves
		// modernc's connection unable to run the schema script after it.
		db.Close()
		if err := s.connect(); err != nil {
			return err
		}
		db = s.db
	}
	if check {
		if err := s.quickCheck(ctx); err != nil {
			db.Close()
			return err
		}
	}
	// Even the first reads can meet another process's rebuild (switching a new
	// file to WAL needs a lock), so the whole check waits like a writer does.
	deadline := time.Now().Add(lockWait)
	reopenBy := time.Now().Add(reopenWait)
	for {
		err := s.ensureSchema(ctx)
		if err == nil && !s.reader {
			var lift, unhid bool
			lift, unhid, err = upgradeIndexes(ctx, db)
			if unhid && err == nil {
				s.touched(map[string]bool{note.Global: true}, "", "")
			}
			s.projectIndex, s.slotted = err == nil, err == nil
			if lift && err == nil {
				err = s.lift(ctx)
			}
			if err == nil {
				err = db.QueryRowContext(ctx, "SELECT "+hasLegacyRows, slotSize).Scan(&s.legacy)
			}
		} else if err == nil {
			err = db.QueryRowContext(ctx, "SELECT "+hasProjectIndex+", "+hasProjectSlots+", "+hasLegacyRows, slotSize).Scan(&s.projectIndex, &s.slotted, &s.legacy)
		}
		if err == nil {
			return nil
		}
		if movedUnder(err) && time.Now().Before(reopenBy) && ctx.Err() == nil {
			db.Close()
			if err := s.connect(); err != nil {
				return err
			}
			db = s.db
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if !isBusy(err) || time.Now().After(deadline) || ctx.Err() != nil {
			db.Close()
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// reopenWait bounds how long an open retries on fresh connections after
// movedUnder errors: another opener's move of a bad index takes milliseconds.
const reopenWait = 5 * time.Second

// movedUnder says an open met, on Windows, another opener moving a bad
// index aside and making the new one (setAside): a file being created,
// renamed or deleted there cannot be opened for writing for a moment, and
// SQLite then fails to open it or opens it read-only and fails the first
// write. A new connection opens the file as it is once the move is done.
// On Unix neither happens, and these errors are the file's own.
func movedUnder(err error) bool {
	msg := err.Error()
	return runtime.GOOS == "windows" && (strings.Contains(msg, "attempt to write a readonly database") || strings.Contains(msg, "unable to open database file"))
}

// connect sets up the connection pool of the index file (SQLite opens the
// file when the first connection is made).
func (s *Store) connect() error {
	newIndexFile(s.DBPath())
	db, err := sql.Open("sqlite", dsn(s.DBPath(), s.reader))
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	db.SetMaxOpenConns(4)
	if !s.reader {
		// Long-lived writers (the MCP server, the dashboard) let idle
		// connections go. A reader lives for one search and exits: the
		// idle timer would only start a cleaner goroutine.
		db.SetConnMaxIdleTime(time.Minute)
	}
	s.db = db
	return nil
}

// pageSize is the page size of an index file this code creates. A full
// rebuild writes the whole index in one transaction, so into the WAL, and
// SQLite looks every page it writes or allocates up there, at a cost that
// grows with the WAL's frames: larger pages make fewer of both. A write of
// one note then writes more bytes, a search reads fewer pages. An existing
// file keeps its size (SQLite changes it only by a VACUUM outside WAL mode).
const pageSize = "16384"

// newIndexFile gives an index file that does not exist yet, or is empty, its
// page size: SQLite fixes it with the first page written, which turning on
// WAL does, and the pragmas of dsn run in lexical order, journal_mode first.
// It only chooses the page size: where it fails (another process creating
// or rebuilding the file holds its lock; the directory is unwritable) the
// open that follows makes the file, or says why it cannot.
func newIndexFile(path string) {
	if info, err := os.Stat(path); err == nil && info.Size() > 0 {
		return
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return
	}
	defer db.Close()
	db.Exec("PRAGMA page_size = " + pageSize + "; PRAGMA journal_mode = WAL")
}

// touched tells inject's block cache which projects a committed write
// changed, and the note directories' state right before and right after
// the write's file operations (from blockcache.Dirs; "" for a reindex,
// which records what it read with blockcache.Synced). pkg/blockcache owns
// the rule. If the stamps cannot be bumped, every cached block goes
// instead: a stale block must never be printed.
func (s *Store) touched(projects map[string]bool, before, after string) {
	if len(projects) == 0 && before == "" {
		return
	}
	list := make([]string, 0, len(projects))
	for p := range projects {
		list = append(list, p)
	}
	if blockcache.Bump(s.home, before, after, list...) != nil {
		blockcache.Clear(s.home)
	}
}

// private makes the index and its WAL files the owner's only (SQLite
// creates them 0644 whatever the umask allows).
func private(db string) {
	for _, p := range []string{db, db + "-wal", db + "-shm"} {
		if info, err := os.Lstat(p); err == nil && info.Mode().IsRegular() && info.Mode().Perm()&0o077 != 0 {
			os.Chmod(p, layout.FileMode)
		}
	}
}

// Close releases the index.
func (s *Store) Close() error {
	err := s.db.Close()
	if !s.reader {
		private(s.DBPath()) // the WAL files a write made
	}
	return err
}

// lateIndexes came after the schema's first release: a writer's Open adds
// them to an index built without them (once; a no-op that takes no lock
// afterwards), so no user's index goes through a rebuild for them.
// idx_mem_session finds a session's earlier notes (SessionNote);
// idx_mem_project tells whether a match is in a project with one probe
// per project (search's pool); idx_files_error lists the unreadable files
// (status) without reading a row per file.
const lateIndexes = `CREATE INDEX IF NOT EXISTS idx_mem_session ON memories(prov_session) WHERE prov_session IS NOT NULL;
CREATE INDEX IF NOT EXISTS idx_mem_project ON memories(project);
CREATE INDEX IF NOT EXISTS idx_files_error ON files(path) WHERE error IS NOT NULL`

// hasProjectIndex is the expression telling whether idx_mem_project exists.
const hasProjectIndex = `EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'idx_mem_project')`

// projectSlots numbers the projects, so that each project's notes have
// rowids of their own: a note's rowid is its project's slot shifted left by
// slotBits, plus the index's sequence number when it was (re)indexed
// (meta's rowseq), which keeps "indexed later" a higher number within each
// project (Watermark). A search in a project then reads only the part of
// every term's postings in the project's range, however many notes other
// projects hold. Rows of an index made before the table have rowids below
// 1 << slotBits (slot 0, no project) until a full rebuild.
const projectSlots = `CREATE TABLE IF NOT EXISTS project_slots (project TEXT PRIMARY KEY, slot INTEGER NOT NULL UNIQUE) WITHOUT ROWID`

// slotBits is how many low bits of a rowid number the notes within a slot.
const slotBits = 32

// slotSize is how many rowids a slot holds.
const slotSize = int64(1) << slotBits

// slotStart is the SQL expression of the first rowid of the slot of the
// project bound to its one parameter (its shift is slotBits).
const slotStart = `(SELECT slot << 32 FROM project_slots WHERE project = ?)`

// hasProjectSlots is the expression telling whether project_slots exists.
const hasProjectSlots = `EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'project_slots')`

// hasLegacyRows is the expression telling whether rows of slot 0 exist;
// its argument is slotSize.
const hasLegacyRows = `EXISTS (SELECT 1 FROM memories WHERE rowid < ?)`

// projectRecency walks a project's notes newest first (inject's pages,
// search's broad walk); team is last, so a walk that tells personal notes
// from teammates' reads it from the entries, and nothing else changes.
const projectRecency = `CREATE INDEX IF NOT EXISTS idx_mem_project_recency ON memories(project, updated_at DESC, id DESC, team)`

// noteCounts counts the notes of each project, team (empty for the personal
// store), type, scope and machine, kept by triggers on memories, so that
// inject's count (CountInjectable) and status's counts (Stats) read a few
// rows instead of an index entry per note: a big store's global project
// holds tens of thousands. An INSERT OR REPLACE deletes the old row without
// firing a delete trigger, so the insert takes its old row off first. A
// rebuild drops the triggers while it loads and counts once at the end
// (countNotes). project_notes, its predecessor, counted only projects.
const noteCounts = `CREATE TABLE IF NOT EXISTS note_counts (project TEXT NOT NULL, team TEXT NOT NULL, type TEXT NOT NULL,
	scope TEXT NOT NULL, machine_id TEXT NOT NULL, n INTEGER NOT NULL,
	PRIMARY KEY (project, team, type, scope, machine_id)) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS note_counts_replace BEFORE INSERT ON memories BEGIN
	UPDATE note_counts SET n = n - 1 WHERE (project, team, type, scope, machine_id) =
		(SELECT project, coalesce(team, ''), type, scope, machine_id FROM memories WHERE id = new.id);
END;
CREATE TRIGGER IF NOT EXISTS note_counts_insert AFTER INSERT ON memories BEGIN
	INSERT INTO note_counts VALUES (new.project, coalesce(new.team, ''), new.type, new.scope, new.machine_id, 1)
		ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS note_counts_delete AFTER DELETE ON memories BEGIN
	UPDATE note_counts SET n = n - 1
		WHERE (project, team, type, scope, machine_id) = (old.project, coalesce(old.team, ''), old.type, old.scope, old.machine_id);
END;
CREATE TRIGGER IF NOT EXISTS note_counts_update AFTER UPDATE OF project, team, type, scope, machine_id ON memories BEGIN
	UPDATE note_counts SET n = n - 1
		WHERE (project, team, type, scope, machine_id) = (old.project, coalesce(old.team, ''), old.type, old.scope, old.machine_id);
	INSERT INTO note_counts VALUES (new.project, coalesce(new.team, ''), new.type, new.scope, new.machine_id, 1)
		ON CONFLICT DO UPDATE SET n = n + 1;
END`

// tagCounts counts the notes carrying each tag, kept by triggers on
// memory_tags, so that the dashboard's tag menu reads a row per tag instead
// of grouping every tag of the store (1.5 million rows at 1M notes) after
// each edit. An INSERT OR IGNORE of a tag the note has already fires no
// trigger; a note's tags are deleted row by row, or by the cascade of its
// deletion, each firing the delete trigger. A rebuild drops the triggers
// with memory_tags's indexes and counts once at the end (countTags).
const tagCounts = `CREATE TABLE IF NOT EXISTS tag_counts (tag TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS tag_counts_insert AFTER INSERT ON memory_tags BEGIN
	INSERT INTO tag_counts VALUES (new.tag, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS tag_counts_delete AFTER DELETE ON memory_tags BEGIN
	UPDATE tag_counts SET n = n - 1 WHERE tag = old.tag;
END;
CREATE TRIGGER IF NOT EXISTS tag_counts_update AFTER UPDATE OF tag ON memory_tags BEGIN
	UPDATE tag_counts SET n = n - 1 WHERE tag = old.tag;
	INSERT INTO tag_counts VALUES (new.tag, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END`

// countTags fills tag_counts from memory_tags.
const countTags = `DELETE FROM tag_counts; INSERT INTO tag_counts SELECT tag, count(*) FROM memory_tags GROUP BY tag`

// countNotes fills note_counts from memories.
const countNotes = `DELETE FROM note_counts;
INSERT INTO note_counts SELECT project, coalesce(team, ''), type, scope, machine_id, count(*) FROM memories
	GROUP BY project, coalesce(team, ''), type, scope, machine_id`

// dropProjectNotes removes project_notes and its triggers, which note_counts
// replaces.
const dropProjectNotes = `DROP TRIGGER IF EXISTS project_notes_replace; DROP TRIGGER IF EXISTS project_notes_insert;
DROP TRIGGER IF EXISTS project_notes_delete; DROP TRIGGER IF EXISTS project_notes_update; DROP TABLE IF EXISTS project_notes`

// upgradeIndexes gives an index made by an earlier version the indexes of
// this one, in place: the late ones, idx_mem_project_recency with its team
// column, made again, the note and tag counts and the project slots (empty:
// the notes already indexed keep their rowids), in one transaction (readers
// see the old or the new one, never none). It also takes out of superseded
// what held notes say they supersede, which an earlier version indexed (a
// held note hides nothing: writer.index); unhid reports that it did, so the
// caller invalidates every cached block. lift reports that the large
// full-text segment is in the way of writes (Store.lift moves it). An index
// that has them costs one read: a writer's Open (capture's among them)
// takes no write lock for this.
func upgradeIndexes(ctx context.Context, db *sql.DB) (lift, unhid bool, err error) {
	current := func(q queryRower) (late int, recency, counted, tagged, slotted, lift, heldHides bool, err error) {
		var def string
		var rec []byte
		triggers := func(prefix string) string {
			return `(SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE '` + prefix + `\_%' ESCAPE '\')`
		}
		err = q.QueryRowContext(ctx, `SELECT
			(SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('idx_mem_session', 'idx_mem_project', 'idx_files_error'))
			+ (SELECT count(*) FROM sqlite_master WHERE name IN ('unsynced', 'idx_unsynced_seq')),
			coalesce((SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'idx_mem_project_recency'), ''),
			`+triggers(`note\_counts`)+` = 4, `+triggers(`tag\_counts`)+` = 3, `+
			hasProjectSlots+`, (SELECT block FROM memories_fts_data WHERE id = ?),
			EXISTS (SELECT 1 FROM superseded WHERE memory_id IN `+heldIDs+`)`, structureRowid).Scan(&late, &def, &counted, &tagged, &slotted, &rec, &heldHides)
		return late, strings.Contains(def, "team"), counted, tagged, slotted, needsLift(rec), heldHides, err
	}
	late, recency, counted, tagged, slotted, lift, heldHides, err := current(db)
	if err != nil || late == 5 && recency && counted && tagged && slotted && !heldHides {
		return lift, false, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return lift, false, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, lateIndexes+"; "+unsyncedTable); err != nil {
		return lift, false, err
	}
	// Another writer may have upgraded it while this one waited for the lock.
	_, recency, counted, tagged, slotted, _, heldHides, err = current(tx)
	if err == nil && heldHides {
		_, err = tx.ExecContext(ctx, `DELETE FROM superseded WHERE memory_id IN `+heldIDs+`;
			UPDATE memories SET supersedes = NULL WHERE supersedes IS NOT NULL AND id IN `+heldIDs)
	}
	if err == nil && !slotted {
		_, err = tx.ExecContext(ctx, projectSlots)
	}
	if err == nil && !recency {
		_, err = tx.ExecContext(ctx, `DROP INDEX IF EXISTS idx_mem_project_recency; `+projectRecency)
	}
	if err == nil && !counted {
		_, err = tx.ExecContext(ctx, dropProjectNotes+"; "+noteCounts+"; "+countNotes)
	}
	if err == nil && !tagged {
		_, err = tx.ExecContext(ctx, tagCounts+"; "+countTags)
	}
	if err != nil {
		return lift, false, err
	}
	return lift, heldHides, tx.Commit()
}

const schema = `
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL CHECK (type IN ('procedural','semantic','episodic')),
    title TEXT NOT NULL,
    body_path TEXT NOT NULL,
    project TEXT NOT NULL DEFAULT 'global',
    machine_id TEXT NOT NULL,
    scope TEXT NOT NULL DEFAULT 'portable' CHECK (scope IN ('portable','machine-local')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    prov_source TEXT NOT NULL DEFAULT 'human'
        CHECK (prov_source IN ('human','session-end','reflection','import','merge')),
    prov_model TEXT,
    prov_session TEXT,
    confidence REAL NOT NULL DEFAULT 1.0,
    supersedes TEXT,
    -- Ours: the team store the note lives in (<home>/teams/NAME); NULL for
    -- the personal store.
    team TEXT
);
CREATE INDEX IF NOT EXISTS idx_mem_scope ON memories(project, type, scope);
CREATE INDEX IF NOT EXISTS idx_mem_recency ON memories(updated_at DESC);
-- Newest notes of one project without sorting all of them: inject pages
-- through a project's (and the global) notes in this order at every SessionStart.
` + projectRecency + `;
CREATE INDEX IF NOT EXISTS idx_mem_prov ON memories(prov_source);
CREATE INDEX IF NOT EXISTS idx_mem_team ON memories(team, project, updated_at DESC) WHERE team IS NOT NULL;
CREATE TABLE IF NOT EXISTS memory_tags (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (memory_id, tag)
);
-- Notes by tag: inject counts the few "reflected" episodics from here
-- instead of visiting every note of a project.
CREATE INDEX IF NOT EXISTS idx_tags_tag ON memory_tags(tag, memory_id);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
    id UNINDEXED, title, body, tags, tokenize='porter unicode61'
);
-- A bigger in-memory hash means fewer, larger segments to merge on bulk loads.
INSERT INTO memories_fts(memories_fts, rank) VALUES ('hashsize', 16777216);
-- Ours, beside the seed's tables: what each file looked like when indexed
-- (for incremental reindex), files that could not be read, the full
-- supersedes lists, and document frequencies for query pruning.
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY,
    id TEXT,
    size INTEGER NOT NULL,
    mtime INTEGER NOT NULL,
    tags TEXT,
    error TEXT
);
CREATE INDEX IF NOT EXISTS idx_files_id ON files(id);
` + lateIndexes + `;
CREATE TABLE IF NOT EXISTS superseded (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    PRIMARY KEY (memory_id, target)
);
CREATE INDEX IF NOT EXISTS idx_superseded_target ON superseded(target);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_vocab USING fts5vocab(memories_fts, row);
CREATE TABLE IF NOT EXISTS term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
-- The words of the identifiers the notes hold (retryPolicy: retri and
-- polici, as index terms), for prose queries: see words.go. Rows of an
-- identifier no note holds any more stay until the next rebuild (they
-- match nothing).
CREATE TABLE IF NOT EXISTS term_parts (part TEXT NOT NULL, word TEXT NOT NULL, PRIMARY KEY (part, word)) WITHOUT ROWID;
` + noteCounts + `;
` + tagCounts + `;
` + projectSlots + `;
` + unsyncedTable + `;
`

// derivedTables are dropped before a rebuild: ours, and the tables a
// reference version leaves (memory_supersedes is the newest reference's).
var derivedTables = []string{"memories_vocab", "memories_fts", "memory_tags", "superseded", "memory_supersedes",
	"files", "term_df", "term_parts", "meta", "project_notes", "note_counts", "tag_counts", "project_slots", "memories"}

// queryRower is a connection or a transaction.
type queryRower interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ours reports whether the index was last set up by this code's schema:
// user_version 0 (any reference version sets its own, non-zero) and our
// schema id in meta.
func ours(ctx context.Context, q queryRower) (bool, error) {
	var v int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return false, err
	}
	if v != 0 {
		return false, nil
	}
	var val string
	err := q.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'schema'").Scan(&val)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) || strings.Contains(err.Error(), "no such table") {
			return false, nil
		}
		return false, err
	}
	return val == strconv.Itoa(SchemaVersion), nil
}

// Foreign reports whether another program rebuilt the index with its own
// schema after this store opened it: the reference implementation, run on
// the same home, sets its user_version and replaces the tables (SPEC 3.2).
// A long-lived process (the MCP server) then opens the store again, which
// rebuilds the index; its queries fail on the foreign tables until it does.
// Two small reads.
func (s *Store) Foreign(ctx context.Context) bool {
	ok, err := ours(ctx, s.db)
	return err == nil && !ok
}

// Heal rebuilds the index in place when it is Foreign, as Open would, for a
// process that keeps one store for its life and cannot swap it (the
// dashboard, whose handlers share it). The settings Open took from the
// index describe a current one and hold for the rebuilt index too; the
// segment lift Open makes is left to the next writer's Open. A store opened
// for reading does nothing: it cannot rebuild.
func (s *Store) Heal(ctx context.Context) error {
	if s.reader || !s.Foreign(ctx) {
		return nil
	}
	if err := s.ensureSchema(ctx); err != nil {
		return err
	}
	_, _, err := upgradeIndexes(ctx, s.db)
	return err
}

// readerReady is a reader's whole open-time check in one statement (where
// ensureSchema takes three): the index is ours and holds notes. It keeps
// df_docs for the search's pruning and FTS5's row count (docCount).
// Anything else, an error included, is left to ensureSchema.
func (s *Store) readerReady(ctx context.Context) bool {
	var version int
	var schema, docs sql.NullString
	var any bool
	var averages []byte
	err := s.db.QueryRowContext(ctx, `SELECT (SELECT user_version FROM pragma_user_version),
		(SELECT value FROM meta WHERE key = 'schema'), (SELECT value FROM meta WHERE key = 'df_docs'),
		EXISTS (SELECT 1 FROM memories), `+hasProjectIndex+", "+hasProjectSlots+", "+hasLegacyRows+", ("+averagesSQL+")", slotSize).Scan(&version, &schema, &docs, &any, &s.projectIndex, &s.slotted, &s.legacy, &averages)
	if err != nil || version != 0 || schema.String != strconv.Itoa(SchemaVersion) || !any {
		return false
	}
	n, _ := strconv.Atoi(docs.String)
	s.known = &pruneFigures{docs: n, df: map[string]int{}, rows: ftsRows(averages)}
	return true
}

func (s *Store) ensureSchema(ctx context.Context) error {
	ok, err := ours(ctx, s.db)
	if err != nil {
		return err
	}
	if ok {
		var any int
		err := s.db.QueryRowContext(ctx, "SELECT 1 FROM memories LIMIT 1").Scan(&any)
		if err == nil {
			return nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if !s.hasNoteFiles() {
			return nil
		}
	}
	// Rebuild under the write lock; another process may have done it meanwhile.
	before := blockcache.Dirs(s.home)
	tx, done, err := s.beginRebuild(ctx)
	if err != nil {
		return err
	}
	defer done()
	defer tx.Rollback()
	if ok, err = ours(ctx, tx); err != nil {
		return err
	}
	if !ok {
		if err := resetTables(ctx, tx); err != nil {
			return err
		}
	} else {
		var any int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&any); err != nil {
			return err
		}
		if any > 0 {
			return nil // another process rebuilt it while we waited for the lock
		}
	}
	if _, err := s.rebuildTx(ctx, tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	s.touched(map[string]bool{note.Global: true}, "", "")
	blockcache.Synced(s.home, before)
	return nil // a writer's Open lifts the new segment next (upgradeIndexes), once done has copied the WAL
}

// resetTables drops every derived table (ours and a reference version's)
// and creates this code's empty schema. Dropping frees the old pages without
// per-row work (with foreign keys on, DELETE FROM memories checks each row's
// children) and reads each of them as it goes, so damage anywhere in the old
// tables shows up here as a corruption error.
func resetTables(ctx context.Context, tx *sql.Tx) error {
	for _, t := range derivedTables {
		if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+t); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, schema); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", strconv.Itoa(SchemaVersion)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "PRAGMA user_version = 0")
	return err
}

func (s *Store) hasNoteFiles() bool {
	found := false
	for _, base := range []string{s.memDir, s.localDir} {
		filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".md") {
				found = true
				return filepath.SkipAll
			}
			return nil
		})
	}
	return found
}

// lockWait bounds how long a writer waits for another process's write
// transaction (a full rebuild of a big store can hold it for many seconds,
// far past SQLite's own 5 s busy_timeout).
const lockWait = 2 * time.Minute

// begin starts a write transaction (BEGIN IMMEDIATE), retrying while another
// process holds the write lock, so concurrent hooks, servers and syncs queue
// up instead of failing with "database is locked".
func (s *Store) begin(ctx context.Context) (*sql.Tx, error) {
	if s.reader {
		return nil, errReader
	}
	return beginOn(ctx, s.db)
}

// beginRebuild is begin on a connection with the write settings (a reader's
// too: Open rebuilds an unusable index whoever opens it) that reads without
// the memory map, for a transaction that rebuilds the index: it reads every old page and
// writes every new one, and through the map they would all count as the
// process's memory, where the page cache bounds it (rebuildCache). done
// copies the WAL, which a rebuild fills with the whole index, into the
// database (so the next opener does not read it from there, and a command
// may exit without Close), then returns the connection to the pool. The
// copy is made on this connection: made on another, it would reset this
// one's page cache, and the port frees that a page at a time.
func (s *Store) beginRebuild(ctx context.Context) (tx *sql.Tx, done func(), err error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	if _, err := conn.ExecContext(ctx, writePragmas()+"PRAGMA mmap_size = 0"); err != nil {
		conn.Close()
		return nil, nil, err
	}
	if tx, err = beginOn(ctx, conn); err != nil {
		conn.Close()
		return nil, nil, err
	}
	return tx, func() {
		conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA wal_checkpoint(TRUNCATE)")
		conn.Close()
	}, nil
}

func beginOn(ctx context.Context, db interface {
	BeginTx(context.Context, *sql.TxOptions) (*sql.Tx, error)
}) (*sql.Tx, error) {
	deadline := time.Now().Add(lockWait)
	for {
		tx, err := db.BeginTx(ctx, nil)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return tx, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func isBusy(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "SQLITE_BUSY") || strings.Contains(msg, "database is locked")
}
