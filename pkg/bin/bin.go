// Package bin finds the toolkit's binaries: next to the running one (the way
// install.sh lays them out), else on PATH. The dispatcher, the hooks that
// start other binaries, and init (which writes their paths into Claude
// Code's settings) all find them this way.
package bin

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// Name is name as an executable's file name on this system (".exe" on Windows).
func Name(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// Path is the binary name in dir.
func Path(dir, name string) string { return filepath.Join(dir, Name(name)) }

// IsExecutable reports whether path is a file this system would run.
func IsExecutable(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || fi.Mode().Perm()&0o111 != 0
}

// Self is the running binary and its directory. When it was reached through
// a symlink (a package manager's bin/ of links), the link's directory is
// kept if the other binaries are there too, so paths written into hook
// commands survive upgrades that move the real files; else the real file's
// directory is used, where its siblings are.
func Self() (exe, dir string, err error) {
	exe, err = os.Executable()
	if err != nil {
		return "", "", err
	}
	if IsExecutable(Path(filepath.Dir(exe), "anamnesis-inject")) {
		return exe, filepath.Dir(exe), nil
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, filepath.Dir(exe), nil
}

// Find returns the binary name next to the running one, else on PATH; ""
// when there is none.
func Find(name string) string {
	if _, dir, err := Self(); err == nil {
		if p := Path(dir, name); IsExecutable(p) {
			return p
		}
	}
	if p, err := exec.LookPath(Name(name)); err == nil {
		return p
	}
	return ""
}
