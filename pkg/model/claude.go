package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	binpath "github.com/anamnesis-dev/anamnesis/pkg/bin"
)

// claude runs the user's own Claude Code CLI headless: print mode, JSON
// output, no tools, the prompt on stdin (never on the command line, where
// other users could read it in the process list).
type claude struct {
	bin     string
	model   string
	timeout time.Duration
}

func (c *claude) Label() string {
	if c.model == "" {
		return "claude/default"
	}
	return "claude/" + c.model
}

func (c *claude) Budget() int { return inputBudget }

// args is the command line; the model name comes from configuration and is
// passed as the value of --model. No settings files are read (so the user's
// hooks, Anamnesis's own capture among them, do not run inside the call and
// record it as a session) and no MCP servers start; login still works.
func (c *claude) args(system string) []string {
	a := []string{"-p", "--output-format", "json", "--tools", "", "--max-turns", "1",
		"--setting-sources", "", "--strict-mcp-config", "--no-session-persistence", "--system-prompt", system}
	if c.model != "" {
		a = append(a, "--model", c.model)
	}
	return a
}

func (c *claude) Complete(ctx context.Context, system, user string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	bin, err := exec.LookPath(c.bin)
	if err != nil {
		return "", fmt.Errorf("the claude provider runs Claude Code's CLI, and %q was not found on PATH", c.bin)
	}
	args := c.args(clean(system))
	if binpath.IsBatch(bin) {
		// npm's claude.cmd runs through cmd.exe, which cuts an argument at
		// its first line break: the system prompt goes in a file instead.
		file, err := systemPromptFile(clean(system))
		if err != nil {
			return "", err
		}
		defer os.Remove(file)
		i := slices.Index(args, "--system-prompt")
		args[i], args[i+1] = "--system-prompt-file", file
	}
	cmd, err := binpath.Command(ctx, bin, args...)
	if err != nil {
		return "", err
	}
	cmd.Stdin = strings.NewReader(clean(user))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &limited{w: &stdout, n: MaxReply}, &limited{w: &stderr, n: 64 << 10}
	cmd.WaitDelay = 2 * time.Second
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		// Say what it was doing and what to try: a CLI waiting for a login
		// or a network prints nothing, so the bare timeout named no cause.
		err := fmt.Errorf("%w: %s ran but gave no answer (a slow model, no network, or a login prompt); "+
			"try `claude -p hello` yourself, or allow longer: anamnesis config set reflection.timeout 120", timeoutErr("claude", c.timeout), bin)
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			err = fmt.Errorf("%w (it printed: %.200s)", err, msg)
		}
		return "", err
	}
	var res struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if jerr := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &res); jerr != nil || res.Type != "result" {
		if err != nil {
			return "", fmt.Errorf("claude -p failed (%v): %.300s", err, strings.TrimSpace(stderr.String()+" "+stdout.String()))
		}
		return "", fmt.Errorf("claude -p did not print a JSON result: %.200q", stdout.String())
	}
	if res.IsError || err != nil {
		return "", claudeError(bin, res.Result)
	}
	return res.Result, nil
}

// systemPromptFile writes the system prompt to a private temporary file.
func systemPromptFile(system string) (string, error) {
	f, err := os.CreateTemp("", "anamnesis-system-*.txt")
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(system)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// claudeError names the cause of a failed `claude -p` from its result text
// (its "subtype" says "success" even then, so it is not shown), with the fix
// for the causes a user can act on.
func claudeError(bin, result string) error {
	result = strings.TrimSpace(result)
	lower := strings.ToLower(result)
	switch {
	case strings.Contains(lower, "not logged in") || strings.Contains(lower, "/login") ||
		strings.Contains(lower, "api key") || strings.Contains(lower, "authentication"):
		return fmt.Errorf("the claude provider runs %s, which is not logged in (it said: %.200s); "+
			"run `claude` and /login once (or set ANTHROPIC_API_KEY), or choose another provider: anamnesis config set reflection.provider openai", bin, result)
	case strings.Contains(lower, "rate limit") || strings.Contains(lower, "usage limit") || strings.Contains(lower, "overloaded"):
		return fmt.Errorf("the claude provider (%s) was refused for now (it said: %.200s); try again later", bin, result)
	case result == "":
		return fmt.Errorf("the claude provider (%s) failed without saying why; run `claude -p hello` yourself to see", bin)
	}
	return fmt.Errorf("the claude provider (%s) failed: %.300s", bin, result)
}

// limited keeps at most n bytes and drops the rest (a runaway child cannot
// fill our memory).
type limited struct {
	w *bytes.Buffer
	n int
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.w.Len(); room > 0 {
		l.w.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
