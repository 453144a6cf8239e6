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
	if err := e.Save("old block\n"); err != nil {
		t.Fatal(err)
	}
	if b, ok := Open(home, k).Cached(); !ok || b != "old block\n" {
		t.Fatalf("fresh save not found: %q %v", b, ok)
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
	if err := Open(home, Key{Project: "q", K: 8, Budget: 100}).Save("q\n"); err != nil {
		t.Fatal(err)
	}
	Bump(home, "p", Global)
	if _, ok := Open(home, Key{Project: "q", K: 8, Budget: 100}).Cached(); ok {
		t.Fatal("a global bump left another project's block valid")
	}
}
