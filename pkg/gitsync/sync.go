// Package gitsync moves the portable notes (<home>/memory) between a user's
// machines over git (SPEC 6): commit, fetch, integrate, push, then bring the
// index up to date. Integration is a merge this package resolves itself, so
// a note changed on two machines keeps both versions and no sync ever leaves
// the repository mid-merge or stops the next sync.
// (Named gitsync, not sync, so importers can still use the standard library's.)
package gitsync

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/native"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Defaults for Options.
const (
	DefaultTimeout  = 60 * time.Second
	DefaultLockWait = 2 * time.Second
	branchRef       = "refs/heads/main"
	remoteRef       = "refs/remotes/origin/main"
	zeroHash        = "0000000000000000000000000000000000000000"
	pushAttempts    = 8
	// relockWait bounds a sync's wait for the commit lock, which others
	// hold only for a local git step (a capture's commit).
	relockWait = 30 * time.Second
)

// Options configure one sync.
type Options struct {
	Home      string
	MachineID string
	// Remote is the configured git remote; empty means local only.
	Remote string
	// Timeout bounds every network step of the cycle together (default 60s).
	Timeout time.Duration
	// LockWait is how long to wait for another sync of the same home
	// before reporting "skipped" (default 2s).
	LockWait time.Duration
	// Import runs the native Claude Code memory import first.
	Import    bool
	ClaudeDir string
	// Store is an already open store of Home (the MCP server's, say);
	// nil opens one for the length of the sync.
	Store *store.Store
	// Teams are the team stores brought up to date in the same cycle
	// (SPEC 18); Author names this person on them (Author decides when "").
	Teams  []TeamSpec
	Author string
	// Recorded stages only the files the store's writers recorded since
	// the last commit when nothing else may have changed memory/ (see
	// recordedOnly): the background sync of every session, whose cost
	// must not grow with the store. Otherwise (a person's sync) every file
	// is staged, edits made by hand included.
	Recorded bool
}

// Conflict is one note the two sides disagreed on.
type Conflict struct {
	// ID is the note's id; the winning version keeps it.
	ID string `json:"id"`
	// CopyID is the new note holding the other version ("" when nothing
	// needed saving, e.g. an edit that won over a delete).
	CopyID string `json:"copy_id,omitempty"`
	// Kind: "edited on both sides", "edited and deleted", "same id in two places".
	Kind string `json:"kind"`
}

// Result is what a sync did: the seed's fields (pushed, pulled, conflicted,
// head, indexed, detail) and the conflicts' ids.
type Result struct {
	Pushed     bool   `json:"pushed"`
	Pulled     int    `json:"pulled"`
	Conflicted bool   `json:"conflicted"`
	Head       string `json:"head"`
	// Indexed is how many notes the index holds after the sync.
	Indexed int    `json:"indexed"`
	Detail  string `json:"detail"`
	// ConflictIDs are the ids of the notes created to hold losing versions.
	ConflictIDs []string   `json:"conflict_ids"`
	Conflicts   []Conflict `json:"conflicts"`
	// Committed says a local commit was made from uncommitted notes.
	Committed bool `json:"committed"`
	// Reindexed is how many note files the index re-read.
	Reindexed int `json:"reindexed"`
	// Skipped: another sync of this home held the lock; nothing was done.
	Skipped bool           `json:"skipped"`
	Import  *native.Result `json:"import,omitempty"`
	// Teams are the team stores' cycles, in config order.
	Teams []TeamResult `json:"teams,omitempty"`
	// Rewritten says what this sync did about a remote whose history was
	// rewritten (or deleted): status repeats it until the next sync.
	Rewritten string `json:"rewritten,omitempty"`
}

// Line is the printed summary: sync: pushed=… pulled=… conflicted=… head=… (detail).
func (r Result) Line() string {
	head := r.Head
	if head == "" {
		head = "none"
	}
	return fmt.Sprintf("sync: pushed=%t pulled=%d conflicted=%t head=%s (%s)", r.Pushed, r.Pulled, r.Conflicted, head, r.Detail)
}

// CheckRemote refuses remotes git could read as an option or that would
// break its config file. The error names the remote masked (MaskURL).
func CheckRemote(remote string) error {
	if strings.HasPrefix(remote, "-") {
		return fmt.Errorf("remote %q starts with '-'; refusing it (it would be read as a git option)", MaskURL(remote))
	}
	if strings.ContainsAny(remote, "\x00\n\r") {
		return fmt.Errorf("remote %q contains a control character", MaskURL(remote))
	}
	return nil
}

// followed is what the index needs of the repository s synced, known to
// be tree in the store (store.Follow): its HEAD, and the files git reports
// changed since the commit the index last followed, when git can tell. It
// cannot when that commit is unknown or gone, or when the cycle left
// files uncommitted (its commit did not run or failed, or a conflict
// wrote copies).
func (s *syncer) followed(ctx context.Context, st *store.Store, tree string) store.Repo {
	ctx = context.WithoutCancel(ctx)
	rp := store.Repo{Tree: tree}
	rp.Head, _ = s.g.rev(ctx, "HEAD")
	from := st.Followed(ctx, tree)
	if rp.Head == "" || !s.committed || len(s.res.Conflicts) > 0 || !commitHash(from) {
		return rp
	}
	if from != rp.Head {
		out, err := s.g.run(ctx, "diff", "--name-only", "-z", "--no-renames", from, rp.Head, "--")
		if err != nil {
			return rp
		}
		for _, p := range strings.Split(out, "\x00") {
			if p != "" {
				rp.Changed = append(rp.Changed, p)
			}
		}
	}
	rp.Known = true
	return rp
}

