package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
)

// DefaultMCPName is the name the MCP server is registered under.
const DefaultMCPName = "anamnesis"

// checkMCPName refuses an MCP server name (--name) that is not one plain
// word: it is an argument of `claude mcp add|remove`, where a name starting
// with '-' is read as an option and one with a space or line break is not
// the name Claude Code shows.
func checkMCPName(name string) error {
	for i, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || i > 0 && (r == '-' || r == '_' || r == '.')) {
			return usageErr("--name %q: use letters, digits, '.', '_' or '-', starting with a letter or digit", name)
		}
	}
	return nil
}

// MCPServer is a user-scope MCP registration as Claude Code stores it.
type MCPServer struct {
	Type    string            `json:"type,omitempty"`
	Command string            `json:"command"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

func (s MCPServer) same(o MCPServer) bool {
	return s.Command == o.Command && len(s.Args) == len(o.Args) && (len(s.Args) == 0 || reflect.DeepEqual(s.Args, o.Args)) &&
		len(s.Env) == len(o.Env) && (len(s.Env) == 0 || reflect.DeepEqual(s.Env, o.Env))
}

// readMCPServers returns the user-scope MCP servers. A missing file is no
// servers; an unreadable one is an error (we then fall back to the CLI).
func readMCPServers(path string) (map[string]MCPServer, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]MCPServer{}, nil
	}
	if err != nil {
		return nil, err
	}
	var cfg struct {
		MCPServers map[string]MCPServer `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if cfg.MCPServers == nil {
		cfg.MCPServers = map[string]MCPServer{}
	}
	return cfg.MCPServers, nil
}

// mcpAddArgs is the `claude` command line that registers srv as name.
func mcpAddArgs(name string, srv MCPServer) []string {
	args := []string{"mcp", "add", "--scope", "user"}
	keys := make([]string, 0, len(srv.Env))
	for k := range srv.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		args = append(args, "-e", k+"="+srv.Env[k])
	}
	args = append(args, name, "--", srv.Command)
	return append(args, srv.Args...)
}

// claudeCLI runs the claude CLI with a deadline: it is a Node program that
// may hang on a broken install, and init must never hang with it.
type claudeCLI struct {
	path string
}

func (c claudeCLI) run(ctx context.Context, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	// claude.cmd (npm's shim) runs through cmd.exe: bin.Command passes a
	// home or bin folder named with & or spaces whole, or refuses it.
	cmd, err := bin.Command(ctx, c.path, args...)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	cmd.Stdin = nil
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("claude %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(out.String()))
	}
	return out.String(), nil
}
