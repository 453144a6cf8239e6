package setup

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// pluginCommand is one program the installed plugin makes Claude Code run,
// by name: a hook's command or the MCP server's.
type pluginCommand struct {
	name string   // as the plugin names it, e.g. "anamnesis-inject"
	uses []string // what runs it, e.g. "SessionStart hook", "MCP server"
}

// shippedPluginCommands is what plugin/ runs (hooks/hooks.json, .mcp.json),
// for when the installed copy cannot be read.
func shippedPluginCommands() []pluginCommand {
	return []pluginCommand{
		{BinInject, []string{"SessionStart hook"}},
		{BinSync, []string{"SessionStart hook"}},
		{BinRecall, []string{"UserPromptSubmit hook"}},
		{BinCapture, []string{"SessionEnd hook", "PreCompact hook"}},
		{BinMCP, []string{"MCP server"}},
	}
}

// PluginStates returns the Anamnesis plugins settings.json names in
// enabledPlugins ("anamnesis@marketplace"), each with whether it is enabled.
func PluginStates(settings []byte) map[string]bool {
	d, err := parseSettings(settings)
	if err != nil {
		return nil
	}
	i := d.top.index("enabledPlugins")
	if i < 0 {
		return nil
	}
	var all map[string]any
	if json.Unmarshal(d.top[i].val, &all) != nil {
		return nil
	}
	out := map[string]bool{}
	for id, on := range all {
		if strings.HasPrefix(id, PluginName+"@") {
			b, _ := on.(bool)
			out[id] = b
		}
	}
	return out
}

// installedPluginCommands reads the commands of plugin id from the copy
// Claude Code installed (plugins/installed_plugins.json names its
// directory), so that doctor checks what will actually run.
func installedPluginCommands(claudeDir, id string) ([]pluginCommand, error) {
	data, err := os.ReadFile(filepath.Join(claudeDir, "plugins", "installed_plugins.json"))
	if err != nil {
		return nil, err
	}
	var reg struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(data, &reg); err != nil {
		return nil, err
	}
	entries := reg.Plugins[id]
	if len(entries) == 0 || entries[0].InstallPath == "" {
		return nil, fmt.Errorf("%s is not in installed_plugins.json", id)
	}
	dir := entries[0].InstallPath
	var hooks struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	var mcp struct {
		MCPServers map[string]struct {
			Command string `json:"command"`
		} `json:"mcpServers"`
	}
	for file, v := range map[string]any{"hooks/hooks.json": &hooks, ".mcp.json": &mcp} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	uses := map[string][]string{}
	var order []string
	add := func(cmd, use string) {
		if cmd == "" {
			return
		}
		if _, ok := uses[cmd]; !ok {
			order = append(order, cmd)
		}
		for _, u := range uses[cmd] {
			if u == use {
				return
			}
		}
		uses[cmd] = append(uses[cmd], use)
	}
	events := make([]string, 0, len(hooks.Hooks))
	for ev := range hooks.Hooks {
		events = append(events, ev)
	}
	sort.Strings(events)
	for _, ev := range events {
		for _, g := range hooks.Hooks[ev] {
			for _, h := range g.Hooks {
				if h.Type == "command" {
					add(h.Command, ev+" hook")
				}
			}
		}
	}
	for _, s := range mcp.MCPServers {
		add(s.Command, "MCP server")
	}
	out := make([]pluginCommand, 0, len(order))
	for _, c := range order {
		out = append(out, pluginCommand{c, uses[c]})
	}
	return out, nil
}

// claudePATH is the PATH Claude Code gives its hooks and MCP servers: the
// "env" of settings.json when it sets PATH, else the environment Claude
// Code is started from, which doctor shares when run from the same shell.
func claudePATH(settings []byte) (string, string) {
	d, err := parseSettings(settings)
	if err == nil {
		if i := d.top.index("env"); i >= 0 {
			var env map[string]any
			if json.Unmarshal(d.top[i].val, &env) == nil {
				if p, ok := env["PATH"].(string); ok && p != "" {
					return p, "the PATH set in settings.json's env"
				}
			}
		}
	}
	return os.Getenv("PATH"), "this shell's PATH (Claude Code started from it gets the same)"
}

// lookPathIn is exec.LookPath over the directories of path.
func lookPathIn(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			continue
		}
		p := bin.Path(dir, name)
		if bin.IsExecutable(p) {
			return p
		}
	}
	if filepath.IsAbs(name) && bin.IsExecutable(name) {
		return name
	}
	return ""
}

// pluginRoute checks an install through the Claude Code plugin (SPEC 16):
// the plugin runs the binaries by name, so each must resolve on the PATH
// Claude Code passes on; one that does not fails every session's hook or
// the MCP server (Claude Code reports ENOENT).
func (d *doctor) pluginRoute() {
	settings := settingsNow(d.p.SettingsPath())
	cmds, err := installedPluginCommands(d.p.ClaudeConfigDir, d.plugin)
	from := "its installed hooks.json and .mcp.json"
	if err != nil || len(cmds) == 0 {
		cmds, from = shippedPluginCommands(), "the hooks and MCP server it ships"
	}
	path, pathFrom := claudePATH(settings)
	var missing, found []string
	for _, c := range cmds {
		if p := lookPathIn(c.name, path); p != "" {
			found = append(found, p)
		} else {
			missing = append(missing, fmt.Sprintf("%s (%s)", c.name, strings.Join(c.uses, ", ")))
		}
	}
	if len(missing) > 0 {
		fix := "put the directory holding the anamnesis binaries on PATH where Claude Code starts (e.g. in ~/.profile): " +
			"export PATH=" + cli.ShellQuote(d.p.BinDir) + `:"$PATH"` + ", then restart Claude Code"
		if !bin.IsExecutable(bin.Path(d.p.BinDir, BinInject)) {
			fix = "install the binaries (./scripts/install.sh, or a release archive's INSTALL.md) into a directory on PATH, then restart Claude Code"
		}
		d.add("plugin", statusFail, fmt.Sprintf("%s is enabled, but %s not found on %s, so Claude Code cannot start %s",
			d.plugin, strings.Join(missing, ", "), pathFrom, plural(len(missing), "it", "them")), fix)
		return
	}
	dirs := map[string]bool{}
	for _, p := range found {
		dirs[filepath.Dir(p)] = true
	}
	where := make([]string, 0, len(dirs))
	for dir := range dirs {
		where = append(where, dir)
	}
	sort.Strings(where)
	d.add("plugin", statusOK, fmt.Sprintf("%s is enabled; the %d commands of %s resolve on %s (in %s)",
		d.plugin, len(cmds), from, pathFrom, strings.Join(where, ", ")), "")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