// commitHash reports whether h is a full commit hash (SHA-1 or SHA-256):
// what the index recorded is passed to git only in that shape.
func commitHash(h string) bool {
	if len(h) != 40 && len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// Message is the commit message of a sync from machine.
func Message(machine string) string {
	return fmt.Sprintf("anamnesis: sync from %s at %s", machine, note.Now())
}

// Sync runs one cycle. The returned Result is filled in even when err is
// not nil (a remote that cannot be reached, say): its Detail says what
// happened and local commits are kept for the next sync. A sync that finds
// another one running returns Skipped and no error.
func Sync(ctx context.Context, o Options) (Result, error) {
	res := Result{ConflictIDs: []string{}, Conflicts: []Conflict{}}
	if o.Home == "" {
		return res, errors.New("sync: no home")
	}
	if err := CheckRemote(o.Remote); err != nil {
		res.Detail = err.Error()
		return res, err
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.LockWait <= 0 {
		o.LockWait = DefaultLockWait
	}
	if o.MachineID == "" {
		o.MachineID = "unknown"
	}
	home, err := filepath.Abs(o.Home)
	if err != nil {
		return res, err
	}
	o.Home = home
	if err := layout.MkdirAll(home); err != nil {
		return res, fmt.Errorf("sync: %w", err)
	}
	lk, err := acquire(ctx, LockPath(home), o.LockWait)
	if errors.Is(err, ErrBusy) {
		res.Skipped = true
		res.Detail = "skipped (another sync is running)"
		res.Head = (&git{dir: layout.Home(home).Memory(), readOnly: true}).shortHead(ctx)
		return res, nil
	}
	if err != nil {
		res.Detail = err.Error()
		return res, fmt.Errorf("sync: %w", err)
	}
	defer lk.release()

	st := o.Store
	if st == nil {
		if st, err = store.Open(ctx, home); err != nil {
			res.Detail = err.Error()
			return res, err
		}
		defer st.Close()
	}
	var notes []string
	if o.Import {
		imp, ierr := native.Import(ctx, st, o.ClaudeDir, o.MachineID)
		res.Import = &imp
		if ierr != nil {
			notes = append(notes, "native import failed: "+ierr.Error())
		}
	}

	s := &syncer{o: o, res: &res, g: &git{dir: st.MemoryDir(), machine: o.MachineID, connect: connectSeconds(o.Timeout)},
		st: st, tree: layout.TreeName(note.Portable)}
	var serr error
	var repos []store.Repo // what the index follows (none without git: a walk)
	if _, lerr := exec.LookPath("git"); lerr != nil {
		serr = fmt.Errorf("%w; notes stay on this machine until it is installed", ErrNoGit)
		res.Detail = serr.Error()
	} else {
		if team := teamOfRemote(o.Remote, o.Teams); team != "" {
			// Personal notes never reach a team remote (SPEC 18): the
			// cycle commits them here and stops short of the network.
			s.o.Remote = ""
			if serr = s.run(ctx); serr == nil {
				why := fmt.Sprintf("the remote %s is team %s's; personal notes never go to a team's remote, so they stay committed here: set a remote of your own (anamnesis config set remote URL)", MaskURL(o.Remote), team)
				res.Detail, serr = why, errors.New("sync: "+why)
			}
		} else {
			serr = s.run(ctx)
		}
		if err := s.settleScopes(ctx, st.MemoryDir(), st.LocalDir()); err != nil {
			notes = append(notes, "settling notes moved to machine-local: "+err.Error())
		}
		s.unlockRepo()
		if n := len(res.Conflicts); n > 0 && serr == nil {
			s.finishDetail()
		}
		repos = append(repos, s.followed(ctx, st, layout.TreeName(note.Portable)))
		if joined := stillJoined(home, o.Teams); len(joined) > 0 {
			author := Author(ctx, o.Author, o.MachineID)
			prev := Last(home)
			for _, t := range joined {
				tr, rp := syncTeam(ctx, o, st, t, author)
				repos = append(repos, rp)
				if tr.ReadOnly && !wasReadOnly(prev, t.Name) {
					tr.Notice = fmt.Sprintf("team %s: the remote refuses your pushes (you may only read); your %d commit(s) of notes stay on this machine, unpublished, and fetching goes on", t.Name, tr.Unpublished)
				}
				res.Teams = append(res.Teams, tr)
			}
		}
	}
	// The index follows whatever reached the files, even after a failed
	// network step: a merge may have landed before the push failed.
	r, ierr := st.Follow(ctx, repos)
	res.Indexed, res.Reindexed = r.Total, r.Indexed
	if ierr != nil {
		notes = append(notes, "index update failed: "+ierr.Error())
		if serr == nil {
			serr = ierr
		}
	} else {
		if projects := r.Projects(); len(projects) > 0 {
			// What a pull brought is in the next session's block at once,
			// rather than computed by that session's hook.
			if err := inject.Refresh(ctx, st, projects...); err != nil {
				notes = append(notes, err.Error())
			}
		}
		// The small full-text segments of the writes since the last sync
		// are merged here, off any hook's path. A failure (the index busy
		// with a rebuild) changes nothing: the next sync merges them.
		_ = st.Tidy(ctx)
	}
	res.Head = s.g.shortHead(context.WithoutCancel(ctx))
	if len(res.Conflicts) > 0 {
		res.Conflicted = true
	}
	if len(notes) > 0 {
		res.Detail = strings.TrimPrefix(res.Detail+"; "+strings.Join(notes, "; "), "; ")
	}
	recordLast(home, res, serr)
	return res, serr
}

// connectSeconds is ssh's ConnectTimeout: inside the deadline, never zero.
func connectSeconds(d time.Duration) int {
	s := int(d / time.Second)
	if s > 30 {
		s = 30
	}
	if s < 1 {
		s = 1
	}
	return s
}

// syncer is one cycle's state.
type syncer struct {
	o   Options
	res *Result
	g   *git
	// repo is the commit lock while held: every local git step runs under
	// it; fetch and push run without it (see lock).
	repo *lock
	// team is set when the cycle runs for a team store (SPEC 18).
	team *teamCycle
	// theirs is the ref integrate merges into main (origin/main when "").
	theirs string
	// committed is set once a commit of every local change succeeded: the
	// files then differ from HEAD only as git's own steps left them.
	committed bool
	// withheld are the ids of personal notes found in a team's tree (moved
	// there by hand), left out of its commits.
	withheld []string
	// rewrittenFrom is the remote's main as this clone last knew it, when
	// the remote's main has since been rewritten (recorded by fetchOrigin).
	rewrittenFrom string
	// rewrote is set once integrate took a rewritten or unrelated history up.
	rewrote *rewrite
	// st is the store whose tree (memory, teams/NAME) the cycle commits:
	// what its writers recorded is what a commit stages (nil: everything).
	st   *store.Store
	tree string
}

// personalNotes picks, among the note files new in a team's tree, those
// whose id is a personal note's: in memory/ or local/, or deleted by one of
// memory/'s last 50 commits (a note moved out by hand: the personal cycle,
// which runs first, committed its deletion). A personal note reaches a team
// only as a shared copy, under a new id.
func (s *syncer) personalNotes(ctx context.Context, added []string) []string {
	h := layout.Home(s.o.Home)
	var deleted map[string]bool
	var out []string
	for _, p := range added {
		id, ok := noteID(p)
		if !ok && inTypeDir(p) {
			if data, err := os.ReadFile(s.abs(p)); err == nil {
				id, ok = idIn(data)
			}
		}
		if !ok {
			continue
		}
		personal := len(portableFiles(h.Memory(), id)) > 0 || len(portableFiles(h.Local(), id)) > 0
		if !personal && deleted == nil {
			deleted = map[string]bool{}
			if exists(filepath.Join(h.Memory(), ".git")) {
				mem := &git{dir: h.Memory(), readOnly: true}
				names, _ := mem.run(ctx, "log", "-n", "50", "--format=", "--name-only", "-z", "--no-renames", "--diff-filter=D", "HEAD", "--")
				for _, p := range nulList(names) {
					if d, ok := noteID(strings.TrimSpace(p)); ok {
						deleted[d] = true
					}
				}
			}
		}
		personal = personal || deleted[id]
		if personal {
			out = append(out, p)
			if !slices.Contains(s.withheld, id) {
				s.withheld = append(s.withheld, id)
			}
		}
	}
	return out
}

// integrateProposal brings this member's proposal branch, as fetched, into
// main in review mode: the member's other machines push to it too (one
// author, one branch), and a push replaces it, so a machine that did not
// hold the others' proposals would drop them from it.
func (s *syncer) integrateProposal(ctx context.Context) error {
	if s.team == nil || !s.team.review {
		return nil
	}
	ref := "refs/remotes/origin/" + s.team.branch
	if !s.g.refExists(ctx, ref) || s.rewrote != nil {
		// After a rewrite of main the branch holds the old history: this
		// push replaces it with main taken up, and the member's other
		// machines re-commit theirs on top of it as this one did.
		return nil
	}
	s.theirs = ref
	defer func() { s.theirs = "" }()
	return s.integrate(ctx)
}

func (s *syncer) theirsRef() string {
	if s.theirs != "" {
		return s.theirs
	}
	return remoteRef
}

func (s *syncer) lockRepo(ctx context.Context) error {
	lk, err := acquire(ctx, CommitLockPath(s.o.Home), relockWait)
	if err != nil {
		s.res.Detail = "memory repository: " + err.Error()
		return fmt.Errorf("sync: commit lock: %w", err)
	}
	s.repo = lk
	return nil
}

func (s *syncer) unlockRepo() {
	if s.repo != nil {
		s.repo.release()
		s.repo = nil
	}
}

func (s *syncer) run(ctx context.Context) error {
	g := s.g
	if err := s.lockRepo(ctx); err != nil {
		return err
	}
	if err := ensureRepo(ctx, g); err != nil {
		s.res.Detail = "memory repository: " + err.Error()
		return err
	}
	if s.team != nil {
		excludeTemps(g.dir)
	}
	born := g.refExists(ctx, branchRef)
	if s.o.Remote == "" {
		if err := s.commit(ctx, !s.o.Recorded); err != nil {
			return err
		}
		committed := s.res.Committed
		if committed {
			s.res.Detail = "committed locally; no remote configured"
		} else {
			s.res.Detail = "nothing to commit; no remote configured"
		}
		return nil
	}
	moved, err := setRemote(ctx, g, s.o.Remote)
	if err == nil && moved && s.team == nil {
		// A person's store pointed at another repository (a new, empty
		// one, often): what the old one held says nothing of what this
		// one published. A team's is not forgotten: a team moved to a
		// repository holding its cleaned history is a rewrite.
		err = forgetRemote(ctx, g)
	}
	if err != nil {
		s.res.Detail = "setting the remote failed: " + err.Error()
		return err
	}
	// A repository with history commits first. One without waits: if the
	// remote has history, it is adopted and local notes go on top of it.
	if born {
		if err := s.commit(ctx, !s.o.Recorded); err != nil {
			return err
		}
	}
	netCtx, cancel := context.WithTimeout(ctx, s.o.Timeout)
	defer cancel()
	for attempt := 1; ; attempt++ {
		s.unlockRepo()
		ferr := s.fetch(netCtx)
		if err := s.lockRepo(ctx); err != nil {
			return err
		}
		if err := ferr; err != nil {
			if !born {
				// Offline on the first sync: keep the notes committed anyway.
				if empty, _ := onlyGitignore(ctx, g); !empty {
					if cerr := s.commit(ctx, !s.o.Recorded); cerr != nil {
						return cerr
					}
				}
			}
			return s.netFail("fetch from", err)
		}
		hasRemote := g.refExists(ctx, remoteRef)
		if born {
			s.rewrittenFrom, _ = g.rev(ctx, rewriteRef)
			if s.rewrittenFrom != "" && !hasRemote {
				// Pushing now would bring the old history back to a
				// remote whose main someone deleted on purpose.
				s.res.Rewritten = mainGone(g.dir)
				s.res.Detail = s.res.Rewritten
				return nil
			}
		}
		if !born {
			if hasRemote {
				pulled, err := s.adopt(ctx)
				if err != nil {
					s.res.Detail = "adopting the remote's history failed: " + err.Error()
					return err
				}
				s.res.Pulled += pulled
			}
			if empty, err := onlyGitignore(ctx, g); err != nil || !empty || hasRemote {
				if err := s.commit(ctx, !s.o.Recorded); err != nil {
					return err
				}
			}
			born = g.refExists(ctx, branchRef)
			if !born {
				s.res.Detail = "nothing to sync: local and remote are empty"
				return nil
			}
		} else if hasRemote {
			if err := s.integrate(ctx); err != nil {
				return err
			}
		}
		if err := s.integrateProposal(ctx); err != nil {
			return err
		}
		var ahead int
		var err error
		if hasRemote {
			ahead, err = g.count(ctx, remoteRef+".."+branchRef)
		} else {
			ahead, err = g.count(ctx, branchRef)
		}
		if err != nil {
			s.res.Detail = err.Error()
			return err
		}
		if s.team != nil {
			s.team.ahead = ahead
			if ahead > 0 && s.team.proposed(ctx, g) {
				ahead = 0 // the proposal branch holds main already
			}
		}
		if ahead == 0 {
			s.finishDetail()
			return nil
		}
		head, err := g.rev(ctx, branchRef)
		if err != nil {
			s.res.Detail = err.Error()
			return err
		}
		s.unlockRepo()
		perr := s.push(netCtx, head)
		if err := s.lockRepo(ctx); err != nil {
			return err
		}
		if perr == nil {
			s.res.Pushed = true
			if now, _ := g.rev(ctx, branchRef); now != head && attempt < pushAttempts && netCtx.Err() == nil {
				// A capture committed while the push was on the wire:
				// send its note too rather than leave it to the next sync.
				continue
			}
			s.finishDetail()
			return nil
		}
		if s.team != nil && refusedPush(perr) {
			// A member who may only read: fetching goes on, their notes
			// stay committed here, unpublished (SPEC 18).
			s.team.refused = true
			s.finishDetail()
			return nil
		}
		if attempt < pushAttempts && netCtx.Err() == nil && retryablePush(perr) {
			// Another machine pushed in between: integrate its work and
			// retry, after a random pause so two machines do not keep
			// colliding in step.
			select {
			case <-netCtx.Done():
			case <-time.After(time.Duration(rand.Int64N(int64(50*time.Millisecond) * int64(attempt)))):
			}
			continue
		}
		return s.netFail("push to", perr)
	}
}

func (s *syncer) finishDetail() {
	r := s.res
	var parts []string
	switch {
	case s.team != nil && s.team.refused && r.Pulled > 0:
		parts = append(parts, fmt.Sprintf("pulled; read-only, %d commit(s) unpublished", s.team.ahead))
	case s.team != nil && s.team.refused:
		parts = append(parts, fmt.Sprintf("read-only, %d commit(s) unpublished", s.team.ahead))
	case s.team != nil && s.team.review && r.Pushed:
		parts = append(parts, "proposed on "+s.team.branch)
	case r.Pushed && r.Pulled > 0:
		parts = append(parts, "synced")
	case r.Pushed:
		parts = append(parts, "pushed")
	case r.Pulled > 0:
		parts = append(parts, "pulled")
	default:
		parts = append(parts, "up to date")
	}
	if rw := s.rewrote; rw != nil {
		what := "the remote's history was rewritten (a force push, or the repository re-created): took the new history up"
		if !rw.known {
			what = "the remote's history shares no commit with this clone's: took it up"
		}
		what += fmt.Sprintf(", %d note file(s) it no longer holds removed here, %d file(s) of yours it lacked re-committed on top; the old history is not pushed", rw.removed, rw.mine)
		if rw.dropped {
			what += " and nothing of it stays in this clone"
		} else {
			what += fmt.Sprintf(" and stays in this clone's .git until git -C %s gc --prune=now", s.g.dir)
		}
		r.Rewritten = what
		parts = append(parts, what)
	}
	if len(s.withheld) > 0 {
		parts = append(parts, fmt.Sprintf("not shared, personal notes' ids (moved here by hand?): %s; share a copy instead (anamnesis write --team, or the dashboard's share)", strings.Join(s.withheld, ", ")))
	}
	if n := len(r.Conflicts); n > 0 {
		copies := len(r.ConflictIDs)
		msg := fmt.Sprintf("%d conflict(s) resolved", n)
		if copies > 0 {
			msg += fmt.Sprintf(", the other version kept as new note(s) tagged conflict: %s", strings.Join(r.ConflictIDs, ", "))
		}
		parts = append(parts, msg)
	}
	r.Detail = strings.Join(parts, "; ")
}

// commit commits the tree's local changes: the files the store's writers
// recorded since the last commit when that is all that changed
// (recordedOnly), else every file (whole, or when in doubt).
func (s *syncer) commit(ctx context.Context, whole bool) error {
	if !whole && s.st != nil && s.team == nil {
		if u, ok := s.recordedOnly(ctx); ok {
			committed, err := commitRecorded(ctx, s.g, Message(s.o.MachineID), u.Paths)
			if err == nil {
				s.res.Committed = s.res.Committed || committed
				s.committed = true
				// Not cleared (the index busy), the record is staged
				// again by the next sync, which changes nothing.
				_ = s.st.Synced(ctx, s.tree, u.UpTo, false, time.Time{})
				return nil
			}
			if !errors.Is(err, errNotRecordable) {
				s.res.Detail = "commit failed: " + err.Error()
				return err
			}
		}
	}
	var upTo int64
	start := time.Now()
	if s.st != nil {
		// Unread (the index unusable), nothing is cleared below.
		upTo, _ = s.st.LastWrite(ctx)
	}
	var withhold []func(context.Context, []string) []string
	if s.team != nil {
		withhold = append(withhold, s.personalNotes)
	}
	committed, err := commitAll(ctx, s.g, Message(s.o.MachineID), withhold...)
	if committed {
		s.res.Committed = true
	}
	s.committed = err == nil && len(s.withheld) == 0
	if err == nil && s.st != nil {
		// Every file was staged: what the writers recorded up to then is
		// committed (or was not theirs to commit), and the record is
		// complete from the start of this staging on. Not recorded (the
		// index busy), the next sync stages every file again.
		_ = s.st.Synced(ctx, s.tree, upTo, true, start)
	}
	if err != nil {
		s.res.Detail = "commit failed: " + err.Error()
	}
	return err
}

// wholeEvery is how often a sync stages every file even when the writers'
// record says what changed: an edit made in place by hand, or by a program
// that writes no record (the reference implementation, an older version),
// reaches git within it.
const wholeEvery = time.Hour

// recordedOnly returns what the store's writers recorded for s's tree, and
// whether staging that alone commits every local change: the record is
// complete (a whole staging started it, within wholeEvery) and no note
// directory of the tree changed but by the store's own writes (a file
// created, renamed or removed by hand or by git).
func (s *syncer) recordedOnly(ctx context.Context) (store.Unsynced, bool) {
	u, err := s.st.Unsynced(ctx, s.tree)
	if err != nil || u.Whole.IsZero() || time.Since(u.Whole) > wholeEvery || time.Until(u.Whole) > time.Minute {
		return u, false
	}
	tree := filepath.Join(s.o.Home, filepath.FromSlash(s.tree)) + string(filepath.Separator)
	for _, d := range blockcache.DriftedDirs(s.o.Home).Dirs {
		if strings.HasPrefix(d, tree) {
			return u, false
		}
	}
	return u, s.g.refExists(ctx, branchRef)
}

func (s *syncer) fetch(ctx context.Context) error { return fetchOrigin(ctx, s.g) }

// push sends commit head (main as the sync last saw it, not main now: a
// capture may commit while the push runs without the commit lock) and
// records it as origin's main.
func (s *syncer) push(ctx context.Context, head string) error {
	spec, tracking := head+":"+branchRef, remoteRef
	if s.team != nil && s.team.review {
		// Review mode: main goes to this member's proposal branch, which
		// only they write (so it may be replaced), never to the team's main.
		spec, tracking = "+"+head+":refs/heads/"+s.team.branch, "refs/remotes/origin/"+s.team.branch
	}
	_, err := s.g.run(ctx, "push", "--quiet", "--no-verify", "origin", spec)
	if err == nil {
		// Keep the tracking ref exact even if origin's fetch refspec was customised.
		s.g.run(context.WithoutCancel(ctx), "update-ref", tracking, head)
	}
	return err
}

func retryablePush(err error) bool {
	var ge *GitError
	if !errors.As(err, &ge) || errors.Is(err, ErrTimeout) {
		return false
	}
	for _, s := range []string{"rejected", "fetch first", "non-fast-forward", "cannot lock ref", "failed to update ref", "stale info"} {
		if strings.Contains(ge.Stderr, s) {
			return true
		}
	}
	return false
}

// netFail fills the detail for a network step that failed; local commits are untouched.
func (s *syncer) netFail(step string, err error) error {
	where := MaskURL(s.o.Remote)
	var why string
	if errors.Is(err, ErrTimeout) {
		why = fmt.Sprintf("%s %s timed out after %s", step, where, s.o.Timeout)
	} else {
		msg := err.Error()
		var ge *GitError
		if errors.As(err, &ge) {
			msg = reason(ge.Stderr)
			if msg == "" {
				msg = ge.Err.Error()
			}
		}
		why = fmt.Sprintf("%s %s failed: %s", step, where, maskIn(msg, s.o.Remote))
	}
	kept := "local notes stay committed for the next sync"
	if n, cerr := s.g.count(context.WithoutCancel(context.Background()), unpushedRange(s.g)); cerr == nil && n > 0 {
		kept = fmt.Sprintf("%d local commit(s) kept for the next sync", n)
	}
	s.res.Detail = why + "; " + kept
	return fmt.Errorf("sync: %s", why)
}

func unpushedRange(g *git) string {
	if g.refExists(context.Background(), remoteRef) {
		return remoteRef + ".." + branchRef
	}
	return branchRef
}

// MaskURL hides a remote's credentials before it is printed anywhere
// (status, doctor, config list, the dashboard, MCP results): the password of
// user:password@, or a token used as the whole userinfo
// (https://<token>@github.com), or one in the query string. It is the one
// masking rule every surface calls.
func MaskURL(u string) string {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return u
	}
	at := strings.LastIndex(rest, "@")
	slash := strings.Index(rest, "/")
	if at >= 0 && (slash < 0 || at < slash) {
		if user, pass, hasPass := strings.Cut(rest[:at], ":"); hasPass {
			// A token given as the user has a placeholder password
			// (GitHub's TOKEN:x-oauth-basic) or none: the user is the
			// secret. Any other user still passes the redactor (a
			// ghp_ token beside a password).
			if pass == "" || strings.EqualFold(pass, "x-oauth-basic") {
				user = "***"
			}
			return redact.String(scheme + "://" + user + ":***" + rest[at:])
		}
	}
	return redact.String(u)
}

// maskIn masks remote's credentials where git's message quotes them: git
// drops a password from the URLs it prints but keeps a token given as the
// whole userinfo ("could not read Password for 'https://TOKEN@host'"), and
// shortens the URL, so the remote is not found whole.
func maskIn(msg, remote string) string {
	msg = strings.ReplaceAll(msg, remote, MaskURL(remote))
	if _, rest, ok := strings.Cut(remote, "://"); ok {
		at, slash := strings.LastIndex(rest, "@"), strings.Index(rest, "/")
		if at > 0 && (slash < 0 || at < slash) {
			user := rest[:at]
			masked := strings.TrimSuffix(strings.TrimPrefix(MaskURL("x://"+user+"@h"), "x://"), "@h")
			msg = strings.ReplaceAll(msg, "://"+user+"@", "://"+masked+"@")
		}
	}
	return redact.String(msg)
}

// teamOfRemote names the team whose remote is remote's repository (""
// for none): SameRepo.
func teamOfRemote(remote string, teams []TeamSpec) string {
	for _, t := range teams {
		if SameRepo(t.URL, remote) {
			return t.Name
		}
	}
	return ""
}

// onlyGitignore reports whether the working tree holds nothing but the
// store's own .gitignore: a store with no notes has nothing to sync.
func onlyGitignore(ctx context.Context, g *git) (bool, error) {
	out, err := g.run(ctx, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if err != nil {
		return false, err
	}
	for _, p := range nulList(out) {
		if p != ".gitignore" {
			return false, nil
		}
	}
	return true, nil
}

// ensureRepo makes memory/ a git repository on main and aborts anything a
// crashed sync (the reference's, or a git command a user ran) left half done.
func ensureRepo(ctx context.Context, g *git) error {
	if err := layout.MkdirAll(g.dir); err != nil {
		return err
	}
	gitPath := filepath.Join(g.dir, ".git")
	if _, err := os.Stat(gitPath); errors.Is(err, os.ErrNotExist) {
		if _, err := g.run(ctx, "init", "--quiet"); err != nil {
			return err
		}
		if _, err := g.run(ctx, "symbolic-ref", "HEAD", branchRef); err != nil {
			return err
		}
	}
	gitDir := gitPath
	if info, err := os.Stat(gitPath); err == nil && !info.IsDir() {
		out, err := g.run(ctx, "rev-parse", "--absolute-git-dir")
		if err != nil {
			return err
		}
		gitDir = strings.TrimSpace(out)
	}
	// Every caller holds the sync lock, so an index.lock no live process
	// holds was left by a crash and would fail every commit from now on.
	if _, err := removeStaleIndexLock(g.dir); err != nil {
		return err
	}
	if err := removeStaleRefLocks(gitDir, g.dir); err != nil {
		return err
	}
	if exists(filepath.Join(gitDir, "rebase-merge")) || exists(filepath.Join(gitDir, "rebase-apply")) {
		if _, err := g.run(ctx, "rebase", "--abort"); err != nil {
			return fmt.Errorf("a rebase was left in progress and could not be aborted: %w", err)
		}
	}
	if exists(filepath.Join(gitDir, "MERGE_HEAD")) {
		abortMerge(ctx, g)
	}
	for _, f := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD"} {
		if exists(filepath.Join(gitDir, f)) {
			g.run(ctx, "reset", "--merge")
		}
	}
	out, err := g.run(ctx, "symbolic-ref", "-q", "HEAD")
	head := strings.TrimSpace(out)
	if head == branchRef {
		return nil
	}
	if err != nil && exitCode(err) != 1 {
		return err
	}
	// Detached, or on another branch (a repository someone made by hand).
	if g.refExists(ctx, branchRef) {
		if head == "" {
			return errors.New("HEAD is detached; check out main in " + g.dir)
		}
		return fmt.Errorf("it is on %s, not main; check out main in %s", strings.TrimPrefix(head, "refs/heads/"), g.dir)
	}
	if h, err := g.rev(ctx, "HEAD"); err == nil {
		if _, err := g.run(ctx, "update-ref", branchRef, h, zeroHash); err != nil {
			return err
		}
	}
	_, err = g.run(ctx, "symbolic-ref", "HEAD", branchRef)
	return err
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// abortMerge puts the repository back to its last commit's merge state,
// keeping uncommitted notes that were not part of the merge.
func abortMerge(ctx context.Context, g *git) {
	ctx = context.WithoutCancel(ctx)
	if _, err := g.run(ctx, "merge", "--abort"); err != nil {
		g.run(ctx, "reset", "--merge")
	}
}

// commitAll stages everything under memory/ and commits if anything
// changed. A symbolic link among the staged changes is unstaged again
// (with everything staged: the files stay as they are) and refused.
func commitAll(ctx context.Context, g *git, msg string, withhold ...func(context.Context, []string) []string) (bool, error) {
	if _, err := g.run(ctx, "add", "--all", "--", "."); err != nil {
		return false, err
	}
	// A note file a .gitignore covers (one a teammate or another tool
	// pushed: "*.md", a type directory) is still a note to sync.
	notes, err := ignoredNotes(ctx, g)
	if err != nil {
		return false, err
	}
	if len(notes) > 0 {
		if _, err := g.runIn(ctx, nulJoin(notes), "update-index", "--add", "-z", "--stdin"); err != nil {
			return false, err
		}
	}
	// Files withhold names among the new ones stay as they are, untracked.
	for _, w := range withhold {
		out, err := g.run(ctx, "diff", "--cached", "--name-only", "-z", "--no-renames", "--diff-filter=A")
		if err != nil {
			return false, err
		}
		if keep := w(ctx, nulList(out)); len(keep) > 0 {
			if _, err := g.runIn(ctx, nulJoin(keep), "update-index", "--force-remove", "-z", "--stdin"); err != nil {
				return false, err
			}
		}
	}
	staged, err := g.run(ctx, "diff", "--cached", "--raw", "-z", "--no-renames")
	if err != nil || staged == "" {
		return false, err
	}
	if links := stagedLinks(staged); len(links) > 0 {
		if _, err := g.run(ctx, "reset", "--quiet"); err != nil {
			return false, err
		}
		return false, symlinkError(g.dir, links)
	}
	if _, err := g.run(ctx, "commit", "--quiet", "--no-verify", "-m", msg); err != nil {
		return false, err
	}
	return true, nil
}

// storeIgnores are the lines of the .gitignore the store writes (see
// store.Open): none covers a note file.
var storeIgnores = []string{"*.db", "*.db-*", "*-wal", "*-shm", ".tmp-*", "*.tmp"}

// ignoredNotes lists the untracked note files (<type>/<name>.md, not a
// writer's temporary file) that a .gitignore keeps git from seeing. The
// working tree is listed only when some .gitignore says more than the
// store's own, so an ordinary sync pays one read of the index.
func ignoredNotes(ctx context.Context, g *git) ([]string, error) {
	out, err := g.run(ctx, "ls-files", "-z", "--", ":(glob)**/.gitignore")
	if err != nil {
		return nil, err
	}
	more := false
	for _, p := range nulList(out) {
		if p != ".gitignore" {
			more = true
			break
		}
		data, err := os.ReadFile(filepath.Join(g.dir, ".gitignore"))
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") && !slices.Contains(storeIgnores, l) {
				more = true
			}
		}
	}
	if !more {
		return nil, nil
	}
	out, err = g.run(ctx, append([]string{"ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--"}, note.Types...)...)
	if err != nil {
		return nil, err
	}
	var notes []string
	for _, p := range nulList(out) {
		if inTypeDir(p) && !strings.HasPrefix(path.Base(p), atomicfile.TempPrefix) {
			notes = append(notes, p)
		}
	}
	return notes, nil
}

