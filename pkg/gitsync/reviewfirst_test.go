package gitsync

import (
	"context"
	"strings"
	"testing"
)

// A team whose first notes are proposals (a new, empty repository whose
// writers are all in review mode): the reviewer sees what each proposal
// adds and can accept it, which starts the team's main. Before, team review
// listed no files and --accept failed with git's "ambiguous argument
// 'refs/heads/main..refs/remotes/origin/proposals/carol'".
func TestAcceptTheFirstProposalOfANewTeam(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	carol, rev := newHome(t, "carol", ""), newHome(t, "rev", "")
	proposed := carol.teamNote("core", "carol", "carol's first proposal")
	carol.syncTeam(carol.teamOpts("core", remote, "carol", true))
	ro := rev.teamOpts("core", remote, "rev", false)
	rev.syncTeam(ro)
	st := rev.store()
	defer st.Close()
	list, err := Proposals(context.Background(), st, "core")
	if err != nil || len(list) != 1 || list[0].Branch != ProposalBranch("carol") {
		t.Fatalf("proposals %+v, %v", list, err)
	}
	if files := strings.Join(list[0].Files, "\n"); !strings.Contains(files, "A semantic/"+proposed.ID+".md") {
		t.Errorf("the proposal's files: %q", files)
	}
	if _, err := AcceptProposal(context.Background(), ro, st, "core", ProposalBranch("carol")); err != nil {
		t.Fatalf("accepting the first proposal: %v", err)
	}
	if main := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(main, proposed.ID) {
		t.Fatalf("main after the accept:\n%s", main)
	}
	if n, err := st.Get(context.Background(), proposed.ID); err != nil || n.Team != "core" {
		t.Fatalf("the reviewer's index: %v %+v", err, n)
	}
	carol.syncTeam(carol.teamOpts("core", remote, "carol", true))
	if list, err := Proposals(context.Background(), st, "core"); err != nil || len(list) != 0 {
		t.Fatalf("after the accept, proposals %+v, %v", list, err)
	}
}
