package hook

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestStartDetachedRelativeHome(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a shell script")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	script := filepath.Join(dir, "fake-sync")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"cwd=$(pwd) home=$ANAMNESIS_HOME args=$*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("rel-home", 0o755); err != nil {
		t.Fatal(err)
	}
	pid, err := StartDetached("rel-home", nil, script, "--lock-wait", "1")
	if err != nil || pid <= 0 {
		t.Fatalf("pid %d, %v", pid, err)
	}
	abs, _ := filepath.Abs("rel-home")
	want := "home=" + abs + " args=--lock-wait 1"
	var data []byte
	for range 100 {
		data, _ = os.ReadFile(LogPath(abs))
		if strings.Contains(string(data), "args=") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(string(data), want) {
		t.Errorf("child said %q, want %q", data, want)
	}
}

// The input reaches the child's stdin whole, and the caller returns before
// the child reads it; more than MaxInput is refused.
func TestStartDetachedInput(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("uses a shell script")
	}
	home := t.TempDir()
	script := filepath.Join(t.TempDir(), "reader")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nsleep 2\necho \"got $(wc -c) bytes\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := StartDetached(home, make([]byte, MaxInput+1), script); err == nil {
		t.Fatal("more than MaxInput accepted")
	}
	input := []byte(strings.Repeat("x", MaxInput))
	done := make(chan error, 1)
	go func() {
		_, err := StartDetached(home, input, script)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(1500 * time.Millisecond):
		t.Fatal("StartDetached waited for the child to read")
	}
	var data []byte
	for range 200 {
		data, _ = os.ReadFile(LogPath(home))
		if strings.Contains(string(data), "bytes") {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(string(data), "got 4096 bytes") {
		t.Errorf("child said %q, want 4096 bytes", data)
	}
}
