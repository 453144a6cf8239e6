// Package cli holds what every binary's main shares: the error-to-exit-code
// table, the version string, and flag sets parsed the same way everywhere.
package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/peterbourgon/ff/v3"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// Version is set with -ldflags "-X github.com/anamnesis-dev/anamnesis/pkg/cli.Version=v1.2.3".
var Version = ""

// ErrUsage marks a command-line mistake; it maps to exit code 2.
var ErrUsage = errors.New("usage error")

// ExitError carries an exact exit code, e.g. one passed through from a child process.
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// Usagef returns an error that prints like fmt.Errorf and exits 2.
func Usagef(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, a...))
}

// Code maps an error returned by a run function to a process exit code.
func Code(err error) int {
	var ee ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	default:
		return 1
	}
}

// RunFunc is the testable body of every binary.
type RunFunc func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error

// Main runs fn with the process's arguments and stdio, prints its error and
// exits. An interrupt cancels fn's context, so that a long command stops
// where it can clean up.
func Main(name string, fn RunFunc) {
	QuickMain(name, func(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
		ctx, stop := Interruptible(ctx)
		defer stop()
		return fn(ctx, args, stdin, stdout, stderr)
	})
}

// QuickMain is Main without the interrupt handler, whose signal thread costs
// a tenth of a cached SessionStart: for the hooks that run before every
// session and prompt (inject, recall), and for the dispatcher, which installs
// it only for the commands that need it. An interrupt ends such a process at
// once, which leaves nothing half written: its writes are atomic renames and
// SQLite transactions.
func QuickMain(name string, fn RunFunc) {
	exit(name, fn(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Interruptible returns ctx cancelled by an interrupt (Ctrl-C), and the
// function that restores the default handling.
func Interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt)
}

func exit(name string, err error) {
	var ee ExitError
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.As(err, &ee) {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
	}
	os.Exit(Code(err))
}

// VersionString resolves the version from ldflags, then build info.
func VersionString() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// VersionLine is what a binary named name says of its version (anamnesis
// version, every binary's --version): the version, then the Go toolchain
// and the platform it was built for.
func VersionLine(name string) string {
	return fmt.Sprintf("%s %s (%s %s/%s)", name, VersionString(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// VersionFlag declares --version on fs, for a binary's own flags. Once fs
// parsed, the function it returns reports whether --version was given, and
// if so prints VersionLine where --help prints (fs's output, stderr: the
// stdout of a hook or of the MCP server is read by Claude Code); the
// binary then does nothing else.
func VersionFlag(fs *flag.FlagSet) func() bool {
	v := fs.Bool("version", false, "print the version and exit")
	return func() bool {
		if *v {
			fmt.Fprintln(fs.Output(), VersionLine(fs.Name()))
		}
		return *v
	}
}

// FlagSet returns a ContinueOnError flag set whose output goes to w.
func FlagSet(name string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(w)
	return fs
}

// Parse parses args and wraps flag errors as usage errors. Flags have no
// hidden environment names: the variables of SPEC 10 are read by pkg/config
// alone (an env prefix here made ANAMNESIS_VERSION=1 stop the MCP server and
// let an undocumented ANAMNESIS_MAX_CHARS beat ANAMNESIS_INJECT_MAX_CHARS).
// --help prints the flag set's usage; a flag error prints nothing here: the
// flag package would print the message and the whole flag list, and Main
// prints the message again, so the error alone is returned, naming --help.
func Parse(fs *flag.FlagSet, args []string) error {
	out := fs.Output()
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := ff.Parse(fs, args)
	fs.SetOutput(out)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		out.Write(buf.Bytes())
		return err
	}
	if inner := errors.Unwrap(err); inner != nil {
		err = inner // ff's "error parsing commandline arguments: " says nothing
	}
	name := fs.Name()
	if !strings.HasPrefix(name, "anamnesis") {
		name = "anamnesis " + name
	}
	return fmt.Errorf("%w: %v (see '%s --help')", ErrUsage, err, name)
}

// Seconds is a flag value for a time span, read by config.ParseSeconds.
type Seconds struct{ D *time.Duration }

// String is whole seconds as "60s" (the way the flags' help words them),
// else the duration.
func (s Seconds) String() string {
	switch {
	case s.D == nil:
		return ""
	case *s.D%time.Second == 0:
		return strconv.FormatInt(int64(*s.D/time.Second), 10) + "s"
	}
	return s.D.String()
}

func (s Seconds) Set(v string) error {
	d, err := config.ParseSeconds(v)
	if err != nil {
		return err
	}
	*s.D = d
	return nil
}
