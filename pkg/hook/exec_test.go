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
	pid, err := StartDetached("rel-home", script, "--lock-wait", "1")
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
