package gitsync

import (
	"context"
	"strings"
	"testing"
)

// Each author has a branch of their own: a push replaces it, so names that
// spell alike once lower-cased and stripped to what a branch holds must
// not share one; a name the branch spells exactly keeps it as it is.
func TestProposalBranchPerAuthor(t *testing.T) {
	authors := []string{"王伟", "李娜", "Алиса", "Jo Smith", "jo-smith", "Jo  Smith", "José", "Jos", "", "alice", strings.Repeat("a", 70), strings.Repeat("a", 70) + "b"}
	seen := map[string]string{}
	for _, a := range authors {
		b := ProposalBranch(a)
		if other, ok := seen[b]; ok {
			t.Errorf("%q and %q share %s", a, other, b)
		}
		seen[b] = a
		if !proposalBranch(b) {
			t.Errorf("%q: %s is not a proposal branch", a, b)
		}
	}
	for a, want := range map[string]string{"alice": "proposals/alice", "jo-smith": "proposals/jo-smith", "carl_2": "proposals/carl_2"} {
		if got := ProposalBranch(a); got != want {
			t.Errorf("%q: %s, want %s", a, got, want)
		}
	}
	for _, b := range []string{"main", "proposals/", "proposals/-x", "proposals/A", "proposals/a/b", "proposals/a b", "refs/heads/proposals/a"} {
		if proposalBranch(b) {
			t.Errorf("%q taken for a proposal branch", b)
		}
	}
}

// Two members in review mode whose names keep no letter a branch holds
// both have their proposals on the team's remote, each under review.
func TestReviewMembersWithNonLatinNamesKeepTheirProposals(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	names := map[string]string{"wei": "王伟", "na": "李娜"}
	base := newHome(t, "base", "")
	base.teamNote("core", "base", "seed note")
	base.syncTeam(base.teamOpts("core", remote, "base", false))
	ids := map[string]string{}
	for _, m := range []string{"wei", "na"} {
		h := newHome(t, m, "")
		ids[m] = h.teamNote("core", names[m], "note of "+m).ID
		h.syncTeam(h.teamOpts("core", remote, names[m], true))
	}
	for m, a := range names {
		prop := gitIn(t, remote, "ls-tree", "-r", "--name-only", ProposalBranch(a))
		if !strings.Contains(prop, ids[m]) {
			t.Errorf("%s's note is not on %s:\n%s", a, ProposalBranch(a), prop)
		}
	}
}

// A branch under proposals/ that no member's review mode makes (pushed by
// hand: proposals/-x, proposals/--output=F, proposals/Carol) is not listed
// for review: --accept refuses it, so team review and the dashboard would
// offer a proposal that cannot be accepted.
func TestProposalsListOnlyAcceptableBranches(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	carol, rev := newHome(t, "carol", ""), newHome(t, "rev", "")
	carol.teamNote("core", "carol", "carol's proposal")
	carol.syncTeam(carol.teamOpts("core", remote, "carol", true))
	tip := strings.TrimSpace(gitIn(t, remote, "rev-parse", ProposalBranch("carol")))
	for _, b := range []string{"proposals/-x", "proposals/--output=out", "proposals/Carol", "proposals/a/b"} {
		gitIn(t, remote, "update-ref", "refs/heads/"+b, tip)
	}
	rev.syncTeam(rev.teamOpts("core", remote, "rev", false))
	st := rev.store()
	defer st.Close()
	list, err := Proposals(context.Background(), st, "core")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range list {
		got = append(got, p.Branch)
	}
	if len(got) != 1 || got[0] != ProposalBranch("carol") {
		t.Errorf("proposals listed: %q, want only %s", got, ProposalBranch("carol"))
	}
}
