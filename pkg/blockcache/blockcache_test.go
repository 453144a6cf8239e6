package blockcache

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestGlobalIsTheNoteGlobal(t *testing.T) {
	if Global != note.Global {
		t.Fatalf("Global = %q, note.Global = %q", Global, note.Global)
	}
}

// A block is saved only against stamps that exist, so deleting the stamps
// can never make an old block current again.
func TestRemovedStampsNeverRevalidate(t *testing.T) {
	home := t.TempDir()
	k := Key{Project: "p", K: 8, Budget: 100}
	Synced(home, Dirs(home))
	e := Open(home, k)
	if err := e.Save(Block{Text: "old block\n", IDs: []string{"A", "B"}, Mark: 42}); err != nil {
		t.Fatal(err)
	}
	if b, ok := Open(home, k).Cached(); !ok || b.Text != "old block\n" || b.Mark != 42 || len(b.IDs) != 2 || b.IDs[1] != "B" {
		t.Fatalf("fresh save not found: %+v %v", b, ok)
	}
	if keys := Keys(home); len(keys) != 1 || keys[0] != k {
		t.Fatalf("Keys = %v", keys)
	}
	if err := Bump(home, Dirs(home), Dirs(home), "p"); err != nil {
		t.Fatal(err)
	}
	if _, ok := Open(home, k).Cached(); ok {
		t.Fatal("block survived a bump of its project")
	}
	os.RemoveAll(filepath.Join(dir(home), "stamps"))
	if _, ok := Open(home, k).Cached(); ok {
		t.Fatal("block valid again after its stamps were removed")
	}
	if err := Open(home, Key{Project: "q", K: 8, Budget: 100}).Save(Block{Text: "q\n"}); err != nil {
		t.Fatal(err)
	}
	Bump(home, Dirs(home), Dirs(home), "p", Global)
	if _, ok := Open(home, Key{Project: "q", K: 8, Budget: 100}).Cached(); ok {
		t.Fatal("a global bump left another project's block valid")
	}
}

// An id that would break the one-line record is refused, not saved.
func TestSaveRefusesBadIDs(t *testing.T) {
	home := t.TempDir()
	k := Key{Project: "p", K: 8, Budget: 100}
	if err := Open(home, k).Save(Block{Text: "x", IDs: []string{"a b"}}); err == nil {
		t.Fatal("an id with a space was saved")
	}
	if _, ok := Open(home, k).Cached(); ok {
		t.Fatal("a refused save left a block")
	}
}

// A block is valid against any writer, not only ours (no stamp bumped): a
// note file created in a note directory (the reference's writer, git pull),
// one deleted, and an in-place edit of a shown note that keeps its size and
// has its modification time set back (cp -p, touch -r) are each a miss.
func TestOtherWritersInvalidate(t *testing.T) {
	home := t.TempDir()
	dirp := filepath.Join(home, "memory", "semantic")
	os.MkdirAll(dirp, 0o755)
	shown := filepath.Join(dirp, "A.md")
	other := filepath.Join(home, "memory", "procedural")
	os.MkdirAll(other, 0o755)
	os.WriteFile(shown, []byte("port 8803\n"), 0o644)
	k := Key{Project: "p", K: 8, Budget: 100}
	save := func() {
		t.Helper()
		Synced(home, Dirs(home)) // as the render's refresh does
		e := Open(home, k)
		e.Track(shown)
		if err := e.Save(Block{Text: "block\n", IDs: []string{"A"}}); err != nil {
			t.Fatal(err)
		}
		if _, ok := Open(home, k).Cached(); !ok {
			t.Fatal("an unchanged block missed")
		}
	}
	save()
	// A new note, written in place as the reference writes (no rename).
	os.WriteFile(filepath.Join(other, "B.md"), []byte("new\n"), 0o644)
	if _, ok := Open(home, k).Cached(); ok {
		t.Error("a note another writer added left the block valid")
	}
	save()
	os.Remove(filepath.Join(other, "B.md"))
	if _, ok := Open(home, k).Cached(); ok {
		t.Error("a note another writer deleted left the block valid")
	}
	save()
	fi, _ := os.Stat(shown)
	time.Sleep(20 * time.Millisecond)
	f, _ := os.OpenFile(shown, os.O_WRONLY|os.O_TRUNC, 0)
	f.WriteString("port 8804\n")
	f.Close()
	os.Chtimes(shown, fi.ModTime(), fi.ModTime()) // as cp -p or touch -r do
	if now, _ := os.Stat(shown); now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
		t.Fatal("the edit did not keep size and mtime")
	}
	if _, ok := Open(home, k).Cached(); ok && runtime.GOOS != "windows" {
		t.Error("a same-size edit with its mtime set back left the block valid")
	}
}

// The retention rule: a write of ours in another project leaves a block
// valid, unless another writer changed a note directory before it (in the
// same directory or another): then the block misses, and Drifted names
// the directory the other writer changed, not the one only we wrote in.
func TestOurWriteNeverCoversAnotherWriters(t *testing.T) {
	home := t.TempDir()
	sem := filepath.Join(home, "memory", "semantic")
	proc := filepath.Join(home, "memory", "procedural")
	os.MkdirAll(sem, 0o755)
	os.MkdirAll(proc, 0o755)
	k := Key{Project: "p", K: 8, Budget: 100}
	save := func() {
		t.Helper()
		Synced(home, Dirs(home))
		if err := Open(home, k).Save(Block{Text: "block\n"}); err != nil {
			t.Fatal(err)
		}
	}
	ours := func(dir, name, project string) {
		t.Helper()
		before := Dirs(home)
		time.Sleep(10 * time.Millisecond) // a distinct change time
		os.WriteFile(filepath.Join(dir, name), []byte("x\n"), 0o644)
		after := Dirs(home)
		if err := Bump(home, before, after, project); err != nil {
			t.Fatal(err)
		}
	}
	save()
	ours(sem, "Q1.md", "q")
	if _, ok := Open(home, k).Cached(); !ok {
		t.Fatal("a write of ours in another project invalidated the block")
	}
	if d := Drifted(home, k); d.Any() {
		t.Fatalf("after our write only, drift %+v", d)
	}
	for _, c := range []struct{ name, hand, ours string }{{"same directory", sem, sem}, {"other directory", proc, sem}} {
		save()
		time.Sleep(10 * time.Millisecond)
		os.WriteFile(filepath.Join(c.hand, "hand-"+c.name+".md"), []byte("by hand\n"), 0o644)
		ours(c.ours, "Q-"+c.name+".md", "q")
		if _, ok := Open(home, k).Cached(); ok {
			t.Errorf("%s: a hand-made note followed by a write of ours in another project left the block valid", c.name)
		}
		d := Drifted(home, k)
		if len(d.Dirs) != 1 || d.Dirs[0] != c.hand {
			t.Errorf("%s: drifted %v, want [%s]", c.name, d.Dirs, c.hand)
		}
	}
	// Another writer's note landing while our write waits for the index
	// (after our file is written, before the commit and the bump) is not
	// covered by the bump either.
	save()
	before := Dirs(home)
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(filepath.Join(sem, "Q-waiting.md"), []byte("x\n"), 0o644)
	after := Dirs(home)
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(filepath.Join(sem, "hand-while-we-wait.md"), []byte("by hand\n"), 0o644)
	if err := Bump(home, before, after, "q"); err != nil {
		t.Fatal(err)
	}
	if d := Drifted(home, k); len(d.Dirs) != 1 || d.Dirs[0] != sem {
		t.Errorf("a note written while our write waited: drifted %v, want [%s]", d.Dirs, sem)
	}
}
