package gitsync

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/native"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// OptionsFrom builds sync options from resolved configuration: the remote
// from ANAMNESIS_GIT_REMOTE or config.json (read on every sync, so a remote
// set later, or changed, takes effect), the import from ANAMNESIS_IMPORT_NATIVE.
func OptionsFrom(cfg config.Config) Options {
	return Options{Home: cfg.Home, MachineID: cfg.MachineID, Remote: cfg.Remote,
		Import: cfg.ImportNative, ClaudeDir: cfg.ClaudeDir, Timeout: DefaultTimeout, LockWait: DefaultLockWait}
}

// PrintResult writes a sync's output: the import line (when the import saw
// native files), the import's problems on stderr, and the sync line; or the
// whole result as JSON.
func PrintResult(stdout, stderr io.Writer, r Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	if imp := r.Import; imp != nil {
		printImport(stdout, stderr, *imp)
	}
	_, err := fmt.Fprintln(stdout, r.Line())
	return err
}

func printImport(stdout, stderr io.Writer, imp native.Result) {
	if imp.Imported+imp.Updated+imp.Skipped == 0 && len(imp.Problems) == 0 && len(imp.Salvaged) == 0 {
		return
	}
	fmt.Fprintln(stdout, imp.Line())
	imp.Report(stderr)
}

// RunImport is `anamnesis import [--home H] [--claude-home DIR] [--no-sync]
// [--json] [--timeout D]`, for the dispatcher: import Claude Code's native
// memory files, then sync (unless --no-sync).
func RunImport(ctx context.Context, args []string, getenv config.Env, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis import", stderr)
	home := fs.String("home", "", "store home (default ~/.anamnesis)")
	claudeHome := fs.String("claude-home", "", "Claude Code's config directory (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	noSync := fs.Bool("no-sync", false, "import only; do not commit, pull or push")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeout := DefaultTimeout
	fs.Var(cli.Seconds{D: &timeout}, "timeout", "deadline for the sync's network steps (seconds or a duration)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: anamnesis import [flags]

Imports Claude Code's native memory files (<claude dir>/projects/*/memory/*.md,
not MEMORY.md) as notes: feedback becomes procedural, the rest semantic,
tagged import and kind:<type>. Re-imports update the same notes; unchanged
files are skipped; malformed ones are reported and skipped. Then syncs.

examples:
  anamnesis import
  anamnesis import --claude-home ~/other/.claude --no-sync

flags:
`)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("import takes no arguments (got %q)", fs.Args())
	}
	cfg := config.Resolve(*home, getenv)
	if *claudeHome != "" {
		cfg.ClaudeDir = *claudeHome
	}
	if *noSync {
		return importOnly(ctx, cfg, *asJSON, stdout, stderr)
	}
	o := OptionsFrom(cfg)
	o.Import = true // asked for explicitly, whatever ANAMNESIS_IMPORT_NATIVE says
	o.Timeout = timeout
	res, err := Sync(ctx, o)
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
		if perr := PrintResult(stdout, stderr, res, true); perr != nil {
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