// setRemote points origin at remote, adding it or changing its URL; moved
// says origin was another repository before (not the same one with a new
// token in its URL).
func setRemote(ctx context.Context, g *git, remote string) (moved bool, err error) {
	out, err := g.run(ctx, "config", "--get", "remote.origin.url")
	cur := strings.TrimSpace(out)
	switch {
	case err != nil && exitCode(err) != 1:
		return false, err
	case err != nil:
		_, err = g.run(ctx, "remote", "add", "--", "origin", remote)
	case cur != remote:
		_, err = g.run(ctx, "remote", "set-url", "--", "origin", remote)
		moved = repoOf(cur) != repoOf(remote)
	}
	if err != nil {
		return false, err
	}
	// The URL may carry a token: the repository's config is the owner's
	// alone (git keeps a config file's mode when it rewrites it).
	return moved, os.Chmod(filepath.Join(g.dir, ".git", "config"), layout.FileMode)
}

// CommitPaths commits only paths (relative to <home>/memory) under the
// home's commit lock, waiting up to wait (a running sync holds that lock
// only for its local steps, never across the network, so the wait is short
// even when the remote hangs; past wait it returns ErrBusy and the next sync
// commits them), creating the repository if needed, and returns the new
// short hash ("" when those paths did not change). Capture uses it to commit
// the note it just wrote without sweeping up anything else pending: that
// belongs to the next sync.
func CommitPaths(ctx context.Context, home, machineID, msg string, wait time.Duration, paths ...string) (string, error) {
	lk, err := acquire(ctx, CommitLockPath(home), wait)
	if err != nil {
		return "", err
	}
	defer lk.release()
	if _, err := exec.LookPath("git"); err != nil {
		return "", ErrNoGit
	}
	g := &git{dir: layout.Home(home).Memory(), machine: machineID}
	if err := ensureRepo(ctx, g); err != nil {
		return "", err
	}
	// Staged with update-index, which looks at these paths only: `git add`
	// lists the directory of each to find untracked files its pathspec
	// matches (a third of the store in one directory). A path that is gone
	// is removed from the index; one gone and never staged is nothing to
	// commit.
	if _, err := g.run(ctx, append([]string{"update-index", "--add", "--remove", "--"}, paths...)...); err != nil {
		return "", err
	}
	same, err := g.ok(ctx, append([]string{"diff", "--cached", "--quiet", "--"}, paths...)...)
	if err != nil || same {
		return "", err
	}
	// The index holds nothing staged but these paths: every writer stages
	// under this lock and commits at once (what a killed one left staged
	// is notes meant for a commit), and files merely written stay unstaged
	// for the next sync.
	hash, err := commitIndex(ctx, g, msg)
	return hash[:min(len(hash), 7)], err
}

