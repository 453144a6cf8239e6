package store

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// A sync moves the files of the store's git repositories (memory/, and each
// team's clone under teams/), and git tells which: the index follows those
// files instead of walking the store. The commit whose files the index last
// followed is kept per repository in meta ("followed:" + its tree); a
// rebuild empties meta, and a repository without one is walked whole once.

// Repo is one of the store's repositories after a sync.
type Repo struct {
	// Tree is the repository's tree: "memory", or "teams/" + a team's name.
	Tree string
	// Head is the commit its files are at now ("" before its first one).
	Head string
	// Changed are the files git reports changed between Followed(Tree)
	// and Head, slash-separated and relative to the repository.
	Changed []string
	// Known is false when git could not tell (no commit followed yet, that
	// commit gone, or files left uncommitted by the sync): Follow then
	// walks the store.
	Known bool
}

// Followed is the commit of tree's repository whose files the index last
// followed (Follow), "" when none.
func (s *Store) Followed(ctx context.Context, tree string) string {
	var head string
	s.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = ?", "followed:"+tree).Scan(&head)
	return head
}

// Follow brings the index up to date after a sync. When every repository
// is Known, it reads again the note files git reports changed, and the
// directories of local/ (machine-local notes are in no repository) that
// changed since the index last reflected them, and nothing else: a cost of
// what changed, not of the store. Otherwise it is Reindex. Either way it
// then records each Head as followed. repos holds memory/'s repository
// first; none (no git) makes it Reindex too.
func (s *Store) Follow(ctx context.Context, repos []Repo) (ReindexResult, error) {
	known := len(repos) > 0
	for _, rp := range repos {
		known = known && rp.Known && rp.Head != ""
	}
	if !known {
		r, err := s.refreshAll(ctx, true)
		if err == nil {
			err = s.recordFollowed(ctx, repos)
		}
		return r, err
	}
	d := blockcache.DriftedDirs(s.home) // before anything is read
	local := layout.Home(s.home).Local() + string(filepath.Separator)
	var dirs []string
	for _, dir := range d.Dirs {
		if strings.HasPrefix(dir, local) {
			dirs = append(dirs, dir)
		}
	}
	var files []string
	for _, rp := range repos {
		base := filepath.Join(s.home, filepath.FromSlash(rp.Tree))
		for _, p := range rp.Changed {
			if noteFile(p) {
				files = append(files, filepath.Join(base, filepath.FromSlash(p)))
			}
		}
	}
	r, err := s.refresh(ctx, dirs, files, true)
	if err != nil {
		return r, err
	}
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM memories").Scan(&r.Total); err != nil {
		return r, err
	}
	if r.Indexed > 0 || r.Removed > 0 {
		s.maybeRefreshDF(ctx, r)
	}
	if err := s.recordFollowed(ctx, repos); err != nil {
		return r, err
	}
	// The repositories' directories changed only as git said (the sync
	// committed everything first) and local/'s were read again.
	return r, blockcache.Synced(s.home, d.State)
}

func (s *Store) recordFollowed(ctx context.Context, repos []Repo) error {
	for _, rp := range repos {
		if rp.Head == "" {
			continue
		}
		if _, err := s.db.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", "followed:"+rp.Tree, rp.Head); err != nil {
			return err
		}
	}
	return nil
}

// noteFile reports whether a path inside a tree names a note file as a walk
// of the tree lists them (tree.list): a .md file, not under .git, not a
// writer's temporary file.
func noteFile(p string) bool {
	if !noteName(path.Base(p)) {
		return false
	}
	for _, part := range strings.Split(path.Dir(p), "/") {
		if part == ".git" {
			return false
		}
	}
	return true
}
