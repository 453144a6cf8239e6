package store

import (
	"context"
	"slices"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// rowidOf is the rowid of id's index row, and its FTS row's.
func rowidOf(t *testing.T, s *Store, id string) (mem, fts int64) {
	t.Helper()
	ctx := context.Background()
	if err := s.db.QueryRowContext(ctx, "SELECT rowid FROM memories WHERE id = ?", id).Scan(&mem); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRowContext(ctx, "SELECT rowid FROM memories_fts WHERE id = ?", id).Scan(&fts); err != nil {
		t.Fatal(err)
	}
	return mem, fts
}

func slotOf(t *testing.T, s *Store, project string) int64 {
	t.Helper()
	var slot int64
	if err := s.db.QueryRowContext(context.Background(), "SELECT slot FROM project_slots WHERE project = ?", project).Scan(&slot); err != nil {
		t.Fatalf("slot of %q: %v", project, err)
	}
	return slot
}

func writeIn(t *testing.T, s *Store, project, title, body string) *note.Note {
	t.Helper()
	n := note.New(note.Semantic, title, body)
	n.Project = project
	n, err := s.Write(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Each project's notes have rowids in its slot, numbered in the order they
// were indexed across the store; an edit gives a note a later number, a
// move to another project that project's slot, and a full rebuild puts
// every note in its project's slot again.
func TestRowidsBySlot(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	a := writeIn(t, s, "github.com/acme/a", "Cache rates", "The quotes service caches rates.")
	b := writeIn(t, s, "github.com/acme/b", "Cache keys", "The pricing service caches keys.")
	g := writeIn(t, s, note.Global, "Cache rule", "Every service caches for a minute.")
	slots := map[string]int64{}
	for _, n := range []*note.Note{a, b, g} {
		mem, fts := rowidOf(t, s, n.ID)
		slot := slotOf(t, s, n.Project)
		if mem != fts || mem>>slotBits != slot || slot == 0 {
			t.Errorf("%s in %s: rowid %d (FTS %d), slot %d", n.ID, n.Project, mem, fts, slot)
		}
		slots[n.Project] = slot
	}
	if len(slots) != 3 {
		t.Errorf("slots %v", slots)
	}
	for project, slot := range slots {
		var start int64
		if err := s.db.QueryRowContext(ctx, "SELECT "+slotStart, project).Scan(&start); err != nil || start != slot<<slotBits {
			t.Errorf("slotStart of %s: %d %v, want %d", project, start, err, slot<<slotBits)
		}
	}
	mark, err := s.Watermark(ctx)
	if err != nil || mark != 3 {
		t.Fatalf("watermark %d %v, want 3", mark, err)
	}
	before, _ := rowidOf(t, s, a.ID)
	a.Body += " Edited."
	a.Project = "github.com/acme/b"
	a.UpdatedAt = ""
	if err := s.Put(ctx, a); err != nil {
		t.Fatal(err)
	}
	after, fts := rowidOf(t, s, a.ID)
	if after>>slotBits != slots["github.com/acme/b"] || after&(slotSize-1) <= before&(slotSize-1) || fts != after {
		t.Errorf("moved note: rowid %d -> %d (FTS %d)", before, after, fts)
	}
	if m, _ := s.Watermark(ctx); m != 4 {
		t.Errorf("watermark after an edit %d, want 4", m)
	}
	since, err := s.IndexedSince(ctx, mark, []string{"github.com/acme/b", note.Global}, nil, 10)
	if err != nil || len(since) != 1 || since[0].ID != a.ID {
		t.Errorf("indexed since %d: %v %v", mark, since, err)
	}
	hits, err := searchNotes(s, ctx, "caches", Filter{Project: "github.com/acme/b", AndGlobal: true}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	want := []string{a.ID, b.ID, g.ID}
	slices.Sort(want)
	if !slices.Equal(ids, want) {
		t.Errorf("search in b and global found %v, want %v", ids, want)
	}
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	for _, n := range []*note.Note{a, b, g} {
		mem, fts := rowidOf(t, s, n.ID)
		if mem != fts || mem>>slotBits != slotOf(t, s, n.Project) {
			t.Errorf("after a rebuild %s in %s: rowid %d (FTS %d)", n.ID, n.Project, mem, fts)
		}
	}
	if m, _ := s.Watermark(ctx); m != 3 {
		t.Errorf("watermark after a rebuild %d, want 3", m)
	}
}

// An index made before the slots keeps its rows where they are (slot 0):
// a writer's Open adds the slots, new notes go to their project's, and
// search, recall's news and the watermark see old and new rows alike.
func TestIndexFromBeforeSlots(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	old := writeIn(t, s, "github.com/acme/a", "Old cache note", "The quotes service caches rates.")
	other := writeIn(t, s, "github.com/acme/b", "Old other note", "The pricing service caches keys.")
	// Back to the earlier shape: rowids numbered by SQLite, no slots.
	for i, id := range []string{old.ID, other.ID} {
		mem, _ := rowidOf(t, s, id)
		var title, body, tags string
		if err := s.db.QueryRowContext(ctx, "SELECT title, body, tags FROM memories_fts WHERE rowid = ?", mem).Scan(&title, &body, &tags); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"DELETE FROM memories_fts WHERE rowid = ?1", "UPDATE memories SET rowid = ?2 WHERE rowid = ?1"} {
			if _, err := s.db.ExecContext(ctx, q, mem, i+1); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.db.ExecContext(ctx, "INSERT INTO memories_fts (rowid, id, title, body, tags) VALUES (?, ?, ?, ?, ?)", i+1, id, title, body, tags); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.db.ExecContext(ctx, "DROP TABLE project_slots; DELETE FROM meta WHERE key = 'rowseq'"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if r.slotted || !r.legacy {
		t.Errorf("a reader of the old index: slotted %v, legacy %v", r.slotted, r.legacy)
	}
	if hits, err := searchNotes(r, ctx, "caches", Filter{Project: "github.com/acme/a"}, 10); err != nil || len(hits) != 1 || hits[0].ID != old.ID {
		t.Errorf("a reader's search of the old index: %v %v", hits, err)
	}
	r.Close()

	s = open(t, home)
	if !s.slotted || !s.legacy {
		t.Errorf("a writer: slotted %v, legacy %v", s.slotted, s.legacy)
	}
	mark, err := s.Watermark(ctx)
	if err != nil || mark != 2 {
		t.Fatalf("watermark of the old index %d %v, want 2", mark, err)
	}
	if n, err := s.Unslotted(ctx); err != nil || n != 2 {
		t.Errorf("unslotted %d %v, want 2", n, err)
	}
	fresh := writeIn(t, s, "github.com/acme/a", "New cache note", "The quotes service caches rates again.")
	if mem, _ := rowidOf(t, s, fresh.ID); mem != slotOf(t, s, "github.com/acme/a")<<slotBits|3 {
		t.Errorf("new note's rowid %d", mem)
	}
	hits, err := searchNotes(s, ctx, "caches", Filter{Project: "github.com/acme/a"}, 10)
	if err != nil || len(hits) != 2 {
		t.Fatalf("search over old and new rows: %v %v", hits, err)
	}
	for _, h := range hits {
		if h.ID != old.ID && h.ID != fresh.ID {
			t.Errorf("search in a found %s", h.ID)
		}
	}
	since, err := s.IndexedSince(ctx, 1, []string{"github.com/acme/a", "github.com/acme/b"}, nil, 10)
	if err != nil || len(since) != 2 || since[0].ID != fresh.ID || since[1].ID != other.ID {
		t.Errorf("indexed since 1: %v %v", since, err)
	}
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Unslotted(ctx); err != nil || n != 0 {
		t.Errorf("unslotted after a rebuild %d %v, want 0", n, err)
	}
}
