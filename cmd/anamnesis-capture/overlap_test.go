package main

import (
	"strings"
	"testing"
)

// Two captures of one session at once (here the PreCompact and SessionEnd
// hooks' children, three times over, as a resumed session's capture may
// meet its earlier capture's child) save one after the other: the session
// has one note, carrying both sources' tags, and nothing is left
// uncommitted. Without the capture lock both children could find no note
// and the later write dropped the other's tag.
func TestOverlappingCapturesOfOneSession(t *testing.T) {
	home := hookHome(t)
	path := fixture(t, "82bbae79")
	var log string
	for range 3 {
		for _, src := range []string{"precompact", "session-end"} {
			payload := `{"session_id":"sess-overlap","transcript_path":"` + path + `"}`
			log = startCapture(t, home, strings.NewReader(payload), "--no-sync", "--source", src).log
		}
	}
	// The PreCompact hook names its child in the log only.
	if n := strings.Count(log, "capturing the session in the background (pid "); n != 6 {
		t.Fatalf("%d children started, want 6:\n%s", n, log)
	}
	waitLogged(log)
	ns := notes(t, home)
	if len(ns) != 1 {
		t.Fatalf("%d notes for one session", len(ns))
	}
	for _, n := range ns {
		if !strings.Contains(n, "\n- precompact\n") || !strings.Contains(n, "\n- session-end\n") {
			t.Errorf("the note lost a capture's tag:\n%s", n)
		}
	}
	if got := git(t, home+"/memory", "status", "--porcelain"); got != "" {
		t.Errorf("left uncommitted: %q", got)
	}
}