// commitIndex commits what is staged in g's index on top of HEAD (the
// repository's first commit when there is none) and returns the commit's
// hash. It uses git's plumbing: `git commit` first refreshes the stat data
// of every tracked file (an lstat per note, so a commit would grow with the
// store); write-tree and commit-tree stat nothing. The caller holds the
// commit lock, so HEAD cannot move meanwhile.
func commitIndex(ctx context.Context, g *git, msg string) (string, error) {
	tree, err := g.run(ctx, "write-tree")
	if err != nil {
		return "", err
	}
	return commitTree(ctx, g, strings.TrimSpace(tree), msg)
}

// commitTree commits tree on top of HEAD and moves HEAD to it (see
// commitIndex).
func commitTree(ctx context.Context, g *git, tree, msg string) (string, error) {
	out, err := g.run(ctx, "commit-tree", tree, "-p", "HEAD", "-m", msg)
	if err != nil && !g.refExists(ctx, "HEAD") { // the repository's first commit
		out, err = g.run(ctx, "commit-tree", tree, "-m", msg)
	}
	if err != nil {
		return "", err
	}
	hash := strings.TrimSpace(out)
	if _, err := g.run(ctx, "update-ref", "-m", "commit: anamnesis", "HEAD", hash); err != nil {
		return "", err
	}
	return hash, nil
}

