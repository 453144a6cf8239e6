// Package lifecycle is the memory's upkeep (SPEC 14): reflect turns episodic
// notes into durable ones, consolidate folds redundant durable notes together
// under a recall gate, dedup, migrate and backfill-provenance repair a store.
// Every operation plans first (a dry run is the plan) and applies only a plan
// that holds whole: a failure anywhere restores every file it touched.
// The CLI and the dashboard call the same functions.
package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Confidence is what the model's notes carry: reviewable, below a human's 1.0.
const Confidence = 0.6

// Tags reflect and consolidate add.
const (
	TagReflected  = "reflected"
	TagReflection = "reflection"
	TagMerge      = "merge"
	TagMerged     = "merged"
)

// change records how to put one file back as it was.
type change struct {
	abs string
	old []byte // nil: the file did not exist
	rel string // relative to <home>/memory, "" for machine-local files
}

// txn applies note writes and deletions to a store and can undo them all:
// "nothing written when anything fails" holds across many files, and, when
// journaled, across a crash (see journal).
type txn struct {
	s         *store.Store
	changes   []*change
	journaled bool
	cmd, plan string
	j         *journal
}

func newTxn(s *store.Store) *txn { return &txn{s: s} }

func (t *txn) record(abs string) error {
	for _, c := range t.changes {
		if c.abs == abs {
			return nil
		}
	}
	old, err := os.ReadFile(abs)
	missing := errors.Is(err, os.ErrNotExist)
	if err != nil && !missing {
		return err
	}
	if t.journaled {
		if t.j == nil {
			if t.j, err = openJournal(context.Background(), t.s, t.cmd, t.plan); err != nil {
				return err
			}
		}
		if err := t.j.add(journalEntry{Abs: abs, Old: old, New: missing}); err != nil {
			return err
		}
	}
	c := &change{abs: abs, old: old}
	if missing {
		c.old = nil
	} else if c.old == nil {
		c.old = []byte{}
	}
	if rel, err := filepath.Rel(t.s.MemoryDir(), abs); err == nil && !strings.HasPrefix(rel, "..") {
		c.rel = filepath.ToSlash(rel)
	}
	t.changes = append(t.changes, c)
	return nil
}

// put rewrites an existing note (or writes one with a chosen id).
func (t *txn) put(ctx context.Context, n *note.Note) error {
	if p, err := t.s.Path(ctx, n.ID); err == nil {
		if err := t.record(p); err != nil {
			return err
		}
	}
	if err := t.record(layout.Home(t.s.Home()).Note(n.Scope, n.Type, n.ID)); err != nil {
		return err
	}
	return t.s.Put(ctx, n)
}

// write creates a new note with a fresh id.
func (t *txn) write(ctx context.Context, n *note.Note) (*note.Note, error) {
	n.ID = note.NewID()
	now := note.Now()
	n.CreatedAt, n.UpdatedAt = now, now
	return n, t.put(ctx, n)
}

// remove deletes a note's file.
func (t *txn) remove(ctx context.Context, id string) error {
	p, err := t.s.Path(ctx, id)
	if err != nil {
		return err
	}
	if err := t.record(p); err != nil {
		return err
	}
	return t.s.Delete(ctx, id)
}

// writeRaw replaces a note file's bytes (migrate keeps every other byte).
func (t *txn) writeRaw(ctx context.Context, abs string, data []byte) error {
	if err := t.record(abs); err != nil {
		return err
	}
	return atomicfile.Write(abs, data, layout.FileMode)
}

// rollback puts every recorded file back and brings the index along.
func (t *txn) rollback(ctx context.Context) error {
	var errs []error
	for i := len(t.changes) - 1; i >= 0; i-- {
		c := t.changes[i]
		if c.old == nil {
			if err := os.Remove(c.abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		if err := atomicfile.Write(c.abs, c.old, layout.FileMode); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := t.s.Reindex(ctx, false); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// paths are the changed files under <home>/memory, for the commit.
func (t *txn) paths() []string {
	var out []string
	for _, c := range t.changes {
		if c.rel != "" && !slices.Contains(out, c.rel) {
			out = append(out, c.rel)
		}
	}
	return out
}

// run applies fn in a journaled txn named cmd (plan: the saved plan it
// applies, if any); on error everything is undone. On success the journal
// stays, marked done, until Finish commits.
func run(ctx context.Context, s *store.Store, cmd, plan string, fn func(*txn) error) ([]string, error) {
	t := newTxn(s)
	t.journaled, t.cmd, t.plan = true, cmd, plan
	if err := fn(t); err != nil {
		rerr := t.rollback(context.WithoutCancel(ctx))
		if t.j != nil {
			if rerr == nil {
				t.j.abandon()
			} else {
				t.j.f.Close()
				t.j.release() // the next command rolls the journal back
			}
		}
		if rerr != nil {
			return nil, fmt.Errorf("%w (and restoring the files failed: %v)", err, rerr)
		}
		return nil, err
	}
	paths := t.paths()
	if t.j != nil {
		err := t.j.done(paths)
		t.j.f.Close()
		t.j.release()
		if err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// SyncOptions configures the sync Finish runs.
type SyncOptions = gitsync.Options

// Finish is what every --apply ends with: a local commit of the changed
// files (settling the apply's journal), then a sync with syncOpt (nil:
// none). It returns the lines to print.
func Finish(ctx context.Context, home, machineID string, syncOpt *gitsync.Options, paths []string, msg string) ([]string, error) {
	var lines []string
	if len(paths) > 0 {
		head, err := commit(ctx, home, machineID, paths, msg)
		if err != nil {
			return lines, fmt.Errorf("the notes are written but not committed: %w", err)
		}
		if head != "" {
			lines = append(lines, "committed "+head)
		}
	}
	if syncOpt == nil {
		return lines, nil
	}
	r, err := gitsync.Sync(ctx, *syncOpt)
	lines = append(lines, r.Line())
	if err != nil {
		return lines, fmt.Errorf("sync: %w (the change is committed locally; the next sync sends it)", err)
	}
	return lines, nil
}

// Projects lists the projects that have notes of typ (all types when "").
func Projects(ctx context.Context, s *store.Store, typ string) ([]string, error) {
	notes, err := s.List(ctx, store.Filter{Type: typ, Scope: note.Portable})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range notes {
		if !slices.Contains(out, n.Project) {
			out = append(out, n.Project)
		}
	}
	slices.Sort(out)
	return out, nil
}

// oldestFirst orders notes by creation, then id.
func oldestFirst(ns []*note.Note) {
	slices.SortStableFunc(ns, func(a, b *note.Note) int {
		if c := strings.Compare(a.CreatedAt, b.CreatedAt); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
}

// bodies fills the bodies List leaves out.
func bodies(ctx context.Context, s *store.Store, ns []*note.Note) ([]*note.Note, error) {
	out := make([]*note.Note, 0, len(ns))
	for _, n := range ns {
		full, err := s.Get(ctx, n.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, full)
	}
	return out, nil
}
