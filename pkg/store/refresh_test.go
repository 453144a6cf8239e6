package store

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func handFile(id, typ, title string) string {
	return "---\nid: " + id + "\ntype: " + typ + "\ntitle: " + title + "\nproject: p\nmachine_id: m\nscope: portable\n" +
		"prov_source: human\nconfidence: 1.0\ncreated_at: '2026-01-01T00:00:00+00:00'\nupdated_at: '2026-01-01T00:00:00+00:00'\n---\nbody\n"
}

// Refresh reads only what it is given: the directories (new files
// indexed, gone ones dropped) and the files, read again even when size and
// modification time are unchanged; another directory's change waits.
func TestRefreshReadsOnlyWhatItIsGiven(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	kept, err := s.Write(ctx, &note.Note{Type: note.Semantic, Title: "Kept", Body: "b", Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	gone, err := s.Write(ctx, &note.Note{Type: note.Semantic, Title: "Gone", Body: "b", Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	sem, proc := filepath.Join(home, "memory", "semantic"), filepath.Join(home, "memory", "procedural")
	os.MkdirAll(proc, 0o700)
	os.WriteFile(filepath.Join(sem, "HANDSEM.md"), []byte(handFile("HANDSEM", "semantic", "Hand semantic")), 0o600)
	os.WriteFile(filepath.Join(proc, "HANDPROC.md"), []byte(handFile("HANDPROC", "procedural", "Hand procedural")), 0o600)
	goneP, _ := s.Path(ctx, gone.ID)
	os.Remove(goneP)
	// An edit that keeps size and modification time.
	keptP, _ := s.Path(ctx, kept.ID)
	fi, _ := os.Stat(keptP)
	data, _ := os.ReadFile(keptP)
	n, _ := s.Get(ctx, kept.ID)
	n.Title = "Kelp"
	out, _ := encode(n)
	if len(out) != len(data) {
		t.Fatalf("the edit changes the size (%d, %d)", len(out), len(data))
	}
	os.WriteFile(keptP, out, 0o600)
	os.Chtimes(keptP, fi.ModTime(), fi.ModTime())

	r, err := s.Refresh(ctx, []string{sem}, []string{keptP})
	if err != nil {
		t.Fatal(err)
	}
	if r.Indexed != 2 || r.Removed != 1 {
		t.Errorf("Refresh: %+v, want 2 indexed (the new file, the edited one) and 1 removed", r)
	}
	titles := map[string]bool{}
	all, _ := s.List(ctx, Filter{})
	for _, n := range all {
		titles[n.Title] = true
	}
	if !titles["Hand semantic"] || !titles["Kelp"] || titles["Gone"] || titles["Hand procedural"] {
		t.Errorf("after Refresh of memory/semantic the index has %v", titles)
	}
	if _, err := s.Refresh(ctx, []string{t.TempDir()}, nil); err == nil {
		t.Error("Refresh of a directory outside the store was accepted")
	}
}

// A file this Store wrote and indexed is not read again when Refresh is
// given it (capture renders its block right after writing its note, and
// the block tracks that note): another Store, which did not write it, reads
// it, and so does this one once anyone else has touched it.
func TestRefreshSkipsItsOwnWrites(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	n, err := s.Write(ctx, &note.Note{Type: note.Semantic, Title: "Mine", Body: "b", Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path(ctx, n.ID)
	r, err := s.Refresh(ctx, nil, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	if runtime.GOOS == "windows" {
		want = 1 // no change time: an edit that kept size and mtime would look the same
	}
	if r.Indexed != want {
		t.Errorf("Refresh of the writer's own file read %d files, want %d", r.Indexed, want)
	}
	if r, err := open(t, home).Refresh(ctx, nil, []string{p}); err != nil || r.Indexed != 1 {
		t.Errorf("another Store's Refresh: %+v, %v; want the file read", r, err)
	}
	// Touched by someone else since (the mtime set back): read again.
	fi, _ := os.Stat(p)
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Refresh(ctx, nil, []string{p}); err != nil || r.Indexed != 1 {
		t.Errorf("Refresh after another writer touched the file: %+v, %v; want it read", r, err)
	}
}

// listTree lists a tree's note files in name order (files and
// subdirectories as they come), with their home-relative paths; it skips
// .git, lists a symlink as a link without following it, and leaves other
// files out.
func TestListTree(t *testing.T) {
	home := t.TempDir()
	base := filepath.Join(home, "memory")
	for _, d := range []string{"episodic", "semantic/a", "semantic/b/c", ".git"} {
		os.MkdirAll(filepath.Join(base, d), 0o700)
	}
	for _, f := range []string{"episodic/E1.md", "episodic/E2.md", "episodic/notes.txt", "semantic/A0.md", "semantic/a/S1.md",
		"semantic/b/c/S2.md", "semantic/b2.md", ".git/G.md", "top.md"} {
		os.WriteFile(filepath.Join(base, f), []byte("x"), 0o600)
	}
	if runtime.GOOS != "windows" {
		os.Symlink(filepath.Join(base, "top.md"), filepath.Join(base, "semantic", "L.md"))
	}
	got, err := listTree(nil, base, base, "memory", note.Portable, "")
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, f := range got {
		rels = append(rels, f.rel)
		if f.abs != filepath.Join(home, filepath.FromSlash(f.rel)) || f.scope != note.Portable || f.size != 1 && !f.link {
			t.Errorf("%s: %+v", f.rel, f)
		}
		if f.link != strings.HasSuffix(f.rel, "/L.md") {
			t.Errorf("%s: link %v", f.rel, f.link)
		}
	}
	want := []string{"memory/episodic/E1.md", "memory/episodic/E2.md", "memory/semantic/A0.md"}
	if runtime.GOOS != "windows" {
		want = append(want, "memory/semantic/L.md")
	}
	want = append(want, "memory/semantic/a/S1.md", "memory/semantic/b/c/S2.md", "memory/semantic/b2.md", "memory/top.md")
	if !slices.Equal(rels, want) {
		t.Errorf("listed\n%q\nwant\n%q", rels, want)
	}
	sub, _ := listTree(nil, filepath.Join(base, "semantic", "b"), base, "memory", note.Portable, "")
	if len(sub) != 1 || sub[0].rel != "memory/semantic/b/c/S2.md" {
		t.Errorf("listTree of a subdirectory: %+v", sub)
	}
	if none, err := listTree(nil, filepath.Join(base, "gone"), base, "memory", note.Portable, ""); err != nil || len(none) != 0 {
		t.Errorf("listTree of a missing directory: %+v, %v", none, err)
	}
}
