package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// refVersion is what a reference version does with index.db on open, written
// down from its store.py (SPEC 3.2): if the file existed and its user_version
// is lower than the reference's own, drop the reference's tables, create them
// again, set user_version and reindex every note; otherwise use the tables as
// they are. The seed-era version is schema 1 (seed 000); the newest is
// schema 3, whose memories table has user_id and workspace_id and whose
// supersedes live in a memory_supersedes table.
type refVersion struct {
	name    string
	version int
	tables  []string // what it drops before recreating
	ddl     string
	insert  string // what its reindex writes per note (columns it expects)
	query   string // what its search reads
}

var refVersions = []refVersion{
	{
		name: "seed-era", version: 1,
		tables: []string{"memories", "memory_tags", "memories_fts"},
		ddl: `CREATE TABLE IF NOT EXISTS memories (id TEXT PRIMARY KEY, type TEXT NOT NULL, title TEXT NOT NULL,
			body_path TEXT NOT NULL, project TEXT NOT NULL DEFAULT 'global', machine_id TEXT NOT NULL,
			scope TEXT NOT NULL DEFAULT 'portable', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
			prov_source TEXT NOT NULL DEFAULT 'human', prov_model TEXT, prov_session TEXT,
			confidence REAL NOT NULL DEFAULT 1.0, supersedes TEXT);
		CREATE TABLE IF NOT EXISTS memory_tags (memory_id TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (memory_id, tag));
		CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(id UNINDEXED, title, body, tags, tokenize='porter unicode61');`,
		insert: `INSERT OR REPLACE INTO memories (id, type, title, body_path, project, machine_id, scope, created_at,
			updated_at, prov_source, prov_model, prov_session, confidence, supersedes)
			VALUES ('R1', 'semantic', 't', 'semantic/R1.md', 'global', 'm', 'portable', '', '', 'human', NULL, NULL, 1.0, NULL)`,
		query: `SELECT m.id FROM memories_fts f JOIN memories m ON m.id = f.id WHERE memories_fts MATCH '"x"'
			AND m.id NOT IN (SELECT supersedes FROM memories WHERE supersedes IS NOT NULL AND supersedes <> '')`,
	},
	{
		name: "newest", version: 3,
		tables: []string{"memories", "memory_tags", "memory_supersedes", "memories_fts"},
		ddl: `CREATE TABLE IF NOT EXISTS memories (id TEXT PRIMARY KEY, type TEXT NOT NULL, title TEXT NOT NULL,
			body_path TEXT NOT NULL, project TEXT NOT NULL DEFAULT 'global', machine_id TEXT NOT NULL,
			scope TEXT NOT NULL DEFAULT 'portable', user_id TEXT NOT NULL DEFAULT 'self',
			workspace_id TEXT NOT NULL DEFAULT 'personal', created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
			prov_source TEXT NOT NULL DEFAULT 'human', prov_model TEXT, prov_session TEXT,
			confidence REAL NOT NULL DEFAULT 1.0);
		CREATE INDEX IF NOT EXISTS idx_mem_tenant ON memories(user_id, workspace_id, project, type);
		CREATE TABLE IF NOT EXISTS memory_tags (memory_id TEXT NOT NULL, tag TEXT NOT NULL, PRIMARY KEY (memory_id, tag));
		CREATE TABLE IF NOT EXISTS memory_supersedes (memory_id TEXT NOT NULL, superseded_id TEXT NOT NULL,
			PRIMARY KEY (memory_id, superseded_id));
		CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(id UNINDEXED, title, body, tags, tokenize='porter unicode61');`,
		insert: `INSERT OR REPLACE INTO memories (id, type, title, body_path, project, machine_id, scope, user_id,
			workspace_id, created_at, updated_at, prov_source, prov_model, prov_session, confidence)
			VALUES ('R1', 'semantic', 't', 'semantic/R1.md', 'global', 'm', 'portable', 'self', 'personal', '', '', 'human', NULL, NULL, 1.0)`,
		query: `SELECT m.id, m.user_id FROM memories_fts f JOIN memories m ON m.id = f.id WHERE memories_fts MATCH '"x"'
			AND m.id NOT IN (SELECT superseded_id FROM memory_supersedes)`,
	},
}

