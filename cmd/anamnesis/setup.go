package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/setup"
)

// runInit is `anamnesis init ARGS` (pkg/setup does the work).
func runInit(ctx context.Context, e *env, args []string) error {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	fs := cli.FlagSet("anamnesis init", stderr)
	var o setup.InitOptions
	fs.StringVar(&o.Home, "home", "", "store home (default ~/.anamnesis)")
	fs.StringVar(&o.MachineID, "machine-id", "", "this machine's id (default: config.json, else the host name)")
	fs.StringVar(&o.Remote, "remote", "", "git remote to sync notes through")
	fs.BoolVar(&o.LocalOnly, "local-only", false, "no remote: keep notes on this machine")
	fs.StringVar(&o.Name, "name", setup.DefaultMCPName, "name of the MCP server in Claude Code")
	fs.BoolVar(&o.NoMCP, "no-mcp", false, "do not register the MCP server")
	fs.BoolVar(&o.NoHooks, "no-hooks", false, "do not install the Claude Code hooks")
	fs.BoolVar(&o.NoSync, "no-sync", false, "skip the first sync")
	fs.BoolVar(&o.Yes, "yes", false, "do not prompt, even on a terminal")
	fs.BoolVar(&o.Print, "print", false, "show every change init would make and write nothing")
	fs.StringVar(&o.BinDir, "bin-dir", "", "directory holding the anamnesis binaries (default: this executable's)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: anamnesis init [flags]

Wires Anamnesis into Claude Code: the SessionStart/SessionEnd/PreCompact hooks
in settings.json, the MCP server (claude mcp add --scope user), config.json,
and a first sync. Safe to run again; --print shows the plan.

examples:
  anamnesis init                                  # asks on a terminal
  anamnesis init --yes --local-only               # no questions, no remote
  anamnesis init --remote me@host:anamnesis.git   # sync through a bare repo
  anamnesis init --print                          # dry run

flags:
`)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("init takes no arguments (got %q)", fs.Args())
	}
	return setup.Init(ctx, o, stdin, stdout, stderr)
}

// runUninstall is `anamnesis uninstall ARGS`.
func runUninstall(ctx context.Context, e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := cli.FlagSet("anamnesis uninstall", stderr)
	var o setup.UninstallOptions
	fs.StringVar(&o.Home, "home", "", "store home (default ~/.anamnesis); it is kept")
	fs.StringVar(&o.Name, "name", setup.DefaultMCPName, "name of the MCP server in Claude Code")
	fs.BoolVar(&o.Print, "print", false, "show what would be removed and change nothing")
	fs.StringVar(&o.BinDir, "bin-dir", "", "directory holding the anamnesis binaries")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: anamnesis uninstall [flags]\n\nRemoves the hooks and the MCP registration init added; keeps your notes.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("uninstall takes no arguments (got %q)", fs.Args())
	}
	return setup.Uninstall(ctx, o, stdout, stderr)
}

// runDoctor is `anamnesis doctor ARGS`. It exits 1 when a check fails.
func runDoctor(ctx context.Context, e *env, args []string) error {
	stdout, stderr := e.stdout, e.stderr
	fs := cli.FlagSet("anamnesis doctor", stderr)
	var o setup.DoctorOptions
	fs.StringVar(&o.Home, "home", "", "store home (default ~/.anamnesis)")
	fs.StringVar(&o.Name, "name", setup.DefaultMCPName, "name of the MCP server in Claude Code")
	fs.BoolVar(&o.JSON, "json", false, "print the checks as JSON")
	fs.Var(cli.Seconds{D: &o.Timeout}, "timeout", "deadline for each network or process check (seconds or a duration; default 20s)")
	fs.StringVar(&o.BinDir, "bin-dir", "", "directory holding the anamnesis binaries")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: anamnesis doctor [flags]\n\nChecks binaries, hooks, MCP registration, config, index, notes, git repo and\nremote; one line per check, each failure with its fix. Exit 1 if any fails.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("doctor takes no arguments (got %q)", fs.Args())
	}
	err := setup.Doctor(ctx, o, stdout, stderr)
	if errors.Is(err, setup.ErrChecksFailed) {
		// The report already says what failed; exit 1 without a
		// second message.
		return cli.ExitError{Code: 1}
	}
	return err
}
