package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/native"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// runImport is `anamnesis import [--home H] [--claude-home DIR] [--no-sync]
// [--json] [--timeout D]`: Claude Code's native memory files into the store
// (SPEC 6.3), then a sync unless --no-sync.
func runImport(ctx context.Context, e *env, args []string) error {
	getenv, stdout, stderr := e.getenv, e.stdout, e.stderr
	fs := commandFlags(e, "import")
	home := fs.String("home", "", "store home (default ~/.anamnesis)")
	claudeHome := fs.String("claude-home", "", "Claude Code's config directory (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	noSync := fs.Bool("no-sync", false, "import only; do not commit, pull or push")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeout := gitsync.DefaultTimeout
	fs.Var(cli.Seconds{D: &timeout}, "timeout", "deadline for the sync's network steps (seconds or a duration)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("import takes no arguments (got %q)", fs.Args())
	}
	cfg := config.Resolve(*home, getenv)
	if *claudeHome != "" {
		// Named on the command line, it must exist: a typo would import
		// nothing and report success (the default may be missing: no
		// native memory yet).
		if fi, err := os.Stat(*claudeHome); err != nil || !fi.IsDir() {
			return cli.Usagef("--claude-home %s is not a directory", *claudeHome)
		}
		cfg.ClaudeDir = *claudeHome
	}
	if *noSync {
		return importOnly(ctx, cfg, *asJSON, stdout, stderr)
	}
	o := gitsync.OptionsFrom(cfg)
	o.Import = true // asked for explicitly, whatever ANAMNESIS_IMPORT_NATIVE says
	o.Timeout = timeout
	res, err := gitsync.Sync(ctx, o)
	if res.Skipped {
		// Another sync holds the lock: import anyway; that sync or the
		// next one commits and pushes what this writes.
		fmt.Fprintln(stderr, res.Line())
		return importOnly(ctx, cfg, *asJSON, stdout, stderr)
	}
	if res.Import == nil {
		res.Import = &native.Result{Problems: []native.Problem{}, IDs: []string{}}
	}
	if *asJSON {
		if perr := gitsync.PrintResult(stdout, stderr, res, true); perr != nil {
			return perr
		}
	} else {
		fmt.Fprintln(stdout, res.Import.Line())
		res.Import.Report(stderr)
		fmt.Fprintln(stdout, res.Line())
	}
	if err != nil {
		return cli.ExitError{Code: 1} // the sync line says what failed
	}
	return nil
}

func importOnly(ctx context.Context, cfg config.Config, asJSON bool, stdout, stderr io.Writer) error {
	st, err := store.Open(ctx, cfg.Home)
	if err != nil {
		return err
	}
	defer st.Close()
	imp, err := native.Import(ctx, st, cfg.ClaudeDir, cfg.MachineID)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(imp)
	}
	fmt.Fprintln(stdout, imp.Line())
	imp.Report(stderr)
	return nil
}
