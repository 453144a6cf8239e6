package store

import (
	"context"
	"sort"
)

// Drift is how the note files on disk differ from what the index recorded.
type Drift struct {
	Files    int       // note files on disk
	Changed  int       // readable files added or changed since the last index update
	Removed  int       // recorded files that are gone
	Problems []Problem // files that cannot be read as notes, recorded or new
}

// Drift compares the files with the index without changing either (doctor's
// check). Files are found and read exactly as a reindex reads them: never
// through a symlink, never past the size limit, so a note linked to
// /dev/zero is a problem, not an endless read.
func (s *Store) Drift(ctx context.Context) (Drift, error) {
	var d Drift
	recorded := map[string][2]int64{}
	rows, err := s.db.QueryContext(ctx, "SELECT path, size, mtime FROM files")
	if err != nil {
		return d, err
	}
	for rows.Next() {
		var p string
		var size, mtime int64
		if err := rows.Scan(&p, &size, &mtime); err != nil {
			rows.Close()
			return d, err
		}
		recorded[p] = [2]int64{size, mtime}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, err
	}
	known, err := s.Problems(ctx)
	if err != nil {
		return d, err
	}
	bad := map[string]string{}
	for _, p := range known {
		bad[p.Path] = p.Reason
	}
	files, err := s.walk()
	if err != nil {
		return d, err
	}
	seen := map[string]bool{}
	for _, f := range files {
		seen[f.rel] = true
		d.Files++
		if r, ok := recorded[f.rel]; ok && r == [2]int64{f.size, f.mtime} {
			continue // in step; a recorded problem stays as recorded
		}
		// Changed since the last index update: read it the reindex's way,
		// so a bad note is named before anything reindexed it.
		delete(bad, f.rel)
		if _, reason := readNote(f); reason != "" {
			bad[f.rel] = reason
			continue
		}
		d.Changed++
	}
	for p := range recorded {
		if !seen[p] {
			d.Removed++
		}
	}
	for p, reason := range bad {
		if seen[p] {
			d.Problems = append(d.Problems, Problem{Path: p, Reason: reason})
		}
	}
	sort.Slice(d.Problems, func(i, j int) bool { return d.Problems[i].Path < d.Problems[j].Path })
	return d, nil
}