// errNotRecordable says a recorded path needs the whole staging's checks (a
// symbolic link, or a directory in its way): commitAll refuses or reports it.
var errNotRecordable = errors.New("a recorded path is not a plain note file")

// commitRecorded stages paths (relative to g's tree, as the store's writers
// recorded them: written or removed) and commits them if that changed
// anything, looking at nothing else: the cost of what changed, not of the
// store. It reports whether it made a commit.
func commitRecorded(ctx context.Context, g *git, msg string, paths []string) (bool, error) {
	if len(paths) == 0 {
		return false, nil
	}
	for _, p := range paths {
		fi, err := os.Lstat(filepath.Join(g.dir, filepath.FromSlash(p)))
		if err != nil && !errors.Is(err, os.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
			return false, errNotRecordable
		}
	}
	// update-index takes each path as it is (no pathspec magic, no
	// .gitignore: a note file is synced whatever a .gitignore says) and
	// drops one that is gone.
	if _, err := g.runIn(ctx, nulJoin(paths), "update-index", "--add", "--remove", "-z", "--stdin"); err != nil {
		if strings.Contains(err.Error(), "symbolic link") {
			return false, errNotRecordable
		}
		return false, err
	}
	// What is staged is committed when its tree is not HEAD's (this also
	// commits what a killed writer left staged). Comparing the trees costs
	// nothing more: write-tree is the commit's first step anyway.
	tree, err := g.run(ctx, "write-tree")
	if err != nil {
		return false, err
	}
	tree = strings.TrimSpace(tree)
	if head, err := g.run(ctx, "rev-parse", "-q", "--verify", "HEAD^{tree}"); err != nil || strings.TrimSpace(head) == tree {
		return false, err
	}
	_, err = commitTree(ctx, g, tree, msg)
	return err == nil, err
}

