package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// deadline keeps inject well inside the 15 s SessionStart hook timeout, so a
// locked index ends in a logged, empty injection rather than a killed hook.
const deadline = 10 * time.Second

// header starts every block (inject.Header; not imported, as that package
// links SQLite: see blockFor).
const header = "# Anamnesis memory (auto-injected)"

const usage = `usage: anamnesis-inject [--project KEY] [--k N] [--max-chars N] [--home DIR]

SessionStart hook: reads Claude Code's hook payload on stdin, resolves the
project from its cwd, and prints the memory block for that project.
`

// run never returns an error for a failure inside the hook (SPEC 4: hooks
// fail open); it logs to <home>/logs/anamnesis.log and prints nothing.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := cli.FlagSet("anamnesis-inject", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	home := fs.String("home", "", "store home (default $ANAMNESIS_HOME or ~/.anamnesis)")
	projectFlag := fs.String("project", "", "project key (default: resolved from the payload's cwd)")
	k := fs.Int("k", 8, "project notes to include besides the global ones")
	plugin := fs.Bool("plugin", false, "run by the Claude Code plugin: do nothing when anamnesis init installed hooks too (no hook runs twice)")
	maxChars := fs.Int("max-chars", -1, "output budget in characters; 0 = unlimited (default $ANAMNESIS_INJECT_MAX_CHARS, config inject.max_chars, else 9500)")
	perr := cli.Parse(fs, args)
	if errors.Is(perr, flag.ErrHelp) {
		return nil
	}
	cfg := config.Resolve(*home, os.Getenv)
	log := hook.NewLogger(cfg.Home, "anamnesis-inject")
	defer log.Recover(&err)
	if perr != nil {
		// A broken hook command line must not block the session either.
		log.Printf("bad arguments %q: %v", args, perr)
		fmt.Fprintf(stderr, "anamnesis-inject: %v\n", perr)
		return nil
	}
	if *plugin && hook.InitHooksInstalled(cfg.ClaudeDir) {
		return nil
	}
	budget := cfg.InjectMaxChars
	if *maxChars >= 0 {
		budget = *maxChars
	} else if *maxChars != -1 {
		log.Printf("--max-chars %d is negative; using %d", *maxChars, budget)
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	out, ierr := blockFor(ctx, cfg, *projectFlag, max(*k, 0), budget, stdin, log)
	if ierr != nil {
		log.Printf("inject: %v", ierr)
		fmt.Fprintf(stderr, "anamnesis-inject: %v (see %s)\n", ierr, hook.LogPath(cfg.Home))
		return nil
	}
	// One write of the whole block: nothing partial reaches Claude Code.
	if _, werr := io.WriteString(stdout, out); werr != nil {
		log.Printf("writing stdout: %v", werr)
	}
	return nil
}

// blockFor is the hook's work. The common path, a block saved by an
// earlier session and still current (pkg/blockcache says when it is), reads
// a few small files and links neither SQLite nor YAML, so the hook starts
// and ends at the speed of a bare process. Otherwise `anamnesis block`
// computes the block from the index and saves it for the next session.
func blockFor(ctx context.Context, cfg config.Config, projectKey string, k, budget int, stdin io.Reader, log *hook.Logger) (string, error) {
	home := cfg.Home
	p, perr := hook.ReadPayload(stdin)
	if perr == nil && alreadyInContext(ctx, p, log) {
		return "", nil
	}
	if projectKey == "" {
		cwd := "."
		switch {
		case perr != nil:
			log.Printf("no usable hook payload (%v); using cwd %q", perr, cwd)
		case p.Cwd == "":
			log.Printf("hook payload has no cwd; using %q", cwd)
		default:
			cwd = p.Cwd
		}
		projectKey = project.Here(cwd, cfg).Key
	}
	// A home that was never initialised has nothing to inject; opening the
	// store would create one as a side effect of starting a session.
	if !exists(layout.Home(home).Memory()) && !exists(layout.Home(home).Local()) {
		return "", nil
	}
	key := blockcache.Key{Project: projectKey, K: k, Budget: budget}
	if perr == nil && p.Source == "compact" && p.SessionID != "" {
		// The PreCompact capture has just written the session's own note;
		// the compacted context holds its summary already (SPEC 15), so
		// the block leaves it out: computed for this session, not cached.
		text, err := render(ctx, home, key, log, "--without-session", p.SessionID)
		if err != nil {
			return "", err
		}
		// `anamnesis block` saved what the block shows, and the watermark,
		// in the session's state.
		s, _ := session.Load(home, p.SessionID)
		record(home, p, projectKey, blockcache.Block{Text: text, IDs: s.IDs, Mark: s.Mark}, log)
		return text, nil
	}
	b, ok := blockcache.Open(home, key).Cached()
	if !ok {
		text, err := render(ctx, home, key, log)
		if err != nil {
			return "", err
		}
		// What the block shows was saved with it; a block another write
		// made stale in between is printed all the same, unrecorded.
		if b, ok = blockcache.Open(home, key).Cached(); !ok || b.Text != text {
			log.Printf("what the block shows is not recorded (the index changed while it was rendered)")
			b = blockcache.Block{Text: text}
		}
	}
	record(home, p, projectKey, b, log)
	return b.Text, nil
}

