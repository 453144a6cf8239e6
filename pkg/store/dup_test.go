package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A file someone copied by hand to local/ and changed there carries the id
// of a portable note: the index reports it as a duplicate. Writing the
// portable note again (an edit, a release, an import) keeps the other file:
// its text is nowhere else.
func TestPutKeepsAReportedDuplicate(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	n, err := s.Write(ctx, note.New(note.Semantic, "Staging database", "Staging runs on db-3."))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(home, "memory", note.Semantic, n.ID+".md")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(home, "local", note.Semantic, n.ID+".md")
	if err := os.MkdirAll(filepath.Dir(dup), 0o700); err != nil {
		t.Fatal(err)
	}
	private := strings.Replace(string(data), "Staging runs on db-3.", "My own tunnel to staging is on port 6543.", 1)
	if err := os.WriteFile(dup, []byte(private), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := s.Reindex(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Skipped == 0 {
		t.Fatalf("the duplicate is not reported: %+v", r)
	}
	got, err := s.Get(ctx, n.ID)
	if err != nil || got.Scope != note.Portable {
		t.Fatalf("get: %+v %v", got, err)
	}
	got.Body = "Staging runs on db-4."
	got.UpdatedAt = note.Now()
	if err := s.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(dup)
	if err != nil || string(after) != private {
		t.Fatalf("the machine-local duplicate was removed or changed by a write of the portable note: %v\n%s", err, after)
	}
	if back, _ := os.ReadFile(src); !strings.Contains(string(back), "db-4") {
		t.Fatalf("portable note not written:\n%s", back)
	}
	// Moving the portable note onto the duplicate's path is refused: it
	// would write over the duplicate's text.
	got.Scope = note.MachineLocal
	if err := s.Put(ctx, got); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("a move onto the duplicate's file: %v", err)
	}
	if after, _ := os.ReadFile(dup); string(after) != private {
		t.Fatalf("the duplicate was written over:\n%s", after)
	}
	if _, err := os.Stat(src); err != nil {
		t.Fatalf("the refused move removed the portable file: %v", err)
	}
}

// A move to another tree (an edit of the scope) that the index refuses
// leaves the note where it was: the copy it would replace is not removed
// before the index has taken the note.
func TestRefusedMoveKeepsTheNote(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	n, err := s.Write(ctx, note.New(note.Semantic, "Moved by an edit", "the only text"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(home, "memory", note.Semantic, n.ID+".md")
	was, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "CREATE TRIGGER refuse BEFORE INSERT ON files BEGIN SELECT RAISE(ABORT, 'refused'); END"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	got.Scope = note.MachineLocal
	if err := s.Put(ctx, got); err == nil {
		t.Fatal("move accepted")
	}
	now, err := os.ReadFile(src)
	if err != nil || string(now) != string(was) {
		files, _ := filepath.Glob(filepath.Join(home, "*", note.Semantic, "*.md"))
		t.Fatalf("the refused move lost the note: %v; files now %v", err, files)
	}
}
