package setup

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// env is a throwaway machine: a user home, a Claude config dir, a bin dir
// with stand-ins for our binaries, and optionally the fake claude on PATH.
type env struct {
	t         *testing.T
	userHome  string
	claudeDir string
	binDir    string
	pathDir   string
	claudeLog string
	syncLog   string
}

func newEnv(t *testing.T, withClaude bool) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{
		t:         t,
		userHome:  filepath.Join(root, "user home"),
		claudeDir: filepath.Join(root, "user home", ".claude"),
		binDir:    filepath.Join(root, "opt", "anamnesis bin"),
		pathDir:   filepath.Join(root, "path"),
		claudeLog: filepath.Join(root, "claude.log"),
		syncLog:   filepath.Join(root, "sync.log"),
	}
	for _, d := range []string{e.claudeDir, e.binDir, e.pathDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range AllBinaries {
		script := "#!/bin/sh\nexit 0\n"
		switch b {
		case BinSync:
			script = "#!/bin/sh\necho \"home=$ANAMNESIS_HOME\" >> '" + e.syncLog + "'\necho 'sync: pushed=0 pulled=0 conflicted=false head=none (local only)'\n"
		case BinMCP:
			// Answers the MCP initialize request, as doctor's probe needs.
			script = "#!/bin/sh\nread line\necho '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"serverInfo\":{\"name\":\"anamnesis\",\"version\":\"test\"}}}'\nread line\n"
		}
		if isWindows() {
			// No sh: the test binary stands in (TestMain picks the part by name).
			standIn(t, bin.Path(e.binDir, b))
			continue
		}
		if err := os.WriteFile(bin.Path(e.binDir, b), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if withClaude {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if isWindows() {
			standIn(t, bin.Path(e.pathDir, "claude"))
		} else if err := os.Symlink(self, filepath.Join(e.pathDir, "claude")); err != nil {
			t.Fatal(err)
		}
	}
	// PATH holds only what the code may run, linked in one by one, so a
	// real claude installed next to git can never leak into a test.
	for _, tool := range []string{"git", "sh", "basename", "ssh"} {
		if p, err := exec.LookPath(tool); err == nil {
			if err := os.Symlink(p, filepath.Join(e.pathDir, tool)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Setenv("PATH", e.pathDir)
	t.Setenv("HOME", e.userHome)
	t.Setenv("USERPROFILE", e.userHome) // the home on Windows
	t.Setenv("FAKE_SYNC_LOG", e.syncLog)
	t.Setenv("CLAUDE_CONFIG_DIR", e.claudeDir)
	t.Setenv("FAKE_CLAUDE_LOG", e.claudeLog)
	for _, k := range []string{"ANAMNESIS_HOME", "ANAMNESIS_GIT_REMOTE", "ANAMNESIS_MACHINE_ID"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return e
}

// standIn puts a copy of the test binary at path: a link to one copy made
// per test run where the file system allows (Windows refuses to delete a
// link to the running test binary itself), else a copy of its own.
func standIn(t *testing.T, path string) {
	t.Helper()
	src, err := standInCopy()
	if err != nil {
		t.Fatal(err)
	}
	if os.Link(src, path) == nil {
		return
	}
	data, err := os.ReadFile(src)
	if err == nil {
		err = os.WriteFile(path, data, 0o755)
	}
	if err != nil {
		t.Fatal(err)
	}
}

var standInCopy = sync.OnceValues(func() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(self)
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "setup-standin")
	if err != nil {
		return "", err
	}
	standInDir = dir
	p := filepath.Join(dir, "standin.exe")
	return p, os.WriteFile(p, data, 0o755)
})

// standInDir holds standInCopy's copy; TestMain removes it.
var standInDir string

func (e *env) settingsPath() string { return filepath.Join(e.claudeDir, "settings.json") }
func (e *env) defaultHome() string  { return filepath.Join(e.userHome, ".anamnesis") }

func (e *env) writeSettings(b []byte) {
	e.t.Helper()
	if err := os.WriteFile(e.settingsPath(), b, 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) read(path string) []byte {
	e.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

func (e *env) claudeCalls() []string {
	b, err := os.ReadFile(e.claudeLog)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func (e *env) mcpServers() map[string]MCPServer {
	e.t.Helper()
	s, err := readMCPServers(filepath.Join(e.claudeDir, ".claude.json"))
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) init(args ...string) (string, error) {
	e.t.Helper()
	var out, errb bytes.Buffer
	// The flags of `anamnesis init` (cmd/anamnesis) as options.
	o := InitOptions{Paths: Paths{BinDir: e.binDir}}
	for i := 0; i < len(args); i++ {
		val := func() string { i++; return args[i] }
		switch args[i] {
		case "--yes":
			o.Yes = true
		case "--no-sync":
			o.NoSync = true
		case "--no-mcp":
			o.NoMCP = true
		case "--no-hooks":
			o.NoHooks = true
		case "--local-only":
			o.LocalOnly = true
		case "--print":
			o.Print = true
		case "--home":
			o.Home = val()
		case "--machine-id":
			o.MachineID = val()
		case "--remote":
			o.Remote = val()
		default:
			e.t.Fatalf("init: flag %q not known to the test", args[i])
		}
	}
	err := Init(context.Background(), o, strings.NewReader(""), &out, &errb)
	return out.String() + errb.String(), err
}

func TestInitFreshThenIdempotent(t *testing.T) {
	e := newEnv(t, true)
	orig := readTestdata(t, "rich-settings.json")
	e.writeSettings(orig)

	out, err := e.init("--yes", "--local-only", "--machine-id", "laptop")
	if err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	settings := e.read(e.settingsPath())
	want, err := MergeHooks(orig, BuildHooks(e.binDir, e.defaultHome(), true))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(settings, want) {
		t.Errorf("settings.json:\n%s", settings)
	}
	if !bytes.Equal(e.read(e.settingsPath()+".bak"), orig) {
		t.Error("settings.json.bak is not the original")
	}
	cfgPath := filepath.Join(e.defaultHome(), "config.json")
	if got := string(e.read(cfgPath)); got != "{\n  \"machine_id\": \"laptop\"\n}\n" {
		t.Errorf("config.json = %q", got)
	}
	if fi, _ := os.Stat(cfgPath); !atomicfile.HasPerm(fi, 0o600) {
		t.Errorf("config.json mode %o", fi.Mode().Perm())
	}
	srv, ok := e.mcpServers()["anamnesis"]
	if !ok || srv.Command != bin.Path(e.binDir, BinMCP) || len(srv.Env) != 0 {
		t.Errorf("MCP registration %+v (ok=%v)", srv, ok)
	}
	if got := string(e.read(e.syncLog)); got != "home="+e.defaultHome()+"\n" {
		t.Errorf("first sync: %q", got)
	}
	if !strings.Contains(out, "sync:   sync: pushed=0") {
		t.Errorf("sync output not shown:\n%s", out)
	}

	// Second run: nothing changes.
	calls := len(e.claudeCalls())
	bak := e.read(e.settingsPath() + ".bak")
	fiBefore, _ := os.Stat(e.settingsPath())
	out, err = e.init("--yes", "--no-sync")
	if err != nil {
		t.Fatalf("second init: %v\n%s", err, out)
	}
	if !bytes.Equal(e.read(e.settingsPath()), settings) || !bytes.Equal(e.read(e.settingsPath()+".bak"), bak) {
		t.Error("second init changed settings.json or its backup")
	}
	if fiAfter, _ := os.Stat(e.settingsPath()); !fiAfter.ModTime().Equal(fiBefore.ModTime()) {
		t.Error("second init rewrote settings.json")
	}
	if got := len(e.claudeCalls()); got != calls {
		t.Errorf("second init ran claude again: %q", e.claudeCalls()[calls:])
	}
	for _, s := range []string{"config: " + cfgPath + " unchanged", "hooks:  " + e.settingsPath() + " unchanged", `mcp:    "anamnesis" already registered`} {
		if !strings.Contains(out, s) {
			t.Errorf("second init output lacks %q:\n%s", s, out)
		}
	}

	// Uninstall restores the original bytes and unregisters.
	var uout bytes.Buffer
	if err := Uninstall(context.Background(), UninstallOptions{}, &uout, &uout); err != nil {
		t.Fatalf("uninstall: %v\n%s", err, uout.String())
	}
	if got := e.read(e.settingsPath()); !bytes.Equal(got, orig) {
		t.Errorf("uninstall left:\n%s", got)
	}
	if _, ok := e.mcpServers()["anamnesis"]; ok {
		t.Error("MCP server still registered")
	}
	if _, err := os.Stat(cfgPath); err != nil {
		t.Error("uninstall removed the store's config")
	}
	// Uninstall again: nothing to do, nothing written.
	uout.Reset()
	if err := Uninstall(context.Background(), UninstallOptions{}, &uout, &uout); err != nil || !strings.Contains(uout.String(), "hooks:  none") || !strings.Contains(uout.String(), "not registered") {
		t.Errorf("second uninstall: %v\n%s", err, uout.String())
	}
}

func TestInitMalformedSettingsChangesNothing(t *testing.T) {
	e := newEnv(t, true)
	bad := []byte("{\n  \"model\": \"opus\",\n  \"hooks\": {\n")
	e.writeSettings(bad)
	out, err := e.init("--yes", "--local-only")
	if err == nil {
		t.Fatalf("init accepted a malformed settings.json:\n%s", out)
	}
	if code := cli.Code(err); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(err.Error(), "settings.json: not valid JSON") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("error does not say why: %v", err)
	}
	if !bytes.Equal(e.read(e.settingsPath()), bad) {
		t.Error("settings.json changed")
	}
	for _, p := range []string{e.settingsPath() + ".bak", e.defaultHome(), e.syncLog} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if calls := e.claudeCalls(); len(calls) != 0 {
		t.Errorf("claude was run: %q", calls)
	}
}

// A settings.json its owner made read-only is left as it is: init says why
// and changes nothing (a rename over it would have replaced it).
func TestInitReadOnlySettingsChangesNothing(t *testing.T) {
	e := newEnv(t, true)
	old := []byte("{\"model\": \"opus\"}\n")
	e.writeSettings(old)
	if err := os.Chmod(e.settingsPath(), 0o444); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(e.settingsPath(), 0o644) })
	out, err := e.init("--yes", "--local-only")
	if err == nil {
		t.Fatalf("init replaced a read-only settings.json:\n%s", out)
	}
	if !strings.Contains(err.Error(), "is read-only") || !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("error does not say why: %v", err)
	}
	if !bytes.Equal(e.read(e.settingsPath()), old) {
		t.Error("settings.json changed")
	}
	for _, p := range []string{e.settingsPath() + ".bak", e.defaultHome()} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was created", p)
		}
	}
	if out, err := e.init("--print"); err != nil || !strings.Contains(out, "SessionStart") {
		t.Errorf("init --print does not show the hooks (%v):\n%s", err, out)
	}
	if out, err := e.init("--yes", "--local-only", "--no-hooks"); err != nil {
		t.Errorf("init --no-hooks refused too: %v\n%s", err, out)
	}
	if !bytes.Equal(e.read(e.settingsPath()), old) {
		t.Error("settings.json changed")
	}
}

func TestInitPrintWritesNothing(t *testing.T) {
	e := newEnv(t, true)
	orig := readTestdata(t, "reference-settings.json")
	e.writeSettings(orig)
	out, err := e.init("--print", "--remote", "git@example.com:me/notes.git", "--home", filepath.Join(e.userHome, "notes dir"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, s := range []string{
		"nothing is written",
		"would write " + filepath.Join(e.userHome, "notes dir", "config.json"),
		`"remote": "git@example.com:me/notes.git"`,
		"- SessionStart [startup|resume|clear] ANAMNESIS_MACHINE_ID=laptop uv run",
		"+ SessionStart [startup|resume|clear|compact] '" + bin.Path(e.binDir, BinInject) + "' --home '" + filepath.Join(e.userHome, "notes dir") + "' (timeout 15s)",
		"+ PreCompact '" + bin.Path(e.binDir, BinCapture) + "' --home '" + filepath.Join(e.userHome, "notes dir") + "' --source precompact --no-sync (timeout 60s)",
		"would run: " + cli.UserLine("claude", "mcp", "add", "--scope", "user", "-e", "ANAMNESIS_HOME="+filepath.Join(e.userHome, "notes dir"), "anamnesis", "--", bin.Path(e.binDir, BinMCP)),
		"would run a first sync",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("plan lacks %q:\n%s", s, out)
		}
	}
	if !bytes.Equal(e.read(e.settingsPath()), orig) {
		t.Error("--print changed settings.json")
	}
	for _, p := range []string{e.settingsPath() + ".bak", filepath.Join(e.userHome, "notes dir"), e.syncLog, e.claudeLog} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("--print created %s", p)
		}
	}
}

