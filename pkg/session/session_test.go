package session

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSessionIDsNeverLeaveState(t *testing.T) {
	home := t.TempDir()
	for _, id := range []string{"../../etc/passwd", "a/b", strings.Repeat("x", 300), "ok-id_1", ""} {
		p := sessionPath(home, id)
		if rel, err := filepath.Rel(filepath.Join(home, "state", "sessions"), p); err != nil || strings.Contains(rel, "..") || strings.ContainsRune(rel, os.PathSeparator) {
			t.Errorf("%q -> %s", id, p)
		}
	}
	s := State{Mark: 7}
	s.Add("A", "B", "A")
	if err := Save(home, "../x", s); err != nil {
		t.Fatal(err)
	}
	got, err := Load(home, "../x")
	if err != nil || got.Mark != 7 || len(got.IDs) != 2 || !got.Shown("B") || got.Shown("C") {
		t.Fatalf("%+v %v", got, err)
	}
	// Remove deletes that session's file (its id hashed, as Save named it)
	// and nothing else; an absent session is not an error.
	if err := Save(home, "keep", s); err != nil {
		t.Fatal(err)
	}
	if err := Remove(home, "../x"); err != nil {
		t.Fatal(err)
	}
	if got, _ := Load(home, "../x"); len(got.IDs) != 0 {
		t.Errorf("removed session still has %v", got.IDs)
	}
	if got, _ := Load(home, "keep"); len(got.IDs) != 2 {
		t.Errorf("another session lost its state: %+v", got)
	}
	if err := Remove(home, "never-saved"); err != nil {
		t.Errorf("absent session: %v", err)
	}
	// Damaged state reads as an error and an empty session, never a panic.
	os.WriteFile(sessionPath(home, "bad"), []byte("{"), 0o600)
	if s, err := Load(home, "bad"); err == nil || len(s.IDs) != 0 {
		t.Errorf("%+v %v", s, err)
	}
}

// A block's state keeps what the session was shown before only when the
// session resumed (or its source is unknown): a startup, a clear and a
// compaction begin an empty context, and a damaged state does not stop them.
func TestStartedKeepsOnlyAResumedContext(t *testing.T) {
	home := t.TempDir()
	for _, c := range []struct {
		source string
		want   []string
	}{
		{"resume", []string{"A", "B", "C"}},
		{"", []string{"A", "B", "C"}},
		{"startup", []string{"C"}},
		{"clear", []string{"C"}},
		{"compact", []string{"C"}},
	} {
		old := State{IDs: []string{"A", "B"}, Mark: 3, Prompts: 4}
		if err := Save(home, "s", old); err != nil {
			t.Fatal(err)
		}
		if err := Started(home, "s", c.source, []string{"C"}, 9); err != nil {
			t.Fatal(err)
		}
		got, err := Load(home, "s")
		if err != nil || strings.Join(got.IDs, ",") != strings.Join(c.want, ",") || got.Mark != 9 || got.Prompts != 0 {
			t.Errorf("%q: %+v %v, want ids %v, mark 9, no prompts", c.source, got, err, c.want)
		}
	}
	os.WriteFile(sessionPath(home, "bad"), []byte("{"), 0o600)
	if err := Started(home, "bad", "startup", []string{"C"}, 1); err != nil {
		t.Errorf("startup over a damaged state: %v", err)
	}
	os.WriteFile(sessionPath(home, "bad"), []byte("{"), 0o600)
	if err := Started(home, "bad", "resume", []string{"C"}, 1); err == nil {
		t.Error("resume over a damaged state: no error")
	}
	if got, err := Load(home, "bad"); err != nil || len(got.IDs) != 1 {
		t.Errorf("state after a damaged one: %+v %v", got, err)
	}
}

func TestOldSessionsArePruned(t *testing.T) {
	home := t.TempDir()
	Save(home, "old", State{IDs: []string{"X"}})
	old := time.Now().Add(-TTL - time.Hour)
	os.Chtimes(sessionPath(home, "old"), old, old)
	// Pruning runs at most once an hour (the first save ran it).
	mark := filepath.Join(filepath.Dir(sessionPath(home, "old")), ".pruned")
	os.Chtimes(mark, old, old)
	Save(home, "new", State{})
	if _, err := os.Stat(sessionPath(home, "old")); err == nil {
		t.Error("a session file older than TTL was kept")
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

// A session id becomes a file name: on Windows a device name (CON, nul,
// Com1, with the .json after it too) opens the device, and two ids that
// differ only in case name one file, so one session's state would be
// another's. Such ids are hashed like any other unusual id.
func TestSessionFileNamesPortable(t *testing.T) {
	home := t.TempDir()
	seen := map[string]string{}
	for _, id := range []string{"CON", "nul", "Com1", "lpt9", "aux", "prn", "abc", "ABC", "Abc", "0f3c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a098"} {
		name := filepath.Base(sessionPath(home, id))
		if strings.ContainsRune(strings.TrimSuffix(name, ".json"), '.') {
			t.Errorf("%q -> %s", id, name)
		}
		base, _, _ := strings.Cut(name, ".")
		switch strings.ToLower(base) {
		case "con", "nul", "com1", "lpt9", "aux", "prn":
			t.Errorf("session %q is kept in %s, a device on Windows", id, name)
		}
		if other, dup := seen[strings.ToLower(name)]; dup {
			t.Errorf("sessions %q and %q share %s where file names ignore case", other, id, name)
		}
		seen[strings.ToLower(name)] = id
	}
	if name := filepath.Base(sessionPath(home, "0f3c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a098")); name != "0f3c2b1a-9d8e-4c7b-a6f5-e4d3c2b1a098.json" {
		t.Errorf("a Claude Code session id is no longer its file's name: %s", name)
	}
}

// LastTrace gives the newest entries, oldest first, across the rotation,
// as ReadTrace's tail.
func TestLastTraceIsReadTracesTail(t *testing.T) {
	home := t.TempDir()
	for i := 0; i < 2*MaxTrace/1000; i++ {
		e := Entry{Time: time.Now().UTC(), Hook: "recall", Session: strconv.Itoa(i), IDs: []string{strings.Repeat("I", 1000)}}
		if err := Trace(home, e); err != nil {
			t.Fatal(err)
		}
	}
	all, err := ReadTrace(home)
	if err != nil {
		t.Fatal(err)
	}
	// The current generation alone, and one reaching into the rotated one.
	n := 0
	if data, err := os.ReadFile(TracePath(home)); err == nil {
		n = strings.Count(string(data), "\n")
	}
	for _, k := range []int{1, 5, n, n + 3, len(all) + 10} {
		got := LastTrace(home, k)
		want := all[max(0, len(all)-k):]
		if len(got) != len(want) {
			t.Fatalf("LastTrace(%d): %d entries, want %d", k, len(got), len(want))
		}
		for i := range got {
			if got[i].Session != want[i].Session {
				t.Fatalf("LastTrace(%d)[%d] = session %s, want %s", k, i, got[i].Session, want[i].Session)
			}
		}
	}
	if got := LastTrace(t.TempDir(), 5); len(got) != 0 {
		t.Fatalf("no trace: %d entries", len(got))
	}
}
