package store

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// CountInjectable must not visit every note of a project: its plan may
// search memories by key but never scan it or walk a project's rows for
// the superseded and reflected terms, and it reads the project's count of
// personal notes from project_notes (a range over the project's index
// entries cost capture 26 ms of its SessionEnd at 1M notes).
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
	if n := strings.Count(all, "idx_mem_scope") + strings.Count(all, "idx_mem_project"); n != 0 {
		t.Fatalf("want no range over a project's notes, have %d:\n%s", n, all)
	}
	if !strings.Contains(all, "SEARCH note_counts USING PRIMARY KEY (project=? AND team=?)") {
		t.Fatalf("the total is not read from note_counts:\n%s", all)
	}
}

// projectNotesV1 is the count an earlier version kept: each project's
// personal notes, by triggers.
const projectNotesV1 = `CREATE TABLE project_notes (project TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
CREATE TRIGGER project_notes_insert AFTER INSERT ON memories WHEN new.team IS NULL BEGIN
	INSERT INTO project_notes (project, n) VALUES (new.project, 1) ON CONFLICT (project) DO UPDATE SET n = n + 1;
END;
INSERT INTO project_notes (project, n) SELECT project, count(*) FROM memories WHERE team IS NULL GROUP BY project`

// An index made by an earlier version gains the late indexes,
// idx_mem_project_recency its team column, and the note counts (in place
// of project_notes), on a
// writer's Open, without a rebuild; a reader's Open leaves the file alone, and its searches probe
// the indexes the file has.
func TestOpenUpgradesIndexes(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	kept := note.New(note.Semantic, "Kept", "A note the rebuild would reload.")
	kept.Tags = []string{"kept"}
	if _, err := st.Write(ctx, kept); err != nil {
		t.Fatal(err)
	}
	if _, err := st.db.ExecContext(ctx, `DROP INDEX idx_mem_session; DROP INDEX idx_mem_project; DROP INDEX idx_mem_project_recency;
		CREATE INDEX idx_mem_project_recency ON memories(project, updated_at DESC, id DESC);
		DROP INDEX idx_files_error; DROP TRIGGER note_counts_replace; DROP TRIGGER note_counts_insert;
		DROP TRIGGER note_counts_delete; DROP TRIGGER note_counts_update; DROP TABLE note_counts;
		DROP TRIGGER tag_counts_insert; DROP TRIGGER tag_counts_delete; DROP TRIGGER tag_counts_update; DROP TABLE tag_counts;`+projectNotesV1); err != nil {
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
	if plan := queryPlan(t, st, countInjectable, []any{"global"}); !strings.Contains(plan, "note_counts") {
		t.Errorf("count after the upgrade:\n%s", plan)
	}
	var old int
	if err := st.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE name LIKE 'project_notes%'`).Scan(&old); err != nil || old != 0 {
		t.Errorf("project_notes left: %d, %v", old, err)
	}
	if s, err := st.Stats(ctx); err != nil || s.Total != 1 || s.ByProject["global"] != 1 || s.Problems != 0 {
		t.Errorf("Stats = %+v, %v", s, err)
	}
	if n, err := st.CountInjectable(ctx, "global"); err != nil || n != 1 {
		t.Errorf("CountInjectable = %d, %v", n, err)
	}
	if tags, err := st.TagCounts(ctx); err != nil || len(tags) != 1 || tags["kept"] != 1 {
		t.Errorf("TagCounts after the upgrade = %v, %v", tags, err)
	}
}

// note_counts holds the count of notes of each project, team, type, scope
// and machine through every kind of write: new notes, a note moved to
// another project and type, a deletion, a teammate's note, files added and
// edited by hand and read by a refresh, and a full rebuild; Stats reads it.
func TestNoteCountsFollowEveryWrite(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	check := func(step string) {
		t.Helper()
		var kept, counted string
		if err := st.db.QueryRowContext(ctx, `SELECT coalesce(group_concat(k || '=' || n, ' '), '') FROM
			(SELECT concat_ws('/', project, team, type, scope, machine_id) AS k, n FROM note_counts WHERE n != 0 ORDER BY k)`).Scan(&kept); err != nil {
			t.Fatal(err)
		}
		if err := st.db.QueryRowContext(ctx, `SELECT coalesce(group_concat(k || '=' || n, ' '), '') FROM
			(SELECT concat_ws('/', project, coalesce(team, ''), type, scope, machine_id) AS k, count(*) AS n FROM memories GROUP BY k ORDER BY k)`).Scan(&counted); err != nil {
			t.Fatal(err)
		}
		if kept != counted || kept == "" {
			t.Errorf("after %s: note_counts %q, memories %q", step, kept, counted)
		}
		var total int
		if err := st.db.QueryRowContext(ctx, `SELECT count(*) FROM memories`).Scan(&total); err != nil {
			t.Fatal(err)
		}
		if s, err := st.Stats(ctx); err != nil || s.Total != total {
			t.Errorf("after %s: Stats %+v, %v; %d notes", step, s, err, total)
		}
		var tagged string
		if err := st.db.QueryRowContext(ctx, `SELECT coalesce(group_concat(tag || '=' || n, ' '), '') FROM
			(SELECT tag, count(*) AS n FROM memory_tags GROUP BY tag ORDER BY tag)`).Scan(&tagged); err != nil {
			t.Fatal(err)
		}
		tags, err := st.TagCounts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tag := range slices.Sorted(maps.Keys(tags)) {
			got = append(got, fmt.Sprintf("%s=%d", tag, tags[tag]))
		}
		if g := strings.Join(got, " "); g != tagged || tagged == "" {
			t.Errorf("after %s: TagCounts %q, memory_tags %q", step, g, tagged)
		}
	}
	var ids []string
	for i, p := range []string{"a", "a", "b", "global", "global"} {
		n := note.New(note.Semantic, fmt.Sprintf("note %d", i), "text")
		n.Project = p
		n.Tags = []string{"deploy", fmt.Sprintf("t%d", i%2)}
		w, err := st.Write(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	check("writes")
	moved, _ := st.Get(ctx, ids[0])
	moved.Project = "b"
	moved.Type = note.Procedural
	if err := st.Put(ctx, moved); err != nil {
		t.Fatal(err)
	}
	check("a note moved to another project and type")
	same, _ := st.Get(ctx, ids[3])
	same.Body = "edited"
	same.Tags = []string{"t0", "retagged"}
	if err := st.Put(ctx, same); err != nil {
		t.Fatal(err)
	}
	check("an edit in place")
	if err := st.Delete(ctx, ids[2]); err != nil {
		t.Fatal(err)
	}
	check("a deletion")
	if err := os.MkdirAll(filepath.Join(home, "teams", "platform"), 0o700); err != nil {
		t.Fatal(err)
	}
	tn := note.New(note.Semantic, "shared", "a teammate's note")
	tn.Project, tn.Team, tn.Author = "a", "platform", "Bob"
	tn.Tags = []string{"deploy", "shared"}
	if _, err := st.Write(ctx, tn); err != nil {
		t.Fatal(err)
	}
	check("a team note")
	hand := note.New(note.Semantic, "by hand", "written by an editor")
	hand.Project, hand.ID = "c", note.NewID()
	hand.Tags = []string{"by-hand", "deploy"}
	hand.CreatedAt = note.Now()
	hand.UpdatedAt = hand.CreatedAt
	data, err := encode(hand)
	if err != nil {
		t.Fatal(err)
	}
	handPath := filepath.Join(home, "memory", "semantic", hand.ID+".md")
	if err := os.WriteFile(handPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	check("a file added by hand")
	if err := os.WriteFile(handPath, []byte(strings.Replace(string(data), "project: c", "project: a", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chtimes(handPath, time.Now().Add(time.Hour), time.Now().Add(time.Hour))
	if _, err := st.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	check("a file's project edited by hand")
	if _, err := st.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	check("a full rebuild")
	if n, err := st.CountInjectable(ctx, "a"); err != nil || n != 2 {
		t.Errorf("CountInjectable(a) = %d, %v; want 2 (the hand-edited note and the first one's sibling)", n, err)
	}
}
