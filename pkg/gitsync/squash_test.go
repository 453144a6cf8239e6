package gitsync

import (
	"context"
	"path/filepath"
	"testing"
)

// A proposal merged on the git server as one squashed commit (a pull
// request's "squash and merge") is no longer listed for review, though
// its member's next sync pushes the branch again with the commits main
// never got: what it proposes is all on main.
func TestSquashMergedProposalIsNotListed(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	opts := func(h *home, review bool) Options { return h.teamOpts("core", remote, h.machine, review) }
	write := func(h *home, title string) { h.teamNote("core", h.machine, title) }
	syncT := func(h *home, review bool) { h.syncTeam(opts(h, review)) }
	base, alice := newHome(t, "base", ""), newHome(t, "alice", "")
	write(base, "seed note")
	syncT(base, false)
	syncT(alice, true)
	write(alice, "alice's proposal")
	syncT(alice, true)
	list := func() []ProposalInfo {
		t.Helper()
		st := base.store()
		defer st.Close()
		if err := FetchTeam(context.Background(), st, "core", DefaultTimeout); err != nil {
			t.Fatal(err)
		}
		p, err := Proposals(context.Background(), st, "core")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := list(); len(p) != 1 {
		t.Fatalf("proposals before the merge: %+v", p)
	}
	// The server's squash merge, as a clone of the remote does it.
	work := filepath.Join(t.TempDir(), "work")
	gitIn(t, ".", "clone", "--quiet", remote, work)
	gitIn(t, work, "merge", "--squash", "origin/"+ProposalBranch("alice"))
	gitIn(t, work, "commit", "--quiet", "-m", "Squash alice's proposal")
	gitIn(t, work, "push", "--quiet", "origin", "HEAD:main")
	syncT(alice, true)
	if p := list(); len(p) != 0 {
		t.Fatalf("a squash-merged proposal is listed again: %+v", p)
	}
	// Her own proposal merged, alice, a reviewer in review mode herself,
	// may accept carl's: none of her notes waits for review any more.
	carl := newHome(t, "carl", "")
	syncT(carl, true)
	write(carl, "carl's proposal")
	syncT(carl, true)
	ast := alice.store()
	if err := FetchTeam(context.Background(), ast, "core", DefaultTimeout); err != nil {
		t.Fatal(err)
	}
	_, err := AcceptProposal(context.Background(), opts(alice, true), ast, "core", ProposalBranch("carl"))
	ast.Close()
	if err != nil {
		t.Fatalf("accepting carl's proposal after alice's was squash-merged: %v", err)
	}
	// A new note on the same branch is listed, alone.
	write(alice, "alice's second proposal")
	syncT(alice, true)
	if p := list(); len(p) != 1 || len(p[0].Files) != 1 {
		t.Fatalf("proposals after a new note: %+v", p)
	}
}
