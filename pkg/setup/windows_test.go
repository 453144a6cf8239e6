//go:build windows

package setup

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// On Windows init's hooks are argument lists (exec form): started as Claude
// Code starts them (the executable with its arguments, no shell), each runs
// its binary from a folder and with a home whose names hold a space,
// non-ASCII letters, '&' and ',', and the binary receives every argument
// whole. The binaries here are copies of this test binary, which prints its
// arguments (TestMain).
func TestWindowsHooksRunFromAnyPath(t *testing.T) {
	root := t.TempDir()
	binDir := filepath.Join(root, "R&D, José", "Program Files", "bin")
	home := filepath.Join(root, "First Last & Co, Zoë", ".anamnesis")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range BuildHooks(binDir, home, false) {
		for _, g := range ev.Groups {
			for _, h := range g.Hooks {
				if len(h.Args) < 2 || h.Args[0] != "--home" || h.Args[1] != home || !strings.HasPrefix(h.Command, binDir) {
					t.Fatalf("%s: %+v", ev.Event, h)
				}
				js, _ := json.Marshal(h)
				if !strings.Contains(string(js), `"args":[`) {
					t.Errorf("%s: written without args: %s", ev.Event, js)
				}
				if _, err := os.Stat(h.Command); err != nil {
					copyFile(t, self, h.Command)
				}
				cmd := exec.Command(h.Command, h.Args...)
				cmd.Env = append(os.Environ(), "SETUP_TEST_PRINT_ARGS=1")
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %s: %v", ev.Event, h.Line(), err)
				}
				var got []string
				if err := json.Unmarshal(out, &got); err != nil || !slices.Equal(got, h.Args) {
					t.Errorf("%s: the binary got %q (%v), want %q", ev.Event, got, err, h.Args)
				}
				n++
			}
		}
	}
	if n != 5 {
		t.Errorf("%d hooks run, want 5", n)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// doctor warns when %HOME% names another folder than %USERPROFILE%, and not
// when Git Bash spells the same folder its own way.
func TestDoctorWarnsWhenHOMEIsNotUSERPROFILE(t *testing.T) {
	up := `C:\Users\First Last`
	t.Setenv("USERPROFILE", up)
	for home, warn := range map[string]bool{`D:\msys\home\me`: true, "/c/Users/First Last": false, `c:\users\first last\`: false, "": false} {
		t.Setenv("HOME", home)
		d := &doctor{}
		d.homeVars()
		if got := len(d.checks) == 1 && d.checks[0].Status == statusWarn; got != warn {
			t.Errorf("HOME=%q: %+v, want a warning: %v", home, d.checks, warn)
		}
	}
}

// MCP registration through npm's claude.cmd, which runs through cmd.exe
// (here Wine's): a home and a bin folder named with &, spaces, ',' and
// non-ASCII letters reach Claude Code's config whole (an unquoted & made
// cmd run part of the path as a command); a home cmd.exe cannot carry (%)
// is refused with an error, and nothing is registered.
func TestMCPRegistrationThroughClaudeCmd(t *testing.T) {
	root := t.TempDir()
	t.Setenv(config.HomeVar(), filepath.Join(root, "profile"))
	os.MkdirAll(filepath.Join(root, "profile"), 0o755)
	npm := filepath.Join(root, "npm & co")
	os.MkdirAll(npm, 0o755)
	standIn(t, filepath.Join(npm, "claude.exe"))
	shim := filepath.Join(npm, "claude.cmd")
	os.WriteFile(shim, []byte("@\"%~dp0claude.exe\" %*\r\n"), 0o755)

	home := filepath.Join(root, "First Last & Co, Zoë", ".anamnesis")
	server := filepath.Join(root, "R&D", "bin", "anamnesis-mcp.exe")
	cli := claudeCLI{path: shim}
	if out, err := cli.run(t.Context(), "mcp", "add", "--scope", "user", "-e", "ANAMNESIS_HOME="+home, "anamnesis", "--", server); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(root, "profile", ".claude.json"))
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Env     map[string]string
		} `json:"mcpServers"`
	}
	json.Unmarshal(b, &cfg)
	if s := cfg.MCPServers["anamnesis"]; s.Command != server || s.Env["ANAMNESIS_HOME"] != home {
		t.Errorf("registered %+v, want %s with home %s (%s)", s, server, home, b)
	}
	if _, err := cli.run(t.Context(), "mcp", "add", "--scope", "user", "-e", "ANAMNESIS_HOME=C:\\100%USERNAME%", "other", "--", server); err == nil || !strings.Contains(err.Error(), "cmd.exe") {
		t.Errorf("a home with %% was not refused: %v", err)
	}
	b, _ = os.ReadFile(filepath.Join(root, "profile", ".claude.json"))
	if strings.Contains(string(b), "other") {
		t.Errorf("the refused registration ran: %s", b)
	}
}

// doctor's fix for an unregistered MCP server is a line the user pastes
// into cmd.exe (or PowerShell, or Git Bash): run through (Wine's) cmd.exe
// as it is printed, with a home and a bin folder named with spaces, & and
// ',', it registers exactly that server (a POSIX-quoted line put the single
// quotes into the path and let cmd run what follows & as a command).
func TestDoctorMCPFixRunsInCmd(t *testing.T) {
	root := t.TempDir()
	profile := filepath.Join(root, "profile")
	os.MkdirAll(profile, 0o755)
	t.Setenv(config.HomeVar(), profile)
	tools := filepath.Join(root, "tools")
	os.MkdirAll(tools, 0o755)
	standIn(t, filepath.Join(tools, "claude.exe"))
	t.Setenv("PATH", tools+string(os.PathListSeparator)+os.Getenv("PATH"))

	home := filepath.Join(root, "First Last & Co, Zoë", ".anamnesis")
	binDir := filepath.Join(root, "R&D", "bin")
	d := &doctor{p: Paths{Home: home, BinDir: binDir, ClaudeJSON: filepath.Join(profile, ".claude.json")}, name: DefaultMCPName}
	d.mcp(t.Context())
	var fix string
	for _, c := range d.checks {
		if c.Name == "mcp" && strings.Contains(c.Detail, "is not registered") {
			fix, _, _ = strings.Cut(c.Fix, " (or")
		}
	}
	if fix == "" {
		t.Fatalf("no fix line: %+v", d.checks)
	}
	cmd := exec.Command(filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe"))
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `cmd.exe /d /s /c "` + fix + `"`}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v: %s", fix, err, out)
	}
	b, _ := os.ReadFile(filepath.Join(profile, ".claude.json"))
	var cfg struct {
		MCPServers map[string]struct {
			Command string
			Env     map[string]string
		} `json:"mcpServers"`
	}
	json.Unmarshal(b, &cfg)
	if s := cfg.MCPServers[DefaultMCPName]; s.Command != filepath.Join(binDir, BinMCP+".exe") || s.Env["ANAMNESIS_HOME"] != home {
		t.Errorf("the fix %s registered %+v (%s)", fix, s, b)
	}
}
