package store

import (
	"database/sql"
	"os"
	"path/filepath"
)

// SeedEraSchema is the index schema of the seed-era reference (seed 000),
// whose reindex reads supersedes only as one id: a note that lists several
// stops its whole reindex (and with it its search and sync).
const SeedEraSchema = 1

// LastIndexedBy is the user_version the index at home was left with, read
// without changing it: 0 for ours (we leave 0), SeedEraSchema when the
// seed-era reference opened the home last, 3 for the newest reference. It
// is -1 when there is no index. Call it before Open, which rebuilds a
// foreign index.
func LastIndexedBy(home string) int {
	p := filepath.Join(home, "index.db")
	if _, err := os.Stat(p); err != nil {
		return -1
	}
	db, err := sql.Open("sqlite", "file:"+p+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return -1
	}
	defer db.Close()
	v := -1
	if db.QueryRow("PRAGMA user_version").Scan(&v) != nil {
		return -1
	}
	return v
}