// open runs the reference's open on the index at path. It reports whether
// the reference rebuilt; then it writes and reads a row the way the
// reference's reindex and search do, which fails on tables it did not make.
func (r refVersion) open(t *testing.T, path string) (rebuilt bool, useErr error) {
	t.Helper()
	_, statErr := os.Stat(path)
	existed := statErr == nil
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	rebuilt = existed && v < r.version
	if rebuilt {
		for _, tb := range r.tables {
			if _, err := db.Exec("DROP TABLE IF EXISTS " + tb); err != nil {
				t.Fatalf("%s: drop %s: %v", r.name, tb, err)
			}
		}
	}
	if _, err := db.Exec(r.ddl); err != nil {
		t.Fatalf("%s: schema: %v", r.name, err)
	}
	if _, err := db.Exec("PRAGMA user_version = " + strconv.Itoa(r.version)); err != nil {
		t.Fatal(err)
	}
	if rebuilt {
		for _, tb := range r.tables {
			if _, err := db.Exec("DELETE FROM " + tb); err != nil {
				t.Fatalf("%s: reindex: %v", r.name, err)
			}
		}
	}
	if _, err := db.Exec(r.insert); err != nil {
		return rebuilt, err
	}
	if _, err := db.Exec("INSERT INTO memories_fts (id, title, body, tags) VALUES ('R1', 'x', 'x', '')"); err != nil {
		return rebuilt, err
	}
	rows, err := db.Query(r.query)
	if err != nil {
		return rebuilt, err
	}
	rows.Close()
	return rebuilt, nil
}

// An index we leave makes both reference versions rebuild on their next
// open, and an index they leave makes us rebuild: a home opened by turns
// by us and by either reference keeps working for both (SPEC 3.2).
func TestIndexCoexistsWithReferenceVersions(t *testing.T) {
	ctx := context.Background()
	for _, r := range refVersions {
		t.Run(r.name, func(t *testing.T) {
			home := copyTree(t, refStore+"/store")
			db := filepath.Join(home, "index.db")
			for round := range 3 {
				s := open(t, home)
				var v int
				s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
				if v != 0 {
					t.Fatalf("round %d: we left user_version %d; a reference with a lower version would not rebuild", round, v)
				}
				if n, _ := s.Count(ctx, Filter{}); n != 22 {
					t.Fatalf("round %d: we see %d notes", round, n)
				}
				if hits, err := searchNotes(s, ctx, "reflect", Filter{}, 8); err != nil || len(hits) == 0 {
					t.Fatalf("round %d: our search after the reference's open: %v %v", round, hits, err)
				}
				s.Close()

				rebuilt, err := r.open(t, db)
				if !rebuilt {
					t.Fatalf("round %d: the %s reference would use our index as its own", round, r.name)
				}
				if err != nil {
					t.Fatalf("round %d: the %s reference fails on the index we left: %v", round, r.name, err)
				}
			}
			// What the reference left is rebuilt by us: its tables are gone,
			// ours are back and complete.
			s := open(t, home)
			var leftover int
			s.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name IN ('memory_supersedes', 'idx_mem_tenant')").Scan(&leftover)
			if leftover != 0 {
				t.Errorf("the reference's tables survived our rebuild")
			}
			var cols int
			s.db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info('memories') WHERE name = 'user_id'").Scan(&cols)
			if cols != 0 {
				t.Errorf("memories still has the newest reference's user_id column")
			}
			if _, err := s.Get(ctx, "R1"); err == nil {
				t.Errorf("a row only the reference's index held survived our rebuild")
			}
		})
	}
}

// The index a reference version leaves (its user_version, its tables, and
// our meta row the reference never drops) is rebuilt by us on open.
func TestReferenceIndexRebuiltByUs(t *testing.T) {
	ctx := context.Background()
	for _, r := range refVersions {
		t.Run(r.name, func(t *testing.T) {
			home := copyTree(t, refStore+"/store")
			// First a fresh reference index (no file yet: it does not rebuild, it creates).
			db := filepath.Join(home, "index.db")
			if rebuilt, err := r.open(t, db); rebuilt || err != nil {
				t.Fatalf("fresh reference index: rebuilt=%v err=%v", rebuilt, err)
			}
			s := open(t, home)
			if n, _ := s.Count(ctx, Filter{}); n != 22 {
				t.Errorf("after the %s reference's index: %d notes", r.name, n)
			}
			s.Close()
		})
	}
}
