package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "config.json")
	for _, content := range []string{"first\n", "second, longer\n"} {
		if err := Write(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	if fi, _ := os.Stat(path); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %o", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteFailureLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "note.md")
	if err := Write(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A directory in the way of the rename: the write fails, the old file
	// is not touched and no temporary file is left.
	target := filepath.Join(dir, "taken")
	os.Mkdir(target, 0o755)
	os.WriteFile(filepath.Join(target, "x"), []byte("x"), 0o644)
	if err := Write(target, []byte("new\n"), 0o644); err == nil {
		t.Fatal("rename over a non-empty directory succeeded")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("left behind: %v", entries)
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("old file changed: %q", b)
	}
}

func TestWriteCacheReplaces(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteCache": WriteCache, "Rewrite": Rewrite} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "sub", "state.json")
			for _, v := range []string{"one", "two"} {
				if err := write(p, []byte(v), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := os.ReadFile(p)
			fi, _ := os.Stat(p)
			if err != nil || string(got) != "two" || !HasPerm(fi, 0o600) {
				t.Fatalf("%q %v %v", got, err, fi.Mode())
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(p), TempPrefix+"*")); len(left) != 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// A Rewrite that cannot write its new content leaves the old file: the
// old one goes only once the new one is written.
func TestRewriteFailureLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "state.json")
	if err := Rewrite(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(filepath.Join(p, "x"), []byte("new"), 0o600); err == nil {
		t.Fatal("a path under a file was written")
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "old" {
		t.Errorf("old file: %q %v", b, err)
	}
}