func TestInitWithoutClaudeCLI(t *testing.T) {
	e := newEnv(t, false)
	out, err := e.init("--yes", "--local-only", "--no-sync")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := cli.UserLine("claude", "mcp", "add", "--scope", "user", "anamnesis", "--", bin.Path(e.binDir, BinMCP))
	if !strings.Contains(out, "`claude` is not on PATH") || !strings.Contains(out, want) {
		t.Errorf("no clear message with the command %q:\n%s", want, out)
	}
	// The file did not exist: it is created, without a backup.
	if _, err := os.Stat(e.settingsPath()); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(e.settingsPath() + ".bak"); err == nil {
		t.Error("backup of a file that did not exist")
	}
	// Uninstall of a file init created removes it again.
	var uout bytes.Buffer
	if err := Uninstall(context.Background(), UninstallOptions{}, &uout, &uout); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(e.settingsPath()); err == nil {
		t.Errorf("uninstall left the settings.json init created:\n%s", e.read(e.settingsPath()))
	}
}

func TestInitReplacesEarlierRegistrationAndHooks(t *testing.T) {
	e := newEnv(t, true)
	e.writeSettings(readTestdata(t, "reference-settings.json"))
	// The reference registered `anamnesis serve` under the same name.
	old := `{"numStartups": 3, "mcpServers": {"anamnesis": {"type": "stdio", "command": "uv", "args": ["run", "--project", "/home/dev/anamnesis/server", "anamnesis", "serve"], "env": {}}, "other": {"type": "stdio", "command": "/bin/other"}}}`
	if err := os.WriteFile(filepath.Join(e.claudeDir, ".claude.json"), []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(e.userHome, "it's mine")
	out, err := e.init("--yes", "--local-only", "--no-sync", "--home", home)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	servers := e.mcpServers()
	if srv := servers["anamnesis"]; srv.Command != bin.Path(e.binDir, BinMCP) || srv.Env["ANAMNESIS_HOME"] != home || len(srv.Args) != 0 {
		t.Errorf("registration %+v", srv)
	}
	if _, ok := servers["other"]; !ok {
		t.Error("another MCP server was dropped")
	}
	if calls := e.claudeCalls(); len(calls) != 2 || !strings.HasPrefix(calls[0], "mcp remove --scope user anamnesis") {
		t.Errorf("claude calls %q", calls)
	}
	s := string(e.read(e.settingsPath()))
	if strings.Contains(s, "uv run") || !strings.Contains(s, `"command": "echo mine"`) || !strings.Contains(s, `"command": "notify-send done"`) {
		t.Errorf("settings:\n%s", s)
	}
	hooks, _ := FindHooks([]byte(s))
	if len(hooks) != 5 {
		t.Fatalf("hooks %+v", hooks)
	}
	for _, h := range hooks {
		if !strings.Contains(h.Line(), " --home '"+strings.ReplaceAll(home, "'", `'\''`)+"'") {
			t.Errorf("hook without the home: %s", h.Line())
		}
	}
	if !strings.Contains(out, "re-registered") {
		t.Errorf("output:\n%s", out)
	}
}

func TestInitRefusesWithoutBinaries(t *testing.T) {
	e := newEnv(t, true)
	if err := os.Remove(bin.Path(e.binDir, BinCapture)); err != nil {
		t.Fatal(err)
	}
	out, err := e.init("--yes", "--local-only")
	if err == nil || !strings.Contains(err.Error(), "anamnesis-capture not found in "+e.binDir) {
		t.Fatalf("err = %v\n%s", err, out)
	}
	if _, err := os.Stat(e.settingsPath()); err == nil {
		t.Error("settings.json written")
	}
}

func TestInitKeepsOtherConfigKeysAndRemote(t *testing.T) {
	e := newEnv(t, true)
	home := e.defaultHome()
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "{\n  \"machine_id\": \"old\",\n  \"reflection\": {\n    \"provider\": \"openai\",\n    \"api_key\": \"sk-x\"\n  },\n  \"remote\": \"git@h:r.git\"\n}\n"
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	// No --remote, no --local-only: the configured remote stays.
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "new"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := "{\n  \"machine_id\": \"new\",\n  \"reflection\": {\n    \"provider\": \"openai\",\n    \"api_key\": \"sk-x\"\n  },\n  \"remote\": \"git@h:r.git\"\n}\n"
	if got := string(e.read(filepath.Join(home, "config.json"))); got != want {
		t.Errorf("config.json:\n%s", got)
	}
	// --local-only drops the remote and keeps the rest.
	if out, err := e.init("--yes", "--no-sync", "--local-only"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var m map[string]any
	json.Unmarshal(e.read(filepath.Join(home, "config.json")), &m)
	if _, ok := m["remote"]; ok || m["machine_id"] != "new" || m["reflection"] == nil {
		t.Errorf("after --local-only: %v", m)
	}
}

func TestInitPrompts(t *testing.T) {
	e := newEnv(t, true)
	home := filepath.Join(e.userHome, "prompted home")
	var out bytes.Buffer
	in := strings.NewReader(home + "\nbox-1\nnone\n\n")
	opts := InitOptions{Paths: Paths{BinDir: e.binDir}, NoSync: true, forceInteractive: true}
	if err := Init(context.Background(), opts, in, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, s := range []string{"Store directory [" + e.defaultHome() + "]: ", "Machine id [", "(\"none\" for local only) [none]: ", "Proceed? [Y/n]: "} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("no prompt %q:\n%s", s, out.String())
		}
	}
	if got := string(e.read(filepath.Join(home, "config.json"))); got != "{\n  \"machine_id\": \"box-1\"\n}\n" {
		t.Errorf("config.json %q", got)
	}

	// Answering no changes nothing.
	out.Reset()
	before := e.read(e.settingsPath())
	opts.Home = filepath.Join(e.userHome, "other")
	if err := Init(context.Background(), opts, strings.NewReader("\n\nn\n"), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "init: nothing changed") || !bytes.Equal(before, e.read(e.settingsPath())) {
		t.Errorf("declined init changed something:\n%s", out.String())
	}
	if _, err := os.Stat(opts.Home); err == nil {
		t.Error("declined init created the home")
	}
}

func TestInitSymlinkedSettingsStaysALink(t *testing.T) {
	e := newEnv(t, false)
	dotfiles := filepath.Join(e.userHome, "dotfiles")
	os.MkdirAll(dotfiles, 0o755)
	target := filepath.Join(dotfiles, "claude-settings.json")
	if err := os.WriteFile(target, []byte("{\n  \"model\": \"opus\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, e.settingsPath()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(e.settingsPath()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this file system makes no symbolic links (Wine)")
	}
	if out, err := e.init("--yes", "--local-only", "--no-sync", "--no-mcp"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Lstat(e.settingsPath()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("settings.json is no longer a symlink")
	}
	if hooks, _ := FindHooks(e.read(target)); len(hooks) != 5 {
		t.Errorf("target not updated:\n%s", e.read(target))
	}
}

// A settings.json link whose target does not exist yet (dotfiles linked
// before the file was made) stays a link: init creates the file it points
// to, and uninstall, finding only our hooks there, removes that file, never
// the link (init used to replace the link with a regular file).
func TestInitDanglingSettingsLinkStaysALink(t *testing.T) {
	e := newEnv(t, false)
	dotfiles := filepath.Join(e.userHome, "dotfiles")
	os.MkdirAll(dotfiles, 0o755)
	target := filepath.Join(dotfiles, "claude-settings.json")
	if err := os.Symlink("../dotfiles/claude-settings.json", e.settingsPath()); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(e.settingsPath()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this file system makes no symbolic links (Wine)")
	}
	if filepath.Dir(e.settingsPath()) != filepath.Join(e.userHome, ".claude") {
		t.Skip("settings.json is not in <home>/.claude")
	}
	if out, err := e.init("--yes", "--local-only", "--no-sync", "--no-mcp"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Lstat(e.settingsPath()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("settings.json is no longer a symlink")
	}
	if hooks, _ := FindHooks(e.read(target)); len(hooks) != 5 {
		t.Errorf("target not written:\n%s", e.read(target))
	}
	var out bytes.Buffer
	if err := Uninstall(context.Background(), UninstallOptions{Paths: Paths{BinDir: e.binDir}}, &out, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if fi, err := os.Lstat(e.settingsPath()); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("uninstall removed the link: %v\n%s", err, out.String())
	}
}

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	e := newEnv(t, false)
	var out bytes.Buffer
	if err := Init(context.Background(), InitOptions{Paths: Paths{BinDir: e.binDir}, NoSync: true, NoMCP: true, LocalOnly: true}, f, &out, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Proceed?") || strings.Contains(out.String(), "nothing changed") {
		t.Errorf("init prompted with stdin at /dev/null:\n%s", out.String())
	}
}

// The plan init prints shows config.json as it will be written, and that file
// may hold credentials set earlier (config set, team add): the remote's token,
// a base URL's password, the API key, a team's token. The plan masks them as
// config list does; the file written keeps them.
func TestInitPlanMasksConfigCredentials(t *testing.T) {
	e := newEnv(t, true)
	home := e.defaultHome()
	if err := os.MkdirAll(home, 0o700); err != nil {
		t.Fatal(err)
	}
	secrets := []string{"ghp_RemoteToken1234567890abcdefABCD", "BasePassw0rd99", "sk-ApiKeyInConfig1234567890", "TeamTok3nSecret77"}
	cfg := `{"machine_id": "old", "remote": "https://alice:` + secrets[0] + `@github.com/a/b.git",
 "reflection": {"provider": "openai", "base_url": "https://bob:` + secrets[1] + `@llm.example.com/v1", "api_key": "` + secrets[2] + `"},
 "teams": {"acme": {"url": "https://carol:` + secrets[3] + `@git.example.com/acme.git"}}}`
	if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--print", "--machine-id", "new"}, {"--yes", "--no-sync", "--machine-id", "new"}} {
		out, err := e.init(args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if !strings.Contains(out, "config.json") {
			t.Fatalf("init %v shows no config plan:\n%s", args, out)
		}
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("init %v prints the credential %q:\n%s", args, s, out)
			}
		}
	}
	written := string(e.read(filepath.Join(home, "config.json")))
	for _, s := range secrets {
		if !strings.Contains(written, s) {
			t.Errorf("config.json lost %q:\n%s", s, written)
		}
	}
}

