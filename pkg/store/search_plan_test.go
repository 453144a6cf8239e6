package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// queryPlan is SQLite's plan for q, one line per step.
func queryPlan(t *testing.T, s *Store, q string, args []any) string {
	t.Helper()
	rows, err := s.db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	return strings.Join(plan, "\n")
}

// A search's cost must not grow with the project it searches (SPEC 9: "a
// per-search list of a project's notes" fails at 1M): no statement of
// Search may read a list of the project's notes (or of every held note)
// before it starts, and broad's walk must go newest first through the
// recency index without sorting the project's matches, so it stops at k.
// The filters are those of the CLI, recall (project and global, teams, a
// hidden team's global notes) and a typed search.
func TestSearchPlansListNoProject(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	filters := []Filter{
		{Project: "p"},
		{Project: "p", AndGlobal: true, Teams: true, HideGlobalOf: []string{"x"}},
		{Project: "p", Type: "semantic"},
		{},
	}
	if !st.slotted || st.legacy {
		t.Fatalf("a new index: slotted %v, legacy %v", st.slotted, st.legacy)
	}
	for _, f := range filters {
		// An index from before the slots.
		q, args := poolSQL(`"alpha" OR "beta"`, f, 30, defaultRank, indexShape{projectIndex: true})
		plan := queryPlan(t, st, q, args)
		if strings.Contains(plan, "LIST SUBQUERY") || scansTable(plan) {
			t.Errorf("pool %+v reads a list or a table before it scores:\n%s", f, plan)
		}
		if !strings.Contains(plan, "SCAN memories_fts VIRTUAL TABLE") || !strings.Contains(plan, "SEARCH m USING INTEGER PRIMARY KEY") {
			t.Errorf("pool %+v is not driven by the match:\n%s", f, plan)
		}
		if f.Project != "" && !strings.Contains(plan, "COVERING INDEX idx_mem_project (project=? AND rowid=?)") {
			t.Errorf("pool %+v does not probe the project's index entries per match:\n%s", f, plan)
		}
		// The held probe stays in the held range of idx_tags_tag: through
		// the primary key each match's probe reads a page of its own.
		if !strings.Contains(plan, "idx_tags_tag (tag=? AND memory_id=?)") {
			t.Errorf("pool %+v does not probe the held notes through idx_tags_tag:\n%s", f, plan)
		}
		// The probe must come before the note's row is read: placed after
		// it, every match of every project reads a page of memories.
		if probe, row := strings.Index(plan, "idx_mem_project (project=? AND rowid=?)"), strings.Index(plan, "SEARCH m USING INTEGER PRIMARY KEY"); f.Project != "" && probe > row {
			t.Errorf("pool %+v reads each match's row before it probes the project:\n%s", f, plan)
		}
		// A slotted index, with rows from before its slots or not: each
		// project's range is read from the postings, never its notes.
		for _, ix := range []indexShape{{true, true, false}, {true, true, true}} {
			q, args := poolSQL(`"alpha" OR "beta"`, f, 30, defaultRank, ix)
			plan := queryPlan(t, st, q, args)
			t.Logf("pool %+v %+v:\n%s", f, ix, plan)
			if strings.Contains(plan, "LIST SUBQUERY") || scansTable(plan) {
				t.Errorf("pool %+v %+v reads a list or a table before it scores:\n%s", f, ix, plan)
			}
			arms := strings.Count(plan, "SCAN memories_fts VIRTUAL TABLE")
			want := len(f.projects())
			if f.Project == "" {
				want = 1
			} else if ix.legacy {
				want++
			}
			if arms != want {
				t.Errorf("pool %+v %+v reads the postings %d times, want %d:\n%s", f, ix, arms, want, plan)
			}
			// Each project's range goes to FTS5 as both bounds (><), read
			// from project_slots by its key.
			if ranges, slots := strings.Count(plan, "VIRTUAL TABLE INDEX 0:M4><"), strings.Count(plan, "SEARCH ps USING PRIMARY KEY (project=?)"); f.Project != "" && (ranges != len(f.projects()) || slots != ranges) {
				t.Errorf("pool %+v %+v gives FTS5 %d ranges from %d slots, want %d:\n%s", f, ix, ranges, slots, len(f.projects()), plan)
			}
			if probes := strings.Count(plan, "idx_mem_project (project=? AND rowid=?)"); f.Project != "" && probes != map[bool]int{true: 1, false: 0}[ix.legacy] {
				t.Errorf("pool %+v %+v probes the project %d times:\n%s", f, ix, probes, plan)
			}
		}
		for _, p := range f.projects() {
			q, args := broadSQL(p, f, "alpha", 8, false)
			plan := queryPlan(t, st, q, args)
			t.Logf("broad %+v %q:\n%s", f, p, plan)
			if strings.Contains(plan, "LIST SUBQUERY") || strings.Contains(plan, "TEMP B-TREE FOR ORDER BY") {
				t.Errorf("broad %+v in %q lists or sorts the project's notes:\n%s", f, p, plan)
			}
			want := "idx_mem_project_recency (project=?)"
			if p == "" {
				want = "idx_mem_recency"
			}
			if !strings.Contains(plan, want) {
				t.Errorf("broad %+v in %q does not walk %s:\n%s", f, p, want, plan)
			}
		}
	}
	if got := (Filter{Project: "p", AndGlobal: true}).projects(); len(got) != 2 || got[1] != note.Global {
		t.Errorf("projects: %q", got)
	}
}

