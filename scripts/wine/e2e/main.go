// Command e2e is the Windows end to end under Wine, on a prefix made for it
// (scripts/wine/e2e.sh makes a fresh one and runs this in it): a user
// unpacks the release zip, installs it (the steps of install.ps1, through
// cmd.exe: Wine has no PowerShell, its powershell.exe is a stub), opens a
// new console and runs `anamnesis doctor`, writes a note and finds it, and
// Claude Code runs the hooks init wrote into settings.json (argument lists,
// started with no shell), fed the hook payloads the real Claude Code CLI wrote
// (testdata/fixtures/claude-code, their paths made Windows ones). Each step
// prints what it ran and what came out; the first failed check stops it.
package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "wine e2e: FAIL:", err)
		os.Exit(1)
	}
	fmt.Println("wine e2e: ok")
}

// wineEnv is the prefix this runs in (WINEPREFIX, set by e2e.sh).
type wineEnv struct {
	prefix, wine string
	profile      string // %USERPROFILE%, e.g. C:\users\root
}

// unix is where a Windows path C:\... lies in the prefix.
func (w wineEnv) unix(win string) string {
	rest, ok := strings.CutPrefix(win, `C:\`)
	if !ok {
		rest, _ = strings.CutPrefix(win, `c:\`)
	}
	return filepath.Join(w.prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(rest, `\`, "/")))
}

// exec runs a Windows program under Wine (stdin from in).
func (w wineEnv) exec(in []byte, args ...string) (stdout, stderr string, code int, err error) {
	cmd := exec.Command(w.wine, args...)
	cmd.Stdin = bytes.NewReader(in)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	if x, ok := err.(*exec.ExitError); ok {
		return o.String(), e.String(), x.ExitCode(), nil
	}
	return o.String(), e.String(), 0, err
}

// batch writes body as C:\e2e\name.cmd and runs it as cmd.exe runs a
// command line: `cmd /c C:\e2e\name.cmd` in a new console (a new Wine
// process tree, whose environment comes from the registry).
func (w wineEnv) batch(name, body string, in []byte) (string, string, int, error) {
	win := `C:\e2e\` + name + ".cmd"
	if err := os.MkdirAll(filepath.Dir(w.unix(win)), 0o755); err != nil {
		return "", "", 0, err
	}
	text := "@echo off\r\n" + strings.ReplaceAll(body, "\n", "\r\n") + "\r\nexit /b %errorlevel%\r\n"
	if err := os.WriteFile(w.unix(win), []byte(text), 0o644); err != nil {
		return "", "", 0, err
	}
	fmt.Printf("--- %s:\n%s", name, indent(body))
	o, e, code, err := w.exec(in, "cmd", "/c", win)
	fmt.Printf("exit %d\nstdout:\n%sstderr:\n%s", code, indent(o), indent(e))
	return o, e, code, err
}

func indent(s string) string {
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\r\n"), "\n", "\n    ") + "\n"
}

func run() error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	w := wineEnv{prefix: os.Getenv("WINEPREFIX"), wine: os.Getenv("ANAMNESIS_WINE64")}
	if w.prefix == "" || w.wine == "" {
		return fmt.Errorf("run through scripts/wine/e2e.sh (WINEPREFIX and ANAMNESIS_WINE64 unset)")
	}
	o, _, _, err := w.exec(nil, "cmd", "/c", "echo %USERPROFILE%")
	if err != nil {
		return err
	}
	w.profile = strings.TrimSpace(o)
	if !strings.HasPrefix(strings.ToLower(w.profile), `c:\`) {
		return fmt.Errorf("USERPROFILE is %q", w.profile)
	}
	tmp, err := os.MkdirTemp("", "anamnesis-wine-e2e-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	// The release zip: every binary (as `make cross` builds it) and
	// install.ps1 at the archive root, as .goreleaser.yaml lays it out.
	names, err := installNames(filepath.Join(root, "scripts", "install.ps1"))
	if err != nil {
		return err
	}
	stage := filepath.Join(tmp, "stage")
	for _, n := range names {
		if err := goBuild(root, filepath.Join(stage, n+".exe"), "./cmd/"+n); err != nil {
			return err
		}
	}
	zipPath := filepath.Join(tmp, "anamnesis_windows_amd64.zip")
	if err := makeZip(zipPath, stage, filepath.Join(root, "scripts", "install.ps1")); err != nil {
		return err
	}
	// The user unpacks it into Downloads (Explorer's "Extract all").
	unpacked := w.profile + `\Downloads\anamnesis_windows_amd64`
	if err := unzip(zipPath, w.unix(unpacked)); err != nil {
		return err
	}
	// Claude Code as npm installs it: claude.cmd on the user's PATH,
	// calling the program in node_modules (here a stand-in, see claude/).
	o, _, _, err = w.exec(nil, "cmd", "/c", "echo %APPDATA%")
	if err != nil {
		return err
	}
	npm := strings.TrimSpace(o) + `\npm`
	if err := goBuild(root, w.unix(npm+`\node_modules\@anthropic-ai\claude-code\claude.exe`), "./scripts/wine/e2e/claude"); err != nil {
		return err
	}
	if err := os.WriteFile(w.unix(npm+`\claude.cmd`), []byte("@\"%~dp0node_modules\\@anthropic-ai\\claude-code\\claude.exe\" %*\r\n"), 0o644); err != nil {
		return err
	}
	if _, _, code, err := w.batch("npm-path", `reg add HKCU\Environment /v Path /t REG_EXPAND_SZ /d "`+npm+`" /f`, nil); err != nil || code != 0 {
		return fmt.Errorf("setting the user PATH: exit %d, %v", code, err)
	}

	// install.ps1's steps, in its order: copy the binaries (all present
	// first) into the bin folder (-BinDir: one with a space, & and ','),
	// append that to the user's PATH, run `anamnesis init --yes` (no
	// console: --yes).
	list := strings.Join(names, " ")
	install := `set "BinDir=%LOCALAPPDATA%\Programs\R&D, Anamnesis\bin"
set "Here=` + unpacked + `"
if not exist "%BinDir%" mkdir "%BinDir%"
for %%n in (` + list + `) do if not exist "%Here%\%%n.exe" goto missing
for %%n in (` + list + `) do copy /y "%Here%\%%n.exe" "%BinDir%\%%n.exe" >nul
for /f "tokens=2,*" %%a in ('reg query HKCU\Environment /v Path') do set "UserPath=%%b"
reg add HKCU\Environment /v Path /t REG_EXPAND_SZ /d "%UserPath%;%BinDir%" /f >nul
set "Path=%Path%;%UserPath%;%BinDir%"
"%BinDir%\anamnesis.exe" init --yes
exit /b %errorlevel%
:missing
echo a binary is missing; nothing was installed
exit /b 1`
	o, e, code, err := w.batch("install", install, nil)
	if err != nil || code != 0 {
		return fmt.Errorf("install: exit %d, %v", code, err)
	}
	if !strings.Contains(o, "hooks:") || !strings.Contains(o+e, "mcp:") {
		return fmt.Errorf("init did not report its hooks and MCP steps")
	}

	// A new console: `anamnesis` is found through the user PATH.
	o, _, code, err = w.batch("doctor", "anamnesis doctor", nil)
	if err != nil {
		return err
	}
	// Wine has no git for Windows (nor can it be fetched here): doctor's
	// git check fails, and must be its only failure.
	noGit := false
	for _, l := range strings.Split(strings.ReplaceAll(o, "\r", ""), "\n") {
		switch {
		case strings.HasPrefix(l, "FAIL git: git is not on PATH"):
			noGit = true
		case strings.HasPrefix(l, "FAIL"), strings.HasPrefix(l, "warn"):
			return fmt.Errorf("doctor: %s", l)
		}
	}
	if code != 0 && !(code == 1 && noGit) {
		return fmt.Errorf("doctor: exit %d", code)
	}
	for _, want := range []string{"ok   binaries:", "SessionStart inject hook installed", "UserPromptSubmit recall hook installed", "registered at user scope and answering", "ok   index:"} {
		if !strings.Contains(o, want) {
			return fmt.Errorf("doctor does not say %q", want)
		}
	}

	// The project the payloads come from, as a Windows folder, and its
	// transcripts where Claude Code keeps them on Windows.
	cwd := w.profile + `\src\quotes-api`
	if err := os.MkdirAll(w.unix(cwd), 0o755); err != nil {
		return err
	}
	projects := w.profile + `\.claude\projects\` + strings.NewReplacer(`:`, "-", `\`, "-").Replace(cwd)
	fixtures := filepath.Join(root, "testdata", "fixtures", "claude-code")
	rewrite := func(b []byte) []byte {
		j := func(s string) string { q, _ := json.Marshal(s); return string(q[1 : len(q)-1]) }
		return []byte(strings.NewReplacer(
			"/home/dev/.claude/projects/-home-dev-src-quotes-api/", j(projects+`\`),
			"/home/dev/src/quotes-api", j(cwd)).Replace(string(b)))
	}
	for _, id := range []string{"82bbae79-5e52-46b7-ad51-8df6a1dfb533", "239322a7-fdb7-41ad-813c-4cd5ee56adbd"} {
		b, err := os.ReadFile(filepath.Join(fixtures, "projects", "-home-dev-src-quotes-api", id+".jsonl"))
		if err != nil {
			return err
		}
		dst := w.unix(projects + `\` + id + ".jsonl")
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, rewrite(b), 0o644); err != nil {
			return err
		}
	}
	payload := func(name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(fixtures, "payloads", name))
		return rewrite(b), err
	}

	// A note written and found, from the project's folder.
	o, _, code, err = w.batch("write", `cd /d "`+cwd+`"
anamnesis write --type procedural --title "Deploying quotes-api to staging" --project quotes-api --body "Run make deploy-staging; the kubeconfig context must be quotes-stg. Roll back with helm rollback quotes-api."`, nil)
	if err != nil || code != 0 || strings.TrimSpace(o) == "" {
		return fmt.Errorf("write: exit %d, %v", code, err)
	}
	o, _, code, err = w.batch("search", `anamnesis search "kubeconfig rollback staging"`, nil)
	if err != nil || code != 0 || !strings.Contains(o, "Deploying quotes-api to staging") {
		return fmt.Errorf("search did not find the note: exit %d, %v", code, err)
	}

	// The hooks, as Claude Code runs them: the argument list init wrote,
	// started with no shell, the payload on stdin.
	hooks, err := hookCommands(w.unix(w.profile + `\.claude\settings.json`))
	if err != nil {
		return err
	}
	hook := func(event, bin string, p []byte) (string, error) {
		var argv []string
		for _, c := range hooks[event] {
			if strings.HasSuffix(c[0], `\`+bin+".exe") {
				argv = c
			}
		}
		if argv == nil {
			return "", fmt.Errorf("settings.json has no %s hook running %s: %q", event, bin, hooks[event])
		}
		fmt.Printf("--- %s hook: %q\n", event, argv)
		o, e, code, err := w.exec(p, argv...)
		fmt.Printf("exit %d\nstdout:\n%sstderr:\n%s", code, indent(o), indent(e))
		if err != nil || code != 0 {
			return "", fmt.Errorf("%s: exit %d, %v", bin, code, err)
		}
		return o, nil
	}
	p, err := payload("SessionStart-startup-82bbae79.json")
	if err != nil {
		return err
	}
	if o, err = hook("SessionStart", "anamnesis-inject", p); err != nil {
		return err
	}
	if !strings.Contains(o, "Deploying quotes-api to staging") {
		return fmt.Errorf("inject's block lacks the note")
	}
	// UserPromptSubmit: no payload of it was recorded; it is SessionStart's
	// of another session with the fields Claude Code adds for a prompt.
	var up map[string]any
	if p, err = payload("SessionStart-startup-239322a7.json"); err != nil {
		return err
	}
	json.Unmarshal(p, &up)
	delete(up, "source")
	up["hook_event_name"], up["prompt"], up["permission_mode"] = "UserPromptSubmit", "How do I roll back the staging deploy of quotes-api? Which kubeconfig context?", "default"
	p, _ = json.Marshal(up)
	if o, err = hook("UserPromptSubmit", "anamnesis-recall", p); err != nil {
		return err
	}
	if !strings.Contains(o, "Deploying quotes-api to staging") {
		return fmt.Errorf("recall did not bring the note")
	}
	if p, err = payload("SessionEnd-other-82bbae79.json"); err != nil {
		return err
	}
	if o, err = hook("SessionEnd", "anamnesis-capture", p); err != nil {
		return err
	}
	// The hook hands the session to a detached child, which logs the note.
	if !strings.Contains(o, "capturing the session in the background (pid ") {
		return fmt.Errorf("capture did not hand the session to its child")
	}
	var m []string
	logPath := w.unix(w.profile + `\.anamnesis\logs\anamnesis.log`)
	for end := time.Now().Add(time.Minute); m == nil && time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		data, _ := os.ReadFile(logPath)
		m = regexp.MustCompile(`wrote episodic note (\w+)`).FindStringSubmatch(string(data))
	}
	if m == nil {
		return fmt.Errorf("capture's child wrote no note within a minute (see %s)", logPath)
	}
	if _, err := os.Stat(w.unix(w.profile + `\.anamnesis\memory\episodic\` + m[1] + ".md")); err != nil {
		return fmt.Errorf("the captured note's file: %v", err)
	}
	o, _, code, err = w.batch("get-captured", "anamnesis get "+m[1], nil)
	if err != nil || code != 0 || !strings.Contains(strings.ToLower(o), "health") {
		return fmt.Errorf("the captured note (of a session adding a health check) cannot be shown: exit %d, %v", code, err)
	}
	return nil
}

// installNames is install.ps1's list of binaries ($names).
func installNames(ps1 string) ([]string, error) {
	b, err := os.ReadFile(ps1)
	if err != nil {
		return nil, err
	}
	_, rest, ok := strings.Cut(string(b), "$names = ")
	block, _, _ := strings.Cut(rest, "\n\n")
	var names []string
	for _, m := range regexp.MustCompile(`'(anamnesis[a-z-]*)'`).FindAllStringSubmatch(block, -1) {
		names = append(names, m[1])
	}
	if !ok || len(names) < 5 {
		return nil, fmt.Errorf("%s: no $names list found", ps1)
	}
	return names, nil
}

func goBuild(root, out, pkg string) error {
	cmd := exec.Command("go", "build", "-pgo=off", "-trimpath", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
	}
	return nil
}

func makeZip(path, dir string, extra ...string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, p := range append(files, extra...) {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		e, err := zw.Create(filepath.Base(p))
		if err != nil {
			return err
		}
		e.Write(b)
	}
	return zw.Close()
}

func unzip(path, dst string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range zr.File {
		r, err := e.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(e.Name)), b, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// hookCommands is settings.json's hooks by event, each as the argument
// list Claude Code starts (on Windows init writes "command" and "args",
// which it runs with no shell).
func hookCommands(settings string) (map[string][][]string, error) {
	b, err := os.ReadFile(settings)
	if err != nil {
		return nil, err
	}
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string
				Args    []string
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", settings, err)
	}
	out := map[string][][]string{}
	for ev, groups := range s.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Args == nil {
					return nil, fmt.Errorf("%s: the %s hook %q is a shell command, not an argument list", settings, ev, h.Command)
				}
				out[ev] = append(out[ev], append([]string{h.Command}, h.Args...))
			}
		}
	}
	return out, nil
}
