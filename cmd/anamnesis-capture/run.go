package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/summary"
	"github.com/anamnesis-dev/anamnesis/pkg/transcript"
)

const usage = `usage: anamnesis-capture [--transcript FILE] [--project KEY] [--source session-end|precompact] [--no-sync|--wait] [--home DIR]

SessionEnd / PreCompact hook: reads Claude Code's hook payload on stdin and
returns at once; a detached child turns the session transcript into one
episodic note (one note per session: a later capture updates it), renders the
project's SessionStart block again, commits the note to the memory repository
and starts a sync unless --no-sync. --wait does all of it inline and prints
what it did.
`

// Sources a capture may record (the note's second tag).
var sources = []string{"session-end", "precompact"}

type options struct {
	transcript, project, source string
	noSync, wait, summarize     bool
	// detached: this process is the capture the hook handed off (see
	// handOff): it does the work the hook returned before.
	detached bool
	// finish is the id of a note this capture wrote: commit it and sync
	// (the detached child's work).
	finish string
}

// run never returns an error for a failure inside the hook (SPEC 4/5: hooks
// fail open); it logs to <home>/logs/anamnesis.log and says so on stderr.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return hook.Run(ctx, hook.Hook{Name: "anamnesis-capture", Usage: usage,
		// Inside the PreCompact hook's 60 s timeout (the SessionEnd hook
		// has 120 s): an LLM summary is bounded by its own timeout (30 s by
		// default) and everything else is local.
		Deadline: 55 * time.Second,
		Flags: func(fs *flag.FlagSet) hook.Work {
			var o options
			fs.StringVar(&o.transcript, "transcript", "", "transcript JSONL (default: the payload's transcript_path)")
			fs.StringVar(&o.project, "project", "", "project key (default: resolved from the session's cwd)")
			fs.StringVar(&o.source, "source", "session-end", "which hook runs this: session-end or precompact")
			fs.BoolVar(&o.noSync, "no-sync", false, "commit locally only; do not start a sync")
			fs.BoolVar(&o.wait, "wait", false, "run the sync and any model summary inline (under a deadline) instead of in the background")
			fs.BoolVar(&o.summarize, "summarize", false, "write the configured model's summary now (capture starts this in the background after writing the heuristic note)")
			fs.BoolVar(&o.detached, "detached", false, "capture here, in the child the hook started (it returns at once)")
			fs.StringVar(&o.finish, "finish", "", "commit the session note with this `id` and sync unless --no-sync (capture starts this in the background after writing the note)")
			return func(ctx context.Context, hc hook.Call, out *strings.Builder) error {
				if !slices.Contains(sources, o.source) {
					return cli.Usagef("--source %q: want session-end or precompact", o.source)
				}
				if o.summarize {
					// Detached, with nobody waiting: the configured model
					// timeout bounds its request, not the hook's deadline
					// (kept inside Claude Code's timeouts), and the rest
					// (the transcript, the save, the commit) gets
					// summarySlack besides.
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(context.WithoutCancel(ctx), summaryDeadline(hc.Config.Reflection.Timeout))
					defer cancel()
				}
				c := &capture{o: o, cfg: hc.Config, log: hc.Log, stdout: out, stderr: hc.Stderr}
				c.quiet = o.source == "precompact" && !o.wait
				if o.finish != "" {
					return c.finishID(ctx, o.finish)
				}
				return c.run(ctx, hc.Stdin)
			}
		},
	}, args, stdin, stdout, stderr)
}

// summarySlack is the summary child's time beyond its model's timeout.
const summarySlack = 30 * time.Second

// summaryDeadline bounds the summary child: its model's timeout (the
// default when none is set) and summarySlack.
func summaryDeadline(modelTimeout time.Duration) time.Duration {
	if modelTimeout <= 0 {
		modelTimeout = model.DefaultTimeout
	}
	return modelTimeout + summarySlack
}

type capture struct {
	// open opens the store (store.Open when nil; tests make it fail).
	open   func(context.Context, string) (*store.Store, error)
	o      options
	cfg    config.Config
	log    *hook.Logger
	stdout io.Writer
	stderr io.Writer
	// quiet keeps the result lines off stdout: as the PreCompact hook
	// (--source precompact without --wait, or a PreCompact payload), whose
	// stdout Claude Code hands to the compaction model as custom
	// instructions. They are logged all the same.
	quiet bool
}

