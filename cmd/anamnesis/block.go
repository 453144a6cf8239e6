package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// runBlock prints the SessionStart block of a project computed from the
// index, and saves it for the hook. anamnesis-inject, which must not link
// SQLite to start at the speed of a bare process, runs this on a cache miss.
// (Not named inject: `anamnesis inject` stays the hook, as in the
// reference, whose hook command it is.)
func runBlock(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "block")
	var c common
	c.register(fs, false)
	projectFlag := fs.String("project", "", "project key (default: the project of the current directory)")
	k := fs.Int("k", 8, "project notes to include besides the global ones")
	maxChars := fs.Int("max-chars", -1, "output budget in characters; 0 = unlimited (default $ANAMNESIS_INJECT_MAX_CHARS, config inject.max_chars, else 9500)")
	without := fs.String("without-session", "", "leave out the notes captured from this session, and do not save the block (the hook's block after a compaction)")
	var timeout time.Duration
	fs.Var(cli.Seconds{D: &timeout}, "timeout", "give up after this many seconds (0 = no limit); an index rebuild that does not fit is then started in the background")
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("block takes no arguments (got %q); use --project", pos)
	}
	if *k < 0 || *maxChars < -1 {
		return cli.Usagef("--k and --max-chars must not be negative")
	}
	cfg := c.config(e)
	budget := cfg.InjectMaxChars
	if *maxChars >= 0 {
		budget = *maxChars
	}
	key := *projectFlag
	if key == "" {
		key = project.Here("", cfg).Key
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	// What another writer changed is read into the index first
	// (inject.CatchUp), which needs a writer; otherwise a reader will do.
	opener := store.OpenReader
	if blockcache.Drifted(cfg.Home, blockcache.Key{Project: key, K: *k, Budget: budget}).Any() {
		opener = store.Open
	}
	s, _, err := c.openWith(ctx, e, opener)
	if err != nil {
		if timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// Rebuilding a large index (a new schema, a deleted index.db)
			// takes longer than a SessionStart hook may; rolled back at the
			// deadline, it would be retried, and fail, at every session.
			rebuildInBackground(cfg.Home, e)
		}
		return err
	}
	// The time limit is for the open, which may rebuild; what follows is
	// bounded, and a context that can end would cost each of its SQL
	// statements two goroutines watching it (see hook.Hook's Exit).
	ctx = context.WithoutCancel(ctx)
	// No Close: a reader has nothing to checkpoint, and closing makes the
	// SQLite port free its page cache a page at a time.
	skip := func(id string, err error) {
		fmt.Fprintf(e.stderr, "anamnesis: note %s left out: %v\n", id, err)
	}
	var res inject.Result
	if *without != "" {
		// Computed for one session: what it shows is recorded in the
		// session's state (for recall) instead of the block cache.
		var mark int64
		if err := inject.CatchUp(ctx, s, blockcache.Key{Project: key, K: *k, Budget: budget}); err != nil {
			fmt.Fprintf(e.stderr, "anamnesis: %v\n", err)
		}
		if mark, err = s.Watermark(ctx); err != nil {
			return err
		}
		if res, err = inject.BlockWithout(ctx, s, key, *k, budget, *without, skip); err == nil {
			res.SaveErr = session.Save(cfg.Home, *without, session.State{IDs: res.IDs, Mark: mark})
		}
	} else {
		res, err = inject.Render(ctx, s, blockcache.Key{Project: key, K: *k, Budget: budget}, skip)
	}
	if err != nil {
		return err
	}
	if res.Cut > 0 || res.Left > 0 {
		fmt.Fprintf(e.stderr, "anamnesis: project %s: %d notes selected, %d cut and %d left out to fit %d characters\n", key, res.Selected, res.Cut, res.Left, budget)
	}
	if res.SaveErr != nil {
		fmt.Fprintf(e.stderr, "anamnesis: saving the block (for the next session, or what it shows for --without-session): %v\n", res.SaveErr)
	}
	_, err = fmt.Fprint(e.stdout, res.Block)
	return err
}

// rebuildInBackground starts `anamnesis reindex` detached, at most once
// every ten minutes per home.
func rebuildInBackground(home string, e *env) {
	stamp := layout.Home(home).Logs(".inject-reindex")
	if fi, err := os.Stat(stamp); err == nil && time.Since(fi.ModTime()) < 10*time.Minute {
		return
	}
	self := bin.Find("anamnesis")
	if self == "" {
		fmt.Fprintln(e.stderr, "anamnesis: the index needs a rebuild that does not fit in the hook; run `anamnesis reindex`")
		return
	}
	_ = layout.MkdirAll(filepath.Dir(stamp))
	_ = os.WriteFile(stamp, nil, layout.FileMode)
	if pid, err := hook.StartDetached(home, nil, self, "reindex"); err != nil {
		fmt.Fprintf(e.stderr, "anamnesis: starting `anamnesis reindex`: %v\n", err)
	} else {
		fmt.Fprintf(e.stderr, "anamnesis: the index needs a rebuild that does not fit in the hook; started `anamnesis reindex` (pid %d)\n", pid)
	}
}
