package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// The store records every note file it writes or removes in a git tree
// (memory/, a team's) until a sync clears what it committed; machine-local
// notes are in no repository. A write made after the sync read the record
// stays for the next one. A rebuild keeps the record but forgets the last
// whole staging, so the next sync stages everything.
func TestUnsyncedRecordsTheStoresWrites(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	a, err := s.Write(ctx, note.New(note.Semantic, "portable", "a note for git"))
	if err != nil {
		t.Fatal(err)
	}
	local := note.New(note.Semantic, "local", "a note for this machine")
	local.Scope = note.MachineLocal
	if _, err := s.Write(ctx, local); err != nil {
		t.Fatal(err)
	}
	b, err := s.Write(ctx, note.New(note.Procedural, "another", "also for git"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, b.ID); err != nil {
		t.Fatal(err)
	}
	u, err := s.Unsynced(ctx, "memory")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"semantic/" + a.ID + ".md", "procedural/" + b.ID + ".md"}
	if !slices.Equal(u.Paths, want) || !u.Whole.IsZero() {
		t.Fatalf("recorded %v (whole %v), want %v and no whole staging yet", u.Paths, u.Whole, want)
	}
	// Read by a sync; then a write lands before it clears.
	c, err := s.Write(ctx, note.New(note.Episodic, "late", "written while the sync committed"))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	if err := s.Synced(ctx, "memory", u.UpTo, true, at); err != nil {
		t.Fatal(err)
	}
	u, _ = s.Unsynced(ctx, "memory")
	if !slices.Equal(u.Paths, []string{"episodic/" + c.ID + ".md"}) || u.Whole.Unix() != at.Unix() {
		t.Fatalf("after the sync: %v (whole %v)", u.Paths, u.Whole)
	}
	// A file changed by hand and read by a reindex is recorded too.
	p := filepath.Join(s.Home(), "memory", "semantic", a.ID+".md")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), "a note for git", "edited by hand", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	if u, _ = s.Unsynced(ctx, "memory"); !slices.Contains(u.Paths, "semantic/"+a.ID+".md") {
		t.Fatalf("a hand edit read by a reindex is not recorded: %v", u.Paths)
	}
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	if u, _ = s.Unsynced(ctx, "memory"); !u.Whole.IsZero() || len(u.Paths) != 2 {
		t.Fatalf("after a rebuild: %v (whole %v), want the two writes kept and no whole staging", u.Paths, u.Whole)
	}
}

// A write's cost must not grow with what waits for a sync (a home without
// git never clears it): the next number is read from seq's index.
func TestRecordWritePlan(t *testing.T) {
	s := open(t, t.TempDir())
	plan := queryPlan(t, s, recordWrite, []any{"memory/x.md"})
	if !strings.Contains(plan, "idx_unsynced_seq") {
		t.Fatalf("the next write number is not read from idx_unsynced_seq:\n%s", plan)
	}
}
