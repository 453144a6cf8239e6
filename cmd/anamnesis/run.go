package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// env is what a command sees of the process: stdio and environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         config.Env
}

type command struct {
	name, args, summary string
	run                 func(ctx context.Context, e *env, args []string) error
}

// builtins is the fixed table of in-process commands; they can never be shadowed.
func builtins() []command {
	return []command{
		{"help", "[-a] [COMMAND]", "show usage; -a lists extensions too", runHelp},
		{"version", "", "print the version", runVersion},
		{"init", "[--remote URL|--local-only] ...", "wire Anamnesis into Claude Code (hooks, MCP, config)", runInit},
		{"uninstall", "", "remove what init added; keeps the notes", runUninstall},
		{"doctor", "", "check the install and the store, with fixes", runDoctor},
		{"write", "--type T --title T [--body B|--body-file F|stdin] ...", "create a note; prints its id", runWrite},
		{"get", "ID [--json]", "print a note", runGet},
		{"rm", "ID", "delete a note", runRm},
		{"project", "show|trust [DIR]", "the project key of a directory; trust its git-tracked .anamnesis/project marker", runProject},
		{"team", "add NAME URL [--projects G,...] [--review]|list|remove NAME [--force]|review NAME [--accept B]", "share notes with a team over a plain git remote", runTeam},
		{"release", "ID [--json]", "let a note the screen held reach the model (read it first with get)", runRelease},
		{"list", "[--project P] [--type T] [--scope S] [--machine M] [--limit N]", "list notes, newest first", runList},
		{"search", "QUERY [--project P] [--type T] [--scope S] [--k N]", "full-text search", runSearch},
		{"reindex", "[--full]", "bring the index up to date with the files", runReindex},
		{"block", "[--project P] [--k N] [--max-chars N]", "print the SessionStart block of a project (what anamnesis-inject prints), from the index", runBlock},
		{"status", "[--json]", "counts, paths, sync state, unreadable files", runStatus},
		{"import", "[--claude-home DIR] [--no-sync]", "import Claude Code's native memory files", runImport},
		{"scrub", "[--apply] [--json]", "find secrets already in notes and git history; --apply redacts the files", runScrub},
		{"config", "list|get KEY|set KEY VALUE|unset KEY|test", "machine-local settings (config.json)", runConfig},
		{"eval", "run|build|experiment --eval-set FILE [--per-category] [--json] | coding [--split S] [--llm]", "retrieval recall@k and MRR over an eval set; build one; measure reflect/consolidate", runEval},
		{"reflect", "[--project P|--all] [--min 5] [--apply]", "distill episodic notes into durable ones (model)", runReflect},
		{"consolidate", "[--project P|--all] [--min 5] [--eval-set F] [--apply]", "fold redundant durable notes together under a recall gate (model)", runConsolidate},
		{"merge", "...", "alias of consolidate (the newest reference's name)", runConsolidate},
		{"dedup", "[--apply]", "delete notes whose body repeats another's; list near-duplicates", runDedup},
		{"migrate", "--map FILE [--apply]", "re-key projects (only the project: line changes)", runMigrate},
		{"backfill-provenance", "[--apply]", "set a missing or plainly wrong prov_source from the tags", runBackfill},
		{"serve", "", "run the MCP server (anamnesis-mcp)", aliasOf("mcp")},
		{"mcp", "", "run the MCP server (anamnesis-mcp)", aliasOf("mcp")},
	}
}

// interruptible says whether the command runs with the interrupt handler
// (cli.Interruptible), so that Ctrl-C stops it where it can clean up. The
// read-only commands do without: an interrupt that ends them leaves
// nothing behind, and they start without the handler's signal thread
// (docs/performance.md).
func (c command) interruptible() bool {
	switch c.name {
	case "help", "version", "get", "list", "search", "block", "status":
		return false
	}
	return true
}

func lookup(name string) *command {
	for _, c := range builtins() {
		if c.name == name {
			return &c
		}
	}
	return nil
}

// commandName says whether s can name a command (an extension's
// anamnesis-NAME): a lowercase letter, then lowercase letters, digits and
// '-'. Plain code, not a regexp compiled at the start of every command.
func commandName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return s != ""
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, getenv: os.Getenv}
	if len(args) == 0 {
		usage(e.stdout, false)
		return nil
	}
	name, rest := args[0], args[1:]
	switch name {
	case "-h", "--help":
		name = "help"
	case "-v", "--version":
		name = "version"
	}
	c := lookup(name)
	if c == nil || c.interruptible() {
		var stop context.CancelFunc
		ctx, stop = cli.Interruptible(ctx)
		defer stop()
	}
	if c != nil {
		return c.run(ctx, e, rest)
	}
	if !commandName(name) {
		return cli.Usagef("%q is not a command name (want lowercase letters, digits and '-'). See 'anamnesis help'.", name)
	}
	return dispatch(ctx, e, name, rest)
}

