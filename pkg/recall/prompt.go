package recall

import (
	"context"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// SyncWait is how long a session's first prompt waits for the SessionStart
// sync to finish, so that the notes it pulls reach the session.
const SyncWait = 1500 * time.Millisecond

// MaxPrompt is how much of a prompt is searched: a pasted log is mostly
// noise, and its first part says what it is about.
const MaxPrompt = 4000

// Prompt is the UserPromptSubmit hook's work for one prompt (payload p):
// what to print, within budget characters, recorded in the session's state
// (so it never shows twice) and the injection trace. It prints nothing for
// a home never initialised, a prompt with nothing to search for, or notes
// below the floor.
func Prompt(ctx context.Context, cfg config.Config, p hook.Payload, budget int, log *hook.Logger) (string, error) {
	home := cfg.Home
	prompt := p.Prompt
	if len(prompt) > MaxPrompt {
		prompt = prompt[:MaxPrompt]
	}
	// Opening the store would create a home as a side effect of a prompt.
	if !layout.Home(home).Initialized() {
		return "", nil
	}
	proj := project.Here(p.Cwd, cfg).Key
	hidden := config.HiddenGlobal(cfg.Teams, proj)
	sess, serr := session.Load(home, p.SessionID)
	if serr != nil {
		log.Printf("session %s state unreadable (%v); starting it afresh", p.SessionID, serr)
	}
	firstWithMark := sess.Prompts == 0 && sess.Mark > 0
	if !firstWithMark && !Informative(prompt) {
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
		if !gitsync.WaitIdle(ctx, home, SyncWait) {
			log.Printf("first prompt of session %s: a sync was still running after %s; notes it pulls reach the session later", p.SessionID, SyncWait)
		}
		fresh, err := st.IndexedSince(ctx, sess.Mark, []string{proj, note.Global}, hidden, MaxNotes)
		if err != nil {
			return "", err
		}
		for _, m := range fresh {
			if inContext(m) {
				continue
			}
			// Get screens the file: edited since it was indexed (in
			// place, so nothing told the index), it may read as held,
			// and is left out as held notes are.
			if n, err := st.Get(ctx, m.ID); err == nil && !screen.Held(n.Tags) {
				arrived = append(arrived, n)
			}
		}
		// A note shared with a team arrives twice (the person's, by their
		// own remote, and the team's copy): it is brought once.
		arrived = distinct(arrived)
	}
	var related []*note.Note
	terms := map[string][]string{}
	if prompt != "" {
		cands, err := find(ctx, st, prompt, proj, hidden, DefaultFloor, func(n *note.Note) bool {
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
	out, ids := Render(arrived, related, budget)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if p.SessionID != "" && sess.Prompted(ids) {
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
