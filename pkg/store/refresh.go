package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Refresh brings the index up to date with some of the files: every file
// under dirs (directories inside the store's trees) is compared with what
// the index recorded and read again if it changed, as Reindex does for the
// whole store, and files are read again whatever their size and
// modification time say (an edit that kept both: cp -p, touch -r). Its cost
// is what dirs hold, not the store's size: inject's miss path runs it for
// what another writer changed (blockcache.Drifted). So it leaves out what
// grows with the store: the result's Total (a count of every note) and the
// recount of document frequencies, which Reindex (sync, reindex) makes once
// the store has grown (see maybeRefreshDF: stale figures are harmless).
func (s *Store) Refresh(ctx context.Context, dirs, files []string) (ReindexResult, error) {
	return s.refresh(ctx, dirs, files, false)
}

// refresh is Refresh; fromGit says the files were changed by git (a sync's
// merge), so they are committed already: not writes for a sync to record.
func (s *Store) refresh(ctx context.Context, dirs, files []string, fromGit bool) (ReindexResult, error) {
	var r ReindexResult
	forced := map[string]bool{}
	for _, f := range files {
		if s.ownWrite(f) {
			// Changed by this Store's own write, which indexed it.
			continue
		}
		if rel, ok := s.relOf(f); ok {
			forced[rel] = true
		}
	}
	if len(dirs) == 0 && len(forced) == 0 {
		return r, nil
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return r, err
	}
	defer tx.Rollback()
	w, err := newWriter(ctx, s.home, tx)
	if err != nil {
		return r, err
	}
	defer w.close()
	w.fromGit = fromGit
	var changed []fileInfo
	seen := map[string]bool{}
	for _, d := range dirs {
		rel, ok := s.relOf(d)
		if !ok {
			return r, fmt.Errorf("store: %s is not a directory of the store's trees", d)
		}
		scope, team := treeOf(rel + "/")
		prefix := layout.TreeName(scope)
		if team != "" {
			prefix = "teams/" + team
		}
		if rel != prefix && !strings.HasPrefix(rel, prefix+"/") {
			return r, fmt.Errorf("store: %s is not a directory of the store's trees", d)
		}
		listed, err := listTree(nil, d, filepath.Join(s.home, filepath.FromSlash(prefix)), prefix, scope, team)
		if err != nil {
			return r, err
		}
		// The rows under rel/: a range of the files table's key.
		known, err := recorded(ctx, tx, "path >= ? AND path < ?", rel+"/", rel+"0")
		if err != nil {
			return r, err
		}
		more, err := w.compare(ctx, known, listed, forced, &r)
		if err != nil {
			return r, err
		}
		changed = append(changed, more...)
		for _, f := range listed {
			seen[f.rel] = true
		}
	}
	for rel := range forced {
		if seen[rel] {
			continue
		}
		abs := filepath.Join(s.home, filepath.FromSlash(rel))
		info, err := os.Lstat(abs)
		if errors.Is(err, os.ErrNotExist) {
			var id string
			if tx.QueryRowContext(ctx, "SELECT coalesce(id,'') FROM files WHERE path = ?", rel).Scan(&id) == nil {
				if err := w.dropPath(ctx, rel, id); err != nil {
					return r, err
				}
				r.Removed++
			}
			continue
		}
		if err != nil {
			return r, err
		}
		f := teamFile(fileInfo{rel: rel, abs: abs, size: info.Size(), mtime: info.ModTime().UnixNano(), link: !info.Mode().IsRegular()})
		changed = append(changed, f)
	}
	for _, f := range changed {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		n, reason := readNote(f)
		ok, err := w.indexFile(ctx, f, n, reason)
		if err != nil {
			return r, err
		}
		if ok {
			r.Indexed++
		} else {
			r.Skipped++
		}
	}
	if err := tx.Commit(); err != nil {
		return r, err
	}
	r.touched = w.touched
	s.touched(r.touched, "", "")
	return r, nil
}

// relOf is path's home-relative, slash-separated form, if it is inside
// the home's memory/, local/ or teams/ trees.
func (s *Store) relOf(path string) (string, bool) {
	rel, err := filepath.Rel(s.home, path)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(rel)
	for _, top := range []string{layout.TreeName(note.Portable), layout.TreeName(note.MachineLocal), "teams"} {
		if strings.HasPrefix(rel, top+"/") {
			return rel, true
		}
	}
	return "", false
}
