package inject

import (
	"context"
	"errors"
	"fmt"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Render computes the block for key from the index, as Block does, and
// saves it in the block cache (pkg/blockcache) with what it shows and the
// index watermark it was rendered at, for the next sessions of the project.
// A block that cannot be saved is still returned, with the reason in
// Result.SaveErr.
func Render(ctx context.Context, st *store.Store, key blockcache.Key, skip func(id string, err error)) (Result, error) {
	caught := CatchUp(ctx, st, key)
	cache := blockcache.Open(st.Home(), key) // the stamps, before reading anything
	// Before selecting: what is indexed later is news to recall.
	mark, err := st.Watermark(ctx)
	if err != nil {
		return Result{}, err
	}
	res, err := Block(ctx, st, key.Project, key.K, key.Budget, skip)
	if err != nil {
		return Result{}, err
	}
	res.Mark = mark
	for _, id := range res.Read {
		if p, err := st.Path(ctx, id); err == nil {
			cache.Track(p)
		}
	}
	res.SaveErr = errors.Join(caught, cache.Save(blockcache.Block{Text: res.Block, IDs: res.IDs, Mark: mark}))
	return res, nil
}

// CatchUp brings the index up to date with what another writer (the
// reference, git pull, a hand edit, a tool that restores modification
// times) changed in the note directories, and with key's shown notes that
// changed, as pkg/blockcache sees it (Drifted): only the directories that
// changed are read again, so a miss after our own writes reads nothing.
// It needs a store opened for writing when anything drifted. A failure
// leaves the record as it was, so the block computed after it is not
// cached and the next SessionStart tries again.
func CatchUp(ctx context.Context, st *store.Store, key blockcache.Key) error {
	d := blockcache.Drifted(st.Home(), key)
	if !d.Any() {
		return nil
	}
	if _, err := st.Refresh(ctx, d.Dirs, d.Files); err != nil {
		return fmt.Errorf("reading what another writer changed: %w", err)
	}
	if len(d.Dirs) > 0 {
		return blockcache.Synced(st.Home(), d.State)
	}
	return nil
}

// RefreshStale renders again every cached block a write has made stale. A
// surface that writes notes (the CLI, the MCP server, the dashboard) calls
// it after the write, so the next SessionStart prints its block from the
// cache instead of starting `anamnesis block` to compute it. Best effort:
// a block it cannot render is computed by the next SessionStart.
func RefreshStale(ctx context.Context, st *store.Store) error {
	return Refresh(ctx, st, blockcache.Global)
}

// Refresh renders again the cached blocks of projects (every cached block
// when projects include the global one): a writer that knows a session is
// about to start there (capture, at the end of one) calls it, so that the
// next SessionStart finds its block current instead of computing it.
func Refresh(ctx context.Context, st *store.Store, projects ...string) error {
	all := false
	want := map[string]bool{}
	for _, p := range projects {
		all = all || p == blockcache.Global
		want[p] = true
	}
	for _, k := range blockcache.Keys(st.Home()) {
		if !all && !want[k.Project] {
			continue
		}
		if _, ok := blockcache.Open(st.Home(), k).Cached(); ok {
			continue
		}
		res, err := Render(ctx, st, k, nil)
		if err == nil {
			err = res.SaveErr
		}
		if err != nil {
			return fmt.Errorf("refreshing the block of %s: %w", k.Project, err)
		}
	}
	return nil
}
