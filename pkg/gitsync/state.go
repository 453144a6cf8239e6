package gitsync

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// RepoState is the memory repository's sync state, for `status`, memory_status
// and the dashboard (seed 003's sync block plus a few counts).
type RepoState struct {
	Initialized bool `json:"initialized"`
	// Remote is the configured remote with any password masked (MaskURL);
	// null when there is none.
	Remote *string `json:"remote"`
	// Head is the short HEAD; null before the first commit.
	Head *string `json:"head"`
	// Dirty says notes changed here wait for the next sync: from the
	// store's record of its writes when it has one (see Options.Recorded),
	// else from git status.
	Dirty  bool   `json:"dirty"`
	Detail string `json:"detail"`
	// Unpushed counts local commits the remote (as last fetched) lacks;
	// 0 without a remote.
	Unpushed int `json:"unpushed" jsonschema:"local commits the remote lacks (as last fetched)"`
	// Last is the most recent sync's record, if any.
	Last *LastSync `json:"last_sync,omitempty" jsonschema:"what the most recent sync of this home reported"`
	// TeamRewrites are the teams whose remote's main a fetch found
	// rewritten (a sync's, a team review's or the dashboard's Fetch) and no
	// sync has taken up yet: the last sync's team lines may predate it.
	TeamRewrites []TeamRewrite `json:"team_rewrites,omitempty" jsonschema:"teams whose remote history was rewritten and not yet taken up by a sync"`
}

// TeamRewrite is a team's pending rewrite (RewritePending of its clone).
type TeamRewrite struct {
	Team string `json:"team"`
	Pending
}

// TeamRewrite is team's pending rewrite, nil when none is.
func (s RepoState) TeamRewrite(team string) *Pending {
	for _, t := range s.TeamRewrites {
		if t.Team == team {
			return &t.Pending
		}
	}
	return nil
}

// Line is the one-line form for `status`.
func (s RepoState) Line() string {
	remote, head := "none", "none"
	if s.Remote != nil {
		remote = *s.Remote
	}
	if s.Head != nil {
		head = *s.Head
	}
	return "initialized=" + boolStr(s.Initialized) + " remote=" + remote + " head=" + head +
		" dirty=" + boolStr(s.Dirty) + " (" + s.Detail + ")"
}

