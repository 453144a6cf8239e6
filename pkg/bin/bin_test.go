package bin

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	name := "anamnesis-test-helper"
	if runtime.GOOS == "windows" {
		t.Skip("checks the executable bit")
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	if got := Find(name); got != filepath.Join(dir, name) {
		t.Errorf("Find = %q", got)
	}
	if got := Find("anamnesis-no-such-binary"); got != "" {
		t.Errorf("Find(missing) = %q", got)
	}
}
