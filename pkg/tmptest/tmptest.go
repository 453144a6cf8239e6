// Package tmptest runs a package's tests in a temporary directory of their
// own and fails them when they leave anything in it: files a test run
// leaves in the shared temp dir pile up run after run (a 13.5 MB build of
// anamnesis per `make test` did, because testscript.Main exits before a
// TestMain's deferred cleanup runs).
package tmptest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// M is what testing.M and testscript.Main share.
type M interface{ Run() int }

// Dir is the package's private temp dir: Run sets it as the process's
// temp dir (TMPDIR; TMP and TEMP on Windows) for the tests and every
// process they start. What TestMain needs (a binary it builds) goes under
// Path and is removed by Cleanup.
type Dir struct {
	root string
	m    M
	// Cleanup runs after the tests and before the check (e.g. removing
	// binaries TestMain built).
	Cleanup func()
}

// New makes the private temp dir. The process is pointed at it only when
// the tests run: testscript.Main keeps its own directory in the shared
// temp dir and removes it after Run returns.
func New(m M, prefix string) (*Dir, error) {
	root, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root, m: m}, nil
}

// Path is the private temp dir.
func (d *Dir) Path() string { return d.root }

func tempVars() []string {
	if runtime.GOOS == "windows" {
		return []string{"TMP", "TEMP", "TMPDIR"}
	}
	return []string{"TMPDIR"}
}

// Run runs the tests, then Cleanup; it fails the run (exit 1) when
// anything is left in the temp dir, naming it, and removes the dir either
// way.
func (d *Dir) Run() int {
	for _, k := range tempVars() {
		os.Setenv(k, d.root)
	}
	code := d.m.Run()
	if d.Cleanup != nil {
		d.Cleanup()
	}
	if left, _ := os.ReadDir(d.root); len(left) > 0 {
		for _, e := range left {
			fmt.Fprintf(os.Stderr, "tmptest: the tests left %s in the temp dir\n", e.Name())
		}
		if code == 0 {
			code = 1
		}
	}
	if err := os.RemoveAll(d.root); err != nil {
		fmt.Fprintf(os.Stderr, "tmptest: %v\n", err)
	}
	return code
}

// Wrap is m run in a private temp dir (New, then Run) when this process is
// the test binary itself, and m unchanged when testscript runs the binary as
// one of its commands (which must make no directory of its own).
func Wrap(m M, prefix string) M {
	if !IsTestBinary() {
		return m
	}
	d, err := New(m, prefix)
	if err != nil {
		fmt.Fprintf(os.Stderr, "tmptest: %v (running in the shared temp dir)\n", err)
		return m
	}
	return d
}

// IsTestBinary says whether this process is the test binary `go test`
// started (and not one of testscript's commands, run under another name).
func IsTestBinary() bool {
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	return strings.HasSuffix(name, ".test")
}