// The MCP server name (--name) is a word of the `claude mcp add|remove`
// command line: one that starts with '-' is read by claude as an option
// ("--help" printed claude's help and init said it had registered the
// server), one with a space or newline is two words. init and uninstall
// refuse such a name as a usage error before changing anything.
func TestMCPNameMustBeAWord(t *testing.T) {
	for _, name := range []string{"-x", "--help", "a b", "a\nb", "a/b"} {
		e := newEnv(t, true)
		var out bytes.Buffer
		err := Init(context.Background(), InitOptions{Paths: Paths{BinDir: e.binDir}, Name: name, Yes: true, NoSync: true},
			strings.NewReader(""), &out, &out)
		if err == nil || cli.Code(err) != 2 {
			t.Errorf("init --name %q: %v, want a usage error\n%s", name, err, out.String())
		}
		if calls := e.claudeCalls(); len(calls) > 0 {
			t.Errorf("init --name %q ran claude: %q", name, calls)
		}
		for _, p := range []string{e.settingsPath(), e.defaultHome()} {
			if _, err := os.Stat(p); err == nil {
				t.Errorf("init --name %q created %s", name, p)
			}
		}
		out.Reset()
		err = Uninstall(context.Background(), UninstallOptions{Paths: Paths{BinDir: e.binDir}, Name: name}, &out, &out)
		if err == nil || cli.Code(err) != 2 {
			t.Errorf("uninstall --name %q: %v, want a usage error\n%s", name, err, out.String())
		}
		if calls := e.claudeCalls(); len(calls) > 0 {
			t.Errorf("uninstall --name %q ran claude: %q", name, calls)
		}
	}
}