// render runs `anamnesis block` for key and returns what it printed.
func render(ctx context.Context, home string, key blockcache.Key, log *hook.Logger, extra ...string) (string, error) {
	self := bin.Find("anamnesis")
	if self == "" {
		return "", errors.New("the block is not cached and the anamnesis command, which computes it, is not installed beside anamnesis-inject or on PATH")
	}
	// The child stops itself a second early, so a rebuild that does not fit
	// is started in the background instead of being killed half done.
	limit := time.Second
	if dl, ok := ctx.Deadline(); ok {
		limit = max(time.Until(dl)-time.Second, limit)
	}
	args := append([]string{"block", "--home", home, "--project", key.Project,
		"--k", strconv.Itoa(key.K), "--max-chars", strconv.Itoa(key.Budget), "--timeout", limit.String()}, extra...)
	cmd := exec.CommandContext(ctx, self, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if msg := strings.TrimSpace(errOut.String()); msg != "" {
		log.Printf("anamnesis block: %s", msg)
	}
	if err != nil {
		return "", fmt.Errorf("anamnesis block: %w", err)
	}
	return out.String(), nil
}

// alreadyInContext reports a resumed session whose context already holds
// the block: Claude Code replays an earlier SessionStart hook's output from
// the transcript (see transcript.HookOutputLive), so printing it again would
// put it there twice. After startup and clear the context is new, and after
// a compaction the old block is gone (it came before the boundary), so only
// resume is checked; a transcript that cannot be read means inject.
func alreadyInContext(ctx context.Context, p hook.Payload, log *hook.Logger) bool {
	if p.Source != "resume" || p.TranscriptPath == "" {
		return false
	}
	live, err := transcript.HookOutputLive(ctx, p.TranscriptPath, header)
	if err != nil {
		log.Printf("resume: reading %s: %v; injecting the block", p.TranscriptPath, err)
		return false
	}
	if live {
		log.Printf("resume of session %s: the block is already in its context; not injected again", p.SessionID)
	}
	return live
}

// record tells per-prompt recall what the block put into the session's
// context (so recall never repeats it) and the index watermark it was
// rendered at (so the first prompt brings what a background pull indexed
// later), and appends the block to the injection trace. Best effort: a
// failure is logged and the block is printed anyway.
func record(home string, p hook.Payload, project string, b blockcache.Block, log *hook.Logger) {
	if p.SessionID != "" {
		s, err := session.Load(home, p.SessionID)
		if err != nil {
			log.Printf("session %s state unreadable (%v); starting it afresh", p.SessionID, err)
		}
		if p.Source == "clear" || p.Source == "compact" {
			// The context was emptied: what recall showed before is gone too.
			s = session.State{}
		}
		s.Mark = b.Mark
		s.Prompts = 0
		s.Add(b.IDs...)
		if err := session.Save(home, p.SessionID, s); err != nil {
			log.Printf("saving session %s state: %v", p.SessionID, err)
		}
	}
	e := session.Entry{Time: time.Now().UTC(), Hook: "inject", Session: p.SessionID, Project: project, IDs: b.IDs, Chars: hook.Width(b.Text)}
	if err := session.Trace(home, e); err != nil {
		log.Printf("injection trace: %v", err)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
