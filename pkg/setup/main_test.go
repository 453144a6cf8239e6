package setup

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// TestMain doubles as a stand-in for the `claude` CLI: tests put a link
// named claude to the test binary on PATH. It implements just `claude mcp
// add|remove --scope user`, writing .claude.json where Claude Code 2.1.330
// does, and logs each call, so init's idempotence is checked against a
// faithful file and not against a mock's expectations.
func TestMain(m *testing.M) {
	if os.Getenv("SETUP_TEST_PRINT_ARGS") == "1" { // a stand-in hook binary (windows_test.go)
		json.NewEncoder(os.Stdout).Encode(os.Args[1:])
		os.Exit(0)
	}
	switch strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") {
	case "claude":
		os.Exit(fakeClaude(os.Args[1:]))
	// Where no sh runs the stand-in scripts (Windows), the test binary is
	// each installed binary (init_test.go's newEnv).
	case BinSync:
		if f, err := os.OpenFile(os.Getenv("FAKE_SYNC_LOG"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "home=%s\n", os.Getenv("ANAMNESIS_HOME"))
			f.Close()
		}
		fmt.Println("sync: pushed=0 pulled=0 conflicted=false head=none (local only)")
		os.Exit(0)
	case BinMCP: // answers the MCP initialize request, as doctor's probe needs
		r := bufio.NewReader(os.Stdin)
		r.ReadString('\n')
		fmt.Println(`{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"anamnesis","version":"test"}}}`)
		r.ReadString('\n')
		os.Exit(0)
	case BinDispatcher, BinInject, BinRecall, BinCapture, BinDashboard:
		os.Exit(0)
	}
	code := m.Run()
	if standInDir != "" {
		os.RemoveAll(standInDir)
	}
	os.Exit(code)
}

func fakeClaude(args []string) int {
	if log := os.Getenv("FAKE_CLAUDE_LOG"); log != "" {
		f, err := os.OpenFile(log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, strings.Join(args, " "))
			f.Close()
		}
	}
	path := filepath.Join(os.Getenv(config.HomeVar()), ".claude.json")
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
