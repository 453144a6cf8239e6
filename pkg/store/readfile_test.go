package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// readRegular reads a regular file whole, up to one byte past the note
// limit, and refuses what is not one without following or waiting on it.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.md")
	os.WriteFile(small, []byte("---\nid: x\n---\nbody\n"), 0o600)
	if got, err := readRegular(small); err != nil || string(got) != "---\nid: x\n---\nbody\n" {
		t.Errorf("small file: %q, %v", got, err)
	}
	big := filepath.Join(dir, "big.md")
	os.WriteFile(big, bytes.Repeat([]byte("a"), note.MaxFile+100), 0o600)
	if got, err := readRegular(big); err != nil || len(got) != note.MaxFile+1 {
		t.Errorf("file over the limit: %d bytes, %v; want %d", len(got), err, note.MaxFile+1)
	}
	empty := filepath.Join(dir, "empty.md")
	os.WriteFile(empty, nil, 0o600)
	if got, err := readRegular(empty); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q, %v", got, err)
	}
	if _, err := readRegular(filepath.Join(dir, "gone.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := readRegular(dir); !errors.Is(err, errNotRegular) {
		t.Errorf("directory: %v, want errNotRegular", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	link := filepath.Join(dir, "link.md")
	os.Symlink(small, link)
	if _, err := readRegular(link); !errors.Is(err, errNotRegular) {
		t.Errorf("symlink: %v, want errNotRegular", err)
	}
}
