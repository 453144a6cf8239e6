package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis-sync", stderr)
	home := fs.String("home", "", "store home (default ~/.anamnesis)")
	plugin := fs.Bool("plugin", false, "run by the Claude Code plugin: do nothing when anamnesis init installed hooks too (no hook runs twice)")
	asJSON := fs.Bool("json", false, "print the result as JSON (pushed, pulled, conflicted, head, indexed, detail, conflict ids)")
	timeout := gitsync.DefaultTimeout
	fs.Var(cli.Seconds{D: &timeout}, "timeout", "deadline for the network steps together (seconds or a duration)")
	lockWait := gitsync.DefaultLockWait
	fs.Var(cli.Seconds{D: &lockWait}, "lock-wait", "how long to wait for another sync of this home before skipping")
	background := fs.Bool("background", false, "start the sync detached (output to <home>/logs/anamnesis.log) and return at once")
	detached := fs.Bool("detached", false, "sync here, in the child --background started: print to <home>/logs/anamnesis.log as log lines, and pack git's loose objects when they have grown (a background sync's housekeeping)")
	recorded := fs.Bool("recorded", false, "commit only the note files anamnesis recorded writing since the last commit, unless something else may have changed memory/ (what the hooks' syncs do: their cost does not grow with the store); without it every file is staged, hand edits included")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: anamnesis-sync [flags]   (also: anamnesis sync)

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
  anamnesis-sync --background     (what the SessionStart hook runs; the
                                   detached sync stages as --recorded does)

flags:
`)
		fs.PrintDefaults()
	}
	version := cli.VersionFlag(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if version() {
		return nil
	}
	if fs.NArg() > 0 {
		return cli.Usagef("anamnesis-sync takes no arguments (got %q)", fs.Args())
	}
	cfg := config.Resolve(*home, os.Getenv)
	if *plugin && hook.InitHooksInstalled(cfg.ClaudeDir) {
		return nil
	}
	if *background {
		return detach(cfg.Home, timeout, lockWait, *asJSON, stdout)
	}
	if *detached {
		log := hook.NewLogger(cfg.Home, "anamnesis-sync")
		stdout, stderr = log, log
	}
	o := gitsync.OptionsFrom(cfg)
	o.Timeout, o.LockWait = timeout, lockWait
	// The child --background starts is a hook's sync (SessionStart's), as
	// capture's are: nobody waits on it for an edit made by hand.
	o.Recorded = *recorded || *detached
	res, err := gitsync.Sync(ctx, o)
	if perr := gitsync.PrintResult(stdout, stderr, res, *asJSON); perr != nil {
		return perr
	}
	if *detached {
		// Off everyone's terminal, and with the home's lock released:
		// whatever the cycle's outcome (packing is local).
		for _, l := range gitsync.Pack(ctx, o) {
			fmt.Fprintln(stderr, "sync: "+l)
		}
	}
	if err != nil {
		if res.Detail == "" {
			return err
		}
		return cli.ExitError{Code: 1} // the printed line says what failed
	}
	return nil
}

// detach starts this sync as its own detached process and returns. The
// SessionStart hook runs it so: Claude Code waits for a hook still running
// when the session ends (about 1.5 s with 2.1.330) and then kills it, so a
// sync stuck on a remote that never answers would delay every exit, and a
// killed one could leave git's index.lock behind.
func detach(home string, timeout, lockWait time.Duration, asJSON bool, stdout io.Writer) error {
	self := bin.Find("anamnesis-sync")
	if self == "" {
		return errors.New("anamnesis-sync not found next to this binary or on PATH")
	}
	args := []string{"--detached", "--timeout", timeout.String(), "--lock-wait", lockWait.String()}
	if asJSON {
		args = append(args, "--json")
	}
	pid, err := hook.StartDetached(home, nil, self, args...)
	if err != nil {
		return fmt.Errorf("starting the sync: %w", err)
	}
	fmt.Fprintf(stdout, "sync: started in the background (pid %d; result in %s)\n", pid, hook.LogPath(home))
	return nil
}
