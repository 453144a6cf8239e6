package store

import (
	"hash/maphash"
	"os"
	"path/filepath"
	"testing"
)

// A rebuild's id set keeps hashes: two ids with one hash are told apart by
// reading the earlier file again, and a real duplicate names its first file.
func TestIDSetCollisionAndDuplicate(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "memory", "semantic")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, id string) string {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("---\nid: "+id+"\ntype: semantic\ntitle: t\n---\nbody\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return "memory/semantic/" + name
	}
	a := write("a.md", "01AAAAAAAAAAAAAAAAAAAAAAAA")
	s := newIDSet(home)
	if _, dup := s.add("01AAAAAAAAAAAAAAAAAAAAAAAA", a); dup {
		t.Fatal("the first id is a duplicate")
	}
	// B's hash taken by A's file: a collision, not a duplicate.
	const b = "01BBBBBBBBBBBBBBBBBBBBBBBB"
	s.first[maphash.String(s.seed, b)] = a
	if other, dup := s.add(b, "memory/semantic/b.md"); dup {
		t.Fatalf("a collision reported as a duplicate of %s", other)
	}
	if other, dup := s.add(b, "memory/semantic/b2.md"); !dup || other != "memory/semantic/b.md" {
		t.Errorf("second file with B: dup %v, other %q", dup, other)
	}
	if other, dup := s.add("01AAAAAAAAAAAAAAAAAAAAAAAA", "memory/semantic/a2.md"); !dup || other != a {
		t.Errorf("second file with A: dup %v, other %q", dup, other)
	}
}
