package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	// After, in a record handed to the hook once the write is done, is
	// what the write left: the sha256 of the file's bytes, or Gone. Undo
	// puts a file back only while it still holds that: a file changed
	// after a killed apply (a capture, an edit, a pull) keeps the change.
	After string `json:"after,omitempty"`
}

// Gone is a Change's After for a file the write removed.
const Gone = "gone"

// pending is a Change's After for a file a second write of the transaction
// is about to change: what it will hold is not known until that write's
// own record, so until then Undo puts it back unconditionally.
const pending = "pending"

// stateOf is a file's After: the sha256 of its bytes, or Gone.
func stateOf(abs string) string {
	data, err := os.ReadFile(abs)
	if err != nil {
		return Gone
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// wrote hands the hook what the write left in each file it recorded.
func (t *Tx) wrote(files []string) error {
	if t.hook == nil {
		return nil
	}
	for _, f := range files {
		if err := t.hook(Change{Abs: f, After: stateOf(f)}); err != nil {
			return err
		}
	}
	return nil
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
		if t.hook != nil {
			return t.hook(Change{Abs: abs, After: pending})
		}
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
	files := t.s.placement(ctx, n)
	for _, f := range files {
		if err := t.record(f); err != nil {
			return err
		}
	}
	if err := t.s.Put(ctx, n, opts...); err != nil {
		return err
	}
	return t.wrote(files)
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
	var files []string
	for _, f := range t.s.filesOf(ctx, id) {
		if err := t.record(f.abs); err != nil {
			return err
		}
		files = append(files, f.abs)
	}
	if err := t.s.Delete(ctx, id); err != nil {
		return err
	}
	return t.wrote(files)
}

// WriteRaw replaces the bytes of the note file abs, without indexing it
// (a rewrite that keeps every other byte: migrate); the caller reindexes.
func (t *Tx) WriteRaw(abs string, data []byte) error {
	if err := t.record(abs); err != nil {
		return err
	}
	if err := atomicfile.Write(abs, data, layout.FileMode); err != nil {
		return err
	}
	return t.wrote([]string{abs})
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
//
// A file whose write was recorded as done (After) and that no longer holds
// what the write left was changed since (the journal of a killed apply is
// read by whichever command runs next, maybe days later): it keeps that
// change and is not put back.
func (s *Store) Undo(ctx context.Context, changes []Change) error {
	var errs []error
	after := map[string]string{}
	for _, c := range changes {
		if c.After != "" {
			after[c.Abs] = c.After
		}
	}
	for i := len(changes) - 1; i >= 0; i-- {
		c := changes[i]
		if c.After != "" {
			continue
		}
		if a, ok := after[c.Abs]; ok && a != pending && stateOf(c.Abs) != a {
			continue
		}
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
