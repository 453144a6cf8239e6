//go:build !unix

package store

import (
	"fmt"
	"io"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// readRegular reads a note file without following a symlink and without
// reading past the size limit (note.Parse rejects what is over it).
func readRegular(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, errNotRegular)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, note.MaxFile+1))
}
