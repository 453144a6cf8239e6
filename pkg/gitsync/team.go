package gitsync

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// TeamSpec is one team store a sync brings up to date (SPEC 18).
type TeamSpec struct {
	Name, URL string
	// Review sends this member's commits to proposals/<author> instead of main.
	Review bool
}

// TeamsFrom is the sync's view of the configured teams.
func TeamsFrom(teams []config.Team) []TeamSpec {
	out := make([]TeamSpec, 0, len(teams))
	for _, t := range teams {
		out = append(out, TeamSpec{Name: t.Name, URL: t.URL, Review: t.Review})
	}
	return out
}

// TeamResult is what the cycle did for one team.
type TeamResult struct {
	Name        string     `json:"name"`
	Pushed      bool       `json:"pushed"`
	Pulled      int        `json:"pulled"`
	Conflicted  bool       `json:"conflicted"`
	Head        string     `json:"head"`
	Detail      string     `json:"detail"`
	ConflictIDs []string   `json:"conflict_ids"`
	Conflicts   []Conflict `json:"conflicts"`
	Review      bool       `json:"review,omitempty"`
	// ReadOnly: the remote refused this member's push; Unpublished is how
	// many commits of theirs stay on this machine.
	ReadOnly    bool `json:"read_only,omitempty"`
	Unpublished int  `json:"unpublished,omitempty"`
	// Notice is said once, on the sync that first met the refusal.
	Notice string `json:"notice,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Line is the printed summary of one team.
func (t TeamResult) Line() string {
	r := Result{Pushed: t.Pushed, Pulled: t.Pulled, Conflicted: t.Conflicted, Head: t.Head, Detail: t.Detail}
	return "team " + t.Name + ": " + strings.TrimPrefix(r.Line(), "sync: ")
}

// teamResult starts a team's result; its cycle fills res, and done copies it in.
func newTeamResult(name string) (TeamResult, *Result) {
	return TeamResult{Name: name, ConflictIDs: []string{}, Conflicts: []Conflict{}}, &Result{ConflictIDs: []string{}, Conflicts: []Conflict{}}
}

func (t *TeamResult) from(r *Result) {
	t.Pushed, t.Pulled, t.Conflicted, t.Head, t.Detail = r.Pushed, r.Pulled, r.Conflicted, r.Head, r.Detail
	t.ConflictIDs, t.Conflicts = r.ConflictIDs, r.Conflicts
}

// teamCycle is a team's part of a syncer.
type teamCycle struct {
	review bool
	// branch is this member's proposal branch (proposals/<author>).
	branch  string
	refused bool
	// ahead is how many commits main has that the team's main lacks.
	ahead int
}

// proposed reports whether this member's proposal branch on the remote
// already holds main.
func (t *teamCycle) proposed(ctx context.Context, g *git) bool {
	if !t.review {
		return false
	}
	head, err := g.rev(ctx, branchRef)
	tip, err2 := g.rev(ctx, "refs/remotes/origin/"+t.branch)
	return err == nil && err2 == nil && head == tip
}

// refusedPush tells a remote that refuses this member's push (a hook, a
// protected branch, no write permission, credentials asked for only to
// push: a public repository fetched over https, which git may not prompt
// for) from one that was only ahead.
func refusedPush(err error) bool {
	var ge *GitError
	if !errors.As(err, &ge) || errors.Is(err, ErrTimeout) {
		return false
	}
	msg := strings.ToLower(ge.Stderr)
	for _, s := range []string{"hook declined", "permission", "denied", "protected branch", "not allowed", "403", "read-only", "read only",
		"could not read username", "could not read password", "authentication failed", "authentication required"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// ProposalBranch is the branch review-mode writes of author go to:
// proposals/ and the author lower-cased, each run of other characters a
// dash. A push replaces that branch (only its member writes it), so two
// authors must never share one: a name the branch does not spell exactly
// ("Alice Liddell", "王伟", which has no letter a branch keeps) gets a
// hash of the whole name after it.
func ProposalBranch(author string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(author) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	slug := strings.Trim(b.String(), "-")
	if len(slug) > 60 {
		slug = slug[:60]
	}
	if slug != author || slug == "" {
		if slug == "" {
			slug = "member"
		}
		sum := sha256.Sum256([]byte(author))
		slug += "-" + hex.EncodeToString(sum[:4])
	}
	return "proposals/" + slug
}

// proposalBranch tells a branch name ProposalBranch can make.
func proposalBranch(branch string) bool {
	slug, ok := strings.CutPrefix(branch, "proposals/")
	if !ok || slug == "" || len(slug) > 80 || slug[0] == '-' {
		return false
	}
	for _, r := range slug {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// Author is who a person's team notes name: the configured author, else
// their git identity (user.name, else user.email), else the machine id.
func Author(ctx context.Context, configured, machine string) string {
	if configured != "" {
		return configured
	}
	for _, key := range []string{"user.name", "user.email"} {
		// The person's own configuration, read outside any repository.
		cmd := exec.CommandContext(ctx, "git", "config", "--get", key)
		cmd.Dir = os.TempDir()
		cmd.Env = append(os.Environ(), "GIT_DIR="+filepath.Join(os.TempDir(), "anamnesis-no-repo"))
		if out, err := cmd.Output(); err == nil {
			if v := strings.TrimSpace(string(out)); v != "" {
				return v
			}
		}
	}
	if machine == "" {
		return "unknown"
	}
	return machine
}

// excludeTemps keeps a writer's temporary files out of a team's commits
// (locally: a team's repository gets no file of ours).
func excludeTemps(dir string) {
	p := filepath.Join(dir, ".git", "info", "exclude")
	data, _ := os.ReadFile(p)
	if strings.Contains(string(data), ".tmp-*") {
		return
	}
	if layout.MkdirAll(filepath.Dir(p)) == nil {
		os.WriteFile(p, append(data, []byte("\n.tmp-*\n*.tmp\n")...), layout.FileMode)
	}
}

// syncTeam runs the cycle of SPEC 6 for one team store, under the home's
// sync lock the caller holds.
func syncTeam(ctx context.Context, o Options, st *store.Store, t TeamSpec, author string) (TeamResult, store.Repo) {
	tr, res := newTeamResult(t.Name)
	tr.Review = t.Review
	defer func() { tr.from(res) }()
	tree := "teams/" + t.Name
	fail := func(err error) (TeamResult, store.Repo) {
		tr.Error = err.Error()
		if res.Detail == "" {
			res.Detail = err.Error()
		}
		tr.from(res)
		return tr, store.Repo{Tree: tree}
	}
	if !config.ValidTeamName(t.Name) {
		return fail(fmt.Errorf("invalid team name %q", t.Name))
	}
	if err := CheckRemote(t.URL); err != nil {
		return fail(err)
	}
	dir := st.TeamDir(t.Name)
	if err := layout.MkdirAll(dir); err != nil {
		return fail(err)
	}
	tc := &teamCycle{review: t.Review, branch: ProposalBranch(author)}
	s := &syncer{o: Options{Home: o.Home, MachineID: o.MachineID, Remote: t.URL, Timeout: o.Timeout, LockWait: o.LockWait},
		res: res, g: &git{dir: dir, machine: o.MachineID, connect: connectSeconds(o.Timeout)}, team: tc, st: st, tree: tree}
	err := s.run(ctx)
	s.unlockRepo()
	if len(res.Conflicts) > 0 && err == nil {
		s.finishDetail()
	}
	res.Head = s.g.shortHead(context.WithoutCancel(ctx))
	res.Conflicted = len(res.Conflicts) > 0
	if tc.refused {
		tr.ReadOnly, tr.Unpublished = true, tc.ahead
	}
	if s.rewrote != nil {
		tr.Notice = "team " + t.Name + ": " + res.Rewritten
	}
	if err != nil {
		tr.Error = err.Error()
	}
	tr.from(res)
	return tr, s.followed(ctx, st, tree)
}

// ProposalInfo is one member's proposal awaiting review.
type ProposalInfo struct {
	Branch string `json:"branch"`
	// Commits the team's main lacks; Files are the note files they change
	// ("A path", "M path", "D path").
	Commits int      `json:"commits"`
	Files   []string `json:"files"`
}

// teamGit is the git of a team's clone, for review.
func teamGit(st *store.Store, name string, timeout time.Duration) (*git, error) {
	if !config.ValidTeamName(name) {
		return nil, fmt.Errorf("invalid team name %q", name)
	}
	dir := st.TeamDir(name)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		return nil, fmt.Errorf("team %s has no clone at %s yet: run anamnesis-sync first", name, dir)
	}
	return &git{dir: dir, machine: "review", connect: connectSeconds(timeout)}, nil
}

// FetchTeam fetches team name's remote: its main and every proposal
// branch (a sync fetches the same). It holds the home's sync lock, waiting
// up to timeout for a sync to end: a sync that takes up a rewritten history
// prunes what no ref holds, which would take the objects of a fetch still
// under way with it.
func FetchTeam(ctx context.Context, st *store.Store, name string, timeout time.Duration) error {
	g, err := teamGit(st, name, timeout)
	if err != nil {
		return err
	}
	lk, err := acquire(ctx, LockPath(st.Home()), timeout)
	if err != nil {
		return fmt.Errorf("fetching team %s: %w", name, err)
	}
	defer lk.release()
	nctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := fetchOrigin(nctx, g); err != nil {
		return fmt.Errorf("fetching team %s: %s", name, maskedReason(err))
	}
	return nil
}

// Proposals lists team name's proposal branches (names ProposalBranch
// makes: AcceptProposal takes no other) as last fetched (by a sync or
// FetchTeam) that change notes its main does not hold as they do. It
// reaches no remote.
func Proposals(ctx context.Context, st *store.Store, name string) ([]ProposalInfo, error) {
	g, err := teamGit(st, name, DefaultTimeout)
	if err != nil {
		return nil, err
	}
	out, err := g.run(ctx, "for-each-ref", "--format=%(refname)", "refs/remotes/origin/proposals/")
	if err != nil {
		return nil, err
	}
	var list []ProposalInfo
	for _, ref := range strings.Fields(out) {
		if !proposalBranch(strings.TrimPrefix(ref, "refs/remotes/origin/")) {
			// Pushed by hand (proposals/-x): AcceptProposal refuses it,
			// so it is not offered.
			continue
		}
		rng := ref
		if g.refExists(ctx, remoteRef) {
			rng = remoteRef + ".." + ref
		}
		n, err := g.count(ctx, rng)
		if err != nil || n == 0 {
			continue
		}
		p := ProposalInfo{Branch: strings.TrimPrefix(ref, "refs/remotes/origin/"), Commits: n}
		if g.refExists(ctx, remoteRef) {
			files, err := g.proposed(ctx, remoteRef, ref)
			if err == nil && len(files) == 0 {
				continue
			}
			p.Files = files
		} else if out, err := g.run(ctx, "ls-tree", "-r", "-z", "--name-only", ref); err == nil {
			// No main yet: the proposal adds every file it holds.
			for _, f := range nulList(out) {
				if inTypeDir(f) {
					p.Files = append(p.Files, "A "+f)
				}
			}
		}
		list = append(list, p)
	}
	return list, nil
}

// awaitingReview lists the notes of a member in review mode that are on
// their main and not on the team's: their own, proposed and not accepted.
// Before the team has a main (its first notes are proposals) that is every
// note of theirs; with no main of their own, none.
func (g *git) awaitingReview(ctx context.Context) ([]string, error) {
	switch {
	case !g.refExists(ctx, branchRef):
		return nil, nil
	case !g.refExists(ctx, remoteRef):
		tree, err := g.treeOf(ctx, branchRef)
		var out []string
		for p := range tree {
			out = append(out, "A "+p)
		}
		return out, err
	}
	return g.proposed(ctx, remoteRef, branchRef)
}

// proposed lists what ref changed since it left base ("A path", "M path",
// "D path") where base does not hold it already: a proposal squash-merged
// on the git server (or cherry-picked) keeps commits base lacks, and
// proposes nothing.
func (g *git) proposed(ctx context.Context, base, ref string) ([]string, error) {
	changed, err := g.run(ctx, "diff", "--name-status", "--no-renames", base+"..."+ref, "--")
	if err != nil {
		return nil, err
	}
	differs, err := g.run(ctx, "diff", "--name-only", "--no-renames", base, ref, "--")
	if err != nil {
		return nil, err
	}
	other := map[string]bool{}
	for _, f := range strings.Split(differs, "\n") {
		other[f] = true
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(changed), "\n") {
		if f := strings.Fields(l); len(f) == 2 && other[f[1]] {
			out = append(out, f[0]+" "+f[1])
		}
	}
	return out, nil
}

// maskedReason is git's reason for a failure, any URL's credentials masked.
func maskedReason(err error) string {
	var ge *GitError
	if errors.As(err, &ge) {
		if r := reason(ge.Stderr); r != "" {
			return MaskURL(r)
		}
	}
	return MaskURL(err.Error())
}

// AcceptProposal merges the proposal branch (proposals/<slug>) of team
// name into its main with the conflict policy of SPEC 6.2 and pushes main.
// The reviewer must be allowed to push to the team's main.
func AcceptProposal(ctx context.Context, o Options, st *store.Store, name, branch string) (TeamResult, error) {
	tr, res := newTeamResult(name)
	if !proposalBranch(branch) {
		return tr, fmt.Errorf("%q is not a proposal branch (want proposals/NAME, as team review lists them)", branch)
	}
	t, ok := findTeam(o.Teams, name)
	if !ok {
		return tr, fmt.Errorf("no team %q (anamnesis team list)", name)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	lk, err := acquire(ctx, LockPath(st.Home()), max(o.LockWait, DefaultLockWait))
	if err != nil {
		return tr, fmt.Errorf("another sync is running: %w", err)
	}
	defer lk.release()
	g, err := teamGit(st, name, o.Timeout)
	if err != nil {
		return tr, err
	}
	// A reviewer in review mode is a member like any other: their own
	// notes go to their proposal branch, never to main with someone else's.
	s := &syncer{o: Options{Home: st.Home(), MachineID: o.MachineID, Remote: t.URL, Timeout: o.Timeout}, res: res, g: g,
		team: &teamCycle{review: t.Review, branch: ProposalBranch(Author(ctx, o.Author, o.MachineID))}, st: st, tree: "teams/" + name}
	g.machine = o.MachineID
	// Bring main up to date first (the ordinary cycle, publishing nothing
	// new but what is already committed), then merge the proposal.
	if err := s.run(ctx); err != nil {
		s.unlockRepo()
		return tr, err
	}
	if t.Review {
		if mine, err := g.awaitingReview(ctx); err != nil || len(mine) > 0 {
			s.unlockRepo()
			if err != nil {
				return tr, err
			}
			return tr, fmt.Errorf("your own team notes (%d file(s)) await review on %s; accepting %s now would publish them on main with it: have yours accepted first, or accept on the git server", len(mine), s.team.branch, branch)
		}
		s.team.review = false // what goes to main now is the proposal alone
	}
	ref := "refs/remotes/origin/" + branch
	if !g.refExists(ctx, ref) {
		s.unlockRepo()
		return tr, fmt.Errorf("team %s has no branch %s", name, branch)
	}
	s.theirs = ref
	pulledBefore := res.Pulled
	merge := s.integrate
	if !g.refExists(ctx, branchRef) {
		// A team whose main does not exist yet (its first notes are
		// proposals) and a reviewer with no notes: main starts at the
		// proposal.
		merge = func(ctx context.Context) error {
			n, err := s.adopt(ctx)
			res.Pulled += n
			return err
		}
	}
	if err := merge(ctx); err != nil {
		s.unlockRepo()
		return tr, err
	}
	s.theirs = ""
	merged := res.Pulled - pulledBefore
	s.unlockRepo()
	err = s.run(ctx) // pushes the merge
	s.unlockRepo()
	if err == nil && s.team.refused {
		err = errors.New("the team's remote refused the push of main: your account may only read, or main is protected (merge the proposal's pull request on the git server instead)")
	}
	if err != nil {
		return tr, err
	}
	if _, rerr := st.Reindex(ctx, false); rerr != nil {
		return tr, rerr
	}
	res.Head = g.shortHead(ctx)
	res.Detail = fmt.Sprintf("merged %d commit(s) of %s into main", merged, branch)
	if n := len(res.ConflictIDs); n > 0 {
		res.Detail += fmt.Sprintf("; %d conflict(s), the other version kept as: %s", n, strings.Join(res.ConflictIDs, ", "))
	}
	tr.from(res)
	return tr, nil
}

func findTeam(teams []TeamSpec, name string) (TeamSpec, bool) {
	for _, t := range teams {
		if t.Name == name {
			return t, true
		}
	}
	return TeamSpec{}, false
}

// Unpushed counts the commits of team name's clone that its remote lacks
// and the note files changed but not yet committed: what removing the
// team would lose.
func Unpushed(ctx context.Context, st *store.Store, name string) (int, error) {
	dir := st.TeamDir(name)
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		// Never synced: every note file in it is unpushed.
		n := 0
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				n++
			}
			return nil
		})
		return n, nil
	}
	g := &git{dir: dir, readOnly: true}
	n := 0
	if g.refExists(ctx, branchRef) {
		// Commits no branch of the remote holds (a proposal branch counts:
		// review sends notes there).
		out, err := g.run(ctx, "rev-list", "--count", branchRef, "--not", "--remotes=origin")
		if err != nil {
			return 0, err
		}
		c := 0
		fmt.Sscan(strings.TrimSpace(out), &c)
		n += c
	}
	out, err := g.run(ctx, "status", "--porcelain", "-z", "--untracked-files=all", "--", ".")
	if err != nil {
		return 0, err
	}
	n += len(nulList(out))
	// Notes a .gitignore hides from status are unpushed too.
	ignored, err := ignoredNotes(ctx, g)
	if err != nil {
		return 0, err
	}
	return n + len(ignored), nil
}

// wasReadOnly reports whether the last sync found team name read-only.
func wasReadOnly(l *LastSync, name string) bool {
	if l == nil {
		return false
	}
	for _, t := range l.Result.Teams {
		if t.Name == name {
			return t.ReadOnly
		}
	}
	return false
}

// SyncTeam runs one team's cycle alone (team add's first fetch), under the
// home's sync lock, and brings the index up to date.
func SyncTeam(ctx context.Context, o Options, st *store.Store, name string) (TeamResult, error) {
	t, ok := findTeam(o.Teams, name)
	if !ok {
		return TeamResult{Name: name}, fmt.Errorf("no team %q", name)
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	lk, err := acquire(ctx, LockPath(st.Home()), max(o.LockWait, DefaultLockWait))
	if err != nil {
		return TeamResult{Name: name}, fmt.Errorf("another sync is running: %w", err)
	}
	defer lk.release()
	if _, err := exec.LookPath("git"); err != nil {
		return TeamResult{Name: name}, errors.New("git is not on PATH")
	}
	tr, _ := syncTeam(ctx, o, st, t, Author(ctx, o.Author, o.MachineID))
	if _, err := st.Reindex(ctx, false); err != nil && tr.Error == "" {
		tr.Error = err.Error()
	}
	if tr.Error != "" {
		return tr, errors.New(tr.Detail)
	}
	return tr, nil
}
