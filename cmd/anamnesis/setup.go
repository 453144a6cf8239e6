package main

import (
	"context"
	"errors"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/setup"
)

// runInit is `anamnesis init ARGS` (pkg/setup does the work).
func runInit(ctx context.Context, e *env, args []string) error {
	stdin, stdout, stderr := e.stdin, e.stdout, e.stderr
	fs := commandFlags(e, "init")
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
	fs := commandFlags(e, "uninstall")
	var o setup.UninstallOptions
	fs.StringVar(&o.Home, "home", "", "store home (default ~/.anamnesis); it is kept")
	fs.StringVar(&o.Name, "name", setup.DefaultMCPName, "name of the MCP server in Claude Code")
	fs.BoolVar(&o.Print, "print", false, "show what would be removed and change nothing")
	fs.StringVar(&o.BinDir, "bin-dir", "", "directory holding the anamnesis binaries")
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
	fs := commandFlags(e, "doctor")
	var o setup.DoctorOptions
	fs.StringVar(&o.Home, "home", "", "store home (default ~/.anamnesis)")
	fs.StringVar(&o.Name, "name", setup.DefaultMCPName, "name of the MCP server in Claude Code")
	fs.BoolVar(&o.JSON, "json", false, "print the checks as JSON")
	fs.BoolVar(&o.Deep, "deep", false, "read every index page and every note file, however big the store (by default only under 256 MB of index)")
	fs.Var(cli.Seconds{D: &o.Timeout}, "timeout", "deadline for each network or process check (seconds or a duration; default 20s)")
	fs.StringVar(&o.BinDir, "bin-dir", "", "directory holding the anamnesis binaries")
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
