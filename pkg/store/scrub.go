package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
)

// Scrubbed is a note file that holds secrets the redactor recognises.
type Scrubbed struct {
	ID    string   `json:"id,omitempty"`
	Path  string   `json:"path"` // relative to the home: memory/<type>/<id>.md or local/...
	Kinds []string `json:"kinds"`
	// Unreadable files are reported but not rewritten: fix them by hand.
	Unreadable bool `json:"unreadable,omitempty"`
}

// Scrub finds the notes holding secrets (written before the store redacted,
// kept with KeepSecrets, or hand-edited) and, when apply is set, rewrites
// each one redacted with updated_at now, so the redacted version wins the
// next sync everywhere.
func (s *Store) Scrub(ctx context.Context, apply bool) ([]Scrubbed, error) {
	notes, err := s.List(ctx, Filter{})
	if err != nil {
		return nil, err
	}
	// Held notes are in memory/ and synced like the rest: holding keeps a
	// note from the model, not from git.
	held, err := s.List(ctx, Filter{Held: true})
	if err != nil {
		return nil, err
	}
	notes = append(notes, held...)
	out := []Scrubbed{}
	rewrote := false
	for _, meta := range notes {
		n, err := s.Get(ctx, meta.ID)
		if err != nil {
			continue // gone or unreadable since the index saw it: Problems has it
		}
		var kinds []string
		Clean(n, Redacted(&kinds))
		if len(kinds) == 0 {
			continue
		}
		f, err := s.locate(ctx, n.ID)
		if err != nil {
			return out, err
		}
		out = append(out, Scrubbed{ID: n.ID, Path: f.rel, Kinds: kinds})
		if apply {
			n.UpdatedAt = note.Now()
			if err := s.Put(ctx, n); err != nil {
				return out, err
			}
			rewrote = true
		}
	}
	if rewrote {
		if err := s.forgetOldText(ctx); err != nil {
			return out, fmt.Errorf("notes redacted, but the index file may still hold their old text (run anamnesis reindex --full): %w", err)
		}
	}
	problems, err := s.Problems(ctx)
	if err != nil {
		return out, err
	}
	for _, p := range problems {
		data, err := readRegular(filepath.Join(s.home, filepath.FromSlash(p.Path)))
		if err != nil && !os.IsNotExist(err) {
			continue
		}
		if _, kinds := redact.Redact(string(data)); len(kinds) > 0 {
			out = append(out, Scrubbed{ID: strings.TrimSuffix(filepath.Base(p.Path), ".md"), Path: p.Path, Kinds: kinds, Unreadable: true})
		}
	}
	return out, nil
}

// forgetOldText removes from the index file what the notes scrub rewrote
// held before: a rewrite replaces a note's rows, but its old words stay in
// the full-text index's segments until they are merged, in term_parts (the
// words of its identifiers, never pruned), and in the pages SQLite frees,
// all in the file on disk. A full rebuild recreates every table from the
// redacted files, VACUUM writes the database anew from its live rows, and
// the checkpoint empties the WAL that held both.
func (s *Store) forgetOldText(ctx context.Context) error {
	if _, err := s.Reindex(ctx, true); err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, "VACUUM"); err != nil {
		return err
	}
	_, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	return err
}