// LastSync is what the most recent sync of a home reported.
type LastSync struct {
	At     string `json:"at"`
	Result Result `json:"result"`
	Error  string `json:"error,omitempty"`
}

func lastPath(home string) string { return layout.Home(home).Logs("last-sync.json") }

func recordLast(home string, r Result, err error) {
	l := LastSync{At: note.Now(), Result: r}
	if err != nil {
		l.Error = err.Error()
	}
	writeLast(home, l)
}

// ForgetTeam drops team name from the last sync's record, for a team the
// person left: status would otherwise go on printing its line (a failure
// that made them leave, say) until the next sync. The caller holds the
// sync lock (team.Remove).
func ForgetTeam(home, name string) {
	l := Last(home)
	if l == nil {
		return
	}
	n := len(l.Result.Teams)
	l.Result.Teams = slices.DeleteFunc(l.Result.Teams, func(t TeamResult) bool { return t.Name == name })
	if len(l.Result.Teams) != n {
		writeLast(home, *l)
	}
}

func writeLast(home string, l LastSync) {
	data, jerr := json.MarshalIndent(l, "", "  ")
	if jerr != nil {
		return
	}
	// Best effort: the record is for status and the dashboard only.
	atomicfile.Write(lastPath(home), append(data, '\n'), layout.FileMode)
}

// Last reads the most recent sync's record, nil if there is none.
func Last(home string) *LastSync {
	data, err := os.ReadFile(lastPath(home))
	if err != nil {
		return nil
	}
	var l LastSync
	if json.Unmarshal(data, &l) != nil {
		return nil
	}
	return &l
}

// stillJoined keeps the teams config.json still names: a sync that read the
// teams before waiting for the lock must not bring back the clone of a team
// removed meanwhile (team.Remove holds the lock while it removes one). A
// home without a readable config.json keeps them all (a caller that named
// its teams itself).
func stillJoined(home string, teams []TeamSpec) []TeamSpec {
	if len(teams) == 0 {
		return teams
	}
	if _, err := os.Stat(config.Path(home)); err != nil {
		return teams
	}
	f, err := config.Load(home)
	if err != nil {
		return teams
	}
	var out []TeamSpec
	for _, t := range teams {
		for _, c := range f.Teams() {
			if c.Name == t.Name {
				out = append(out, t)
				break
			}
		}
	}
	return out
}
