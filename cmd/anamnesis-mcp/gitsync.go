package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// syncResult is memory_sync's result: seed 003's fields (indexed is the
// number of notes in the index afterwards, as the reference reports it),
// then what our sync adds.
type syncResult struct {
	Pushed     bool               `json:"pushed"`
	Pulled     int                `json:"pulled"`
	Conflicted bool               `json:"conflicted"`
	Head       string             `json:"head"`
	Indexed    int                `json:"indexed" jsonschema:"notes in the index after the sync"`
	Detail     string             `json:"detail"`
	Committed  bool               `json:"committed" jsonschema:"local notes were committed"`
	Reindexed  int                `json:"reindexed" jsonschema:"note files the index re-read"`
	Skipped    bool               `json:"skipped" jsonschema:"another sync of this home was running; nothing was done"`
	Conflicts  []gitsync.Conflict `json:"conflicts"`
	Import     string             `json:"import,omitempty" jsonschema:"what the Claude Code native memory import did"`
	// Teams is each joined team's line, as anamnesis-sync prints it: the
	// fields above are the personal store's, and a team note the model
	// just wrote is published (or not: a read-only member, a team whose
	// repository is gone) only here.
	Teams []string `json:"teams,omitempty" jsonschema:"each joined team's sync, as anamnesis-sync prints it: pushed, pulled, or why not"`
}

// syncConfig is the configuration a sync runs with. It is resolved again on
// every sync, as anamnesis-sync does, so a remote set after this server
// started takes effect; the machine id stays the one bound at start.
func (a *app) syncConfig() config.Config {
	cfg := config.Resolve(a.home, a.getenv)
	cfg.Home, cfg.MachineID = a.home, a.machineID
	return cfg
}

// syncTool runs the same sync as anamnesis-sync (the home's sync lock, the
// network deadline, the native import when enabled) against this server's
// open store, which the sync brings up to date before it returns.
func (a *app) syncTool(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	const tool = "memory_sync"
	r := readArgs(req.Params.Arguments, "force")
	_ = r.boolean("force", false) // reserved, as in the reference
	if err := r.err(); err != nil {
		return toolError(tool, err), nil
	}
	// Like a write, a sync that has started is not abandoned halfway because
	// the client went away; its own deadline bounds it.
	ctx = context.WithoutCancel(ctx)
	st, err := a.store(ctx)
	if err != nil {
		return a.internal(tool, err), nil
	}
	o := gitsync.OptionsFrom(a.syncConfig())
	o.Store = st
	res, err := gitsync.Sync(ctx, o)
	if err != nil {
		detail := res.Detail
		if detail == "" {
			detail = err.Error()
		}
		return a.internal(tool, fmt.Errorf("sync failed: %s (notes written here stay committed locally; the next sync tries again)", lines(detail, 4000))), nil
	}
	out := syncResult{Pushed: res.Pushed, Pulled: res.Pulled, Conflicted: res.Conflicted, Head: res.Head,
		Indexed: res.Indexed, Detail: lines(res.Detail, 4000), Committed: res.Committed, Reindexed: res.Reindexed,
		Skipped: res.Skipped, Conflicts: res.Conflicts}
	if out.Conflicts == nil {
		out.Conflicts = []gitsync.Conflict{}
	}
	if len(out.Conflicts) > 50 {
		out.Conflicts = out.Conflicts[:50]
	}
	for _, t := range res.Teams {
		out.Teams = append(out.Teams, lines(t.Line(), 2000))
	}
	if imp := res.Import; imp != nil && imp.Imported+imp.Updated+imp.Skipped+len(imp.Problems) > 0 {
		out.Import = imp.Line()
	}
	return structured(out), nil
}

// briefSync keeps the sync block of memory_status short: the last sync's
// result can be long (conflict lists, import problems); the status keeps
// its headline.
func briefSync(s gitsync.RepoState) gitsync.RepoState {
	s.Detail = lines(s.Detail, 1000)
	if s.Last != nil {
		last := *s.Last
		if len(last.Result.Conflicts) > 20 {
			last.Result.Conflicts = last.Result.Conflicts[:20]
		}
		if len(last.Result.ConflictIDs) > 20 {
			last.Result.ConflictIDs = last.Result.ConflictIDs[:20]
		}
		last.Result.Import = nil
		last.Result.Detail = lines(last.Result.Detail, 1000)
		last.Error = lines(last.Error, 1000)
		s.Last = &last
	}
	return s
}
