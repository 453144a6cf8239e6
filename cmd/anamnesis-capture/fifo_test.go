//go:build unix

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO as transcript_path (or --transcript) ends the hook at once with a
// log line instead of blocking forever on open.
func TestFIFOTranscript(t *testing.T) {
	env(t)
	fifo := filepath.Join(t.TempDir(), "t.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, c := range []struct {
		stdin io.Reader
		args  []string
	}{
		{strings.NewReader(`{"transcript_path":` + fmt.Sprintf("%q", fifo) + `}`), nil},
		{nil, []string{"--transcript", fifo}},
	} {
		home := t.TempDir()
		done := make(chan result, 1)
		go func() { done <- runCapture(t, home, c.stdin, append(c.args, "--no-sync")...) }()
		select {
		case r := <-done:
			if !strings.Contains(r.log, "not a regular file") || len(notes(t, home)) != 0 {
				t.Errorf("log %q", r.log)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("capture blocked on a FIFO transcript")
		}
	}
}