// optional is nil for "", else a pointer to v: JSON null for what is absent.
func optional(v string) *string {
	if v == "" {
		return nil
	}
	return &v
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// StateFiles are the files and directories whose modification times change
// when State's answer may (besides the note trees): the personal
// repository's HEAD, index and refs, the last sync's record, and each team
// clone's HEAD and refs (a team review or a fetch in a terminal moves them).
// A cache of State stamped with them needs no timer for these.
func StateFiles(home string) []string {
	h := layout.Home(home)
	out := append(RepoFiles(home), lastPath(home))
	teams, _ := os.ReadDir(h.Teams())
	for _, e := range teams {
		if e.IsDir() && config.ValidTeamName(e.Name()) {
			out = append(out, refFiles(filepath.Join(h.Team(e.Name()), ".git"))...)
		}
	}
	return out
}

// RepoFiles are the personal repository's HEAD, index and refs: what a
// commit, a merge or a fetch of a sync moves (StateFiles holds them).
func RepoFiles(home string) []string {
	gd := filepath.Join(layout.Home(home).Memory(), ".git")
	return append(refFiles(gd), filepath.Join(gd, "index"))
}

// refFiles are where the refs State reads live in the git directory gd:
// loose refs are created, replaced and removed in these directories.
func refFiles(gd string) []string {
	return []string{filepath.Join(gd, "HEAD"), filepath.Join(gd, "packed-refs"), filepath.Join(gd, "refs", "heads"),
		filepath.Join(gd, "refs", "heads", "main"), filepath.Join(gd, "refs", "remotes", "origin"),
		filepath.Join(gd, "refs", "anamnesis")}
}

// State reports home's repository state without changing anything (git
// runs without optional locks, so it never rewrites the index under a sync).
// With the home's store (nil: none open), what waits for a sync is what its
// writers recorded, when the record is complete: git status stats every
// file, seconds at a million notes, and status, memory_status and the
// dashboard's overview must not grow with the store (SPEC 9).
func State(ctx context.Context, home, remote string, s *store.Store) RepoState {
	st := RepoState{Remote: optional(MaskURL(remote)), Detail: "ok", Last: Last(home)}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	st.TeamRewrites = teamRewrites(ctx, home)
	mem := layout.Home(home).Memory()
	stale := StaleLocks(home)
	if !exists(filepath.Join(mem, ".git")) {
		st.Detail = "memory/ is not a git repository yet; the first sync creates it"
		if len(stale) > 0 {
			st.Detail = stale[0].String()
		}
		return st
	}
	st.Initialized = true
	g := &git{dir: mem, readOnly: true}
	refs := g.refs(ctx)
	head := refs["HEAD"]
	st.Head = optional(head)
	var links []string
	if rec, ok := recordedChanges(ctx, s, head); ok {
		st.Dirty = len(rec) > 0
		links = linksAmong(mem, rec)
	} else {
		out, l, err := worktree(ctx, g)
		if err != nil {
			st.Detail = "git status failed: " + err.Error()
			return st
		}
		// The store's own .gitignore alone is nothing a sync commits (a new
		// home's first sync leaves it, SPEC 6.1's empty no-op): not a change
		// waiting.
		st.Dirty = out != "" && !(head == "" && out == "?? .gitignore\x00")
		links = l
	}
	switch main, origin := refs[branchRef], refs[remoteRef]; {
	case remote == "" || main == "" || main == origin:
		// No remote to lack anything, or it lacks nothing.
	case origin != "":
		st.Unpushed, _ = g.count(ctx, remoteRef+".."+branchRef)
	default:
		st.Unpushed, _ = g.count(ctx, branchRef)
	}
	gitDir := filepath.Join(mem, ".git")
	lk, locked := FindIndexLock(mem)
	pending := pendingFrom(refs, g.dir)
	switch {
	case len(links) > 0:
		st.Detail = fmt.Sprintf("%s is a symbolic link (%d under memory/); sync refuses to commit until it is a real directory or file again", links[0], len(links))
	case len(stale) > 0:
		st.Detail = stale[0].String()
	case locked && lk.Stale:
		st.Detail = "a stale " + lk.Path + " was left by a git process that no longer runs; the next sync removes it"
	case exists(filepath.Join(gitDir, "MERGE_HEAD")):
		st.Detail = "a merge was left in progress; the next sync finishes it"
	case exists(filepath.Join(gitDir, "rebase-merge")) || exists(filepath.Join(gitDir, "rebase-apply")):
		st.Detail = "a rebase was left in progress; the next sync aborts it (local commits are kept)"
	case head == "":
		st.Detail = "no commits yet"
	case pending != nil:
		st.Detail = pending.Line()
	case st.Last != nil && st.Last.Result.Rewritten != "":
		st.Detail = "last sync: " + st.Last.Result.Rewritten
	case st.Last != nil && st.Last.Error != "":
		st.Detail = "last sync failed: " + st.Last.Result.Detail
	case remote == "":
		st.Detail = "ok (local only; no remote configured)"
	}
	return st
}

// teamRewrites lists the pending rewrites of the team clones under home
// (the directories the index reads team notes from).
func teamRewrites(ctx context.Context, home string) []TeamRewrite {
	entries, err := os.ReadDir(layout.Home(home).Teams())
	if err != nil {
		return nil
	}
	var out []TeamRewrite
	for _, e := range entries {
		dir := layout.Home(home).Team(e.Name())
		if !e.IsDir() || !config.ValidTeamName(e.Name()) || !exists(filepath.Join(dir, ".git")) {
			continue
		}
		if p := RewritePending(ctx, dir); p != nil {
			out = append(out, TeamRewrite{Team: e.Name(), Pending: *p})
		}
	}
	return out
}

// recordedChanges returns the files of memory/ the store's writers recorded
// since the last commit, when the record is complete (see
// syncer.recordedOnly; before the repository's first commit everything is
// new) and a store is at hand.
func recordedChanges(ctx context.Context, st *store.Store, head string) ([]string, bool) {
	if st == nil || head == "" {
		return nil, false
	}
	u, err := st.Unsynced(ctx, layout.TreeName(note.Portable))
	if err != nil || u.Whole.IsZero() {
		return nil, false
	}
	return u.Paths, true
}

// linksAmong lists the paths (relative to dir) that are symbolic links.
func linksAmong(dir string, paths []string) []string {
	var links []string
	for _, p := range paths {
		if fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p))); err == nil && fi.Mode()&os.ModeSymlink != 0 {
			links = append(links, p)
		}
	}
	return links
}
