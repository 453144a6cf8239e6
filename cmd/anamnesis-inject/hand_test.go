package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// handNote is a note file as a person (or git pull, or another tool)
// writes it: no store of ours involved.
func handNote(id, project, title, body, supersedes string) string {
	s := "---\nid: " + id + "\ntype: semantic\ntitle: " + title + "\nproject: " + project +
		"\nmachine_id: laptop\nscope: portable\nprov_source: human\nconfidence: 1.0\n" +
		"created_at: '2026-03-01T00:00:00+00:00'\nupdated_at: '2026-03-01T00:00:00+00:00'\ntags: []\n"
	if supersedes != "" {
		s += "supersedes: " + supersedes + "\n"
	}
	return s + "---\n" + body + "\n"
}

// The block is valid against any writer, end to end with the real
// binaries (anamnesis-inject, and the anamnesis it runs on a miss): after
// a cached block, a note file created by hand in the project shows in the
// next block, and so does an edit of it that keeps its size and its
// modification time (cp -p, touch -r); a note superseded by hand and one
// deleted by hand are gone from it; each new block is then served from the
// cache. And a hand-made note followed by a write of ours in another
// project (a global note; one of this project) still reaches the block.
func TestHandEditsReachTheBlock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("cp -p and touch -r")
	}
	home, st := cacheHome(t)
	inject := filepath.Join(t.TempDir(), "anamnesis-inject")
	if out, err := exec.Command("go", "build", "-o", inject, ".").CombinedOutput(); err != nil {
		t.Fatalf("build anamnesis-inject: %v\n%s", err, out)
	}
	run := func(path string) string {
		t.Helper()
		cmd := exec.Command(inject, "--home", home, "--project", "alpha")
		cmd.Env = append(os.Environ(), "PATH="+path, "ANAMNESIS_INJECT_MAX_CHARS=")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("anamnesis-inject: %v", err)
		}
		return string(out)
	}
	// next is the block the next session gets, and checks that the one
	// after it is a hit: printed with no anamnesis to compute it.
	next := func() string {
		t.Helper()
		b := run(os.Getenv("PATH"))
		if hit := run(t.TempDir()); hit != b {
			t.Fatalf("the block after it is not served from the cache:\n%s\n---\n%s", b, hit)
		}
		return b
	}
	sem := filepath.Join(home, "memory", "semantic")
	write := func(id, project, title, body, supersedes string) string {
		t.Helper()
		p := filepath.Join(sem, id+".md")
		if err := os.WriteFile(p, []byte(handNote(id, project, title, body, supersedes)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if b := next(); !strings.Contains(b, "Alpha uses Postgres.") || strings.Contains(b, "Hand fact") {
		t.Fatalf("first block:\n%s", b)
	}

	hand := write("HAND1", "alpha", "Hand fact", "The dev port is 8803.", "")
	if b := next(); !strings.Contains(b, "The dev port is 8803.") {
		t.Fatalf("a note written by hand is not in the next block:\n%s", b)
	}

	// cp -p of a file with the same size, then touch -r: size and mtime
	// are what they were; only the change time says the file changed.
	before, _ := os.Stat(hand)
	edited := filepath.Join(t.TempDir(), "edited.md")
	os.WriteFile(edited, []byte(handNote("HAND1", "alpha", "Hand fact", "The dev port is 8804.", "")), 0o644)
	ref := filepath.Join(t.TempDir(), "ref")
	os.WriteFile(ref, nil, 0o644)
	os.Chtimes(ref, before.ModTime(), before.ModTime())
	for _, c := range [][]string{{"touch", "-r", ref, edited}, {"cp", "-p", edited, hand}, {"touch", "-r", ref, hand}} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", c, err, out)
		}
	}
	if after, _ := os.Stat(hand); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("the edit changed the size or the modification time; it tests nothing")
	}
	if b := next(); !strings.Contains(b, "The dev port is 8804.") || strings.Contains(b, "8803") {
		t.Fatalf("an edit that kept size and mtime is not in the next block:\n%s", b)
	}

	alpha, _ := st.List(t.Context(), store.Filter{Project: "alpha"})
	var alphaID string
	for _, n := range alpha {
		if n.Title == "Alpha fact" {
			alphaID = n.ID
		}
	}
	write("HAND2", "alpha", "Alpha moved", "Alpha uses SQLite now.", alphaID)
	if b := next(); !strings.Contains(b, "Alpha uses SQLite now.") || strings.Contains(b, "Alpha uses Postgres.") {
		t.Fatalf("after a supersession by hand the block shows:\n%s", b)
	}

	os.Remove(hand)
	if b := next(); strings.Contains(b, "Hand fact") {
		t.Fatalf("a note deleted by hand is still in the block:\n%s", b)
	}

	// The retention edge: a hand-made note, then a write of ours in
	// another project (which records the directories' state it leaves).
	for _, c := range []struct{ id, project, body string }{{"HAND3", note.Global, "Hand global rule."}, {"HAND4", "alpha", "Hand alpha detail."}} {
		write(c.id, c.project, "Hand "+c.id, c.body, "")
		time.Sleep(10 * time.Millisecond)
		putNote(t, st, "Beta "+c.id, "beta", note.Semantic, "Beta again.", "2026-03-02T00:00:00+00:00", nil)
		if b := next(); !strings.Contains(b, c.body) {
			t.Fatalf("a hand-made %s note followed by a write in beta is not in alpha's block:\n%s", c.project, b)
		}
	}
}
