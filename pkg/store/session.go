package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// One session, one note (SPEC 5): a PreCompact capture and the later
// SessionEnd capture of the same Claude Code session update one episodic
// note. These two functions are that rule.

// SessionNoteID is the id a session's note gets: a ULID from the session's
// start time (ids still sort by time) and a hash of its id, so two captures
// of one session racing each other write one file. "" when either is unknown.
func SessionNoteID(sessionID, started string) string {
	if sessionID == "" || started == "" {
		return ""
	}
	t, err := time.Parse(time.RFC3339Nano, started)
	if err != nil || t.Before(time.Unix(0, 0)) {
		return ""
	}
	sum := sha256.Sum256([]byte("anamnesis-capture\x00" + sessionID))
	var entropy [10]byte
	copy(entropy[:], sum[:])
	id, err := ulid.New(ulid.Timestamp(t), bytes.NewReader(entropy[:]))
	if err != nil {
		return ""
	}
	return id.String()
}

// SessionNote returns the note an earlier capture wrote for the session
// (started as given): the one with the stable id, else (notes written by
// older versions or the reference, with random ids) the oldest episodic
// note whose prov_session is sessionID; nil when there is none. The note
// is read as its file has it, unscreened: capture only rewrites it, and Put
// screens the text it writes (which keeps the old text's held tags and, for
// a heuristic note, the old text itself).
func (s *Store) SessionNote(ctx context.Context, sessionID, started string) (*note.Note, error) {
	if sessionID == "" {
		return nil, nil
	}
	if id := SessionNoteID(sessionID, started); id != "" {
		n, err := s.getFile(ctx, id)
		if err == nil {
			return n, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return nil, err
		}
	}
	// Through idx_mem_session, not a scan of every note: SessionEnd holds
	// the user's terminal (SPEC 9).
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT m.id FROM memories m JOIN files f ON f.id = m.id AND f.error IS NULL
		WHERE m.prov_session = ? AND m.type = 'episodic' ORDER BY m.created_at, m.id LIMIT 1`, sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n, err := s.getFile(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return n, err
}
