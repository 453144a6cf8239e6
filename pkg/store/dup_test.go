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
