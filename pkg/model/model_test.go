package model

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

func TestNew(t *testing.T) {
	if _, err := New(Config{Provider: "heuristic"}); err != ErrNoProvider {
		t.Errorf("heuristic: %v", err)
	}
	for _, c := range []Config{
		{Provider: "openai", Model: "m"},
		{Provider: "openai", APIKey: "k"},
		{Provider: "local", Model: "m"},
		{Provider: "bogus", Model: "m", APIKey: "k"},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	if c, err := New(Config{Provider: "claude"}); err != nil || c.Label() != "claude/default" {
		t.Errorf("claude without a model: %v", err)
	}
}

func TestJSON(t *testing.T) {
	for in, want := range map[string]string{
		"[1]":                   "[1]",
		"```json\n[1]\n```":     "[1]",
		"```\n{\"a\":1}\n```\n": `{"a":1}`,
		"  [ ]  ":               "[ ]",
		"Here you go: [1]":      "Here you go: [1]",
		"Here are the notes:\n```json\n[1]\n```\nHope this helps.": "[1]",
		"Sure.\n```\n[{\"a\":1}]```":                               `[{"a":1}]`,
	} {
		if got := JSON(in); got != want {
			t.Errorf("JSON(%q) = %q, want %q", in, got, want)
		}
	}
}

// fakeClaude is a stand-in executable for Claude Code's CLI: it records its
// arguments and stdin and prints what the test scripts.
func fakeClaude(t *testing.T, stdout string, code int, sleep int) (bin, argsFile, stdinFile string) {
	if runtime.GOOS == "windows" {
		t.Skip("shell stand-in")
	}
	dir := t.TempDir()
	argsFile, stdinFile = filepath.Join(dir, "args"), filepath.Join(dir, "stdin")
	out := filepath.Join(dir, "out")
	os.WriteFile(out, []byte(stdout), 0o644)
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > " + argsFile + "\ncat > " + stdinFile +
		"\nsleep " + itoa(sleep) + "\ncat " + out + "\nexit " + itoa(code) + "\n"
	bin = filepath.Join(dir, "claude")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, argsFile, stdinFile
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestClaude(t *testing.T) {
	ok := `{"type":"result","subtype":"success","is_error":false,"result":"[]","session_id":"x"}`
	bin, argsFile, stdinFile := fakeClaude(t, ok, 0, 0)
	c, err := New(Config{Provider: "claude", Model: "haiku", Claude: bin, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Complete(context.Background(), "system says", "user says "+secret)
	if err != nil || out != "[]" || c.Label() != "claude/haiku" {
		t.Fatalf("%q %v %s", out, err, c.Label())
	}
	args, _ := os.ReadFile(argsFile)
	want := "-p\n--output-format\njson\n--tools\n\n--max-turns\n1\n--setting-sources\n\n--strict-mcp-config\n--no-session-persistence\n--system-prompt\nsystem says\n--model\nhaiku\n"
	if string(args) != want {
		t.Errorf("args %q, want %q", args, want)
	}
	in, _ := os.ReadFile(stdinFile)
	if strings.Contains(string(in), secret) || !strings.HasPrefix(string(in), "user says ") {
		t.Errorf("stdin %q", in)
	}

	bin, _, _ = fakeClaude(t, `{"type":"result","subtype":"error_during_execution","is_error":true,"result":"Invalid API key"}`, 1, 0)
	c, _ = New(Config{Provider: "claude", Claude: bin})
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "Invalid API key") {
		t.Errorf("error result: %v", err)
	}
	// The CLI when nobody has logged in: "success" with is_error set. The
	// error names the cause and the fix, not the subtype.
	bin, _, _ = fakeClaude(t, `{"type":"result","subtype":"success","is_error":true,"result":"Not logged in · Please run /login"}`, 1, 0)
	c, _ = New(Config{Provider: "claude", Claude: bin})
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "is not logged in") ||
		!strings.Contains(err.Error(), "/login once") || strings.Contains(err.Error(), "(success)") {
		t.Errorf("not logged in: %v", err)
	}
	bin, _, _ = fakeClaude(t, "not json", 0, 0)
	c, _ = New(Config{Provider: "claude", Claude: bin})
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "JSON result") {
		t.Errorf("garbage: %v", err)
	}
	bin, _, _ = fakeClaude(t, ok, 0, 5)
	c, _ = New(Config{Provider: "claude", Claude: bin, Timeout: 300 * time.Millisecond})
	start := time.Now()
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "did not answer within 300ms") ||
		!strings.Contains(err.Error(), "reflection.timeout") {
		t.Errorf("timeout: %v", err)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("timeout took %s", time.Since(start))
	}
	c, _ = New(Config{Provider: "claude", Claude: filepath.Join(t.TempDir(), "nope")})
	if _, err := c.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("missing binary: %v", err)
	}
}
