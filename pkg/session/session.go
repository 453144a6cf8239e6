// Package session holds the rules of one Claude Code session's memory
// across its hooks: what the session has been shown (State, kept in
// <home>/state/sessions/<id>.json, so a note never enters the same context
// twice: the SessionStart block's notes, then recall's), the index
// watermark its block was rendered at (Started), which prompts change the
// state (Prompted), and the injection trace every hook appends to
// (<home>/logs/injections.jsonl, Trace). It links neither SQLite nor YAML:
// the SessionStart hook uses it.
package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// State is what one Claude Code session has been shown, kept in
// <home>/state/sessions/<id>.json so a note is never put into the same
// context twice (SessionStart block included).
type State struct {
	// IDs are the notes in the session's context, in the order shown.
	IDs []string `json:"ids"`
	// Mark is the index watermark when the SessionStart block was rendered
	// (store.Watermark); 0 when no block was rendered for this session.
	Mark int64 `json:"mark,omitempty"`
	// Prompts counts the prompts recall has seen; the first one also brings
	// the notes a background pull indexed after Mark.
	Prompts int `json:"prompts"`
}

// TTL is how long a session's file is kept after its last change: as long
// as Claude Code keeps a transcript to resume (cleanupPeriodDays, 30 days by
// default). A resumed session replays its SessionStart block from the
// transcript and inject prints nothing again, so the state is the only
// record of what that block showed; recall without it would repeat those
// notes. The directory must still not grow without bound (a file is a few
// hundred bytes; listing it runs at most once an hour).
const TTL = 30 * 24 * time.Hour

// safeID reports session ids that are plain names (Claude Code's are
// lower-case UUIDs); anything else (a path, a very long string) is hashed,
// so an id never becomes a path outside state/. Upper-case letters are
// hashed too, as are Windows device names: where file names ignore case
// "ABC" and "abc" would share one file, and "nul.json" is the NUL device.
// A loop, not a regexp: compiling one costs every hook process start.
func safeID(id string) bool {
	if id == "" || len(id) > 128 || layout.WindowsDevice(id) {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func sessionPath(home, id string) string {
	name := id
	if !safeID(id) {
		sum := sha256.Sum256([]byte(id))
		name = "h-" + hex.EncodeToString(sum[:16])
	}
	return layout.Home(home).State("sessions", name+".json")
}

// Load reads a session's state; an absent or unreadable file is an
// empty state (a damaged file must not stop a hook).
func Load(home, id string) (State, error) {
	var s State
	data, err := os.ReadFile(sessionPath(home, id))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return State{}, err
	}
	return s, nil
}

// Add appends ids not already shown.
func (s *State) Add(ids ...string) {
	for _, id := range ids {
		if !slices.Contains(s.IDs, id) {
			s.IDs = append(s.IDs, id)
		}
	}
}

// Shown reports whether id is already in the session's context.
func (s *State) Shown(id string) bool { return slices.Contains(s.IDs, id) }

// Prompted records one prompt's recall, which showed ids, and reports
// whether the state must be saved: only a session's first prompt and
// prompts that showed notes change it, so most prompts write nothing.
func (s *State) Prompted(ids []string) bool {
	changed := s.Prompts == 0 || len(ids) > 0
	s.Prompts++
	s.Add(ids...)
	return changed
}

// Started records a SessionStart block in session id's state: the notes it
// put into the context (recall never repeats them) and the index watermark
// it was rendered at (the first prompt brings what a background pull
// indexed later). Only a resumed session (or one whose source is not
// known) keeps what it was shown before: a startup's context is new, and a
// clear or a compaction emptied it, so their state is not even read. A
// state that cannot be read is started afresh; the error says so.
func Started(home, id, source string, ids []string, mark int64) error {
	var s State
	var lerr error
	if source != "startup" && source != "clear" && source != "compact" {
		s, lerr = Load(home, id)
	}
	s.Mark = mark
	s.Prompts = 0
	s.Add(ids...)
	if err := Save(home, id, s); err != nil {
		return fmt.Errorf("saving session %s state: %w", id, err)
	}
	if lerr != nil {
		return fmt.Errorf("session %s state unreadable (%v); started afresh", id, lerr)
	}
	return nil
}

// Save writes a session's state (a reader finds the old state, the new one
// or, for a moment, none: atomicfile.Rewrite) and prunes the files of
// sessions untouched for TTL.
func Save(home, id string, s State) error {
	p := sessionPath(home, id)
	if err := layout.MkdirAll(filepath.Dir(p)); err != nil {
		return err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := atomicfile.Rewrite(p, append(data, '\n'), layout.FileMode); err != nil {
		return err
	}
	prune(filepath.Dir(p), time.Now().Add(-TTL))
	return nil
}

// Remove deletes a session's state, if it has any: for a client that makes
// throwaway sessions (the benchmark's), so that they do not pile up in the
// directory every hook writes to until the pruning.
func Remove(home, id string) error {
	err := os.Remove(sessionPath(home, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// pruneEvery spaces out the pruning: listing the directory and reading
// every entry's time at each hook would cost more than the hook itself.
const pruneEvery = time.Hour

func prune(dir string, before time.Time) {
	mark := filepath.Join(dir, ".pruned")
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < pruneEvery {
		return
	}
	if f, err := os.Create(mark); err == nil {
		f.Close()
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() == ".pruned" {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(before) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
