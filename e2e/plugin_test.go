//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/setup"
)

// TestPluginDoctor is the plugin route as the README gives it, on a fresh
// machine (issue 29): the binaries installed without init, the repository
// added as a marketplace and the plugin installed with the real CLI, no
// config.json and no store yet. doctor exits 0; with the binaries off the
// PATH Claude Code gets it exits 1 naming each command and the fix, and
// Claude Code agrees (its MCP server fails to start). Then the plugin and
// its marketplace come off as the README says.
func TestPluginDoctor(t *testing.T) {
	h := newHarness(t)
	settingsPath := filepath.Join(h.claudeDir, "settings.json")
	r := h.run(20*time.Minute, h.repo, []string{"PREFIX=" + h.prefix, "ANAMNESIS_SKIP_INIT=1"}, filepath.Join(h.repo, "scripts", "install.sh"))
	if r.err != nil {
		t.Fatalf("install.sh: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	h.mustRun(2*time.Minute, h.proj, h.claude, "plugin", "marketplace", "add", h.repo)
	h.mustRun(2*time.Minute, h.proj, h.claude, "plugin", "install", "anamnesis@anamnesis")
	if s, _ := os.ReadFile(settingsPath); setup.EnabledPlugin(s) != "anamnesis@anamnesis" {
		t.Fatalf("plugin not enabled:\n%s", s)
	}
	doctor := filepath.Join(h.bin, "anamnesis")

	// A working plugin install: exit 0, before any config.json or store.
	r = h.run(2*time.Minute, h.proj, nil, doctor, "doctor")
	if r.err != nil || strings.Contains(r.stdout, "FAIL") {
		t.Fatalf("doctor on a working plugin install: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"ok   plugin: anamnesis@anamnesis is enabled; the 5 commands of its installed hooks.json and .mcp.json resolve",
		"config.json does not exist: defaults in effect",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := h.mustRun(2*time.Minute, h.proj, h.claude, "mcp", "list"); !strings.Contains(r.stdout, "Connected") {
		t.Errorf("claude mcp list with the binaries on PATH:\n%s", r.stdout)
	}

	// The binaries off PATH: every hook and the MCP server would fail.
	var offPath []string
	for _, d := range filepath.SplitList(pathOf(h.env)) {
		if d != h.bin {
			offPath = append(offPath, d)
		}
	}
	noBin := []string{"PATH=" + strings.Join(offPath, string(os.PathListSeparator))}
	r = h.run(2*time.Minute, h.proj, noBin, doctor, "doctor")
	if r.err == nil {
		t.Fatalf("doctor exited 0 with the binaries off PATH:\n%s", r.stdout)
	}
	line := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "FAIL plugin: ") {
			line = l
		}
	}
	for _, want := range []string{"anamnesis-inject (SessionStart hook)", "anamnesis-mcp (MCP server)", "anamnesis-capture (PreCompact hook, SessionEnd hook)",
		"; fix: put the directory holding the anamnesis binaries on PATH", "export PATH='" + h.bin + "'"} {
		if !strings.Contains(line, want) {
			t.Errorf("the plugin failure lacks %q:\n%s", want, r.stdout)
		}
	}
	if n := strings.Count(r.stdout, "FAIL "); n != 1 {
		t.Errorf("%d failures, want only the plugin's:\n%s", n, r.stdout)
	}
	if r := h.run(2*time.Minute, h.proj, noBin, h.claude, "mcp", "list"); strings.Contains(r.stdout, "Connected") {
		t.Errorf("Claude Code starts the MCP server with the binaries off PATH, yet doctor failed:\n%s", r.stdout)
	}

	// Removing the plugin and its marketplace (README).
	h.mustRun(2*time.Minute, h.proj, h.claude, "plugin", "uninstall", "anamnesis@anamnesis")
	h.mustRun(2*time.Minute, h.proj, h.claude, "plugin", "marketplace", "remove", "anamnesis")
	s, _ := os.ReadFile(settingsPath)
	known, _ := os.ReadFile(filepath.Join(h.claudeDir, "plugins", "known_marketplaces.json"))
	if strings.Contains(string(s), "anamnesis") || strings.Contains(string(known), "anamnesis") {
		t.Errorf("plugin or marketplace left behind:\nsettings.json: %s\nknown_marketplaces.json: %s", s, known)
	}
}

func pathOf(env []string) string {
	p := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			p = v
		}
	}
	return p
}
