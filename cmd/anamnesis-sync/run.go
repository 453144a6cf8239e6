package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis-sync", stderr)
	home := fs.String("home", "", "store home (default ~/.anamnesis)")
	asJSON := fs.Bool("json", false, "print the result as JSON (pushed, pulled, conflicted, head, indexed, detail, conflict ids)")
	timeout := gitsync.DefaultTimeout
	fs.Var(cli.Seconds{D: &timeout}, "timeout", "deadline for the network steps together (seconds or a duration; default 60s)")
	lockWait := gitsync.DefaultLockWait
	fs.Var(cli.Seconds{D: &lockWait}, "lock-wait", "how long to wait for another sync of this home before skipping")
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: anamnesis-sync [flags]   (also: anamnesis sync)

One sync cycle of <home>/memory over git: import Claude Code's native memory
(unless ANAMNESIS_IMPORT_NATIVE=0), commit, fetch, merge, push, then update
the index. The remote is ANAMNESIS_GIT_REMOTE or config.json's "remote"; with
none, notes are committed locally. A note changed on two machines keeps both
versions: the later stays, the other becomes a new note tagged conflict.
Prints: sync: pushed=… pulled=… conflicted=… head=… (detail). Exit 1 when
the remote could not be reached (local commits are kept).

examples:
  anamnesis-sync
  anamnesis-sync --timeout 20 --json

flags:
`)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("anamnesis-sync takes no arguments (got %q)", fs.Args())
	}
	cfg := config.Resolve(*home, os.Getenv)
	o := gitsync.OptionsFrom(cfg)
	o.Timeout, o.LockWait = timeout, lockWait
	res, err := gitsync.Sync(ctx, o)
	if perr := gitsync.PrintResult(stdout, stderr, res, *asJSON); perr != nil {
		return perr
	}
	if err != nil {
		if res.Detail == "" {
			return err
		}
		return cli.ExitError{Code: 1} // the printed line says what failed
	}
	return nil
}
