package gitsync

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
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
	opts := func(h *home) Options {
		o := h.opts()
		o.Remote = ""
		o.Author = names[h.machine]
		o.Teams = []TeamSpec{{Name: "core", URL: remote, Review: true}}
		return o
	}
	base := newHome(t, "base", "")
	bo := base.opts()
	bo.Remote, bo.Author = "", "base"
	bo.Teams = []TeamSpec{{Name: "core", URL: remote}}
	ids := map[string]string{}
	for _, h := range []*home{base, newHome(t, "wei", ""), newHome(t, "na", "")} {
		st := h.store()
		if err := layout.MkdirAll(st.TeamDir("core")); err != nil {
			t.Fatal(err)
		}
		n := note.New(note.Semantic, "note of "+h.machine, "body of "+h.machine)
		n.Team, n.Author = "core", names[h.machine]
		w, err := st.Write(context.Background(), n)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		ids[h.machine] = w.ID
		o := bo
		if h != base {
			o = opts(h)
		}
		if r, err := Sync(context.Background(), o); err != nil || len(r.Teams) != 1 || r.Teams[0].Error != "" {
			t.Fatalf("%s: sync %v %+v", h.machine, err, r.Teams)
		}
	}
	for m, a := range names {
		prop := gitIn(t, remote, "ls-tree", "-r", "--name-only", ProposalBranch(a))
		if !strings.Contains(prop, ids[m]) {
			t.Errorf("%s's note is not on %s:\n%s", a, ProposalBranch(a), prop)
		}
	}
}
