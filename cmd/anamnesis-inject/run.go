package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

// deadline keeps inject well inside the 15 s SessionStart hook timeout, so a
// locked index ends in a logged, empty injection rather than a killed hook.
const deadline = 10 * time.Second

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
	out, ierr := blockFor(ctx, cfg.Home, *projectFlag, *k, budget, stdin, log)
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

func blockFor(ctx context.Context, home, projectKey string, k, budget int, stdin io.Reader, log *hook.Logger) (string, error) {
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
		userHome, _ := os.UserHomeDir()
		projectKey = project.Key(cwd, userHome)
	}
	// A home that was never initialised has nothing to inject; opening the
	// store would create one as a side effect of starting a session.
	if !exists(filepath.Join(home, "memory")) && !exists(filepath.Join(home, "local")) {
		return "", nil
	}
	// The common path: the block saved by an earlier session, still current
	// (pkg/blockcache says when it is), printed without opening the index.
	cache := blockcache.Open(home, blockcache.Key{Project: projectKey, K: k, Budget: budget})
	if block, ok := cache.Cached(); ok {
		recordCached(home, p, projectKey, k, budget, block, log)
		return block, nil
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		if ctx.Err() != nil {
			// Rebuilding a large index (a new schema, a deleted index.db)
			// takes longer than a SessionStart hook may; rolled back at the
			// deadline, it would be retried, and fail, at every session.
			// Let a reindex without a deadline do it for the next session.
			rebuildInBackground(home, log)
		}
		return "", err
	}
	// No Close: the process ends right after printing, a reader has nothing
	// to checkpoint, and closing makes the SQLite port free its page cache a
	// page at a time (about 1 ms of a 15 ms budget on a 10k store).
	mark, err := st.Watermark(ctx) // before selecting: what is indexed later is news to recall
	if err != nil {
		return "", err
	}
	res, err := inject.Block(ctx, st, projectKey, k, budget, func(id string, err error) { log.Printf("note %s: %v", id, err) })
	if err != nil {
		return "", err
	}
	if res.Cut > 0 || res.Left > 0 {
		log.Printf("project %s: %d notes selected, %d cut and %d left out to fit %d characters", projectKey, res.Selected, res.Cut, res.Left, budget)
	}
	for _, id := range res.Read {
		if p, err := st.Path(ctx, id); err == nil {
			cache.Track(p)
		}
	}
	if err := cache.Save(res.Block); err != nil {
		log.Printf("saving the block for the next session: %v", err)
	}
	recordRendered(home, p, projectKey, k, budget, mark, res.IDs, res.Block, log)
	return res.Block, nil
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
	live, err := transcript.HookOutputLive(ctx, p.TranscriptPath, inject.Header)
	if err != nil {
		log.Printf("resume: reading %s: %v; injecting the block", p.TranscriptPath, err)
		return false
	}
	if live {
		log.Printf("resume of session %s: the block is already in its context; not injected again", p.SessionID)
	}
	return live
}

// rebuildInBackground starts `anamnesis reindex` detached, at most once
// every ten minutes per home.
func rebuildInBackground(home string, log *hook.Logger) {
	stamp := filepath.Join(home, "logs", ".inject-reindex")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < 10*time.Minute {
		return
	}
	bin := bin.Find("anamnesis")
	if bin == "" {
		log.Printf("the index needs a rebuild that does not fit in the hook; run `anamnesis reindex`")
		return
	}
	_ = os.MkdirAll(filepath.Dir(stamp), 0o700)
	_ = os.WriteFile(stamp, nil, 0o600)
	if pid, err := hook.StartDetached(home, bin, "reindex"); err != nil {
		log.Printf("starting `anamnesis reindex`: %v", err)
	} else {
		log.Printf("the index needs a rebuild that does not fit in the hook; started `anamnesis reindex` (pid %d)", pid)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
