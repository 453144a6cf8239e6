package blockcache

import (
	"os"
	"path/filepath"
	"testing"

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
