package gitsync

import (
	"strings"
	"testing"
)

// A member in review mode on two machines (one git identity, so one
// proposal branch) proposes from both: the branch holds every note either
// machine proposed. Each sync used to replace the branch with its own
// machine's main, so the reviewer saw only the last machine's notes, and
// the two machines took turns dropping each other's.
func TestReviewFromTwoMachinesKeepsBothProposals(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	laptop, desktop := newHome(t, "carol-laptop", ""), newHome(t, "carol-desktop", "")
	opts := func(h *home) Options { return h.teamOpts("core", remote, "carol", true) }
	branch := ProposalBranch("carol")
	onBranch := func(ids ...string) {
		t.Helper()
		files := gitIn(t, remote, "ls-tree", "-r", "--name-only", branch)
		for _, id := range ids {
			if !strings.Contains(files, id) {
				t.Fatalf("%s lacks note %s:\n%s", branch, id, files)
			}
		}
	}
	first := laptop.teamNote("core", "carol", "laptop's proposal")
	laptop.syncTeam(opts(laptop))
	// The desktop joins after the laptop proposed.
	second := desktop.teamNote("core", "carol", "desktop's proposal")
	desktop.syncTeam(opts(desktop))
	onBranch(first.ID, second.ID)
	third := laptop.teamNote("core", "carol", "laptop's second proposal")
	laptop.syncTeam(opts(laptop))
	onBranch(first.ID, second.ID, third.ID)
	desktop.syncTeam(opts(desktop))
	onBranch(first.ID, second.ID, third.ID)
	if main := gitIn(t, remote, "branch", "--list", "main"); strings.TrimSpace(main) != "" {
		t.Fatalf("review mode wrote the team's main: %q", main)
	}
}
