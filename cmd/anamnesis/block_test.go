package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A rebuild that cannot finish inside the hook is handed to a detached
// `anamnesis reindex`, at most once per ten minutes.
func TestRebuildInBackground(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "ran")
	script := "#!/bin/sh\necho \"$@ $ANAMNESIS_HOME\" >> " + marker + "\n"
	if err := os.WriteFile(filepath.Join(bin, "anamnesis"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	home := t.TempDir()
	var errb bytes.Buffer
	e := &env{stderr: &errb, getenv: os.Getenv}
	rebuildInBackground(home, e)
	rebuildInBackground(home, e) // throttled
	var data []byte
	for range 100 {
		if data, _ = os.ReadFile(marker); len(data) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	data, _ = os.ReadFile(marker)
	if string(data) != "reindex "+home+"\n" {
		t.Errorf("ran %q", data)
	}
	if !strings.Contains(errb.String(), "started `anamnesis reindex` (pid ") || strings.Count(errb.String(), "started") != 1 {
		t.Errorf("stderr %q", errb.String())
	}
}
