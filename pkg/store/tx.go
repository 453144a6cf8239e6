package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Change is one note file a transaction changes, as it was before: its
// bytes, or that it did not exist. It is what undoing the change needs
// (Undo), and what a journal records before the change (Begin's hook).
type Change struct {
	Abs string `json:"abs,omitempty"`
	Old []byte `json:"old,omitempty"` // its bytes before (base64 in JSON)
	New bool   `json:"new,omitempty"` // it did not exist
}

// Tx groups note writes so that they are all or nothing: every file a
// write changes (the note's file, and the copies of its id Put removes
// from other directories) is recorded before it changes, and Rollback puts
// every one back. With a hook (Begin), each record is also handed to it
// before the change, so a journal on disk makes the group all or nothing
// across kill -9 and power loss (Undo, from the journal's records).
type Tx struct {
	s       *Store
	changes []Change
	hook    func(Change) error
}

// Begin starts a transaction. hook, if not nil, receives each file's old
// state before the file changes; an error from it stops the write.
func (s *Store) Begin(hook func(Change) error) *Tx { return &Tx{s: s, hook: hook} }

// record keeps abs's old state, once per file.
func (t *Tx) record(abs string) error {
	if slices.ContainsFunc(t.changes, func(c Change) bool { return c.Abs == abs }) {
		return nil
	}
	if _, ok := t.s.relOf(abs); !ok {
		return fmt.Errorf("store: %s is not a note file of the store", abs)
	}
	old, err := os.ReadFile(abs)
	c := Change{Abs: abs, Old: old, New: errors.Is(err, os.ErrNotExist)}
	if err != nil && !c.New {
		return err
	}
	if t.hook != nil {
		if err := t.hook(c); err != nil {
			return err
		}
	}
	t.changes = append(t.changes, c)
	return nil
}

// Put is Store.Put inside the transaction.
func (t *Tx) Put(ctx context.Context, n *note.Note, opts ...Option) error {
	fillDefaults(n) // the scope and type that decide where it goes
	for _, f := range t.s.placement(ctx, n) {
		if err := t.record(f); err != nil {
			return err
		}
	}
	return t.s.Put(ctx, n, opts...)
}

// Write creates a new note with a fresh id inside the transaction (Put's
// rules: the note is taken as given, without Write's defaults).
func (t *Tx) Write(ctx context.Context, n *note.Note) (*note.Note, error) {
	n.ID = note.NewID()
	now := note.Now()
	n.CreatedAt, n.UpdatedAt = now, now
	return n, t.Put(ctx, n)
}

// Delete is Store.Delete inside the transaction.
func (t *Tx) Delete(ctx context.Context, id string) error {
	if err := note.CheckID(id); err != nil {
		return err
	}
	for _, f := range t.s.filesOf(ctx, id) {
		if err := t.record(f.abs); err != nil {
			return err
		}
	}
	return t.s.Delete(ctx, id)
}

// WriteRaw replaces the bytes of the note file abs, without indexing it
// (a rewrite that keeps every other byte: migrate); the caller reindexes.
func (t *Tx) WriteRaw(abs string, data []byte) error {
	if err := t.record(abs); err != nil {
		return err
	}
	return atomicfile.Write(abs, data, layout.FileMode)
}

// Changes are the files changed so far, in order, as they were before.
func (t *Tx) Changes() []Change { return slices.Clone(t.changes) }

// Rollback puts every changed file back as it was and brings the index
// along.
func (t *Tx) Rollback(ctx context.Context) error { return t.s.Undo(ctx, t.changes) }

// Undo puts files back as changes say they were, last change first (a
// created file is removed), then brings the index level with them: a
// transaction's rollback, or a journal's after a crash. Each file must be
// a note file of the store.
func (s *Store) Undo(ctx context.Context, changes []Change) error {
	var errs []error
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		if _, ok := s.relOf(c.Abs); !ok {
			errs = append(errs, fmt.Errorf("store: %s is not a note file of the store; not restored", c.Abs))
			continue
		}
		if c.New {
			if err := os.Remove(c.Abs); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		if err := atomicfile.Write(c.Abs, c.Old, layout.FileMode); err != nil {
			errs = append(errs, err)
		}
	}
	if _, err := s.Reindex(ctx, false); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
