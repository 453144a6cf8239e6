// Package setup wires Anamnesis into Claude Code and checks the wiring:
// `anamnesis init`, `anamnesis uninstall` and `anamnesis doctor` (SPEC 8).
package setup

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/term"
)

// InitOptions are `anamnesis init`'s flags.
type InitOptions struct {
	Paths
	MachineID string // --machine-id; "" = env, config.json, hostname
	Remote    string // --remote; "" = env ANAMNESIS_GIT_REMOTE, config.json
	LocalOnly bool   // --local-only: no remote
	Name      string // --name: MCP server name (default "anamnesis")
	NoMCP     bool
	NoHooks   bool
	NoSync    bool
	Yes       bool // never prompt
	Print     bool // show the plan, write nothing

	// SyncTimeout bounds the first sync (default 2 minutes).
	SyncTimeout time.Duration

	// forceInteractive lets tests drive the prompts without a terminal.
	forceInteractive bool
}

// initPlan is everything init would do, computed before anything is written
// so that a refusal (malformed settings.json, missing binaries) changes
// nothing.
type initPlan struct {
	p         Paths
	machineID string
	remote    string

	configPath  string
	configOld   []byte
	configNew   []byte       // nil: unchanged
	config      *config.File // what writes configNew
	configBadly error        // the old config.json was malformed

	settingsPath string // the real file (symlinks followed)
	settingsOld  []byte
	settingsHad  bool
	settingsNew  []byte // nil: unchanged
	hooksRemoved []InstalledHook
	hooksAdded   EventGroups

	mcpName    string
	mcpWant    MCPServer
	mcpHave    *MCPServer // nil: not registered (or unknown, see mcpReadErr)
	mcpReadErr error
	claude     string // path of the claude CLI, "" if not on PATH
	mcpChange  bool

	syncBin string
	noSync  bool

	// plugin is the enabled Anamnesis Claude Code plugin ("" = none); it
	// brings the hooks and the MCP server, so init installs neither.
	plugin string
}

func hostnameOr(def string) string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return def
}

