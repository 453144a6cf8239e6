package store

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func indexNames(t *testing.T, s *Store) []string {
	t.Helper()
	rows, err := s.db.Query("SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		out = append(out, n)
	}
	return out
}

// A full rebuild drops the secondary indexes for the load and must leave
// every one of them as a fresh index has them, with the same answers.
func TestFullReindexRestoresIndexes(t *testing.T) {
	if testing.Short() {
		t.Skip("3,000 notes written one by one (-short: over 6 minutes under Wine)")
	}
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := indexNames(t, s)
	if !slices.Contains(want, "idx_tags_tag") || !slices.Contains(want, "idx_mem_project_recency") {
		t.Fatalf("fresh index lacks the secondary indexes: %v", want)
	}
	for i := range 3000 { // more than a few parse chunks
		n := note.New(note.Semantic, fmt.Sprintf("note %d", i), "body")
		n.ID = fmt.Sprintf("n%05d", i)
		n.Project = fmt.Sprintf("p%d", i%3)
		if i%7 == 0 {
			n.Tags = []string{"reflected"}
			n.Type = note.Episodic
		}
		if err := s.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	before, _ := s.CountInjectable(ctx, "p1")
	r, err := s.Reindex(ctx, true)
	if err != nil || r.Indexed != 3000 || r.Total != 3000 {
		t.Fatalf("Reindex(full) = %+v, %v", r, err)
	}
	if got := indexNames(t, s); !slices.Equal(got, want) {
		t.Fatalf("indexes after a full rebuild:\n%v\nwant\n%v", got, want)
	}
	if after, _ := s.CountInjectable(ctx, "p1"); after != before || before == 0 {
		t.Fatalf("CountInjectable(p1) = %d after the rebuild, %d before", after, before)
	}
	// The load's merge settings are not left behind for later writes.
	for k, want := range map[string]int{"automerge": ftsAutomerge, "crisismerge": ftsCrisisMerge} {
		var v int
		if err := s.db.QueryRow("SELECT v FROM memories_fts_config WHERE k = ?", k).Scan(&v); err != nil || v != want {
			t.Errorf("memories_fts %s = %d (%v) after a full rebuild, want %d", k, v, err, want)
		}
	}
}

// Stopping the parser early (an error while inserting) ends its goroutine.
func TestParseAheadStops(t *testing.T) {
	files := make([]fileInfo, 5*parseChunk)
	for i := range files {
		files[i] = fileInfo{abs: "/nonexistent", size: 1}
	}
	chunks, stop := parseAhead(context.Background(), files)
	<-chunks
	stop()
	stop()             // twice is harmless
	for range chunks { // closed once the producer sees stop
	}
}

// A rebuild writes the whole index into the WAL; it must leave it copied
// into the database, as a command that exits without Close does not.
func TestRebuildLeavesTheWALEmpty(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	for i := range 50 {
		if _, err := s.Write(ctx, note.New(note.Semantic, fmt.Sprintf("note %d", i), "a body long enough to fill some pages of the index")); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(s.DBPath() + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() != 0 {
		t.Errorf("the WAL holds %d bytes after a rebuild", fi.Size())
	}
}

// A rebuild sets the collector's target for its own run only: a large
// store's lower, a small one's unchanged, never raised.
func TestRebuildRestoresGC(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	if _, err := s.Write(ctx, &note.Note{Type: note.Semantic, Title: "T", Body: "b", Project: "p"}); err != nil {
		t.Fatal(err)
	}
	was := debug.SetGCPercent(150)
	defer debug.SetGCPercent(was)
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	if got := debug.SetGCPercent(150); got != 150 {
		t.Errorf("GOGC after a rebuild: %d, want 150", got)
	}
	for _, c := range []struct{ n, was, want int }{{10_000, 100, 100}, {bigRebuild + 1, 100, rebuildGC}, {bigRebuild + 1, 10, 10}, {0, -1, -1}, {bigRebuild + 1, -1, rebuildGC}} {
		if got := gcFor(c.n, c.was); got != c.want {
			t.Errorf("gcFor(%d, %d) = %d, want %d", c.n, c.was, got, c.want)
		}
	}
}
