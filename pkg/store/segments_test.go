package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func structureOf(t *testing.T, s *Store) structure {
	t.Helper()
	var rec []byte
	if err := s.db.QueryRowContext(context.Background(), "SELECT block FROM memories_fts_data WHERE id = ?", structureRowid).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	st, err := parseStructure(rec)
	if err != nil {
		t.Fatalf("structure record % x: %v", rec, err)
	}
	if got := st.encode(); string(got) != string(rec) {
		t.Fatalf("structure record % x encodes again as % x", rec, got)
	}
	return st
}

// where finds segment g's level; -1 when it is gone (merged into another).
func where(st structure, g segment) int {
	for l, lv := range st.levels {
		for _, x := range lv.segs {
			if x == g {
				return l
			}
		}
	}
	return -1
}

// loaded is a home of n notes in project github.com/acme/a, indexed by a
// full rebuild; each note's body holds the word loadedI.
func loaded(t *testing.T, n int) (*Store, []*note.Note) {
	t.Helper()
	home := t.TempDir()
	var notes []*note.Note
	for i := range n {
		x := note.New(note.Semantic, fmt.Sprintf("Loaded note %d", i), fmt.Sprintf("The quotes service caches rates; loaded%d.", i))
		x.ID = note.NewID()
		x.Project = "github.com/acme/a"
		if _, err := WriteFileOnly(home, x); err != nil {
			t.Fatal(err)
		}
		notes = append(notes, x)
	}
	s := open(t, home)
	if _, err := s.Reindex(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	return s, notes
}

// A full rebuild leaves one segment, on liftLevel; writes after it merge
// their own small segments below it and never rewrite it (FTS5's merges
// did, within a few hundred writes, inside whichever process wrote), and
// searches see an edited note's new text only.
func TestWritesNeverMergeTheLoadedSegment(t *testing.T) {
	ctx := context.Background()
	s, notes := loaded(t, 300)
	st := structureOf(t, s)
	for l, lv := range st.levels {
		if len(lv.segs) > 0 && (l != liftLevel || len(lv.segs) != 1) {
			t.Fatalf("after a full rebuild: %+v, want one segment on level %d", st.levels, liftLevel)
		}
	}
	big := st.levels[liftLevel].segs[0]

	edited := notes[7]
	edited.Body = "The quotes service no longer caches anything."
	edited.UpdatedAt = ""
	if err := s.Put(ctx, edited); err != nil {
		t.Fatal(err)
	}
	var last *note.Note
	for i := range 300 {
		last = writeIn(t, s, "github.com/acme/a", fmt.Sprintf("Written note %d", i), fmt.Sprintf("The pricing service retries; written%d.", i))
	}
	after := structureOf(t, s)
	if l := where(after, big); l != liftLevel {
		t.Errorf("the loaded segment %+v is on level %d after 300 writes, want %d: %+v", big, l, liftLevel, after.levels)
	}
	if len(after.levels[liftLevel].segs) != 1 {
		t.Errorf("level %d: %+v", liftLevel, after.levels[liftLevel].segs)
	}
	for _, c := range []struct {
		q    string
		want string
	}{{"loaded3", notes[3].ID}, {"written299", last.ID}, {"anything", edited.ID}} {
		hits, err := searchNotes(s, ctx, c.q, Filter{Project: "github.com/acme/a"}, 5)
		if err != nil || len(hits) != 1 || hits[0].ID != c.want {
			t.Errorf("search %q: %v %v, want %s", c.q, hits, err, c.want)
		}
	}
	if hits, err := searchNotes(s, ctx, "loaded7", Filter{Project: "github.com/acme/a"}, 5); err != nil || len(hits) != 0 {
		t.Errorf("search for the edited note's old word: %v %v", hits, err)
	}
}

// An index whose large segment sits low (any index rebuilt by an earlier
// version) has it lifted at a writer's Open; searches find the same notes.
func TestLargeSegmentLiftedAtOpen(t *testing.T) {
	ctx := context.Background()
	s, _ := loaded(t, 200)
	writeIn(t, s, "github.com/acme/a", "Written note", "The pricing service retries; written0.")
	st := structureOf(t, s)
	big := st.levels[liftLevel].segs[0]
	low := st
	low.levels = append([]segLevel(nil), st.levels[:liftLevel]...)
	low.levels[1] = segLevel{segs: []segment{big}}
	if _, err := s.db.ExecContext(ctx, "UPDATE memories_fts_data SET block = ? WHERE id = ?", low.encode(), structureRowid); err != nil {
		t.Fatal(err)
	}
	hits, err := searchNotes(s, ctx, "loaded5 OR written0", Filter{Project: "github.com/acme/a"}, 5)
	if err != nil || len(hits) != 2 {
		t.Fatalf("search with the segment low: %v %v", hits, err)
	}
	home := s.Home()
	s.Close()

	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if l := where(structureOf(t, r), big); l != 1 {
		t.Errorf("a reader's Open moved the segment to level %d", l)
	}
	r.Close()
	s = open(t, home)
	if l := where(structureOf(t, s), big); l != liftLevel {
		t.Errorf("after a writer's Open the segment is on level %d, want %d", l, liftLevel)
	}
	again, err := searchNotes(s, ctx, "loaded5 OR written0", Filter{Project: "github.com/acme/a"}, 5)
	if err != nil || len(again) != 2 || again[0].ID != hits[0].ID || again[1].ID != hits[1].ID {
		t.Errorf("search after the lift: %v %v, before %v", again, err, hits)
	}
}

// lifted moves only the oldest segment of the top level, only when it
// holds four times the pages of the rest, and never during a merge.
func TestLiftedRules(t *testing.T) {
	big := segment{id: 1, first: 1, last: 1000}
	small := func(id uint64) segment { return segment{id: id, first: 1, last: 10} }
	for _, c := range []struct {
		name   string
		levels []segLevel
		lift   bool
	}{
		{"alone on level 1", []segLevel{{}, {segs: []segment{big}}}, true},
		{"oldest of the top level", []segLevel{{segs: []segment{small(3)}}, {segs: []segment{big, small(2)}}}, true},
		{"not the oldest of its level", []segLevel{{}, {segs: []segment{small(2), big}}}, false},
		{"older segments above it", []segLevel{{segs: []segment{big}}, {segs: []segment{small(2)}}}, false},
		{"a merge under way", []segLevel{{merging: 2, segs: []segment{small(2), small(3)}}, {segs: []segment{big, small(4)}}}, false},
		{"not large enough", []segLevel{{segs: []segment{{id: 2, first: 1, last: 300}}}, {segs: []segment{big}}}, false},
		{"already high", append(make([]segLevel, liftLevel), segLevel{segs: []segment{big}}), false},
	} {
		st := structure{levels: c.levels}
		out, ok := st.lifted()
		if ok != c.lift {
			t.Errorf("%s: lifted %v, want %v", c.name, ok, c.lift)
			continue
		}
		if !ok {
			continue
		}
		if where(out, big) != liftLevel {
			t.Errorf("%s: %+v", c.name, out.levels)
		}
		n := 0
		for _, l := range out.levels {
			n += len(l.segs)
		}
		m := 0
		for _, l := range c.levels {
			m += len(l.segs)
		}
		if n != m {
			t.Errorf("%s: %d segments became %d", c.name, m, n)
		}
		back, err := parseStructure(out.encode())
		if err != nil || where(back, big) != liftLevel {
			t.Errorf("%s: encoded and read back: %+v %v", c.name, back.levels, err)
		}
	}
}

// Tidy merges the small segments single writes leave, below the large
// one, which stays on liftLevel; searches find the same notes before and
// after.
func TestTidyMergesSmallSegments(t *testing.T) {
	ctx := context.Background()
	s, _ := loaded(t, 100)
	for i := range 12 {
		writeIn(t, s, "github.com/acme/a", fmt.Sprintf("Written note %d", i), fmt.Sprintf("The pricing service retries; written%d.", i))
	}
	count := func(st structure) (n int) {
		for _, lv := range st.levels {
			n += len(lv.segs)
		}
		return n
	}
	before := structureOf(t, s)
	big := before.levels[liftLevel].segs[0]
	search := func(q string) string {
		t.Helper()
		hits, err := searchNotes(s, ctx, q, Filter{Project: "github.com/acme/a"}, 5)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, h := range hits {
			ids = append(ids, h.ID)
		}
		return strings.Join(ids, " ")
	}
	queries := []string{"loaded3", "written11", "written0", "pricing retries", "loaded99 written5"}
	var want []string
	for _, q := range queries {
		want = append(want, search(q))
	}
	if err := s.Tidy(ctx); err != nil {
		t.Fatal(err)
	}
	after := structureOf(t, s)
	if count(before) < 10 || count(after) > 4 {
		t.Errorf("segments %d -> %d, want at least 10 before and at most 4 after: %+v", count(before), count(after), after.levels)
	}
	if l := where(after, big); l != liftLevel || len(after.levels[liftLevel].segs) != 1 {
		t.Errorf("the loaded segment is on level %d after Tidy: %+v", l, after.levels)
	}
	for i, q := range queries {
		if got := search(q); got != want[i] || got == "" {
			t.Errorf("search %q after Tidy: %q, want %q", q, got, want[i])
		}
	}
	if err := s.Tidy(ctx); err != nil {
		t.Fatalf("a second Tidy: %v", err)
	}
}

// Tidy leaves the writes in the database file, not only in the write-ahead
// log: the next writer's commit does not meet the log's limit.
func TestTidyCopiesTheLog(t *testing.T) {
	ctx := context.Background()
	s, _ := loaded(t, 20)
	for i := range 3 {
		writeIn(t, s, "github.com/acme/a", fmt.Sprintf("Written note %d", i), fmt.Sprintf("The pricing service retries; written%d.", i))
	}
	db := filepath.Join(s.home, "index.db")
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Tidy(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before, after) {
		t.Fatal("after Tidy the database file is unchanged: the writes are still only in the log")
	}
}
