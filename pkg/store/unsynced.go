package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// unsyncedTable records the note files of the trees git keeps (memory/,
// teams/NAME/) that this store wrote or removed since a sync last committed
// them, so that a sync stages those instead of looking at every file of the
// tree (SPEC 9). seq orders the writes: a sync clears only what it read.
// It is not derived from the files, so a rebuild keeps it; what a rebuild
// drops is meta's record of the tree's last whole staging (wholeKey), after
// which the next sync stages the whole tree again. seq's index keeps a
// write's cost flat where nothing clears the record (a home without git).
const unsyncedTable = `CREATE TABLE IF NOT EXISTS unsynced (path TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idx_unsynced_seq ON unsynced(seq)`

// recordWrite is the statement a writer records a written or removed file with.
const recordWrite = `INSERT INTO unsynced (path, seq) VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM unsynced))
	ON CONFLICT (path) DO UPDATE SET seq = excluded.seq`

// Unsynced is what a tree's writes left for its next commit.
type Unsynced struct {
	// Paths are the files written or removed, relative to the tree.
	Paths []string
	// UpTo is the last write read; Synced clears up to it.
	UpTo int64
	// Whole is when a sync last staged every file of the tree, zero when
	// none did since the index was made: Paths alone may then miss files.
	Whole time.Time
}

// recordWrite records rel (relative to home) as changed by a writer of this
// store, when its tree is one git keeps (local/ is in none).
func (w *writer) recordWrite(ctx context.Context, rel string) error {
	if strings.HasPrefix(rel, "local/") {
		return nil
	}
	if w.recWrite == nil {
		// Compiled once a transaction: a refresh that reads many
		// changed files does not compile it for each, and one that
		// records nothing (a rebuild, a sync's own refresh) never does.
		st, err := w.tx.PrepareContext(ctx, recordWrite)
		if err != nil {
			return err
		}
		w.recWrite = st
	}
	_, err := w.recWrite.ExecContext(ctx, rel)
	return err
}

// Unsynced returns what this store's writers wrote in tree ("memory" or
// "teams/NAME") since a sync last committed it.
func (s *Store) Unsynced(ctx context.Context, tree string) (Unsynced, error) {
	var u Unsynced
	var whole sql.NullString
	err := s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", wholeKey(tree)).Scan(&whole)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return u, err
	}
	if sec, err := strconv.ParseInt(whole.String, 10, 64); err == nil {
		u.Whole = time.Unix(sec, 0)
	}
	prefix := tree + "/"
	rows, err := s.db.QueryContext(ctx, "SELECT path, seq FROM unsynced WHERE path > ? AND path < ? ORDER BY seq", prefix, tree+"0")
	if err != nil {
		return u, err
	}
	defer rows.Close()
	for rows.Next() {
		var p string
		var seq int64
		if err := rows.Scan(&p, &seq); err != nil {
			return u, err
		}
		u.Paths = append(u.Paths, strings.TrimPrefix(p, prefix))
		u.UpTo = max(u.UpTo, seq)
	}
	return u, rows.Err()
}

// LastWrite is the number of the last write recorded in any tree: a sync
// about to stage a whole tree reads it first, and clears up to it after.
func (s *Store) LastWrite(ctx context.Context) (int64, error) {
	var n int64
	err := s.db.QueryRowContext(ctx, "SELECT coalesce(max(seq), 0) FROM unsynced").Scan(&n)
	return n, err
}

// Synced clears tree's writes up to upTo, which a commit now holds. whole
// says every file of the tree was staged (at time at): the record is
// complete from then on.
func (s *Store) Synced(ctx context.Context, tree string, upTo int64, whole bool, at time.Time) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM unsynced WHERE path > ? AND path < ? AND seq <= ?", tree+"/", tree+"0", upTo); err != nil {
		return err
	}
	if whole {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", wholeKey(tree), strconv.FormatInt(at.Unix(), 10)); err != nil {
			return err
		}
	}
	return tx.Commit()
}

func wholeKey(tree string) string { return "staged-whole:" + tree }