// Init runs `anamnesis init`.
func Init(ctx context.Context, opts InitOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	if opts.LocalOnly && opts.Remote != "" {
		return usageErr("--remote and --local-only exclude each other")
	}
	if opts.Name == "" {
		opts.Name = DefaultMCPName
	}
	if err := checkMCPName(opts.Name); err != nil {
		return err
	}
	homeGiven := opts.Home != "" || config.Resolve("", os.Getenv).HomeFromEnv
	p, err := opts.Paths.Resolve()
	if err != nil {
		return err
	}
	interactive := !opts.Yes && !opts.Print && (term.IsTerminal(stdin) || opts.forceInteractive)
	var in *bufio.Reader
	if interactive {
		in = bufio.NewReader(stdin)
		fmt.Fprintln(stdout, "Setting up Anamnesis (press Enter to accept the value in brackets).")
		if !homeGiven {
			h := ask(in, stdout, "Store directory", p.Home)
			if h != p.Home {
				opts.Paths.Home = h
				if p, err = opts.Paths.Resolve(); err != nil {
					return err
				}
			}
		}
	}

	configOld, _, err := readOptional(p.ConfigPath())
	if err != nil {
		return err
	}
	// What is in effect now (environment, then config.json, then defaults).
	cur := config.Resolve(p.Home, os.Getenv)
	machineID := firstNonEmpty(opts.MachineID, cur.MachineID)
	remote := ""
	remoteGiven := opts.Remote != "" || opts.LocalOnly
	switch {
	case opts.LocalOnly:
	case opts.Remote != "":
		remote = opts.Remote
	default:
		remote = cur.Remote
	}
	if interactive {
		if opts.MachineID == "" {
			machineID = ask(in, stdout, "Machine id", machineID)
		}
		if !remoteGiven {
			shown := remote
			if shown == "" {
				shown = "none"
			}
			r := ask(in, stdout, "Git remote for syncing your machines (\"none\" for local only)", shown)
			if r == "none" || r == "-" {
				r = ""
			}
			remote = r
		}
	}
	if err := config.Validate("machine_id", machineID); err != nil {
		return usageErr("%v", err)
	}
	if remote != "" {
		if err := config.Validate("remote", remote); err != nil {
			return usageErr("%v", err)
		}
	}

	plan, err := makeInitPlan(p, opts, machineID, remote, configOld)
	if err != nil {
		return err
	}
	if opts.Print {
		plan.describe(stdout, true)
		return nil
	}
	if interactive {
		plan.describe(stdout, false)
		if !confirm(in, stdout, "Proceed?") {
			fmt.Fprintln(stdout, "init: nothing changed")
			return nil
		}
	}
	return plan.execute(ctx, opts, stdout, stderr)
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func ask(in *bufio.Reader, out io.Writer, question, def string) string {
	fmt.Fprintf(out, "%s [%s]: ", question, def)
	line, _ := in.ReadString('\n')
	line = strings.TrimSpace(line)
	if line == "" {
		return def
	}
	return line
}

func confirm(in *bufio.Reader, out io.Writer, question string) bool {
	fmt.Fprintf(out, "%s [Y/n]: ", question)
	line, err := in.ReadString('\n')
	line = strings.ToLower(strings.TrimSpace(line))
	if err != nil && line == "" {
		return false // EOF: no answer is not a yes
	}
	return line == "" || line == "y" || line == "yes"
}

func makeInitPlan(p Paths, opts InitOptions, machineID, remote string, configOld []byte) (*initPlan, error) {
	plan := &initPlan{p: p, machineID: machineID, remote: remote, mcpName: opts.Name, noSync: opts.NoSync}

	if !opts.NoHooks || !opts.NoMCP {
		cur, _, err := readOptional(atomicfile.LinkTarget(p.SettingsPath()))
		if err != nil {
			return nil, err
		}
		if plan.plugin = EnabledPlugin(cur); plan.plugin != "" {
			opts.NoHooks, opts.NoMCP = true, true
		}
	}

	// Binaries first: hooks pointing at files that are not there would
	// make every Claude Code session report a failing hook.
	var need []string
	if !opts.NoHooks {
		need = append(need, BinInject, BinRecall, BinCapture, BinSync)
	}
	if !opts.NoMCP {
		need = append(need, BinMCP)
	}
	var missing []string
	for _, b := range need {
		if !bin.IsExecutable(bin.Path(p.BinDir, b)) {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s not found in %s; install all binaries together (./scripts/install.sh) and run init from there; nothing was changed",
			strings.Join(missing, ", "), p.BinDir)
	}

	// config.json: written only when a value changes, so a second init is
	// a no-op whoever formatted the file last.
	plan.configPath = p.ConfigPath()
	plan.configOld = configOld
	f, badly := config.Parse(plan.configPath, configOld)
	plan.configBadly = badly
	fileMachine, _ := f.Get("machine_id")
	fileRemote, _ := f.Get("remote")
	if badly != nil || fileMachine != machineID || fileRemote != remote || configOld == nil {
		if err := f.Set("machine_id", machineID); err != nil {
			return nil, err
		}
		if remote == "" {
			f.Unset("remote")
		} else if err := f.Set("remote", remote); err != nil {
			return nil, err
		}
		nb, err := f.Bytes()
		if err != nil {
			return nil, err
		}
		plan.config, plan.configNew = f, nb
	}

	if !opts.NoHooks {
		plan.settingsPath = atomicfile.LinkTarget(p.SettingsPath())
		old, had, err := readOptional(plan.settingsPath)
		if err != nil {
			return nil, err
		}
		plan.settingsOld, plan.settingsHad = old, had
		plan.hooksAdded = BuildHooks(p.BinDir, p.Home, p.HomeIsDefault)
		nb, err := MergeHooks(old, plan.hooksAdded)
		var se *SettingsError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: %s; fix or move the file and run init again (nothing was changed)", p.SettingsPath(), se.Reason)
		}
		if err != nil {
			return nil, err
		}
		plan.hooksRemoved, _ = FindHooks(old)
		if !had || !bytes.Equal(nb, old) {
			plan.settingsNew = nb
		}
		// A settings file its owner made read-only is not init's to
		// replace (a rename would go through all the same); --print still
		// shows the hooks, for the owner to add.
		if fi, err := os.Stat(plan.settingsPath); err == nil && plan.settingsNew != nil && fi.Mode().Perm()&0o200 == 0 && !opts.Print {
			return nil, fmt.Errorf("%s is read-only (mode %04o): make it writable and run init again, or run init --no-hooks and add the hooks `anamnesis init --print` shows yourself (nothing was changed)", p.SettingsPath(), fi.Mode().Perm())
		}
	}

	if !opts.NoMCP {
		plan.mcpWant = MCPServer{Type: "stdio", Command: bin.Path(p.BinDir, BinMCP)}
		if !p.HomeIsDefault {
			plan.mcpWant.Env = map[string]string{"ANAMNESIS_HOME": p.Home}
		}
		servers, err := readMCPServers(p.ClaudeJSON)
		if err != nil {
			plan.mcpReadErr = err
			plan.mcpChange = true
		} else if have, ok := servers[opts.Name]; ok {
			plan.mcpHave = &have
			plan.mcpChange = !have.same(plan.mcpWant)
		} else {
			plan.mcpChange = true
		}
		if c, err := exec.LookPath("claude"); err == nil {
			plan.claude = c
		}
	}
	if !opts.NoSync {
		plan.syncBin = bin.Path(p.BinDir, BinSync)
	}
	return plan, nil
}

