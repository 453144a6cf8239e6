package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

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

// writeNoteFiles writes n notes' files straight into home's tree (no
// index), for tests that need a store a rebuild takes a moment over.
func writeNoteFiles(t *testing.T, home string, n int, word string) {
	t.Helper()
	dir := filepath.Join(home, "memory", "semantic")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		nt := note.New(note.Semantic, fmt.Sprintf("%s note %d", word, i), strings.Repeat(word+" body words ", 20))
		nt.ID = note.NewID()
		if err := os.WriteFile(filepath.Join(dir, nt.ID+".md"), nt.Marshal(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// matches counts the notes the full-text index matches word in.
func matches(t *testing.T, db *sql.DB, word string) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH ?", word).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func countNotes(t *testing.T, db *sql.DB) int {
	t.Helper()
	var n int
	if err := db.QueryRow("SELECT count(*) FROM memories").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A full rebuild while another connection (a hook, the MCP server) reads
// the index: the reader's open transaction keeps the old index whole, its
// next one sees the new index whole, writes made meanwhile are kept, and
// the index and its WAL files stay the owner's only.
func TestRebuildWhileReaderHoldsOldIndex(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	writeNoteFiles(t, home, 300, "alpha")
	s := open(t, home)
	if n := countNotes(t, s.db); n != 300 {
		t.Fatalf("indexed %d notes, want 300", n)
	}
	rd, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	old, err := rd.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var before int
	if err := old.QueryRow("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'alpha'").Scan(&before); err != nil || before != 300 {
		t.Fatalf("reader before the rebuild: %d, %v", before, err)
	}
	writeNoteFiles(t, home, 200, "beta") // on disk only: the rebuild reads them
	r, err := s.Rebuild(ctx)
	if err != nil || r.Total != 500 {
		t.Fatalf("Rebuild = %+v, %v", r, err)
	}
	var during, beta int
	if err := old.QueryRow("SELECT count(*) FROM memories_fts WHERE memories_fts MATCH 'alpha'").Scan(&during); err != nil || during != 300 {
		t.Fatalf("the reader's open transaction after the rebuild: %d alpha notes, %v; want its old 300", during, err)
	}
	if err := old.QueryRow("SELECT count(*) FROM memories").Scan(&beta); err != nil || beta != 300 {
		t.Fatalf("the reader's open transaction after the rebuild: %d notes, %v; want its old 300", beta, err)
	}
	old.Rollback()
	if n := matches(t, rd.db, "beta"); n != 200 {
		t.Fatalf("the reader's next query: %d beta notes; want the new index's 200", n)
	}
	if err := rd.quickCheck(ctx); err != nil {
		t.Fatalf("the index after the rebuild, as the reader sees it: %v", err)
	}
	// The writer goes on writing into the new index.
	if _, err := s.Write(ctx, note.New(note.Semantic, "gamma after", "gamma")); err != nil {
		t.Fatal(err)
	}
	if hits, err := searchNotes(rd, ctx, "gamma", Filter{}, 10); err != nil || len(hits) != 1 {
		t.Fatalf("a write after the rebuild: %d hits, %v", len(hits), err)
	}
	checkPrivate(t, home)
}

// checkPrivate fails if the index or its WAL files are readable by others,
// or a rebuild's new file was left behind.
func checkPrivate(t *testing.T, home string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // no Unix modes
	}
	for _, p := range []string{"index.db", "index.db-wal", "index.db-shm"} {
		if info, err := os.Stat(filepath.Join(home, p)); err == nil && info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, info.Mode().Perm())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(home, "index.db"+freshPrefix+"*")); len(left) > 0 {
		t.Errorf("a rebuild left %v", left)
	}
}

// A rebuild killed (kill -9) while it builds its new file leaves the old
// index whole and in use; the file it leaves (mode 0600) is removed by the
// next reindex once stale.
func TestKilledRebuildLeavesOldIndex(t *testing.T) {
	if home := os.Getenv("ANAMNESIS_TEST_REBUILD_HOME"); home != "" {
		s, err := Open(context.Background(), home)
		if err != nil {
			os.Exit(1)
		}
		s.Rebuild(context.Background())
		os.Exit(0)
	}
	ctx := context.Background()
	home := t.TempDir()
	writeNoteFiles(t, home, 3000, "alpha")
	s := open(t, home)
	if n := countNotes(t, s.db); n != 3000 {
		t.Fatalf("indexed %d notes, want 3000", n)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestKilledRebuildLeavesOldIndex$")
	cmd.Env = append(os.Environ(), "ANAMNESIS_TEST_REBUILD_HOME="+home)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var left string
	for deadline := time.Now().Add(time.Minute); left == "" && time.Now().Before(deadline); {
		if m, _ := filepath.Glob(filepath.Join(home, "index.db"+freshPrefix+"*")); len(m) > 0 {
			if info, err := os.Stat(m[0]); err == nil && info.Size() > 0 {
				left = m[0]
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if left == "" {
		t.Fatal("the rebuild never made its new file")
	}
	info, err := os.Stat(left)
	if err != nil {
		t.Skipf("the rebuild finished before it was killed: %v", err)
	}
	if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
		t.Errorf("the rebuild's new file has mode %v, want 0600", info.Mode().Perm())
	}
	// The old index is whole and in use, for reads and writes.
	if n := matches(t, s.db, "alpha"); n != 3000 {
		t.Fatalf("after the killed rebuild the index matches %d notes, want 3000", n)
	}
	if hits, err := searchNotes(s, ctx, "alpha", Filter{}, 10); err != nil || len(hits) != 10 {
		t.Fatalf("search after the killed rebuild: %d hits, %v", len(hits), err)
	}
	if _, err := s.Write(ctx, note.New(note.Semantic, "after the kill", "gamma")); err != nil {
		t.Fatal(err)
	}
	if err := s.quickCheck(ctx); err != nil {
		t.Fatal(err)
	}
	// A fresh leftover may be a live rebuild's: kept.
	if _, err := s.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("a leftover younger than staleAfter was removed: %v", err)
	}
	old := time.Now().Add(-2 * staleAfter)
	os.Chtimes(left, old, old)
	if r, err := s.Reindex(ctx, false); err != nil || r.Total != 3001 {
		t.Fatalf("Reindex = %+v, %v", r, err)
	}
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the killed rebuild's file is still there: %v", err)
	}
	checkPrivate(t, home)
}