// say prints one of capture's result lines and logs it.
func (c *capture) say(format string, args ...any) {
	line := fmt.Sprintf(format, args...)
	if !c.child() && !c.quiet {
		// A detached child's stdout is the log itself.
		fmt.Fprintln(c.stdout, line)
	}
	c.log.Printf("%s", line)
}

// child tells a capture the hook started detached (--detached, --finish,
// --summarize), whose stdout is the hook log.
func (c *capture) child() bool {
	return c.o.detached || c.o.finish != "" || c.o.summarize
}

func (c *capture) run(ctx context.Context, stdin io.Reader) error {
	var p hook.Payload
	if c.o.transcript == "" {
		var err error
		if p, err = hook.ReadPayload(stdin); err != nil {
			return fmt.Errorf("no transcript: --transcript not given and %v", err)
		}
		if p.TranscriptPath == "" {
			return errors.New("no transcript: the hook payload has no transcript_path")
		}
	} else {
		// A payload alongside --transcript still supplies cwd and session
		// id; ReadPayload refuses a terminal at once.
		p, _ = hook.ReadPayload(stdin)
	}
	if p.HookEventName == "PreCompact" {
		c.quiet = true
	}
	path := c.o.transcript
	if path == "" {
		path = p.TranscriptPath
	}
	if ok, err := c.handOff(path, p); ok || err != nil {
		return err
	}
	if c.o.detached {
		// Done with the capture the hook handed off, whatever came of it
		// (a note, a skip, an error logged): off the record, and then the
		// captures whose child never finished are started again.
		if abs, err := filepath.Abs(path); err == nil {
			record := pendingPath(c.cfg.Home, c.o.source, abs)
			defer c.resume(record)
			defer os.Remove(record)
		}
	}
	open := c.open
	if open == nil {
		open = store.Open
	}
	// The index opens while the transcript is read (SessionEnd holds the
	// user's terminal), in a home that exists only: a capture that fails or
	// skips leaves no new home behind.
	var early *opening
	if layout.Home(c.cfg.Home).Initialized() {
		early = startOpen(ctx, open, c.cfg.Home)
		defer early.release()
	}
	sess, err := transcript.ParseSession(ctx, path)
	if err != nil {
		return fmt.Errorf("reading transcript: %w", err)
	}
	if sess.SkippedLines > 0 || sess.BadLines > 0 {
		c.log.Printf("transcript %s: %d lines, %d not JSON, %d over %d MiB skipped", path, sess.Lines, sess.BadLines, sess.SkippedLines, transcript.MaxLine>>20)
	}
	if sess.SessionID == "" {
		sess.SessionID = p.SessionID
	}
	if skip, reason := summary.Trivial(sess); skip {
		c.say("capture: skipped trivial session (%s)", reason)
		return nil
	}

	// The heuristic note is written at once; a model's summary, when one
	// is configured, replaces it from a detached child (SPEC 5: the model
	// never holds up Claude Code's exit), or inline with --wait.
	rc := c.cfg.Reflection
	mc := model.FromConfig(rc)
	// res is the model's summary; without one (res.Model empty) the
	// heuristic summary is made where the note is saved, added to the
	// earlier part's when the session was captured before.
	var res summary.Result
	later := mc.Enabled() && !c.o.wait && !c.o.summarize
	// before is the session's note as this summary child found it: a later
	// capture that rewrites it while the model answers read more of the
	// transcript, and this summary must not replace what it wrote.
	var before []byte
	if c.o.summarize {
		before = c.sessionBytes(store.SessionNoteID(sess.SessionID, sess.Started))
	}
	if mc.Enabled() && !later {
		var skip bool
		if res, skip = summary.Summarize(ctx, sess, mc, c.stderr); skip {
			c.say("capture: skipped session (the %s summarizer judged it not worth a note)", rc.Provider)
			if id := store.SessionNoteID(sess.SessionID, sess.Started); c.o.summarize && id != "" {
				// The heuristic note the hook wrote stays: commit it.
				return c.finishID(ctx, id)
			}
			return nil
		}
	}

	projectKey := c.o.project
	if projectKey == "" {
		cwd := sess.Cwd
		if cwd == "" {
			cwd = p.Cwd
		}
		projectKey = project.Here(cwd, c.cfg).Key
	}

	// The store redacts whatever produced the note (the summarizers redact
	// their inputs already) and says what it removed.
	var kinds []string
	redacted := store.Redacted(&kinds)
	var n *note.Note
	var updated bool
	// idx is the store the rest goes through; nil when the index failed.
	var idx *store.Store
	var st *store.Store
	if early != nil {
		st, err = early.take()
	} else {
		st, err = open(ctx, c.cfg.Home)
	}
	unlock := c.lockSessions(ctx)
	defer unlock()
	if id := store.SessionNoteID(sess.SessionID, sess.Started); before != nil && !bytes.Equal(c.sessionBytes(id), before) {
		c.say("capture: a later capture of session %s rewrote note %s while the %s summary was written; that summary, of an earlier part of the session, is dropped", sess.SessionID, id, rc.Provider)
		return nil
	}
	if err == nil {
		// No Close: the process ends once the note is written and the
		// block rendered (the child commits), and closing frees the page
		// cache a page at a time while the user's terminal waits
		// (docs/performance.md). Each write is committed when it returns.
		idx = st
		if moved, why := st.SetAside(); moved != "" {
			c.log.Printf("the index was unusable (%s); moved it to %s and rebuilt it from the notes", why, moved)
		}
		n, updated, res, err = c.save(ctx, st, sess, res, projectKey, redacted)
		if err != nil {
			// The index may fail only now (damage the open did not see);
			// the file still gets written.
			c.log.Printf("saving through the index failed (%v); writing the note's file only", err)
			if n, res, err = c.saveFileOnly(sess, res, projectKey, redacted); err != nil {
				return err
			}
			idx = nil
		}
	} else {
		// The file is the truth and the index only follows it: a session
		// must not be lost because the index cannot be used right now.
		c.log.Printf("index unusable (%v); writing the note's file only (the next open or reindex indexes it)", err)
		if n, res, err = c.saveFileOnly(sess, res, projectKey, redacted); err != nil {
			return fmt.Errorf("the index is unusable and the note could not be written: %w", err)
		}
	}
	unlock()
	if kinds = append(kinds, res.Redacted...); len(kinds) > 0 {
		slices.Sort(kinds)
		c.say("capture: redacted secrets from the note (%s)", strings.Join(slices.Compact(kinds), ", "))
	}
	// The seed's line, so scripts matching "capture: wrote" see every capture;
	// a second capture of the session says so inside the parentheses.
	again := ""
	if updated {
		again = "; updated in place"
	}
	c.say("capture: wrote episodic note %s (project %s, %s%s)", n.ID, n.Project, c.o.source, again)

	if later && c.summarizeLater(path, n.Project, sess.SessionID) {
		return nil // the child commits, renders the block and syncs after writing the summary
	}
	if !c.o.wait && !c.o.summarize {
		// The block is rendered here, not in the child: a SessionStart
		// right after a capture (/compact starts one at once) must find
		// it in the cache, and rendering pages through a few dozen notes
		// whatever the store's size.
		c.render(ctx, idx, n.Project)
		if c.o.detached {
			err := c.finish(ctx, nil, n)
			c.tidy(ctx, idx)
			return err
		}
		if c.finishLater(n.ID) {
			return nil
		}
		return c.finish(ctx, nil, n)
	}
	return c.finish(ctx, idx, n)
}

