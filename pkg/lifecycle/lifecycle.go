// Package lifecycle is the memory's upkeep (SPEC 14): reflect turns episodic
// notes into durable ones, consolidate folds redundant durable notes together
// under a recall gate, dedup, migrate and backfill-provenance repair a store.
// Every operation plans first (a dry run is the plan) and applies only a plan
// that holds whole: a failure anywhere restores every file it touched.
// The CLI and the dashboard call the same functions.
package lifecycle

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
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

// paths are the files t changed under <home>/memory, relative to it, for
// the commit.
func paths(s *store.Store, t *store.Tx) []string {
	var out []string
	for _, c := range t.Changes() {
		rel, err := filepath.Rel(s.MemoryDir(), c.Abs)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // machine-local: not in git
		}
		if rel = filepath.ToSlash(rel); !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// rewrite writes n, a note whose metadata a command changed (a keep's
// supersedes, the reflected tag, prov_source), with its title, body and tags
// as its file holds them: secrets are not redacted on the way. What was
// there is already in the file and in git, perhaps kept on purpose by a
// person (--keep-secrets); a command whose preview shows a metadata change
// must not change the text too, and say nothing (anamnesis scrub finds and
// redacts secrets already in notes).
func rewrite(ctx context.Context, t *store.Tx, n *note.Note) error {
	return t.Put(ctx, n, store.KeepSecrets(true))
}

// run applies fn in a store transaction (store.Tx) journaled as cmd
// (plan: the saved plan it applies, if any): every file the transaction
// changes is recorded in the journal before it changes. On error
// everything is undone. On success the journal stays, marked done, until
// Finish commits.
func run(ctx context.Context, s *store.Store, cmd, plan string, fn func(*store.Tx) error) ([]string, error) {
	var j *journal
	t := s.Begin(func(c store.Change) error {
		if j == nil {
			var err error
			if j, err = openJournal(context.Background(), s, cmd, plan); err != nil {
				return err
			}
		}
		return j.add(journalEntry{Change: c})
	})
	if err := fn(t); err != nil {
		rerr := t.Rollback(context.WithoutCancel(ctx))
		if j != nil {
			if rerr == nil {
				j.abandon()
			} else {
				j.f.Close()
				j.release() // the next command rolls the journal back
			}
		}
		if rerr != nil {
			return nil, fmt.Errorf("%w (and restoring the files failed: %v)", err, rerr)
		}
		return nil, err
	}
	ps := paths(s, t)
	if j != nil {
		err := j.done(ps)
		j.f.Close()
		j.release()
		if err != nil {
			return nil, err
		}
	}
	return ps, nil
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

// bodies fills the bodies List leaves out. With inTree, a note whose file
// is no longer in the tree the index listed it in (moved by hand to local/
// since the last reindex) is left out: a run over portable notes would send
// a machine-local note's text to the model and write it back portable.
func bodies(ctx context.Context, s *store.Store, ns []*note.Note, inTree bool) ([]*note.Note, error) {
	out := make([]*note.Note, 0, len(ns))
	for _, n := range ns {
		full, err := s.Get(ctx, n.ID)
		if err != nil {
			return nil, err
		}
		if inTree && (full.Scope != n.Scope || full.Team != n.Team) {
			continue
		}
		out = append(out, full)
	}
	return out, nil
}

// heldOnWrite says why the screen will hold a model's note of this text
// once written ("" when it passes), as the write cleans and screens it: the
// person reviewing a plan learns it before applying, not from status after.
// A held note supersedes nothing until it is released.
func heldOnWrite(typ, title, body, source string) string {
	n := note.New(typ, title, body)
	n.ProvSource = source
	store.Clean(n)
	if !screen.Held(n.Tags) {
		return ""
	}
	return screen.Describe(screen.Reason(n.Tags))
}
