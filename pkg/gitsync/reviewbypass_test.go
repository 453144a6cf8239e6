package gitsync

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A reviewer who is in review mode themselves and accepts a teammate's
// proposal publishes that proposal on main, not their own notes still
// awaiting review: those stay on proposals/<reviewer>.
func TestAcceptingAProposalKeepsOwnProposalsUnderReview(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	write := func(h *home, title string) *note.Note { return h.teamNote("core", h.machine, title) }
	opts := func(h *home) Options { return h.teamOpts("core", remote, h.machine, true) }
	syncT := func(h *home) { h.syncTeam(opts(h)) }
	alice, carl := newHome(t, "alice", ""), newHome(t, "carl", "")
	// main exists on the remote first (someone's earlier note, pushed directly).
	base := newHome(t, "base", "")
	write(base, "seed note")
	bo := opts(base)
	bo.Teams[0].Review = false
	if _, err := Sync(context.Background(), bo); err != nil {
		t.Fatal(err)
	}
	syncT(alice)
	syncT(carl)
	mine := write(alice, "alice's unreviewed note")
	syncT(alice)
	theirs := write(carl, "carl's proposal")
	syncT(carl)
	st := alice.store()
	defer st.Close()
	if err := FetchTeam(context.Background(), st, "core", DefaultTimeout); err != nil {
		t.Fatal(err)
	}
	_, err := AcceptProposal(context.Background(), opts(alice), st, "core", ProposalBranch("carl"))
	if main := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main"); strings.Contains(main, mine.ID) {
		t.Fatalf("accepting carl's proposal put the reviewer's own unreviewed note on main (%v):\n%s", err, main)
	}
	if err == nil || !strings.Contains(err.Error(), "await review") {
		t.Fatalf("accepting with own notes under review: %v", err)
	}
	if prop := gitIn(t, remote, "ls-tree", "-r", "--name-only", ProposalBranch("alice")); !strings.Contains(prop, mine.ID) {
		t.Fatalf("alice's note is not on her proposal branch:\n%s", prop)
	}
	// Once another reviewer accepted hers, she reviews carl's.
	bst := base.store()
	defer bst.Close()
	if err := FetchTeam(context.Background(), bst, "core", DefaultTimeout); err != nil {
		t.Fatal(err)
	}
	if _, err := AcceptProposal(context.Background(), bo, bst, "core", ProposalBranch("alice")); err != nil {
		t.Fatal(err)
	}
	syncT(alice)
	if _, err := AcceptProposal(context.Background(), opts(alice), st, "core", ProposalBranch("carl")); err != nil {
		t.Fatal(err)
	}
	main := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main")
	if !strings.Contains(main, theirs.ID) || !strings.Contains(main, mine.ID) {
		t.Fatalf("main after both proposals were accepted:\n%s", main)
	}
}

// The same before the team has a main (its first notes are proposals): the
// reviewer's own proposed notes are everything on their main. Accepting
// failed with git's "bad revision 'refs/remotes/origin/main...'".
func TestAcceptingBeforeTheTeamHasAMainKeepsOwnProposalsUnderReview(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	opts := func(h *home) Options { return h.teamOpts("core", remote, h.machine, true) }
	alice, carl := newHome(t, "alice", ""), newHome(t, "carl", "")
	carl.teamNote("core", carl.machine, "carl's proposal")
	carl.syncTeam(opts(carl))
	mine := alice.teamNote("core", alice.machine, "alice's unreviewed note")
	alice.syncTeam(opts(alice))
	st := alice.store()
	defer st.Close()
	if err := FetchTeam(context.Background(), st, "core", DefaultTimeout); err != nil {
		t.Fatal(err)
	}
	_, err := AcceptProposal(context.Background(), opts(alice), st, "core", ProposalBranch("carl"))
	if err == nil || !strings.Contains(err.Error(), "await review") {
		t.Fatalf("accepting with own notes under review, before the team has a main: %v", err)
	}
	if refs := gitIn(t, remote, "for-each-ref", "--format=%(refname)"); strings.Contains(refs, "refs/heads/main") {
		t.Fatalf("a main was pushed:\n%s", refs)
	}
	if prop := gitIn(t, remote, "ls-tree", "-r", "--name-only", ProposalBranch("alice")); !strings.Contains(prop, mine.ID) {
		t.Fatalf("alice's note is not on her proposal branch:\n%s", prop)
	}
}