// sessionLockWait bounds the wait for another capture's save (a write of
// one note and its index rows: milliseconds).
const sessionLockWait = 5 * time.Second

// lockSessions takes <home>/state/capture.lock for the span from reading a
// session's earlier note to writing it, and returns its release (safe to call
// twice). Two captures of one session at once (the PreCompact and the
// SessionEnd children, a resumed session's and its earlier part's) would
// otherwise both find no note, or the same old one, and the later write
// would drop what the other added: its source tag, the requests of a part
// the other transcript does not hold. Best effort: a lock not had in time
// is logged and the capture goes on without it.
func (c *capture) lockSessions(ctx context.Context) func() {
	release, err := gitsync.Hold(ctx, layout.Home(c.cfg.Home).State("capture.lock"), sessionLockWait)
	if err != nil {
		c.log.Printf("capture: saving without the capture lock (%v)", err)
		return func() {}
	}
	var once sync.Once
	return func() { once.Do(release) }
}

// handOff starts `anamnesis-capture --detached` for the transcript, with the
// payload's session id and cwd on its stdin, and returns true: the child
// writes the note, renders the project's block, commits and syncs. SessionEnd
// holds the user's terminal until capture returns, and reading, summarising
// and writing a long session costs many times a process start (SPEC 5, 9).
// The capture stays on record until the child is done with it (pending.go):
// one the machine stops early is started again by a later capture's child.
// false when capture works
// here: --wait, a home not made yet (a capture that fails or skips leaves no
// home behind), this binary cannot be started again (tests run capture
// in-process), or the start failed.
func (c *capture) handOff(path string, p hook.Payload) (bool, error) {
	if c.o.wait || c.o.summarize || c.o.detached || !layout.Home(c.cfg.Home).Initialized() {
		return false, nil
	}
	self := bin.Find("anamnesis-capture")
	if self == "" {
		return false, nil
	}
	abs, err := filepath.Abs(path)
	if err == nil {
		_, err = os.Stat(abs)
	}
	if err != nil {
		return false, fmt.Errorf("reading transcript: %w", err)
	}
	// The child runs in the home: the session's directory, when neither
	// the transcript nor the payload names it, is this process's.
	cwd := p.Cwd
	if cwd == "" {
		cwd = "."
	}
	if d, err := filepath.Abs(cwd); err == nil {
		cwd = d
	}
	input, err := json.Marshal(map[string]string{"session_id": p.SessionID, "cwd": cwd, "transcript_path": abs})
	if err != nil || len(input) > hook.MaxInput {
		return false, nil
	}
	args := []string{"--detached", "--transcript", abs, "--source", c.o.source}
	if c.o.project != "" {
		args = append(args, "--project", c.o.project)
	}
	if c.o.noSync {
		args = append(args, "--no-sync")
	}
	// On record before the child starts, so that a child done at once
	// finds it to remove.
	record := pendingPath(c.cfg.Home, c.o.source, abs)
	if err := writePending(record, pending{Transcript: abs, Args: args, Input: string(input), Tries: 1}); err != nil {
		c.log.Printf("capture: the background capture is not on record (%v); a child stopped early would lose it", err)
	}
	pid, err := hook.StartDetached(c.cfg.Home, input, self, args...)
	if err != nil {
		os.Remove(record)
		c.log.Printf("capture: the background capture was not started (%v); capturing inline", err)
		return false, nil
	}
	c.say("capture: capturing the session in the background (pid %d)", pid)
	return true, nil
}

