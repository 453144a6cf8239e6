package hook

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// Hook is one hook binary's own part; Run wraps it in the policy every hook
// shares.
type Hook struct {
	// Name is the binary's name (anamnesis-inject), used in the log and on
	// stderr.
	Name string
	// Usage is printed by --help, before the flags.
	Usage string
	// Deadline bounds Work, well inside Claude Code's timeout for the hook:
	// a locked index ends in a logged, empty result, never a killed hook.
	Deadline time.Duration
	// Exit makes the deadline end the process (logged, nothing printed,
	// exit status 0) where it would end Work's context: for work that
	// leaves nothing half done when killed, and whose SQL statements would
	// each start two goroutines to watch a context that can end.
	Exit bool
	// Quiet keeps a failure of the work off stderr (it is logged all the
	// same): the prompt hook adds nothing around a prompt but its notes.
	Quiet bool
	// Flags declares the hook's own flags on fs (--home and --plugin are
	// declared by Run) and returns its work, which runs once they parsed.
	Flags func(fs *flag.FlagSet) Work
}

// Work is a hook's job. What it writes to out reaches stdout in one write
// when it returns (a hook whose output must be whole writes it only once it
// is); an error it returns is logged and named on stderr. An error wrapping
// cli.ErrUsage is a bad command line.
type Work func(ctx context.Context, c Call, out *strings.Builder) error

// Call is what a hook's work runs with.
type Call struct {
	Config config.Config
	Log    *Logger
	Stdin  io.Reader
	Stderr io.Writer
}

// Run is a hook's run function. Hooks fail open (SPEC 4): whatever goes
// wrong (bad flags, a failure in the work, a panic, the deadline) is logged
// to <home>/logs/anamnesis.log, named on stderr, and Run returns nil, so
// the session or prompt goes on. --plugin makes the hook do nothing when
// `anamnesis init` installed the hooks too, so none runs twice.
func Run(ctx context.Context, h Hook, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := cli.FlagSet(h.Name, stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), h.Usage); fs.PrintDefaults() }
	home := fs.String("home", "", "store home (default $ANAMNESIS_HOME or ~/.anamnesis)")
	plugin := fs.Bool("plugin", false, "run by the Claude Code plugin: do nothing when anamnesis init installed hooks too (no hook runs twice)")
	version := cli.VersionFlag(fs)
	work := h.Flags(fs)
	perr := cli.Parse(fs, args)
	if errors.Is(perr, flag.ErrHelp) || perr == nil && version() {
		return nil // nothing on stdout, no home, no log: a person asked
	}
	cfg := config.Resolve(*home, os.Getenv)
	log := NewLogger(cfg.Home, h.Name)
	defer func() {
		if r := recover(); r != nil {
			log.Printf("panic: %v\n%s", r, debug.Stack())
			fmt.Fprintf(stderr, "%s: internal error (see %s)\n", h.Name, LogPath(cfg.Home))
			err = nil
		}
	}()
	if perr != nil {
		log.Printf("bad arguments %q: %v", args, perr)
		fmt.Fprintf(stderr, "%s: %v\n", h.Name, perr)
		return nil
	}
	if *plugin && InitHooksInstalled(cfg.ClaudeDir) {
		return nil
	}
	var ended sync.Mutex // held by the deadline's exit, or once the output is being written
	if h.Exit {
		t := time.AfterFunc(h.Deadline, func() {
			ended.Lock()
			log.Printf("not done after %s; ended with nothing printed", h.Deadline)
			os.Exit(0)
		})
		defer t.Stop()
	} else {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.Deadline)
		defer cancel()
	}
	var out strings.Builder
	werr := work(ctx, Call{Config: cfg, Log: log, Stdin: stdin, Stderr: stderr}, &out)
	ended.Lock()
	defer ended.Unlock()
	switch {
	case errors.Is(werr, cli.ErrUsage):
		log.Printf("bad arguments %q: %v", args, werr)
		fmt.Fprintf(stderr, "%s: %v\n", h.Name, werr)
	case werr != nil:
		log.Printf("%v", werr)
		if h.Quiet {
			break
		}
		fmt.Fprintf(stderr, "%s: %v (see %s)\n", h.Name, werr, LogPath(cfg.Home))
	}
	// One write of the whole output: nothing partial reaches Claude Code.
	if _, err := io.WriteString(stdout, out.String()); err != nil {
		log.Printf("writing stdout: %v", err)
	}
	return nil
}
