package lifecycle

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// The journal makes an apply all or nothing across kill -9 and power loss.
// Before a file is changed, a line recording its old bytes (or that it did
// not exist) is appended to <home>/state/lifecycle/journal and synced; once
// every file is written, a last line marks the apply done and lists the
// files to commit; after the commit the journal is removed. The next
// lifecycle command (Recover) finds a journal left by a killed one and
// either rolls it back (no done line: every file as it was, new files gone)
// or forward (done: commit what was written). Either way the index is
// brought level with the files and the journal goes.
//
// One apply at a time per home: the journal's lock is held from the first
// recorded change to the journal's removal.

// journalEntry is one line of the journal.
type journalEntry struct {
	Cmd          string   `json:"cmd,omitempty"`  // first line: the command
	Plan         string   `json:"plan,omitempty"` // first line: the saved plan applied
	store.Change          // a file about to change, as it was
	Done         bool     `json:"done,omitempty"`  // last line: every file written
	Paths        []string `json:"paths,omitempty"` // with done: to commit, relative to memory/
}

func journalDir(home string) string  { return layout.Home(home).State("lifecycle") }
func journalPath(home string) string { return filepath.Join(journalDir(home), "journal") }
func applyLockPath(home string) string {
	return filepath.Join(journalDir(home), "apply.lock")
}

// journal is an open journal file.
type journal struct {
	home    string
	f       *os.File
	release func()
}

// openJournal takes the home's apply lock and starts a journal. A journal
// left by a killed apply is settled first.
func openJournal(ctx context.Context, s *store.Store, cmd, plan string) (*journal, error) {
	home := s.Home()
	release, err := gitsync.Hold(ctx, applyLockPath(home), 30*time.Second)
	if err != nil {
		return nil, fmt.Errorf("another lifecycle command is applying: %w", err)
	}
	if _, err := settle(ctx, s, ""); err != nil {
		release()
		return nil, err
	}
	f, err := os.OpenFile(journalPath(home), os.O_CREATE|os.O_EXCL|os.O_WRONLY, layout.FileMode)
	if err != nil {
		release()
		return nil, err
	}
	j := &journal{home: home, f: f, release: release}
	if err := j.add(journalEntry{Cmd: cmd, Plan: plan}); err != nil {
		j.abandon()
		return nil, err
	}
	return j, nil
}

// add appends one line and syncs it: the line is on disk before the change
// it describes.
func (j *journal) add(e journalEntry) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

// done marks every file written; the commit is what is left.
func (j *journal) done(paths []string) error {
	return j.add(journalEntry{Done: true, Paths: paths})
}

// abandon removes the journal after an apply that undid itself (or never
// changed a file) and frees the lock.
func (j *journal) abandon() {
	j.f.Close()
	os.Remove(journalPath(j.home))
	j.release()
}

// readJournal reads a journal; a torn last line (killed mid-append) is
// dropped: the change it announced was never started.
func readJournal(home string) ([]journalEntry, error) {
	data, err := os.ReadFile(journalPath(home))
	if err != nil {
		return nil, err
	}
	var out []journalEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var e journalEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			break
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Recover settles a journal a killed apply left behind (see journal), under
// the apply lock. It returns what it did, one line each, for the command to
// print; nothing when there was no journal.
func Recover(ctx context.Context, s *store.Store, machineID string) ([]string, error) {
	if _, err := os.Stat(journalPath(s.Home())); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	release, err := gitsync.Hold(ctx, applyLockPath(s.Home()), 30*time.Second)
	if err != nil {
		return nil, fmt.Errorf("another lifecycle command is applying: %w", err)
	}
	defer release()
	return settle(ctx, s, machineID)
}

func recoveredMsg(cmd, machineID string) string {
	if machineID == "" {
		machineID = "unknown"
	}
	return "anamnesis " + cmd + " (" + machineID + ", completed after an interruption)"
}

// settle rolls a journal back or forward; the caller holds the lock.
func settle(ctx context.Context, s *store.Store, machineID string) ([]string, error) {
	home := s.Home()
	es, err := readJournal(home)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the lifecycle journal: %w", err)
	}
	cmd := "apply"
	if len(es) > 0 && es[0].Cmd != "" {
		cmd = es[0].Cmd
	}
	var lines []string
	if len(es) > 0 && es[len(es)-1].Done {
		// Every file was written: keep them, index them, commit them.
		last := es[len(es)-1]
		if _, err := s.Reindex(ctx, false); err != nil {
			return nil, err
		}
		committed := "they are committed now"
		if len(last.Paths) > 0 {
			if machineID == "" {
				machineID = "unknown"
			}
			if _, err := gitsync.CommitPaths(ctx, home, machineID, recoveredMsg(cmd, machineID), 10*time.Second, last.Paths...); errors.Is(err, gitsync.ErrNoGit) {
				// Nothing to undo and nothing git can do here: the files
				// stay written, and a sync with git commits them (a journal
				// kept for git would stop every later apply).
				committed = "git is not on PATH, so they stay uncommitted until a sync with git"
			} else if err != nil {
				return nil, fmt.Errorf("completing the interrupted %s: %w", cmd, err)
			}
		}
		if es[0].Plan != "" {
			markApplied(home, es[0].Plan)
		}
		lines = append(lines, fmt.Sprintf("recovered: the interrupted %s had written all %d file(s); %s", cmd, len(last.Paths), committed))
	} else {
		var changes []store.Change
		for _, e := range es {
			if e.Abs != "" {
				changes = append(changes, e.Change)
			}
		}
		n := len(changes)
		if err := s.Undo(ctx, changes); err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("recovered: the interrupted %s was rolled back (%d file(s) as they were)", cmd, n))
	}
	if err := os.Remove(journalPath(home)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return lines, nil
}

// commit is Finish's commit: under the apply lock, the files a done journal
// lists (this apply's, unless a later command already committed them) and
// paths, then the journal goes.
func commit(ctx context.Context, home, machineID string, paths []string, msg string) (string, error) {
	release, err := gitsync.Hold(ctx, applyLockPath(home), 30*time.Second)
	if err != nil {
		return "", fmt.Errorf("another lifecycle command is applying: %w", err)
	}
	defer release()
	es, err := readJournal(home)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	if len(es) > 0 && !es[len(es)-1].Done {
		// Another apply's, not finished (killed): the next command settles it.
		es = nil
	}
	all := slices.Clone(paths)
	if len(es) > 0 {
		for _, p := range es[len(es)-1].Paths {
			if !slices.Contains(all, p) {
				all = append(all, p)
			}
		}
	}
	head, err := gitsync.CommitPaths(ctx, home, machineID, msg, 10*time.Second, all...)
	if err != nil && !errors.Is(err, gitsync.ErrNoGit) {
		return "", err
	}
	// Without git the files stay written and uncommitted (a sync with git
	// commits them); the journal goes all the same, or every later apply
	// would stop at recovering it.
	if len(es) > 0 {
		if es[0].Plan != "" {
			markApplied(home, es[0].Plan)
		}
		if err := os.Remove(journalPath(home)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return head, err
		}
	}
	return head, err
}