// opening is a store being opened in the background.
type opening struct {
	done  chan struct{}
	st    *store.Store
	err   error
	taken bool
}

func startOpen(ctx context.Context, open func(context.Context, string) (*store.Store, error), home string) *opening {
	o := &opening{done: make(chan struct{})}
	go func() {
		o.st, o.err = open(ctx, home)
		close(o.done)
	}()
	return o
}

// take waits for the store; its caller owns it from then on.
func (o *opening) take() (*store.Store, error) {
	<-o.done
	o.taken = true
	return o.st, o.err
}

// release closes the store when nobody took it (the capture ended early).
func (o *opening) release() {
	if o.taken {
		return
	}
	if st, err := o.take(); err == nil {
		st.Close()
	}
}

// render renders the project's SessionStart block again (st nil: the index
// is unusable, and the next session computes its block itself).
func (c *capture) render(ctx context.Context, st *store.Store, project string) {
	if st == nil {
		return
	}
	if err := inject.Refresh(ctx, st, project); err != nil {
		c.log.Printf("%v", err)
	}
}

// finishLater starts `anamnesis-capture --finish ID` detached: on a large
// store the commit costs far more than writing the note, and SessionEnd holds the user's terminal until capture returns
// (SPEC 5, 9). Nothing is lost if the child never runs (the machine stops):
// the note is on disk and indexed, and the next sync commits what is
// uncommitted. false when this binary cannot be started again (tests run
// capture in-process): the caller finishes inline.
func (c *capture) finishLater(id string) bool {
	self := bin.Find("anamnesis-capture")
	if self == "" {
		return false
	}
	args := []string{"--finish", id, "--source", c.o.source}
	if c.o.noSync {
		args = append(args, "--no-sync")
	}
	pid, err := hook.StartDetached(c.cfg.Home, nil, self, args...)
	if err != nil {
		c.log.Printf("capture: the background commit was not started (%v); committing inline", err)
		return false
	}
	what := "committing and syncing"
	if c.o.noSync {
		what = "committing" // --no-sync: the child syncs nothing
	}
	c.say("capture: %s in the background (pid %d)", what, pid)
	return true
}

