// Command claude is a stand-in for Claude Code's CLI in the Windows end to
// end under Wine (which has no Node): it does what `anamnesis init` and
// `uninstall` ask of it, `claude mcp add|remove --scope user`, on
// %USERPROFILE%\.claude.json as the CLI does, and refuses anything else.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "claude (stand-in):", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 4 || args[0] != "mcp" || args[2] != "--scope" || args[3] != "user" {
		return fmt.Errorf("unsupported: %q", args)
	}
	path := filepath.Join(os.Getenv("USERPROFILE"), ".claude.json")
	cfg := map[string]any{}
	if b, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(b, &cfg); err != nil {
			return err
		}
	}
	servers, _ := cfg["mcpServers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
	}
	rest := args[4:]
	switch args[1] {
	case "add":
		env := map[string]string{}
		for len(rest) >= 2 && rest[0] == "-e" {
			k, v, _ := strings.Cut(rest[1], "=")
			env[k] = v
			rest = rest[2:]
		}
		if len(rest) < 3 || rest[1] != "--" {
			return fmt.Errorf("mcp add: want NAME -- COMMAND [ARGS], got %q", rest)
		}
		srv := map[string]any{"type": "stdio", "command": rest[2], "args": rest[3:]}
		if len(env) > 0 {
			srv["env"] = env
		}
		servers[rest[0]] = srv
		fmt.Printf("Added stdio MCP server %s with command: %s to user config\n", rest[0], rest[2])
	case "remove":
		if len(rest) != 1 {
			return fmt.Errorf("mcp remove: want NAME, got %q", rest)
		}
		if _, ok := servers[rest[0]]; !ok {
			return errors.New("No user-scoped MCP server found with name: " + rest[0])
		}
		delete(servers, rest[0])
	default:
		return fmt.Errorf("unsupported: %q", args)
	}
	cfg["mcpServers"] = servers
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