// scansTable reports a plan step that scans memories (alias m) whole.
func scansTable(plan string) bool {
	for _, l := range strings.Split(plan, "\n") {
		if l == "SCAN m" || l == "SCAN memories" || strings.HasPrefix(l, "SCAN m ") || strings.HasPrefix(l, "SCAN memories ") {
			return true
		}
	}
	return false
}

// Recall's news (IndexedSince) reads the rows past its mark through
// idx_mem_project, a range per project and slot, never a project's notes.
func TestSincePlanReadsRanges(t *testing.T) {
	st, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, slotted := range []bool{false, true} {
		q, args := sinceSQL(42, []string{"p", note.Global}, []string{"x"}, 8, slotted)
		plan := queryPlan(t, st, q, args)
		t.Logf("slotted %v:\n%s", slotted, plan)
		want := 1 // the projects in one IN
		if slotted {
			want = 4
		}
		if got := strings.Count(plan, "idx_mem_project (project=? AND rowid>?"); got != want || scansTable(plan) || strings.Contains(plan, "idx_mem_project_recency") {
			t.Errorf("slotted %v: %d ranges of idx_mem_project, want %d:\n%s", slotted, got, want, plan)
		}
	}
}

// broad's two plans give the same notes: the walk of a project's notes
// newest first probing the postings for each, and the walk that reads the
// project's part of the word's postings once, which it takes where the
// word is rare there (byPostings).
func TestBroadPlansAgree(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st := open(t, home)
	defer st.Close()
	var ids []string
	for i := range 450 {
		typ := []string{note.Semantic, note.Procedural, note.Episodic}[i%3]
		body := fmt.Sprintf("the deploy step %d", i)
		if i%11 == 0 {
			body += " zebracorn"
		}
		n := note.New(typ, fmt.Sprintf("note %d", i), body)
		n.Project = []string{"p", "q", note.Global}[i%3/2+i%2]
		n.ID = fmt.Sprintf("01BPLAN%019d", i)
		// Updated times out of step with the ids, with ties.
		n.UpdatedAt = fmt.Sprintf("2026-01-01T00:%02d:00+00:00", (i*7)%5)
		n.CreatedAt = n.UpdatedAt
		if err := st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	// A teammate's note of the project is in its range too.
	if err := os.MkdirAll(filepath.Join(home, "teams", "platform"), 0o700); err != nil {
		t.Fatal(err)
	}
	tn := note.New(note.Semantic, "shared", "a teammate's zebracorn")
	tn.Project, tn.Team, tn.Author, tn.ID = "p", "platform", "Bob", "01BPLANTEAM"
	tn.UpdatedAt = "2026-01-01T00:09:00+00:00"
	tn.CreatedAt = tn.UpdatedAt
	if err := st.Put(ctx, tn); err != nil {
		t.Fatal(err)
	}
	// A note that supersedes another hides it from both plans.
	sup := note.New(note.Semantic, "newer", "zebracorn again")
	sup.Project, sup.Supersedes = "p", []string{ids[0]}
	if _, err := st.Write(ctx, sup); err != nil {
		t.Fatal(err)
	}
	if !st.slotted || st.legacy {
		t.Fatalf("slotted %v, legacy %v", st.slotted, st.legacy)
	}
	for _, f := range []Filter{{Project: "p"}, {Project: "p", AndGlobal: true, Teams: true}, {Project: "q", Type: note.Procedural}} {
		for _, p := range f.projects() {
			run := func(q string, args []any) []string {
				t.Helper()
				rows, err := st.db.QueryContext(ctx, q, args...)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				var got []string
				for rows.Next() {
					var id, scope, bp, typ, project, title, team, u string
					if err := rows.Scan(&id, &scope, &bp, &typ, &project, &title, &team, &u); err != nil {
						t.Fatal(err)
					}
					got = append(got, id)
				}
				return got
			}
			walk := run(broadSQL(p, f, "zebracorn", 12, false))
			read := run(broadSQL(p, f, "zebracorn", 12, true))
			if f.Teams && p == "p" && !slices.Contains(walk, tn.ID) {
				t.Errorf("%+v in %q: the teammate's note is not found: %v", f, p, walk)
			}
			if len(walk) == 0 || !slices.Equal(walk, read) {
				t.Errorf("%+v in %q: the walk gives %v, the postings %v", f, p, walk, read)
			}
			// The postings are read once (a list, not a probe per note) and
			// the project's notes walked newest first, never sorted.
			q, args := broadSQL(p, f, "zebracorn", 12, true)
			plan := queryPlan(t, st, q, args)
			lines := strings.Split(plan, "\n")
			listed := false
			for i := 1; i < len(lines); i++ {
				if strings.Contains(lines[i], "SCAN memories_fts VIRTUAL TABLE") {
					listed = strings.Contains(lines[i-1], "LIST SUBQUERY")
				}
			}
			if !listed || !strings.Contains(plan, "idx_mem_project_recency (project=?)") || strings.Contains(plan, "TEMP B-TREE") {
				t.Errorf("broad's postings read %+v in %q reads the postings per note or sorts:\n%s", f, p, plan)
			}
		}
	}
	// At a million notes, a word in 1.7% of them (a project of 49,000
	// holds about 850) is read from the postings; one in half of them is
	// walked (its k are among the project's newest few dozen).
	if !fewPostings(17_000, 49_000, 1_000_000) || fewPostings(500_000, 49_000, 1_000_000) {
		t.Error("fewPostings chooses the wrong plan")
	}
	if !st.byPostings(ctx, "p", plan{docs: 451, broadDF: 41, broad: []string{"zebracorn"}}) {
		t.Error("a project of 150 notes is walked")
	}
}

// The held notes of a scope are counted (list, search and MCP say how many
// they left out) from the held tags, not by walking the scope's notes: with
// a project, that walk read every note of the project (50,000 at 1M).
func TestHeldCountPlanReadsTheTags(t *testing.T) {
	st, err := Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, f := range []Filter{{Held: true, Project: "p"}, {Held: true, Project: "p", AndGlobal: true, Teams: true}, {Held: true}} {
		q, args := countSQL(f)
		plan := queryPlan(t, st, q, args)
		// Each held note's row is read by its id; none by the scope.
		if first, _, _ := strings.Cut(plan, "\n"); !strings.HasPrefix(first, "SEARCH ht ") || strings.Contains(plan, "SCAN m") || strings.Contains(plan, "m USING COVERING INDEX idx_mem") {
			t.Errorf("%+v: the count does not start from the held tags:\n%s", f, plan)
		}
	}
}
