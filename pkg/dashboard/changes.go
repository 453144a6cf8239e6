package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// treeStamp summarises the note trees cheaply: the modification times of the
// directories a note file is created, replaced (atomic rename) or removed in,
// plus the personal repository's refs a sync moves (gitsync.RepoFiles).
// Walking every file would cost too much at 100k notes for a page that
// polls every few seconds.
func (s *Server) treeStamp() string {
	return s.stampOf(gitsync.RepoFiles(s.store.Home()))
}

// stateStamp is treeStamp over everything a git state is read from
// (gitsync.StateFiles: also the last sync's record and the team clones'
// refs, which a team review or a fetch in a terminal moves). It keys the
// overview's cached state alone: the refresh that reindexes follows the
// trees, which neither of those changes.
func (s *Server) stateStamp() string {
	return s.stampOf(gitsync.StateFiles(s.store.Home()))
}

// stampOf hashes the note directories' and extra's modification times.
func (s *Server) stampOf(extra []string) string {
	h := fnv.New64a()
	var dirs []string
	for _, base := range []string{s.store.MemoryDir(), s.store.LocalDir()} {
		dirs = append(dirs, base)
		for _, t := range note.Types {
			dirs = append(dirs, filepath.Join(base, t))
		}
	}
	dirs = append(dirs, extra...)
	for _, d := range dirs {
		if fi, err := os.Stat(d); err == nil {
			fmt.Fprintf(h, "%s:%d:%d;", d, fi.ModTime().UnixNano(), fi.Size())
		} else {
			fmt.Fprintf(h, "%s:-;", d)
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// indexStamp changes whenever the index is written, by this process or another.
func (s *Server) indexStamp() string {
	h := fnv.New64a()
	for _, p := range []string{s.store.DBPath(), s.store.DBPath() + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(h, "%d:%d;", fi.ModTime().UnixNano(), fi.Size())
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// refresh brings the index up to date when the trees changed behind the
// index's back (a hand edit, a file copied in); processes that write notes
// keep the index current themselves, so this is usually a no-op.
func (s *Server) refresh(ctx context.Context) {
	tree := s.treeStamp()
	s.mu.Lock()
	defer s.mu.Unlock()
	// The reference implementation, run on this home while the dashboard
	// runs, rebuilds the index with its own schema (SPEC 3.2): rebuild it.
	// A failure shows as the page's own query error.
	_ = s.store.Heal(ctx)
	if tree == s.lastTree {
		return
	}
	if _, err := s.store.Reindex(ctx, false); err == nil {
		s.lastTree = s.treeStamp()
	}
}

// wrote records that this process changed the trees and indexed the change itself.
func (s *Server) wrote() {
	inject.RefreshStale(context.Background(), s.store)
	tree := s.treeStamp()
	s.mu.Lock()
	s.lastTree = tree
	s.mu.Unlock()
}

// changeToken identifies the store's current state; pages carry the one they
// were rendered from and reload when /api/changes reports another.
func (s *Server) changeToken() string { return s.treeStamp() + "-" + s.indexStamp() }

func (s *Server) changes(w http.ResponseWriter, r *http.Request) {
	s.refresh(r.Context())
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]string{"token": s.changeToken()})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// facetCache holds the values the filter menus offer, recomputed only when
// the index changes: grouping 100k rows on every page view would eat the budget.
type facetCache struct {
	stamp      string
	stats      store.Stats
	tags       map[string]int
	superseded map[string]bool
}

// facetsFor returns the filter menus' values. When the index changed since
// they were computed, the old values are served while a background refresh
// recomputes them: a menu may lag an edit by one refresh, and a page view
// never waits for one (docs/performance.md). Only the first call waits.
func (s *Server) facetsFor(ctx context.Context) (*facetCache, error) {
	stamp := s.indexStamp()
	s.mu.Lock()
	fc := s.facets
	stale := fc != nil && fc.stamp != stamp
	start := stale && !s.facetBusy
	if start {
		s.facetBusy = true
	}
	s.mu.Unlock()
	if fc != nil {
		if start {
			s.bg.Go(func() {
				s.computeFacets(context.WithoutCancel(ctx), stamp)
				s.mu.Lock()
				s.facetBusy = false
				s.mu.Unlock()
			})
		}
		return fc, nil
	}
	return s.computeFacets(ctx, stamp)
}

// facetsKnown is facetsFor for a page whose menus may lag a few edits (the
// edit form's list of projects): it never starts a refresh, so opening a
// note to edit it costs no grouping of the whole index (at 100k notes,
// 200 ms of CPU beside whatever runs next: the SessionStart after the edit).
func (s *Server) facetsKnown(ctx context.Context) (*facetCache, error) {
	s.mu.Lock()
	fc := s.facets
	s.mu.Unlock()
	if fc != nil {
		return fc, nil
	}
	return s.facetsFor(ctx)
}

func (s *Server) computeFacets(ctx context.Context, stamp string) (*facetCache, error) {
	st, err := s.store.Stats(ctx)
	if err != nil {
		return nil, err
	}
	tags, err := s.store.TagCounts(ctx)
	if err != nil {
		return nil, err
	}
	sup, err := s.store.SupersededIDs(ctx)
	if err != nil {
		return nil, err
	}
	fc := &facetCache{stamp: stamp, stats: st, tags: tags, superseded: sup}
	s.mu.Lock()
	s.facets = fc
	s.mu.Unlock()
	return fc, nil
}

// repoStateTTL bounds how long a cached git state is shown: the tree stamp
// misses a file rewritten in place, so the state is refreshed now and then anyway.
const repoStateTTL = 30 * time.Second

// repoState is gitsync.State, cached while the trees and the git refs are
// unchanged: it runs `git status`, which at 100k files costs a quarter second.
func (s *Server) repoState(ctx context.Context) gitsync.RepoState {
	stamp := s.stateStamp()
	s.mu.Lock()
	c := s.stateCache
	s.mu.Unlock()
	if c != nil && c.stamp == stamp && time.Since(c.at) < repoStateTTL {
		return c.state
	}
	st := gitsync.State(ctx, s.store.Home(), s.opt.Remote, s.store)
	s.mu.Lock()
	s.stateCache = &stateCache{stamp: stamp, at: time.Now(), state: st}
	s.mu.Unlock()
	return st
}

type stateCache struct {
	stamp string
	at    time.Time
	state gitsync.RepoState
}
