package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Claude Code hands a PreCompact hook's stdout to the model that writes the
// compaction summary, as custom instructions (the channel /compact's own
// argument fills). As the PreCompact hook, capture prints nothing there:
// its lines go to the log only, whether it hands the work to a child (a
// home that exists) or captures inline (a home not made yet). --wait, for
// scripts, still prints them.
func TestPreCompactHookPrintsNothing(t *testing.T) {
	env(t)
	payload := func(path string) *strings.Reader {
		return strings.NewReader(`{"session_id":"82bbae79-5e52-46b7-ad51-8df6a1dfb533","transcript_path":"` + path +
			`","cwd":"/home/dev/src/quotes-api","hook_event_name":"PreCompact","trigger":"manual","custom_instructions":null}`)
	}
	tr := fixture(t, "82bbae79")

	// A home that exists: handed to a detached child.
	home := hookHome(t)
	r := startCapture(t, home, payload(tr), "--source", "precompact", "--no-sync")
	if r.stdout != "" {
		t.Errorf("the PreCompact hook printed, for the compaction model to read:\n%s", r.stdout)
	}
	if !strings.Contains(r.log, "capturing the session in the background (pid ") {
		t.Fatalf("no background child logged:\n%s", r.log)
	}
	waitLogged(r.log)
	if len(notes(t, home)) != 1 {
		t.Fatalf("the child wrote no note")
	}

	// A home not made yet: captured inline, committed by a child.
	home = filepath.Join(t.TempDir(), "home")
	r = startCapture(t, home, payload(tr), "--source", "precompact", "--no-sync")
	waitLogged(r.log)
	if r.stdout != "" {
		t.Errorf("the PreCompact hook printed, for the compaction model to read:\n%s", r.stdout)
	}
	if !strings.Contains(r.log, "capture: wrote episodic note ") || len(notes(t, home)) != 1 {
		t.Fatalf("no note, or not logged:\n%s", r.log)
	}
	// --no-sync: the child commits, and the log does not say it syncs.
	if !strings.Contains(r.log, "capture: committing in the background (pid ") || strings.Contains(r.log, "syncing") {
		t.Errorf("the log names a sync --no-sync does not run:\n%s", r.log)
	}

	// A script asking to wait sees what happened.
	r = startCapture(t, t.TempDir(), nil, "--transcript", tr, "--source", "precompact", "--no-sync", "--wait")
	if !strings.Contains(r.stdout, "capture: wrote episodic note ") {
		t.Errorf("--wait printed %q", r.stdout)
	}
}

// waitLogged waits for the detached children the log says a capture run in
// this process started (as the PreCompact hook, capture names them in the
// log only).
func waitLogged(log string) {
	for _, m := range regexp.MustCompile(`(?:capturing the session|committing(?: and syncing)?) in the background \(pid (\d+)\)`).FindAllStringSubmatch(log, -1) {
		pid, _ := strconv.Atoi(m[1])
		if p, err := os.FindProcess(pid); err == nil {
			p.Wait()
		}
	}
}
