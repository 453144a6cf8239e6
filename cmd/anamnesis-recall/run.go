package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// deadline keeps recall well inside its 5 s hook timeout: a locked or
// rebuilding index ends in a logged, empty recall, never a killed hook.
const deadline = 3 * time.Second

// syncWait is how long a session's first prompt waits for the SessionStart
// sync to finish, so that the notes it pulls reach the session.
const syncWait = 1500 * time.Millisecond

// maxPrompt is how much of a prompt is searched: a pasted log is mostly
// noise, and its first part says what it is about.
const maxPrompt = 4000

const usage = `usage: anamnesis-recall [--home DIR] [--max-chars N]

UserPromptSubmit hook: reads Claude Code's hook payload on stdin and prints
the notes the prompt is about (at most 3, not already shown in this session)
when the best one clears the relevance floor; otherwise prints nothing.
`

// run never returns an error for a failure inside the hook (hooks fail
// open): it logs to <home>/logs/anamnesis.log and prints nothing.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (err error) {
	fs := cli.FlagSet("anamnesis-recall", stderr)
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage); fs.PrintDefaults() }
	home := fs.String("home", "", "store home (default $ANAMNESIS_HOME or ~/.anamnesis)")
	plugin := fs.Bool("plugin", false, "run by the Claude Code plugin: do nothing when anamnesis init installed hooks too (no hook runs twice)")
	maxChars := fs.Int("max-chars", 0, "output budget in characters (default $ANAMNESIS_RECALL_MAX_CHARS, config recall.max_chars, else 2000)")
	perr := cli.Parse(fs, args)
	if errors.Is(perr, flag.ErrHelp) {
		return nil
	}
	cfg := config.Resolve(*home, os.Getenv)
	log := hook.NewLogger(cfg.Home, "anamnesis-recall")
	defer log.Recover(&err)
	if perr != nil {
		log.Printf("bad arguments %q: %v", args, perr)
		fmt.Fprintf(stderr, "anamnesis-recall: %v\n", perr)
		return nil
	}
	if !cfg.RecallEnabled || (*plugin && hook.InitHooksInstalled(cfg.ClaudeDir)) {
		return nil
	}
	budget := cfg.RecallMaxChars
	if *maxChars > 0 {
		budget = *maxChars
	}
	p, perr := hook.ReadPayload(stdin)
	if perr != nil {
		log.Printf("no usable hook payload (%v); nothing recalled", perr)
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	out, rerr := recallFor(ctx, cfg, p, budget, log)
	if rerr != nil {
		log.Printf("recall: %v", rerr)
		return nil
	}
	// One write of the whole block: nothing partial reaches Claude Code.
	if _, werr := io.WriteString(stdout, out); werr != nil {
		log.Printf("writing stdout: %v", werr)
	}
	return nil
}

// recallFor returns what to print for one prompt and records it in the
// session's state and the injection trace.
func recallFor(ctx context.Context, cfg config.Config, p hook.Payload, budget int, log *hook.Logger) (string, error) {
	home := cfg.Home
	prompt := p.Prompt
	if len(prompt) > maxPrompt {
		prompt = prompt[:maxPrompt]
	}
	// A home that was never initialised has nothing to recall; opening the
	// store would create one as a side effect of a prompt.
	if !exists(layout.Home(home).Memory()) && !exists(layout.Home(home).Local()) {
		return "", nil
	}
	proj := project.Here(p.Cwd, cfg).Key
	sess, serr := session.Load(home, p.SessionID)
	if serr != nil {
		log.Printf("session %s state unreadable (%v); starting it afresh", p.SessionID, serr)
	}
	firstWithMark := sess.Prompts == 0 && sess.Mark > 0
	if !firstWithMark && !recall.Informative(prompt) {
		// "yes", "ok, do it": nothing to search for, and nothing
		// arrived to bring; the index is not opened.
		return "", nil
	}
	st, err := store.OpenReader(ctx, home)
	if err != nil {
		return "", err
	}
	// No Close: the process ends right after printing (see inject).
	// A note is in the context when this session was shown it, or when it
	// was captured from this very session (its summary, e.g. written at
	// the SessionEnd before a --resume): showing it would repeat the
	// conversation to itself.
	inContext := func(n *note.Note) bool {
		return sess.Shown(n.ID) || (p.SessionID != "" && n.ProvSession == p.SessionID)
	}
	var arrived []*note.Note
	if firstWithMark {
		// The SessionStart sync runs in the background; what it pulled
		// after the block was rendered reaches the session here, once. A
		// prompt sent right away may find that sync still running: give
		// it a little time (bounded: a prompt never waits on a slow
		// remote for long; docs/recall.md says what happens then).
		if !gitsync.WaitIdle(ctx, home, syncWait) {
			log.Printf("first prompt of session %s: a sync was still running after %s; notes it pulls reach the session later", p.SessionID, syncWait)
		}
		fresh, err := st.IndexedSince(ctx, sess.Mark, []string{proj, note.Global}, recall.MaxNotes)
		if err != nil {
			return "", err
		}
		for _, m := range fresh {
			if inContext(m) {
				continue
			}
			if n, err := st.Get(ctx, m.ID); err == nil {
				arrived = append(arrived, n)
			}
		}
	}
	var related []*note.Note
	terms := map[string][]string{}
	if prompt != "" {
		cands, err := recall.Find(ctx, st, prompt, proj, recall.DefaultFloor, func(n *note.Note) bool {
			return inContext(n) || containsID(arrived, n.ID)
		})
		if err != nil {
			return "", err
		}
		for _, c := range cands {
			related = append(related, c.Note)
			terms[c.Note.ID] = c.Words
		}
	}
	out, ids := recall.Render(arrived, related, budget)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	// Only the first prompt and what was shown change the state: most
	// prompts write nothing.
	changed := sess.Prompts == 0 || len(ids) > 0
	sess.Prompts++
	sess.Add(ids...)
	if p.SessionID != "" && changed {
		if err := session.Save(home, p.SessionID, sess); err != nil {
			log.Printf("saving session %s state: %v", p.SessionID, err)
		}
	}
	if len(ids) > 0 {
		e := session.Entry{Time: time.Now().UTC(), Hook: "recall", Session: p.SessionID, Project: proj, IDs: ids, Chars: hook.Width(out), Terms: map[string][]string{}}
		for _, id := range ids {
			if containsID(arrived, id) {
				e.Arrived = append(e.Arrived, id)
			} else {
				e.Terms[id] = terms[id]
			}
		}
		if err := session.Trace(home, e); err != nil {
			log.Printf("injection trace: %v", err)
		}
	}
	return out, nil
}

func containsID(ns []*note.Note, id string) bool {
	for _, n := range ns {
		if n.ID == id {
			return true
		}
	}
	return false
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