// finishID is the detached child's work (--finish): the session note with
// this id, as the store has it now, is committed and the sync started.
func (c *capture) finishID(ctx context.Context, id string) error {
	if err := note.CheckID(id); err != nil { // it becomes a path below
		return cli.Usagef("--finish: %v", err)
	}
	open := c.open
	if open == nil {
		open = store.Open
	}
	st, err := open(ctx, c.cfg.Home)
	if err != nil {
		// Commit the file all the same; the next open indexes it.
		c.log.Printf("index unusable (%v); committing note %s without rendering its block", err, id)
		return c.finish(ctx, nil, &note.Note{ID: id, Type: note.Episodic, Scope: note.Portable})
	}
	defer st.Close()
	n, err := st.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("finishing note %s: %w", id, err)
	}
	err = c.finish(ctx, nil, n) // the capture that started this rendered the block
	c.tidy(ctx, st)
	return err
}

// tidy merges the small full-text segments the session's writes left, for
// the next searches: in a detached child, off the user's terminal (st nil:
// the index is unusable).
func (c *capture) tidy(ctx context.Context, st *store.Store) {
	if st == nil {
		return
	}
	if err := st.Tidy(ctx); err != nil {
		c.log.Printf("merging the index's small segments: %v", err)
	}
}

// finish does what follows the note's write: the project's SessionStart
// block rendered again (st nil: the index is unusable), the local commit of
// the note, then the sync unless --no-sync.
func (c *capture) finish(ctx context.Context, st *store.Store, n *note.Note) error {
	c.render(ctx, st, n.Project)
	if n.Scope == note.MachineLocal {
		// A session note someone moved to local/ stays off git and off
		// the other machines: nothing to commit or sync.
		return nil
	}
	// Only the note (and the store's .gitignore), under the home's commit
	// lock: a sync that aborts a failed merge resets whatever is staged. A
	// sync holds that lock only for its local steps, never across the
	// network, so a hanging remote cannot make this wait or skip.
	paths := []string{layout.NoteRel(n.Type, n.ID)}
	if _, err := os.Stat(filepath.Join(layout.Home(c.cfg.Home).Memory(), ".gitignore")); err == nil {
		paths = append(paths, ".gitignore")
	}
	short := n.ProvSession
	if len(short) > 8 {
		short = short[:8]
	}
	msg := fmt.Sprintf("anamnesis: capture session %s (note %s) from %s at %s", short, n.ID, c.cfg.MachineID, time.Now().UTC().Format(time.RFC3339))
	cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	hash, err := gitsync.CommitPaths(cctx, c.cfg.Home, c.cfg.MachineID, msg, commitLockWait, paths...)
	cancel()
	if errors.Is(err, gitsync.ErrBusy) {
		// The note is on disk and indexed; the sync started below waits
		// for the running one and then commits it.
		c.say("capture: the memory repository is busy; the note will be committed by the next sync")
		err = nil
	}
	if err != nil {
		// The note is on disk and indexed; the next sync commits it.
		return fmt.Errorf("note %s written, but the local commit failed: %w", n.ID, err)
	}
	if hash != "" {
		c.say("capture: committed locally (%s)", hash)
	}
	if c.o.noSync {
		return nil
	}
	c.sync(ctx)
	return nil
}

// summarizeLater starts `anamnesis-capture --summarize` detached for the
// transcript: it asks the model, replaces the heuristic note with the
// summary, commits it and starts the sync. The child gets the session id on
// its stdin, as a payload: a transcript that names none was captured under
// the hook payload's, and the summary must replace that note, not add one
// without a session. false when it could not start (the heuristic note
// stays; the caller syncs).
func (c *capture) summarizeLater(transcriptPath, projectKey, sessionID string) bool {
	self, err := os.Executable()
	if err == nil {
		if p := bin.Find("anamnesis-capture"); p != "" {
			self = p
		}
	}
	if abs, aerr := filepath.Abs(transcriptPath); aerr == nil {
		transcriptPath = abs
	}
	args := []string{"--summarize", "--transcript", transcriptPath, "--project", projectKey, "--source", c.o.source}
	if c.o.noSync {
		args = append(args, "--no-sync")
	}
	input, jerr := json.Marshal(map[string]string{"session_id": sessionID})
	if jerr != nil || len(input) > hook.MaxInput {
		input = nil // the child reads the transcript's own, if any
	}
	var pid int
	if err == nil {
		pid, err = hook.StartDetached(c.cfg.Home, input, self, args...)
	}
	if err != nil {
		c.say("capture: the %s summary was not started (%v); the heuristic note stays", c.cfg.Reflection.Provider, err)
		return false
	}
	c.say("capture: the %s summary will replace the note in the background (pid %d)", c.cfg.Reflection.Provider, pid)
	return true
}