// selfDir is the running dispatcher and its directory, searched before PATH.
func selfDir() (string, string) {
	exe, dir, err := bin.Self()
	if err != nil {
		return "", ""
	}
	return exe, dir
}

// searchDirs is the dispatcher's own directory, then PATH, deduplicated.
func searchDirs(getenv config.Env) []string {
	_, own := selfDir()
	dirs := []string{own}
	dirs = append(dirs, filepath.SplitList(getenv("PATH"))...)
	var out []string
	seen := map[string]bool{}
	for _, d := range dirs {
		if d == "" {
			d = "."
		}
		if abs, err := filepath.Abs(d); err == nil {
			d = abs
		}
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// isExecutable says whether p exists (as a file) and whether it would run.
func isExecutable(p string) (bool, bool) {
	info, err := os.Stat(p)
	if err != nil || info.IsDir() {
		return false, false
	}
	return true, bin.IsExecutable(p)
}

// findExtension returns the first executable anamnesis-NAME in the search dirs.
func findExtension(getenv config.Env, name string) string {
	for _, d := range searchDirs(getenv) {
		for _, p := range bin.Candidates(d, "anamnesis-"+name) {
			if exists, ok := isExecutable(p); exists && ok {
				return p
			}
		}
	}
	return ""
}

func dispatch(ctx context.Context, e *env, name string, args []string) error {
	path := findExtension(e.getenv, name)
	if path == "" {
		fmt.Fprintf(e.stderr, "anamnesis: '%s' is not an anamnesis command. See 'anamnesis help'.\n", name)
		if s := suggest(e.getenv, name); len(s) > 0 {
			if len(s) == 1 {
				fmt.Fprintf(e.stderr, "\nThe most similar command is\n\t%s\n", s[0])
			} else {
				fmt.Fprintf(e.stderr, "\nThe most similar commands are\n\t%s\n", strings.Join(s, "\n\t"))
			}
		}
		return cli.ExitError{Code: 2} // a usage error, as for any mistyped command line
	}
	return execExtension(ctx, e, path, args)
}

// childEnv exports what an extension needs to find the rest of the toolkit.
func childEnv(e *env) []string {
	exe, own := selfDir()
	envv := os.Environ()
	set := func(k, v string) {
		envv = slices.DeleteFunc(envv, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
		envv = append(envv, k+"="+v)
	}
	set("ANAMNESIS_BIN", exe)
	set("ANAMNESIS_HOME", config.DefaultHome(e.getenv))
	set("PATH", own+string(os.PathListSeparator)+e.getenv("PATH"))
	return envv
}

// runChild runs an extension as a child process and passes its exit code through
// (Windows, and anywhere exec(2) is unavailable). An interrupt (Ctrl-C) does
// not end the dispatcher before its child: the child gets it (a console
// sends Ctrl-C to every process attached to it; elsewhere the dispatcher
// forwards it), and the dispatcher waits for the child to clean up and exit.
func runChild(ctx context.Context, e *env, path string, args []string) error {
	cmd, err := bin.Command(ctx, path, args...)
	if err != nil {
		return err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	cmd.Env = childEnv(e)
	intr := make(chan os.Signal, 1)
	signal.Notify(intr, os.Interrupt) // before Start: no moment the interrupt kills the dispatcher
	defer signal.Stop(intr)
	err = cmd.Start()
	if err == nil {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
	wait:
		for {
			select {
			case err = <-done:
				break wait
			case <-intr:
				forwardInterrupt(cmd.Process)
			}
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return cli.ExitError{Code: ee.ExitCode()}
	}
	return err
}

func aliasOf(ext string) func(context.Context, *env, []string) error {
	return func(ctx context.Context, e *env, args []string) error {
		return dispatch(ctx, e, ext, args)
	}
}

// extensions lists every anamnesis-* executable found, first one per name
// winning, and warns about shadowed and non-executable copies.
func extensions(getenv config.Env, warn io.Writer) map[string]string {
	found := map[string]string{}
	for _, d := range searchDirs(getenv) {
		entries, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, ent := range entries {
			n, runnable := bin.CommandName(ent.Name())
			sub, ok := strings.CutPrefix(n, "anamnesis-")
			if !runnable || !ok || !commandName(sub) {
				continue
			}
			p := filepath.Join(d, ent.Name())
			exists, isExe := isExecutable(p)
			if !exists {
				continue
			}
			switch {
			case !isExe:
				fmt.Fprintf(warn, "warning: %s is not executable; ignored\n", p)
			case lookup(sub) != nil && sub != "mcp":
				fmt.Fprintf(warn, "warning: %s is shadowed by the built-in command '%s'\n", p, sub)
			case found[sub] != "":
				fmt.Fprintf(warn, "warning: %s is shadowed by %s\n", p, found[sub])
			default:
				found[sub] = p
			}
		}
	}
	return found
}

func suggest(getenv config.Env, name string) []string {
	var cands []string
	for _, c := range builtins() {
		cands = append(cands, c.name)
	}
	for n := range extensions(getenv, io.Discard) {
		cands = append(cands, n)
	}
	type scored struct {
		s string
		d int
	}
	var out []scored
	for _, c := range cands {
		d := distance(name, c)
		if d <= 2 || (len(name) >= 3 && strings.HasPrefix(c, name)) {
			out = append(out, scored{c, d})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].d < out[j].d })
	var names []string
	for _, o := range out {
		if !slices.Contains(names, o.s) {
			names = append(names, o.s)
		}
	}
	return names
}

// distance is the Levenshtein edit distance.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

func usage(w io.Writer, all bool) {
	fmt.Fprint(w, `usage: anamnesis COMMAND [ARGS]

Anamnesis is a cross-machine, file-first memory for Claude Code.

Commands:
`)
	for _, c := range builtins() {
		if len(c.name) > 10 { // a long name gets its own line; the summaries stay aligned
			fmt.Fprintf(w, "  %s\n  %-10s %s\n", c.name, "", c.summary)
			continue
		}
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Run by the hooks and tools (each is its own binary, anamnesis-NAME):
  inject     print the memory block for a session (SessionStart)
  recall     print the notes a prompt is about (UserPromptSubmit)
  capture    turn a session transcript into a note (SessionEnd, PreCompact)
  sync       commit, pull and push the notes over git
  dashboard  browse and edit memory in a local web UI

Examples:
  anamnesis write --type procedural --title "Run tests" --body "make test -race"
  anamnesis search "how do we deploy" --project github.com/acme/api
  anamnesis list --type episodic --limit 5
  anamnesis config set remote git@host:anamnesis-memory.git

Every data command takes --home DIR and --json. Any executable anamnesis-NAME
on PATH runs as 'anamnesis NAME'; 'anamnesis help -a' shows where each was found.
`)
}

func runHelp(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "help")
	all := fs.Bool("a", false, "show where each extension was found")
	// Every built-in accepts --home (SPEC 2), even where it changes nothing.
	fs.String("home", "", "store directory (accepted; help does not read the store)")
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		name := fs.Arg(0)
		if c := lookup(name); c != nil {
			return helpOf(ctx, e, c)
		}
		if commandName(name) && findExtension(e.getenv, name) != "" {
			return dispatch(ctx, e, name, []string{"--help"})
		}
		return cli.Usagef("no such command %q. See 'anamnesis help'", name)
	}
	usage(e.stdout, *all)
	// Discovered extensions are listed either way (first found wins; shadowed
	// and non-executable copies are warned about on stderr); -a adds their paths.
	ext := extensions(e.getenv, e.stderr)
	names := make([]string, 0, len(ext))
	for n := range ext {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintln(e.stdout, "\nExtensions and tools found (anamnesis-NAME on PATH):")
	if len(names) == 0 {
		fmt.Fprintln(e.stdout, "  (none)")
	}
	for _, n := range names {
		if *all {
			fmt.Fprintf(e.stdout, "  %-10s %s\n", n, ext[n])
		} else {
			fmt.Fprintf(e.stdout, "  %s\n", n)
		}
	}
	return nil
}

func runVersion(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "version")
	var c common
	c.register(fs, true)
	if err := cli.Parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("version takes no arguments (got %q)", fs.Args())
	}
	if c.json {
		return printJSON(e.stdout, map[string]string{"version": cli.VersionString(), "go": runtime.Version(),
			"os": runtime.GOOS, "arch": runtime.GOARCH})
	}
	fmt.Fprintln(e.stdout, cli.VersionLine("anamnesis"))
	return nil
}

// isProcessStdio reports whether the command is talking to the real process
// stdio (and may therefore be replaced by exec).
func isProcessStdio(e *env) bool {
	return e.stdin == io.Reader(os.Stdin) && e.stdout == io.Writer(os.Stdout) && e.stderr == io.Writer(os.Stderr)
}
