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
	if err := Bump(home, "p"); err != nil {
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
	Bump(home, "p", Global)
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