// init finds a Claude Code directory it cannot write before it writes
// anything: it used to create the store and its config.json, then fail on
// settings.json.bak, leaving half an install. The directory is made
// read-only (chmod; as root, where chmod does not bind, chattr +i).
func TestInitReadOnlySettingsDirChangesNothing(t *testing.T) {
	if isWindows() {
		t.Skip("no read-only directories under Wine")
	}
	chattr, _ := exec.LookPath("chattr") // before newEnv sets PATH
	e := newEnv(t, true)
	e.writeSettings([]byte("{\"model\": \"opus\"}\n"))
	if err := os.Chmod(e.claudeDir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(e.claudeDir, 0o755) })
	if f, err := os.CreateTemp(e.claudeDir, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		if chattr == "" || exec.Command(chattr, "+i", e.claudeDir).Run() != nil {
			t.Skip("cannot make a read-only directory here")
		}
		t.Cleanup(func() { exec.Command(chattr, "-i", e.claudeDir).Run() })
	}
	out, err := e.init("--yes", "--no-sync")
	if err == nil {
		t.Fatalf("init succeeded:\n%s", out)
	}
	if !strings.Contains(err.Error(), "nothing was changed") {
		t.Errorf("error does not say nothing changed: %v\n%s", err, out)
	}
	if _, err := os.Stat(e.defaultHome()); err == nil {
		t.Errorf("init created the store %s:\n%s", e.defaultHome(), out)
	}
	if calls := e.claudeCalls(); len(calls) > 0 {
		t.Errorf("init ran claude: %q", calls)
	}
}
