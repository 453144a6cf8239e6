package setup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// resolveTarget follows symlinks so that writing a dotfiles-managed
// settings.json replaces the file it points to, not the link. A link whose
// target does not exist yet resolves to that target, so the write creates
// it (or fails when its directory is missing) and the link stays.
func resolveTarget(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	for range 40 { // the kernel's own limit on a chain of links
		dest, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path
}

// canCreateIn reports whether a new file can be made in dir, or, when dir
// does not exist yet, in the nearest directory above it that does (where
// MkdirAll starts). The probe file is removed at once.
func canCreateIn(dir string) error {
	for {
		fi, err := os.Stat(dir)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", dir)
			}
			break
		}
		parent := filepath.Dir(dir)
		if !errors.Is(err, fs.ErrNotExist) || parent == dir {
			return err
		}
		dir = parent
	}
	f, err := os.CreateTemp(dir, ".anamnesis-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// readOptional reads a file that may not exist (nil, false, nil).
func readOptional(path string) ([]byte, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return b, true, nil
}

func fileMode(path string, def fs.FileMode) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm()
	}
	return def
}
