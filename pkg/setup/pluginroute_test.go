package setup

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// find returns the checks named name.
func find(checks []Check, name string) []Check {
	var out []Check
	for _, c := range checks {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// The plugin route (SPEC 16, issue 29): a plugin install with no
// config.json and no store yet is healthy (exit 0, notes not failures); the
// same install with the binaries off the PATH Claude Code gets fails on the
// plugin check, naming every command and the fix; a disabled plugin with no
// hooks of init's fails too. The commands come from the installed copy.
func TestDoctorPluginRoute(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	e := newEnv(t, true)
	// What `claude plugin install anamnesis@anamnesis` (2.1.330) leaves.
	install := filepath.Join(e.claudeDir, "plugins", "cache", "anamnesis", "anamnesis", "0.1.0")
	for _, f := range []string{"hooks/hooks.json", ".mcp.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "plugin", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(install, f)), 0o755)
		if err := os.WriteFile(filepath.Join(install, filepath.FromSlash(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(e.claudeDir, "plugins", "installed_plugins.json"),
		[]byte(`{"version":2,"plugins":{"anamnesis@anamnesis":[{"scope":"user","installPath":"`+filepath.ToSlash(install)+`","version":"0.1.0"}]}}`), 0o644)
	e.writeSettings([]byte(`{"enabledPlugins": {"anamnesis@anamnesis": true}}`))

	// Binaries on PATH: healthy, before any config.json or store exists.
	t.Setenv("PATH", e.binDir+string(os.PathListSeparator)+e.pathDir)
	checks, err := runDoctorJSON(t, e)
	if err != nil || len(find(checks, "plugin")) != 1 {
		t.Fatalf("working plugin install: err=%v\n%+v", err, checks)
	}
	for _, c := range failures(checks) {
		t.Errorf("not ok on a working plugin install: %+v", c)
	}
	if p := find(checks, "plugin")[0]; !strings.Contains(p.Detail, "the 5 commands of its installed hooks.json and .mcp.json resolve") {
		t.Errorf("plugin check: %+v", p)
	}
	if c := find(checks, "config")[0]; !strings.Contains(c.Detail, "does not exist: defaults in effect") {
		t.Errorf("config check: %+v", c)
	}

	// Off PATH: exit 1, each command named, the fix names the directory.
	t.Setenv("PATH", e.pathDir)
	checks, err = runDoctorJSON(t, e)
	if !errors.Is(err, ErrChecksFailed) {
		t.Fatalf("binaries off PATH: err=%v\n%+v", err, checks)
	}
	fails := failures(checks)
	if len(fails) != 1 || fails[0].Name != "plugin" || fails[0].Status != statusFail {
		t.Fatalf("want exactly the plugin check to fail: %+v", fails)
	}
	for _, want := range []string{"anamnesis-inject (SessionStart hook)", "anamnesis-recall (UserPromptSubmit hook)",
		"anamnesis-capture (PreCompact hook, SessionEnd hook)", "anamnesis-sync (SessionStart hook)", "anamnesis-mcp (MCP server)"} {
		if !strings.Contains(fails[0].Detail, want) {
			t.Errorf("plugin failure lacks %q: %s", want, fails[0].Detail)
		}
	}
	if !strings.Contains(fails[0].Fix, "export PATH='"+e.binDir+"'") {
		t.Errorf("fix: %s", fails[0].Fix)
	}

	// settings.json's env PATH is the one Claude Code passes on.
	e.writeSettings([]byte(`{"enabledPlugins": {"anamnesis@anamnesis": true}, "env": {"PATH": "` + filepath.ToSlash(e.binDir) + `"}}`))
	if checks, err = runDoctorJSON(t, e); err != nil || !strings.Contains(find(checks, "plugin")[0].Detail, "settings.json's env") {
		t.Errorf("env PATH in settings.json: err=%v %+v", err, find(checks, "plugin"))
	}

	// Disabled, and no hooks of init's: nothing runs.
	e.writeSettings([]byte(`{"enabledPlugins": {"anamnesis@anamnesis": false}}`))
	checks, err = runDoctorJSON(t, e)
	h := find(checks, "hooks")
	if !errors.Is(err, ErrChecksFailed) || len(h) != 1 || h[0].Status != statusFail || !strings.Contains(h[0].Fix, "claude plugin enable anamnesis@anamnesis") {
		t.Errorf("disabled plugin: err=%v %+v", err, h)
	}
}
