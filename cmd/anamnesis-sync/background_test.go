package main

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// --background (the SessionStart hook's form) returns at once, even when
// the remote accepts connections and never answers; the detached sync runs
// to its own deadline and leaves its result in the log and last-sync.json.
func TestBackgroundReturnsAtOnce(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("builds and runs a unix binary")
	}
	home, _ := setup(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// Accepted connections are kept open (and never answered) until the end.
	conns := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for {
			select {
			case c := <-conns:
				c.Close()
			default:
				return
			}
		}
	})
	t.Setenv("ANAMNESIS_GIT_REMOTE", "http://"+ln.Addr().String()+"/notes.git")

	bin := filepath.Join(t.TempDir(), "anamnesis-sync")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--background", "--timeout", "2", "--home", home)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	if err != nil || !strings.HasPrefix(string(out), "sync: started in the background (pid ") {
		t.Fatalf("%v: %s", err, out)
	}
	if took > time.Second {
		t.Errorf("--background took %s to return", took)
	}
	// The detached sync gives up at its 2 s deadline and records why, in
	// last-sync.json and then as a stamped line of its own in the log.
	deadline := time.Now().Add(30 * time.Second)
	for {
		if l := gitsync.Last(home); l != nil {
			if !strings.Contains(l.Result.Detail, "timed out after 2s") {
				t.Errorf("detached sync: %+v", l)
			}
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
			t.Fatalf("the detached sync left no result; log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The result file is written just before the line is printed: wait for it.
	line := regexp.MustCompile(`(?m)^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ anamnesis-sync\[\d+\]: sync: pushed=false.*timed out after 2s`)
	for {
		log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
		if line.Match(log) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the detached sync's result is not a stamped log line:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
