package setup

import (
	"os"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

func TestEnabledPlugin(t *testing.T) {
	for in, want := range map[string]string{
		``:   "",
		`{}`: "",
		`{"enabledPlugins": {"anamnesis@anamnesis": true}}`:                              "anamnesis@anamnesis",
		`{"enabledPlugins": {"anamnesis@anamnesis": false, "other@x": true}}`:            "",
		`{"enabledPlugins": {"anamnesis-fork@x": true, "anamnesis@mine": true}}`:         "anamnesis@mine",
		`{"enabledPlugins": "nonsense"}`:                                                 "",
		`not json`:                                                                       "",
		`{"enabledPlugins": {"anamnesis@anamnesis": true}, "hooks": {"Stop": "broken"}}`: "",
	} {
		if got := EnabledPlugin([]byte(in)); got != want {
			t.Errorf("EnabledPlugin(%s) = %q, want %q", in, got, want)
		}
	}
}

// init with the plugin enabled installs neither hooks nor the MCP server
// (both would run twice) and says why; the plugin's hooks, for their part,
// stand down when init's hooks are installed.
func TestInitDefersToThePlugin(t *testing.T) {
	e := newEnv(t, true)
	e.writeSettings([]byte("{\n  \"enabledPlugins\": {\n    \"anamnesis@anamnesis\": true\n  }\n}\n"))
	before := e.read(e.settingsPath())
	out, err := e.init("--yes", "--local-only", "--no-sync")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "plugin anamnesis@anamnesis is enabled") || !strings.Contains(out, "claude plugin uninstall anamnesis@anamnesis") {
		t.Errorf("init does not say it defers to the plugin:\n%s", out)
	}
	if string(e.read(e.settingsPath())) != string(before) {
		t.Errorf("settings changed:\n%s", e.read(e.settingsPath()))
	}
	if calls := e.claudeCalls(); len(calls) != 0 {
		t.Errorf("claude called: %q", calls)
	}
	if hook.InitHooksInstalled(e.claudeDir) {
		t.Error("InitHooksInstalled with only the plugin")
	}

	os.Remove(e.settingsPath())
	if out, err := e.init("--yes", "--local-only", "--no-sync", "--no-mcp"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !hook.InitHooksInstalled(e.claudeDir) {
		t.Error("InitHooksInstalled false after init")
	}
}

// doctor on a plugin install: hooks and MCP server come from the plugin, so
// their absence from settings.json and ~/.claude.json is not a failure; an
// MCP registration beside the plugin's is a warning (both would run).
func TestDoctorWithThePlugin(t *testing.T) {
	e := newEnv(t, true)
	e.writeSettings([]byte(`{"enabledPlugins": {"anamnesis@anamnesis": true}}`))
	checks, _ := runDoctorJSON(t, e)
	got := map[string]Check{}
	for _, c := range checks {
		got[c.Name] = c
	}
	if c := got["hooks"]; c.Status != statusOK || !strings.Contains(c.Detail, "plugin anamnesis@anamnesis") {
		t.Errorf("hooks: %+v", c)
	}
	if c := got["mcp"]; c.Status != statusOK || !strings.Contains(c.Detail, "plugin anamnesis@anamnesis") {
		t.Errorf("mcp: %+v", c)
	}

	if out, err := e.init("--yes", "--local-only", "--no-sync"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// init deferred; an MCP server registered by hand beside the plugin:
	e.writeSettings([]byte(`{}`))
	if out, err := e.init("--yes", "--local-only", "--no-sync", "--no-hooks"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	e.writeSettings([]byte(`{"enabledPlugins": {"anamnesis@anamnesis": true}}`))
	checks, _ = runDoctorJSON(t, e)
	var mcp *Check
	for i := range checks {
		if checks[i].Name == "mcp" {
			mcp = &checks[i]
		}
	}
	if mcp == nil || mcp.Status != statusWarn || !strings.Contains(mcp.Fix, "claude mcp remove") {
		t.Errorf("mcp beside the plugin: %+v", mcp)
	}
}
