package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"strconv"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
)

// The index records in meta the screen's version (screen.Version) its
// notes were screened under ('screen'), and, while it screens them again
// under a newer one, the rowid it has reached ('screen_from').
const (
	metaScreen     = "screen"
	metaScreenFrom = "screen_from"
)

// rescreenBatch is how many notes one transaction screens again at most
// (a few hundred milliseconds of the screen: no write waits long on its
// lock), and rescreenTime how long one Tidy goes on starting batches.
const (
	rescreenBatch = 500
	rescreenTime  = 2 * time.Second
)

// rescreenAll screens again, batch after batch, the notes indexed under
// older rules of the screen, for about rescreenTime at most; a later call
// goes on where it stopped.
func (s *Store) rescreenAll(ctx context.Context) error {
	end := time.Now().Add(rescreenTime)
	for {
		done, err := s.rescreen(ctx, rescreenBatch)
		if err != nil || done || time.Now().After(end) {
			return err
		}
	}
}

// rescreen screens again, under the current rules, up to batch of the notes
// an index recorded under an older version of them, from where the last
// call stopped, and reports whether every note has been. A note the current
// rules hold is indexed again from its file, which holds it as any note
// indexed now is (a person's release still counts); what older rules held
// stays held (only a release lifts a hold).
func (s *Store) rescreen(ctx context.Context, batch int) (done bool, err error) {
	var version, from sql.NullString
	err = s.db.QueryRowContext(ctx, `SELECT (SELECT value FROM meta WHERE key = ?), (SELECT value FROM meta WHERE key = ?)`,
		metaScreen, metaScreenFrom).Scan(&version, &from)
	if err != nil || version.String == screen.Version {
		return err == nil, err
	}
	start, _ := strconv.ParseInt(from.String, 10, 64)
	rows, err := s.db.QueryContext(ctx, `SELECT m.rowid, f.path, x.title, x.body, m.prov_source, coalesce(m.prov_model, ''), coalesce(m.team, '')
		FROM memories m JOIN memories_fts x ON x.rowid = m.rowid JOIN files f ON f.id = m.id
		WHERE m.rowid > ? AND (m.team IS NOT NULL OR m.prov_source <> ? OR m.prov_model IS NOT NULL)
		AND NOT EXISTS (SELECT 1 FROM memory_tags INDEXED BY idx_tags_tag WHERE tag = ? AND memory_id = m.id)
		ORDER BY m.rowid`+limitClause(batch), start, note.ProvHuman, screen.Tag)
	if err != nil {
		return false, err
	}
	var again []string
	n, last := 0, start
	for rows.Next() {
		var x note.Note
		var rel string
		if err := rows.Scan(&last, &rel, &x.Title, &x.Body, &x.ProvSource, &x.ProvModel, &x.Team); err != nil {
			rows.Close()
			return false, err
		}
		n++
		if s.trips(&x, rel) {
			again = append(again, filepath.Join(s.home, filepath.FromSlash(rel)))
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	if len(again) > 0 {
		if _, err := s.Refresh(ctx, nil, again); err != nil {
			return false, err
		}
	}
	if n == batch {
		_, err = s.db.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", metaScreenFrom, strconv.FormatInt(last, 10))
		return false, err
	}
	return true, screenedUnder(ctx, s.db, screen.Version)
}

// screenedUnder records in meta that every note of the index was screened
// under version.
func screenedUnder(ctx context.Context, db interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, version string) error {
	if _, err := db.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", metaScreen, version); err != nil {
		return err
	}
	_, err := db.ExecContext(ctx, "DELETE FROM meta WHERE key = ?", metaScreenFrom)
	return err
}

// trips reports whether the current rules would hold the note of the
// index's row x (its text, provenance, model and team as indexed) at rel, which
// the index holds no hold for. A team note is read from its file and
// screened as indexing screens it (its author and a person's release
// count); a personal one by its indexed text, which errs towards yes for
// one a person released: indexed again, its release keeps it unheld.
func (s *Store) trips(x *note.Note, rel string) bool {
	if x.Team == "" {
		return screen.Screened(x.ProvSource, x.ProvModel) && screen.Check(x.Title+"\n"+x.Body) != ""
	}
	n, _ := readNote(teamFile(fileInfo{rel: rel, abs: filepath.Join(s.home, filepath.FromSlash(rel))}))
	return n != nil && screen.Held(n.Tags)
}