func (plan *initPlan) mcpAddLine() string {
	return cli.UserLine(append([]string{"claude"}, mcpAddArgs(plan.mcpName, plan.mcpWant)...)...)
}

// describe prints what init will do (dry is --print: "would").
func (plan *initPlan) describe(w io.Writer, dry bool) {
	will := "will"
	if dry {
		will = "would"
	}
	fmt.Fprintf(w, "anamnesis init %s:\n", map[bool]string{true: "plan (--print: nothing is written)", false: "plan"}[dry])
	fmt.Fprintf(w, "  store:  %s (machine id %q, %s)\n", plan.p.Home, plan.machineID, remoteText(plan.remote))
	fmt.Fprintf(w, "  bin:    %s\n", plan.p.BinDir)
	if plan.configNew != nil {
		fmt.Fprintf(w, "  config: %s write %s (mode 0600):\n", will, plan.configPath)
		shown, err := plan.config.Shown(gitsync.MaskURL)
		if err != nil {
			shown = []byte("(config.json holds a value that cannot be shown)")
		}
		for _, l := range strings.Split(strings.TrimRight(string(shown), "\n"), "\n") {
			fmt.Fprintf(w, "            %s\n", l)
		}
	} else {
		fmt.Fprintf(w, "  config: %s unchanged\n", plan.configPath)
	}
	switch {
	case plan.plugin != "":
		fmt.Fprintf(w, "  hooks:  skipped: the Claude Code plugin %s is enabled and brings the hooks and the MCP server\n"+
			"          (to let init install them instead: claude plugin uninstall %s)\n", plan.plugin, plan.plugin)
	case plan.settingsPath == "":
		fmt.Fprintln(w, "  hooks:  skipped (--no-hooks)")
	case plan.settingsNew == nil:
		fmt.Fprintf(w, "  hooks:  %s already has the hooks, unchanged\n", plan.settingsPath)
	default:
		bak := "settings.json.bak"
		if !plan.settingsHad {
			bak = "new file, no backup"
		} else if _, err := os.Stat(plan.settingsPath + ".bak"); err == nil {
			if hooks, _ := FindHooks(plan.settingsOld); len(hooks) > 0 {
				bak = "its Anamnesis hooks replaced; settings.json.bak kept"
			}
		}
		fmt.Fprintf(w, "  hooks:  %s update %s (%s):\n", will, plan.settingsPath, bak)
		for _, h := range plan.hooksRemoved {
			fmt.Fprintf(w, "          - %s %s\n", h.Event, hookText(h.Matcher, h.HookCommand))
		}
		for _, eg := range plan.hooksAdded {
			for _, g := range eg.Groups {
				for _, h := range g.Hooks {
					fmt.Fprintf(w, "          + %s %s\n", eg.Event, hookText(g.Matcher, h))
				}
			}
		}
	}
	switch {
	case plan.plugin != "":
		fmt.Fprintf(w, "  mcp:    skipped: the plugin %s runs it\n", plan.plugin)
	case plan.mcpWant.Command == "":
		fmt.Fprintln(w, "  mcp:    skipped (--no-mcp)")
	case !plan.mcpChange:
		fmt.Fprintf(w, "  mcp:    %q already registered, unchanged\n", plan.mcpName)
	case plan.claude == "":
		fmt.Fprintf(w, "  mcp:    `claude` is not on PATH; register the server yourself with:\n            %s\n", plan.mcpAddLine())
	default:
		if plan.mcpHave != nil || plan.mcpReadErr != nil {
			fmt.Fprintf(w, "  mcp:    %s run: %s\n", will, cli.UserLine("claude", "mcp", "remove", "--scope", "user", plan.mcpName))
		}
		fmt.Fprintf(w, "  mcp:    %s run: %s\n", will, plan.mcpAddLine())
	}
	if plan.noSync {
		fmt.Fprintln(w, "  sync:   skipped (--no-sync)")
	} else {
		fmt.Fprintf(w, "  sync:   %s run a first sync (%s)\n", will, plan.syncBin)
	}
}

