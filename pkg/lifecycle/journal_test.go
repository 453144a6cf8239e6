package lifecycle

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A journal a killed apply left (no done line) is rolled back: the changed
// note gets its old bytes back, private like every note (SPEC 17), and a
// file the apply created is removed.
func TestRecoverRollsBackPrivately(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	n := note.New(note.Semantic, "Pool size", "DB_POOL is 20.")
	n, err := s.Write(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	path, err := s.Path(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path)
	created := path + ".new.md"
	var lines []byte
	for _, e := range []journalEntry{{Cmd: "consolidate"}, {Abs: path, Old: old}, {Abs: created, New: true}} {
		b, _ := json.Marshal(e)
		lines = append(append(lines, b...), '\n')
	}
	if err := os.MkdirAll(journalDir(s.Home()), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journalPath(s.Home()), lines, 0o600); err != nil {
		t.Fatal(err)
	}
	// The killed apply had replaced the note (as a world-readable file) and created another.
	if err := os.WriteFile(path, []byte("half-applied"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(created, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Recover(ctx, s, "box"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(old) {
		t.Errorf("note not rolled back:\n%s", got)
	}
	if fi, err := os.Stat(path); err != nil || !atomicfile.HasPerm(fi, layout.FileMode) {
		t.Errorf("rolled-back note mode %v, want %v", fi.Mode().Perm(), os.FileMode(layout.FileMode))
	}
	if _, err := os.Stat(created); !os.IsNotExist(err) {
		t.Errorf("file the apply created is still there: %v", err)
	}
	if _, err := os.Stat(journalPath(s.Home())); !os.IsNotExist(err) {
		t.Errorf("journal not removed: %v", err)
	}
}
