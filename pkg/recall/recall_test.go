package recall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestSessionIDsNeverLeaveState(t *testing.T) {
	home := t.TempDir()
	for _, id := range []string{"../../etc/passwd", "a/b", strings.Repeat("x", 300), "ok-id_1", ""} {
		p := sessionPath(home, id)
		if rel, err := filepath.Rel(filepath.Join(home, "state", "sessions"), p); err != nil || strings.Contains(rel, "..") || strings.ContainsRune(rel, os.PathSeparator) {
			t.Errorf("%q -> %s", id, p)
		}
	}
	s := Session{Mark: 7}
	s.Add("A", "B", "A")
	if err := SaveSession(home, "../x", s); err != nil {
		t.Fatal(err)
	}
	got, err := LoadSession(home, "../x")
	if err != nil || got.Mark != 7 || len(got.IDs) != 2 || !got.Shown("B") || got.Shown("C") {
		t.Fatalf("%+v %v", got, err)
	}
	// Damaged state reads as an error and an empty session, never a panic.
	os.WriteFile(sessionPath(home, "bad"), []byte("{"), 0o600)
	if s, err := LoadSession(home, "bad"); err == nil || len(s.IDs) != 0 {
		t.Errorf("%+v %v", s, err)
	}
}

func TestOldSessionsArePruned(t *testing.T) {
	home := t.TempDir()
	SaveSession(home, "old", Session{IDs: []string{"X"}})
	old := time.Now().Add(-SessionTTL - time.Hour)
	os.Chtimes(sessionPath(home, "old"), old, old)
	// Pruning runs at most once an hour (the first save ran it).
	mark := filepath.Join(filepath.Dir(sessionPath(home, "old")), ".pruned")
	os.Chtimes(mark, old, old)
	SaveSession(home, "new", Session{})
	if _, err := os.Stat(sessionPath(home, "old")); err == nil {
		t.Error("a day-old session file was kept")
	}
	if _, err := os.Stat(sessionPath(home, "new")); err != nil {
		t.Error(err)
	}
}

func TestTraceRotates(t *testing.T) {
	home := t.TempDir()
	e := Entry{Time: time.Now().UTC(), Hook: "inject", Session: "s", Project: "p", IDs: []string{strings.Repeat("I", 1000)}, Chars: 10}
	for i := 0; i < 2*MaxTrace/1000; i++ {
		if err := Trace(home, e); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(TracePath(home))
	if err != nil || fi.Size() > MaxTrace {
		t.Fatalf("%v %v", fi.Size(), err)
	}
	if _, err := os.Stat(TracePath(home) + ".1"); err != nil {
		t.Fatal("no rotated generation")
	}
	all, err := ReadTrace(home)
	if err != nil || len(all) < MaxTrace/1100 || all[0].Hook != "inject" {
		t.Fatalf("%d entries, %v", len(all), err)
	}
}

func TestRenderBudget(t *testing.T) {
	long := func(title string) *note.Note {
		n := note.New(note.Semantic, title, strings.Repeat("word ", 400)+"\nlast line")
		n.ID = "ID" + title
		return n
	}
	a, b, c, d := long("a"), long("b"), long("c"), long("d")
	out, ids := Render([]*note.Note{a}, []*note.Note{b, c, d}, 2000)
	if inject.Width(out) > 2000 || len(ids) != MaxNotes || ids[0] != a.ID {
		t.Fatalf("%d chars, ids %v:\n%s", inject.Width(out), ids, out)
	}
	if !strings.HasPrefix(out, ArrivedHeading+"\n\n## [semantic] a\n") || !strings.Contains(out, "\n\n"+Heading+"\n\n## [semantic] b\n") {
		t.Errorf("layout:\n%s", out)
	}
	if strings.Count(out, "… (cut; full note: memory_get or `anamnesis get ID") != 3 {
		t.Errorf("cut markers:\n%s", out)
	}
	if out, ids := Render(nil, []*note.Note{b}, 100); out != "" || ids != nil {
		t.Errorf("a budget too small for one note printed %q", out)
	}
	short := note.New(note.Semantic, "s", "short body")
	short.ID = "S"
	if out, _ := Render(nil, []*note.Note{short}, 2000); !strings.HasSuffix(out, "short body\n") {
		t.Errorf("%q", out)
	}
}
