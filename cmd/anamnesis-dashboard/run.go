package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/dashboard"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const usage = `usage: anamnesis-dashboard [--addr 127.0.0.1:7077] [--open] [--home DIR]

Serves a local web GUI over the memory at --home (default $ANAMNESIS_HOME or ~/.anamnesis):
browse and search notes, read, edit, create and delete them, see each note's git history,
the fleet of machines, what each session was shown, held notes (release them), teams and
their proposals, reflect/consolidate/dedup, and run sync and reindex.

It binds loopback by default. Any other address needs the access token printed at start
(open the printed URL once; a cookie keeps you in).
`

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.FlagSet("anamnesis-dashboard", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage, "\nflags:\n"); fs.PrintDefaults() }
	addr := fs.String("addr", "127.0.0.1:7077", "address to listen on (host:port)")
	open := fs.Bool("open", false, "open the dashboard in the default browser")
	home := fs.String("home", "", "store home (default $ANAMNESIS_HOME or ~/.anamnesis)")
	version := cli.VersionFlag(fs)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if version() {
		return nil
	}
	if fs.NArg() > 0 {
		return cli.Usagef("unexpected argument %q", fs.Arg(0))
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return cli.Usagef("--addr %q: want host:port, e.g. 127.0.0.1:7077", *addr)
	}
	cfg := config.Resolve(*home, os.Getenv)
	st, err := store.Open(ctx, cfg.Home)
	if err != nil {
		return err
	}
	defer st.Close()
	// Start from an index that matches the files (hand edits while we were not running).
	if _, err := st.Reindex(ctx, false); err != nil {
		return fmt.Errorf("reindex: %w", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	token := ""
	if !dashboard.IsLoopback(host) {
		token = dashboard.NewToken()
	}
	syncOpt := gitsync.OptionsFrom(cfg)
	mc := model.FromConfig(cfg.Reflection)
	srv, err := dashboard.New(dashboard.Options{Store: st, Addr: ln.Addr().String(), Token: token, MachineID: cfg.MachineID,
		Remote: cfg.Remote, Sync: &syncOpt, Version: cli.VersionString(), Model: mc})
	if err != nil {
		return err
	}
	url := "http://" + displayAddr(ln.Addr().String(), host) + "/"
	if token != "" {
		url += "?token=" + token
		fmt.Fprintf(stdout, "anamnesis-dashboard: %s is not loopback; the access token is required\n", *addr)
	}
	fmt.Fprintf(stdout, "anamnesis-dashboard: serving %s on %s (Ctrl-C to stop)\n", cfg.Home, url)
	if *open {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(stderr, "anamnesis-dashboard: could not open a browser: %v\n", err)
		}
	}
	return srv.Serve(ctx, ln)
}

// displayAddr is the address to print: the host the user gave with the bound
// port, and the machine's name for an unspecified address (0.0.0.0, ::).
func displayAddr(bound, host string) string {
	_, port, _ := net.SplitHostPort(bound)
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if hn, err := os.Hostname(); err == nil && hn != "" {
			host = hn
		}
	}
	return net.JoinHostPort(host, port)
}

func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	return cmd.Start()
}
