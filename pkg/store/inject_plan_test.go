package store

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// CountInjectable must not visit every note of a project: its plan may
// search memories by key but never scan it or walk a project's rows for
// the superseded and reflected terms, and it counts the project's personal
// notes from idx_mem_project_recency's entries alone (with the rows read for
// their team column, it took 0.9 s at 1M notes, 2.4 s from a cold cache).
func TestCountInjectablePlan(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all := queryPlan(t, st, countInjectable, []any{"global"})
	t.Log(all)
	if strings.Contains(all, "SCAN m") || strings.Contains(all, "SCAN memories") || strings.Contains(all, "SCAN t ") {
		t.Fatalf("plan scans a table:\n%s", all)
	}
	if !strings.Contains(all, "idx_tags_tag") {
		t.Fatalf("plan does not use the tag index:\n%s", all)
	}
	if n := strings.Count(all, "idx_mem_scope") + strings.Count(all, "idx_mem_project_recency"); n != 1 {
		t.Fatalf("want exactly one range over a project's notes (the total), have %d:\n%s", n, all)
	}
	if !strings.Contains(all, "SEARCH memories USING COVERING INDEX idx_mem_project_recency (project=?)") {
		t.Fatalf("the total is not counted from idx_mem_project_recency's entries alone:\n%s", all)
	}
}

// An index made by an earlier version gains the late indexes, and
// idx_mem_project_recency its team column, on a writer's Open, without a
// rebuild; a reader's Open leaves the file alone, and its searches probe
// the indexes the file has.
func TestOpenUpgradesIndexes(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(ctx, note.New(note.Semantic, "Kept", "A note the rebuild would reload.")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.ExecContext(ctx, `DROP INDEX idx_mem_session; DROP INDEX idx_mem_project; DROP INDEX idx_mem_project_recency;
		CREATE INDEX idx_mem_project_recency ON memories(project, updated_at DESC, id DESC)`); err != nil {
		t.Fatal(err)
	}
	st.Close()
	defs := func(s *Store) string {
		var d string
		if err := s.db.QueryRowContext(ctx, `SELECT group_concat(sql, ';') FROM sqlite_master WHERE name IN ('idx_mem_session', 'idx_mem_project', 'idx_mem_project_recency')`).Scan(&d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if d := defs(r); strings.Contains(d, "idx_mem_session") || strings.Contains(d, "idx_mem_project ") || strings.Contains(d, "team") {
		t.Errorf("a reader's Open changed the indexes: %s", d)
	}
	search := func(s *Store) {
		t.Helper()
		hits, err := s.Search(ctx, Query{Text: "kept", Filter: Filter{Project: "global", AndGlobal: true}, K: 5})
		if err != nil || len(hits) != 1 || hits[0].Title != "Kept" {
			t.Errorf("search (project index %v): %v %v", s.projectIndex, hits, err)
		}
	}
	if r.projectIndex {
		t.Error("the reader believes idx_mem_project exists")
	}
	search(r)
	r.Close()
	st, err = Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if d := defs(st); !strings.Contains(d, "idx_mem_session") || !strings.Contains(d, "idx_mem_project ON memories(project)") || !strings.Contains(d, "id DESC, team)") {
		t.Errorf("after a writer's Open: %s", d)
	}
	if !st.projectIndex {
		t.Error("the writer does not know idx_mem_project exists")
	}
	search(st)
	if plan := queryPlan(t, st, countInjectable, []any{"global"}); !strings.Contains(plan, "COVERING INDEX idx_mem_project_recency") {
		t.Errorf("count after the upgrade:\n%s", plan)
	}
	if n, err := st.CountInjectable(ctx, "global"); err != nil || n != 1 {
		t.Errorf("CountInjectable = %d, %v", n, err)
	}
}
