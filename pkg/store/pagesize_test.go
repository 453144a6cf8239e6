package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// TestPageSize: an index file this code creates has pageSize pages, in WAL
// mode; one an earlier version made with SQLite's default keeps its size and
// works as before, rebuilt in place included.
func TestPageSize(t *testing.T) {
	ctx := context.Background()
	want, _ := strconv.Atoi(pageSize)

	home := t.TempDir()
	s := open(t, home)
	if _, err := s.Write(ctx, note.New(note.Semantic, "fresh home", "a note in a new index")); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if got := pageSizeOf(t, filepath.Join(home, "index.db")); got != want {
		t.Fatalf("a new index has %d-byte pages, want %d", got, want)
	}

	old := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(old, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE earlier (x)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	s = open(t, old)
	defer s.Close()
	n, err := s.Write(ctx, note.New(note.Semantic, "older home", "a note in an index of 4 KiB pages"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, Query{Text: "older", K: 5})
	if err != nil || len(hits) != 1 || hits[0].ID != n.ID {
		t.Fatalf("search in the older index: %v %v", hits, err)
	}
	if got := pageSizeOf(t, filepath.Join(old, "index.db")); got != 4096 {
		t.Fatalf("the older index has %d-byte pages now, want 4096 kept", got)
	}
}
