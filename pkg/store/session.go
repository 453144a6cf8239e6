package store

import (
	"context"
	"database/sql"
	"errors"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// SessionNote returns the oldest episodic note whose prov_session is
// sessionID, read from its file, or nil when there is none. Capture uses it
// to update a session's note in place (SPEC 5: one session, one note).
func (s *Store) SessionNote(ctx context.Context, sessionID string) (*note.Note, error) {
	if sessionID == "" {
		return nil, nil
	}
	var id string
	err := s.db.QueryRowContext(ctx, `SELECT m.id FROM memories m JOIN files f ON f.id = m.id AND f.error IS NULL
		WHERE m.prov_session = ? AND m.type = 'episodic' ORDER BY m.created_at, m.id LIMIT 1`, sessionID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	n, err := s.Get(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	return n, err
}
