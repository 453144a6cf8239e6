package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestPrivateHome: a home made by the first write (no init) is 0700 with
// notes and index 0600; a temporary file a killed writer left is removed by
// the next reindex once stale, a fresh one (a live writer's) is not.
func TestPrivateHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX modes")
	}
	home := filepath.Join(t.TempDir(), "fresh-home")
	cmd := func(args ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if err := run(context.Background(), append(args, "--home", home), strings.NewReader(""), &out, &errb); err != nil {
			t.Fatalf("%v: %v %s", args, err, errb.String())
		}
		return out.String()
	}
	id := strings.TrimSpace(cmd("write", "--type", "semantic", "--title", "t", "--body", "b"))
	for path, want := range map[string]os.FileMode{
		home: 0o700, filepath.Join(home, "memory"): 0o700, filepath.Join(home, "local"): 0o700,
		filepath.Join(home, "memory", "semantic", id+".md"): 0o600, filepath.Join(home, "index.db"): 0o600,
	} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := info.Mode().Perm(); got != want {
			t.Errorf("%s is %o, want %o", path, got, want)
		}
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if info, err := os.Stat(filepath.Join(home, "index.db"+suffix)); err == nil && info.Mode().Perm() != 0o600 {
			t.Errorf("index.db%s is %o", suffix, info.Mode().Perm())
		}
	}
	dir := filepath.Join(home, "memory", "semantic")
	stale, fresh := filepath.Join(dir, ".tmp-"+id+".md-111"), filepath.Join(dir, ".tmp-"+id+".md-222")
	os.WriteFile(stale, []byte("half a note"), 0o600)
	os.WriteFile(fresh, []byte("half a note"), 0o600)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	cmd("reindex")
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file left: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a live writer's temporary file was removed: %v", err)
	}

	// A home made open (by the reference under umask 022, or before homes
	// were private) is closed by the next write.
	if err := os.Chmod(home, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd("write", "--type", "semantic", "--title", "t2", "--body", "b2")
	if info, err := os.Stat(home); err != nil || info.Mode().Perm() != 0o700 {
		t.Errorf("an open home stays open after a write: %v %v", info.Mode(), err)
	}
}
