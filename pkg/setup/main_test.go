package setup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMain doubles as a stand-in for the `claude` CLI: tests put a link
// named claude to the test binary on PATH. It implements just `claude mcp
// add|remove --scope user`, writing .claude.json where Claude Code 2.1.330
// does, and logs each call, so init's idempotence is checked against a
// faithful file and not against a mock's expectations.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "claude" {
		os.Exit(fakeClaude(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeClaude(args []string) int {
	if log := os.Getenv("FAKE_CLAUDE_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	path := filepath.Join(os.Getenv("HOME"), ".claude.json")
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		path = filepath.Join(d, ".claude.json")
	}
	cfg := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			fmt.Fprintln(os.Stderr, "bad .claude.json")
			return 1
		}
	}
	servers, _ := cfg["mcpServers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	if len(args) < 4 || args[0] != "mcp" || args[2] != "--scope" || args[3] != "user" {
		fmt.Fprintln(os.Stderr, "fake claude: unsupported", args)
		return 2
	}
	switch args[1] {
	case "add":
		rest := args[4:]
		env := map[string]string{}
		for len(rest) >= 2 && rest[0] == "-e" {
			k, v, _ := strings.Cut(rest[1], "=")
			env[k] = v
			rest = rest[2:]
		}
		if len(rest) < 3 || rest[1] != "--" {
			return 2
		}
		name := rest[0]
		if _, ok := servers[name]; ok {
			fmt.Fprintf(os.Stderr, "MCP server %s already exists in user config\n", name)
			return 1
		}
		servers[name] = map[string]any{"type": "stdio", "command": rest[2], "args": append([]string{}, rest[3:]...), "env": env}
	case "remove":
		name := args[4]
		if _, ok := servers[name]; !ok {
			fmt.Fprintf(os.Stderr, "No MCP server named %q in user scope\n", name)
			return 1
		}
		delete(servers, name)
	default:
		return 2
	}
	cfg["mcpServers"] = servers
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return 1
	}
	return 0
}
