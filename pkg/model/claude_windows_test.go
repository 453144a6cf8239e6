package model

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// npm installs Claude Code's CLI on Windows as claude.cmd, which runs
// through cmd.exe: a multi-line system prompt passed as an argument was cut
// at its first line break, and an unquoted & ran the rest as a command. Run
// through (Wine's) real cmd.exe from a folder named with & and a space, the
// provider passes the system prompt whole in a file, the model name and
// the user's text arrive unchanged, and a model name cmd.exe cannot carry
// is refused before anything runs.
func TestClaudeThroughCmdShim(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "R&D npm")
	os.MkdirAll(dir, 0o755)
	self, _ := os.Executable()
	shim := filepath.Join(dir, "claude.cmd")
	os.WriteFile(shim, []byte("@\""+self+"\" \"-test.run=^TestClaudeStandInProcess$\" -- %*\r\n"), 0o755)
	record := filepath.Join(t.TempDir(), "record.json")
	t.Setenv("ANAMNESIS_TEST_CLAUDE_RECORD", record)

	system := "You merge notes.\nLine two & more | <this> ^ 'quoted'\nLast line."
	c, err := New(Config{Provider: "claude", Model: "claude-haiku&x", Claude: shim, Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Complete(context.Background(), system, "user says\nhello")
	if err != nil || out != "[]" {
		t.Fatalf("%q %v", out, err)
	}
	var got struct {
		Args         []string
		System, User string
	}
	b, _ := os.ReadFile(record)
	json.Unmarshal(b, &got)
	i := slices.Index(got.Args, "--system-prompt-file")
	if i < 0 || slices.Contains(got.Args, "--system-prompt") || got.System != system {
		t.Errorf("the system prompt did not arrive whole: %q, %q", got.Args, got.System)
	}
	if m := slices.Index(got.Args, "--model"); m < 0 || got.Args[m+1] != "claude-haiku&x" {
		t.Errorf("model: %q", got.Args)
	}
	if got.User != "user says\nhello" {
		t.Errorf("stdin %q", got.User)
	}
	if _, err := os.Stat(got.Args[i+1]); err == nil {
		t.Errorf("the prompt file %s was left behind", got.Args[i+1])
	}

	os.Remove(record)
	c, _ = New(Config{Provider: "claude", Model: "50%PATH%", Claude: shim, Timeout: 60 * time.Second})
	if _, err := c.Complete(context.Background(), system, "u"); err == nil || !strings.Contains(err.Error(), "cmd.exe") {
		t.Errorf("a model name with %% ran: %v", err)
	}
	if _, err := os.Stat(record); err == nil {
		t.Error("the refused call ran the CLI")
	}
}

// TestClaudeStandInProcess is the CLI TestClaudeThroughCmdShim's claude.cmd runs.
func TestClaudeStandInProcess(t *testing.T) {
	record := os.Getenv("ANAMNESIS_TEST_CLAUDE_RECORD")
	if record == "" {
		t.Skip("run by TestClaudeThroughCmdShim")
	}
	args := os.Args[slices.Index(os.Args, "--")+1:]
	rec := map[string]any{"Args": args}
	if i := slices.Index(args, "--system-prompt-file"); i >= 0 {
		b, _ := os.ReadFile(args[i+1])
		rec["System"] = string(b)
	}
	in, _ := io.ReadAll(os.Stdin)
	rec["User"] = string(in)
	b, _ := json.Marshal(rec)
	os.WriteFile(record, b, 0o644)
	os.Stdout.WriteString(`{"type":"result","subtype":"success","is_error":false,"result":"[]"}` + "\n")
	os.Exit(0)
}
