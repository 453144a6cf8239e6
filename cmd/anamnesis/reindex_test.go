package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reindex --full is the repair doctor prints for a damaged index. It no
// longer runs quick_check first: damage that the header does not show (here
// in the full-text index's pages only, which opening never reads) must still
// end with the file moved aside and the index rebuilt from the notes.
func TestReindexFullRepairsHiddenDamage(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("ANAMNESIS_MACHINE_ID", "box")
	t.Setenv("HOME", t.TempDir())
	for i := range 20 {
		body := fmt.Sprintf("the zebracorn note %d%s", i, strings.Repeat(" with filler words", 50))
		if _, _, err := anamnesis(t, "write", "--type", "semantic", "--title", fmt.Sprintf("Note %d", i), "--body", body); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(home, "index.db")
	conn, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	// Folds the WAL into the file, so the damage below is all there is.
	conn.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	var pageSize int64
	if err := conn.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	var pages []int64
	rows, err := conn.Query("SELECT pageno FROM dbstat WHERE name = 'memories_fts_data'")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		pages = append(pages, p)
	}
	rows.Close()
	conn.Close()
	data, err := os.ReadFile(db)
	if err != nil || len(pages) == 0 {
		t.Fatalf("%v, %d full-text pages", err, len(pages))
	}
	for _, p := range pages {
		for i := (p - 1) * pageSize; i < p*pageSize; i++ {
			data[i] = byte(i * 7)
		}
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}

	out, errOut, err := anamnesis(t, "reindex", "--full")
	if err != nil {
		t.Fatalf("reindex --full: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "indexed 20 note") || !strings.Contains(errOut, "moved it to "+db+".corrupt-") {
		t.Fatalf("reindex --full printed %q, %q", out, errOut)
	}
	out, errOut, err = anamnesis(t, "search", "zebracorn", "--k", "50", "--json")
	if err != nil || strings.Count(out, `"id"`) != 20 {
		t.Fatalf("search after the repair: %v %q %q", err, out, errOut)
	}
}
