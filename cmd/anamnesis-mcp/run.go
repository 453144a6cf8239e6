package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

const usage = `usage: anamnesis-mcp [--home DIR] [--machine-id ID]

Serves the memory store as the MCP server "anamnesis" on stdin/stdout
(JSON-RPC, one message per line). Logs go to stderr. Claude Code starts it;
to register it: anamnesis init (or: claude mcp add anamnesis -- anamnesis mcp).

Flags (environment: ANAMNESIS_HOME, ANAMNESIS_MACHINE_ID):
`

// run serves until stdin closes or ctx is cancelled. Only protocol bytes are
// written to stdout; everything else goes to stderr.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis-mcp", stderr)
	home := fs.String("home", "", "store root (default ~/.anamnesis)")
	machineID := fs.String("machine-id", "", "machine id stamped on written notes (default: config.json, else hostname)")
	version := cli.VersionFlag(fs) // on stderr: stdout is reserved for the protocol
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if version() {
		return nil
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q (anamnesis-mcp takes flags only)", fs.Arg(0))
	}
	cfg := config.Resolve(*home, os.Getenv)
	if *machineID != "" {
		cfg.MachineID = *machineID
	}
	logger := log.New(stderr, "anamnesis-mcp: ", log.LstdFlags)
	if cfg.FileErr != nil {
		logger.Printf("ignoring config.json: %v", cfg.FileErr)
	}
	a := newApp(cfg, os.Getenv, logger)
	defer a.close()
	stdio := server.NewStdioServer(newServer(a, serverOptions{}))
	stdio.SetErrorLogger(logger)
	server.WithWorkerPoolSize(8)(stdio)
	// SIGTERM (how clients usually stop a server) ends the session like EOF:
	// tool calls already running finish first.
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	d := newDrain(2 * time.Minute)
	err := stdio.Listen(ctx, d.reader(ctx, &lineCap{r: stdin, max: maxLine}), d.writer(stdout))
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return nil // stopped by a signal: a normal end of the session
	}
	return err
}

func newApp(cfg config.Config, getenv config.Env, logger *log.Logger) *app {
	if abs, err := filepath.Abs(cfg.Home); err == nil {
		cfg.Home = abs
	}
	return &app{home: cfg.Home, machineID: cfg.MachineID, getenv: getenv, log: logger}
}
