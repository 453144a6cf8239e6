package transcript

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const blockHeader = "# Anamnesis memory (auto-injected)"

// testdata/resumed-compacted.jsonl is a session the real Claude Code CLI
// (2.1.330) wrote with the hooks installed (the e2e test's, trimmed of its
// request blobs): startup (line 3 holds the SessionStart:startup output), a
// resume, /compact (the boundary on line 38, SessionStart:compact output on
// line 47), then more lines.
func TestHookOutputLive(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "resumed-compacted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	upTo := func(n int) string {
		p := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(p, []byte(strings.Join(lines[:n], "")), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tt := range []struct {
		name  string
		lines int
		live  bool
	}{
		{"before any hook output", 2, false},
		{"after the startup block", 3, true},
		{"just before the compaction", 37, true},
		{"the compaction dropped it", 38, false},
		{"before the compact hook", 46, false},
		{"the compact hook's block", 47, true},
		{"the whole session", len(lines), true},
	} {
		got, err := HookOutputLive(context.Background(), upTo(tt.lines), blockHeader)
		if err != nil || got != tt.live {
			t.Errorf("%s (%d lines): %v %v, want %v", tt.name, tt.lines, got, err, tt.live)
		}
	}
	// Another hook's SessionStart output is not ours.
	if got, _ := HookOutputLive(context.Background(), upTo(len(lines)), "# Some other tool"); got {
		t.Error("matched another marker")
	}
	if _, err := HookOutputLive(context.Background(), filepath.Join(t.TempDir(), "none.jsonl"), blockHeader); err == nil {
		t.Error("no error for a missing transcript")
	}
	if _, err := HookOutputLive(context.Background(), t.TempDir(), blockHeader); err == nil {
		t.Error("no error for a directory")
	}
}
