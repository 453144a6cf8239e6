package lifecycle

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
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
	for _, e := range []journalEntry{{Cmd: "consolidate"}, {Change: store.Change{Abs: path, Old: old}}, {Change: store.Change{Abs: created, New: true}}} {
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

// Every file an apply changes is journaled before it changes, the copy
// store.Put removes from another type directory included: rolled back in
// process after an error, and from the journal alone (what kill -9 leaves)
// by the next command's Recover.
func TestJournalHasEveryFileAPutChanges(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	n, err := s.Write(ctx, note.New(note.Semantic, "Build steps", "Run make, then make test."))
	if err != nil {
		t.Fatal(err)
	}
	semPath, _ := s.Path(ctx, n.ID)
	semBytes, _ := os.ReadFile(semPath)
	// A second copy of the id, not the indexed one (a hand copy, a pull):
	// the Put removes it too.
	epiPath := layout.Home(s.Home()).Note(n.Scope, note.Episodic, n.ID)
	os.MkdirAll(filepath.Dir(epiPath), 0o700)
	if err := os.WriteFile(epiPath, semBytes, 0o600); err != nil {
		t.Fatal(err)
	}
	moved := *n
	moved.Type = note.Procedural
	procPath := layout.Home(s.Home()).Note(moved.Scope, note.Procedural, n.ID)
	var journal []byte
	_, err = run(ctx, s, "test", "", func(tx *store.Tx) error {
		m := moved
		if err := tx.Put(ctx, &m); err != nil {
			return err
		}
		for _, p := range []string{semPath, epiPath} {
			if _, err := os.Stat(p); !os.IsNotExist(err) {
				t.Fatalf("the Put did not remove the copy %s: %v", p, err)
			}
		}
		journal, _ = os.ReadFile(journalPath(s.Home()))
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Fatalf("run: %v", err)
	}
	es, _ := readJournalBytes(journal)
	var sawSem, sawEpi, sawProc bool
	for _, e := range es {
		sawSem = sawSem || e.Abs == semPath && string(e.Old) == string(semBytes) && !e.New
		sawEpi = sawEpi || e.Abs == epiPath && string(e.Old) == string(semBytes) && !e.New
		sawProc = sawProc || e.Abs == procPath && e.New
	}
	if !sawSem || !sawEpi || !sawProc {
		t.Fatalf("the journal lacks a file the Put changed (indexed copy %v, other copy %v, new file %v):\n%s", sawSem, sawEpi, sawProc, journal)
	}
	check := func(when string) {
		t.Helper()
		for _, p := range []string{semPath, epiPath} {
			if got, err := os.ReadFile(p); err != nil || string(got) != string(semBytes) {
				t.Errorf("%s: the removed copy %s is not back: %v", when, p, err)
			}
		}
		if _, err := os.Stat(procPath); !os.IsNotExist(err) {
			t.Errorf("%s: the new file is still there: %v", when, err)
		}
		if got, err := s.Get(ctx, n.ID); err != nil || got.Type != note.Semantic {
			t.Errorf("%s: the index has %+v %v", when, got, err)
		}
	}
	check("after the rollback")
	// As a killed apply leaves it: the Put done, the journal without its
	// done line.
	m := moved
	if err := s.Put(ctx, &m); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(epiPath); !os.IsNotExist(err) {
		t.Fatal("the Put left the second copy")
	}
	os.WriteFile(journalPath(s.Home()), journal, 0o600)
	if lines, err := Recover(ctx, s, "box"); err != nil || len(lines) != 1 {
		t.Fatalf("Recover: %v %v", lines, err)
	}
	check("after Recover")
}

func readJournalBytes(data []byte) ([]journalEntry, error) {
	var out []journalEntry
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var e journalEntry
		if err := json.Unmarshal(l, &e); err != nil {
			return out, err
		}
		out = append(out, e)
	}
	return out, nil
}

// A journal a killed apply left is rolled back only where the files still
// hold what the apply wrote: a note changed after the kill (a resumed
// session's capture, an edit, a pull) keeps that change; rolling it back
// would lose it.
func TestRecoverKeepsALaterChange(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	n, err := s.Write(ctx, note.New(note.Episodic, "Deploy session", "**Ask:** deploy\n\n**Outcome:** done"))
	if err != nil {
		t.Fatal(err)
	}
	path, _ := s.Path(ctx, n.ID)
	before, _ := os.ReadFile(path)
	tagged := *n
	tagged.Tags = append(tagged.Tags, TagReflected)
	var journal []byte
	_, err = run(ctx, s, "reflect", "", func(tx *store.Tx) error {
		m := tagged
		if err := tx.Put(ctx, &m); err != nil {
			return err
		}
		journal, _ = os.ReadFile(journalPath(s.Home()))
		return errors.New("boom")
	})
	if err == nil || err.Error() != "boom" {
		t.Fatalf("run: %v", err)
	}
	// As a killed apply leaves it: the Put done, the journal without its
	// done line. Then the session is resumed and captured again.
	m := tagged
	if err := s.Put(ctx, &m); err != nil {
		t.Fatal(err)
	}
	later := m
	later.Body += "\n\n**Ask:** roll back the canary\n\n**Outcome:** rolled back"
	later.UpdatedAt = note.Now()
	if err := s.Put(ctx, &later); err != nil {
		t.Fatal(err)
	}
	laterBytes, _ := os.ReadFile(path)
	os.WriteFile(journalPath(s.Home()), journal, 0o600)
	if _, err := Recover(ctx, s, "box"); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(laterBytes) {
		t.Fatalf("Recover rolled back a change made after the kill:\nbefore the apply:\n%s\nnow:\n%s", before, got)
	}
	if _, err := os.Stat(journalPath(s.Home())); !os.IsNotExist(err) {
		t.Errorf("journal not removed: %v", err)
	}
}