// text is what the session's note says: res when a model wrote it; else
// the heuristic summary, added to old's body when old is the heuristic
// note an earlier capture of the same session wrote (a resumed session
// adds to what its earlier part found).
func text(res summary.Result, sess *transcript.Session, old *note.Note) summary.Result {
	switch {
	case res.Model != "":
		return res
	case old != nil && old.ProvModel == "":
		return summary.Update(old.Body, sess)
	}
	return summary.Heuristic(sess)
}

// save writes the session's note, or updates the one an earlier capture of
// the same session wrote (see sessionNote). It returns the text it wrote
// (see text).
func (c *capture) save(ctx context.Context, st *store.Store, sess *transcript.Session, res summary.Result, projectKey string, opts ...store.Option) (*note.Note, bool, summary.Result, error) {
	existing, err := st.SessionNote(ctx, sess.SessionID, sess.Started)
	if err != nil {
		return nil, false, res, err
	}
	res = text(res, sess, existing)
	n := c.sessionNote(existing, sess, res, projectKey)
	if existing != nil {
		if err := st.Put(ctx, n, opts...); err != nil {
			return nil, false, res, err
		}
		return n, true, res, nil
	}
	if id := store.SessionNoteID(sess.SessionID, sess.Started); id != "" {
		// A stable id: two captures of one session racing each other write
		// the same file instead of two notes.
		n.ID = id
		if err := st.Put(ctx, n, opts...); err != nil {
			return nil, false, res, err
		}
		return n, false, res, nil
	}
	w, err := st.Write(ctx, n, opts...)
	return w, false, res, err
}

// saveFileOnly writes the session's note without the index: the note an
// earlier capture of the session wrote (same stable id, in either tree) is
// updated in place (see sessionNote). It returns the text it wrote.
func (c *capture) saveFileOnly(sess *transcript.Session, res summary.Result, projectKey string, opts ...store.Option) (*note.Note, summary.Result, error) {
	id := store.SessionNoteID(sess.SessionID, sess.Started)
	if id == "" {
		id = note.NewID()
	}
	old, oldPath := c.sessionFile(id)
	res = text(res, sess, old)
	n := c.sessionNote(old, sess, res, projectKey)
	if old == nil {
		n.ID = id
		now := note.Now()
		n.CreatedAt, n.UpdatedAt = now, now
	}
	rel, err := store.WriteFileOnly(c.cfg.Home, n, opts...)
	if err != nil {
		return nil, res, err
	}
	if oldPath != "" && oldPath != filepath.Join(layout.Home(c.cfg.Home).Tree(n.Scope), filepath.FromSlash(rel)) {
		// Found under another type directory than its type names: one
		// file per note, as the indexed write leaves it.
		os.Remove(oldPath)
	}
	return n, res, nil
}

// sessionFile is the note with this id that an earlier capture of the
// session wrote, and its file, read in the tree and type directory it is in
// (someone may have moved it to local/ to keep it off git, or filed it
// under another type); nil when no tree holds it.
func (c *capture) sessionFile(id string) (*note.Note, string) {
	for _, scope := range []string{note.Portable, note.MachineLocal} {
		for _, typ := range note.Types {
			p := layout.Home(c.cfg.Home).Note(scope, typ, id)
			data, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			if old, err := note.Parse(data); err == nil && old.ID == id {
				old.Scope = scope
				return old, p
			}
		}
	}
	return nil, ""
}

// sessionBytes is the file of the session note with this id, as sessionFile
// finds it; nil when there is none.
func (c *capture) sessionBytes(id string) []byte {
	if id == "" {
		return nil
	}
	_, p := c.sessionFile(id)
	if p == "" {
		return nil
	}
	data, _ := os.ReadFile(p)
	return data
}

// sessionNote is the note this capture writes for the session: old, the
// note an earlier capture of it wrote, updated in place (same id,
// created_at, project and tree; new title, body, updated_at and model; both
// source tags), or a new note when old is nil.
func (c *capture) sessionNote(old *note.Note, sess *transcript.Session, res summary.Result, projectKey string) *note.Note {
	if old != nil {
		n := old
		n.Title, n.Body = res.Title, res.Body
		n.UpdatedAt = note.Now()
		n.ProvModel = res.Model
		n.Tags = note.CleanTags(append(n.Tags, "session", c.o.source))
		return n
	}
	n := note.New(note.Episodic, res.Title, res.Body)
	n.Project = projectKey
	n.MachineID = c.cfg.MachineID
	n.Tags = []string{"session", c.o.source}
	n.ProvSource = note.ProvSessionEnd
	n.ProvSession = sess.SessionID
	n.ProvModel = res.Model
	return n
}