func remoteText(r string) string {
	if r == "" {
		return "local only, no remote"
	}
	return "remote " + gitsync.MaskURL(r)
}

func hookText(matcher string, h HookCommand) string {
	var b strings.Builder
	if matcher != "" {
		fmt.Fprintf(&b, "[%s] ", matcher)
	}
	b.WriteString(h.Line())
	if h.Timeout > 0 {
		fmt.Fprintf(&b, " (timeout %ds)", h.Timeout)
	}
	if h.Async {
		b.WriteString(" (async)")
	}
	return b.String()
}

func (plan *initPlan) execute(ctx context.Context, opts InitOptions, stdout, stderr io.Writer) error {
	// Each directory init writes into takes a new file before any is
	// written: a read-only or full one refuses init whole, not after the
	// store and config.json were made.
	var dirs []string
	if plan.configNew != nil {
		dirs = append(dirs, filepath.Dir(plan.configPath))
	}
	if plan.settingsPath != "" && plan.settingsNew != nil {
		dirs = append(dirs, filepath.Dir(plan.settingsPath))
	}
	for _, d := range dirs {
		if err := canCreateIn(d); err != nil {
			return fmt.Errorf("cannot write in %s (%v); nothing was changed", d, err)
		}
	}
	if err := layout.MkdirAll(plan.p.Home); err != nil {
		return err
	}
	if plan.configNew != nil {
		if plan.configBadly != nil && len(plan.configOld) > 0 {
			if err := atomicfile.Write(plan.configPath+".bak", plan.configOld, layout.FileMode); err != nil {
				return err
			}
			fmt.Fprintf(stdout, "config: %s was not valid JSON (%v); kept it as config.json.bak\n", plan.configPath, plan.configBadly)
		}
		if err := plan.config.Save(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "config: wrote %s (machine id %q, %s)\n", plan.configPath, plan.machineID, remoteText(plan.remote))
	} else {
		fmt.Fprintf(stdout, "config: %s unchanged\n", plan.configPath)
	}

	if plan.plugin != "" {
		fmt.Fprintf(stdout, "hooks:  skipped: the Claude Code plugin %s is enabled and brings the hooks and the MCP server\n"+
			"        (to let init install them instead: claude plugin uninstall %s, then anamnesis init)\n", plan.plugin, plan.plugin)
	}
	if plan.settingsPath != "" {
		if plan.settingsNew == nil {
			fmt.Fprintf(stdout, "hooks:  %s unchanged\n", plan.settingsPath)
		} else {
			// Re-read right before writing: if Claude Code (or the user)
			// changed the file since we planned, merge into that version.
			cur, had, err := readOptional(plan.settingsPath)
			if err != nil {
				return err
			}
			if had != plan.settingsHad || !bytes.Equal(cur, plan.settingsOld) {
				nb, err := MergeHooks(cur, plan.hooksAdded)
				if err != nil {
					return fmt.Errorf("%s changed while init ran and is now unusable: %v; nothing was changed", plan.settingsPath, err)
				}
				plan.settingsOld, plan.settingsHad, plan.settingsNew = cur, had, nb
			}
			mode := fileMode(plan.settingsPath, 0o644)
			// settings.json.bak keeps the file as it was before Anamnesis
			// (uninstall gives those bytes back): a version that already
			// has our hooks (init run again) never replaces it.
			pristine := false
			if plan.settingsHad {
				_, bakErr := os.Stat(plan.settingsPath + ".bak")
				if hooks, _ := FindHooks(plan.settingsOld); len(hooks) == 0 || errors.Is(bakErr, fs.ErrNotExist) {
					pristine = true
					if err := atomicfile.Write(plan.settingsPath+".bak", plan.settingsOld, mode); err != nil {
						return err
					}
				}
			}
			if err := atomicfile.Write(plan.settingsPath, plan.settingsNew, mode); err != nil {
				return err
			}
			switch {
			case pristine:
				fmt.Fprintf(stdout, "hooks:  updated %s (previous version in settings.json.bak)\n", plan.settingsPath)
			case plan.settingsHad:
				fmt.Fprintf(stdout, "hooks:  updated %s (its Anamnesis hooks replaced; settings.json.bak kept)\n", plan.settingsPath)
			default:
				fmt.Fprintf(stdout, "hooks:  wrote %s\n", plan.settingsPath)
			}
		}
	}

	if plan.mcpWant.Command != "" {
		switch {
		case !plan.mcpChange:
			fmt.Fprintf(stdout, "mcp:    %q already registered\n", plan.mcpName)
		case plan.claude == "":
			fmt.Fprintf(stdout, "mcp:    `claude` is not on PATH, so the MCP server is not registered; once Claude Code is installed, run:\n          %s\n", plan.mcpAddLine())
		default:
			cli := claudeCLI{path: plan.claude}
			if plan.mcpHave != nil || plan.mcpReadErr != nil {
				// `claude mcp add` refuses an existing name; an
				// unreadable config means we do not know, so try.
				if _, err := cli.run(ctx, "mcp", "remove", "--scope", "user", plan.mcpName); err != nil && plan.mcpHave != nil {
					return fmt.Errorf("replacing the MCP registration: %w", err)
				}
			}
			if _, err := cli.run(ctx, mcpAddArgs(plan.mcpName, plan.mcpWant)...); err != nil {
				return fmt.Errorf("registering the MCP server: %w (to do it by hand: %s)", err, plan.mcpAddLine())
			}
			verb := "registered"
			if plan.mcpHave != nil {
				verb = "re-registered"
			}
			fmt.Fprintf(stdout, "mcp:    %s %q at user scope (%s)\n", verb, plan.mcpName, plan.mcpWant.Command)
		}
	}

	if !plan.noSync {
		plan.firstSync(ctx, opts, stdout, stderr)
	}
	fmt.Fprintln(stdout, "anamnesis: ready. `anamnesis doctor` checks the installation.")
	return nil
}

// firstSync runs anamnesis-sync once. Its failure (an unreachable remote, say)
// does not undo or fail init: the store works locally and later syncs retry.
func (plan *initPlan) firstSync(ctx context.Context, opts InitOptions, stdout, stderr io.Writer) {
	timeout := opts.SyncTimeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, plan.syncBin)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+plan.p.Home)
	if plan.remote == "" {
		// --local-only must win over a remote left in the environment.
		cmd.Env = append(cmd.Env, "ANAMNESIS_GIT_REMOTE=")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := strings.TrimSpace(out.String())
	if err != nil {
		fmt.Fprintf(stdout, "sync:   first sync failed (%v)%s\n        the store works locally; fix the remote, then run `anamnesis sync`\n", err, indentOutput(text))
		return
	}
	if text == "" {
		text = "done"
	}
	fmt.Fprintf(stdout, "sync:   %s\n", strings.ReplaceAll(text, "\n", "\n        "))
}

func indentOutput(s string) string {
	if s == "" {
		return ""
	}
	return ":\n        " + strings.ReplaceAll(s, "\n", "\n        ")
}

func usageErr(format string, a ...any) error { return cli.Usagef(format, a...) }
