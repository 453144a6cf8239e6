package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A capture whose child the machine stopped before it wrote the note stays
// on record, and the child of the next capture starts it again: the session
// gets its note. A record started maxTries times, or whose transcript is
// gone, is dropped instead; and a child that finishes takes its own record
// off.
func TestUnfinishedCaptureIsStartedAgain(t *testing.T) {
	home := hookHome(t)
	old := time.Now().Add(-2 * resumeAfter)
	record := func(transcript string, tries int) string {
		t.Helper()
		path := pendingPath(home, "session-end", transcript)
		p := pending{Transcript: transcript, Input: `{"session_id":"stopped-early","cwd":"` + t.TempDir() + `"}`, Tries: tries,
			Args: []string{"--detached", "--transcript", transcript, "--source", "session-end", "--no-sync"}}
		if err := writePending(path, p); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		return path
	}
	stopped := record(fixture(t, "7643d7a9"), 1)
	tried := record(fixture(t, "239322a7"), maxTries)
	gone := record(filepath.Join(t.TempDir(), "gone.jsonl"), 1)
	payload := `{"session_id":"next","transcript_path":"` + fixture(t, "82bbae79") + `","hook_event_name":"SessionEnd"}`
	r := startCapture(t, home, strings.NewReader(payload), "--no-sync")
	waitChild(t, r.stdout)
	var log string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		data, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
		log = string(data)
		if _, err := os.Stat(stopped); os.IsNotExist(err) && strings.Count(log, "capture: wrote episodic note") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the unfinished capture was not made again:\n%s", log)
		}
	}
	if !strings.Contains(log, "started the unfinished capture of "+fixture(t, "7643d7a9")+" again") {
		t.Errorf("the log does not say the capture was started again:\n%s", log)
	}
	for _, p := range []string{tried, gone} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("record %s is still there (%v)", p, err)
		}
	}
	if n := strings.Count(log, "dropped the unfinished capture"); n != 2 {
		t.Errorf("%d records dropped, want 2:\n%s", n, log)
	}
	if left, _ := os.ReadDir(filepath.Join(home, "state", "captures")); len(left) != 0 {
		t.Errorf("records left: %v", left)
	}
}
