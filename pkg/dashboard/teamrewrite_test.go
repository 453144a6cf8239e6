package dashboard

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// A rewrite of a team's remote found by the dashboard's Fetch is pending
// until a sync takes it up: the teams page and the overview say so (they
// said nothing, and status only repeated the last sync's line).
func TestFetchedTeamRewriteIsShown(t *testing.T) {
	f := newTeamFixture(t)
	c := newClient(t, f.fixture, nil)
	want(t, c.get("/"), http.StatusOK) // fills the overview's cached git state
	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", f.remote, scratch)
	gitIn(t, scratch, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "--quiet", "--amend", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", "--force", "origin", "HEAD:main")
	if page := want(t, c.get("/teams"), http.StatusOK); strings.Contains(page, "was rewritten") {
		t.Fatal("the teams page says a rewrite is pending before any fetch")
	}
	if w := c.post("/teams/platform/fetch", c.form(), nil); w.Code != http.StatusSeeOther || !strings.Contains(c.flash(w), "Fetched team platform") {
		t.Fatalf("fetch: %d %q", w.Code, c.flash(w))
	}
	want(t, c.get("/teams"), http.StatusOK, "main was rewritten", "Fix: anamnesis sync")
	want(t, c.get("/"), http.StatusOK, "Team platform", "main was rewritten")
	f.alice.sync(t)
	if page := want(t, c.get("/teams"), http.StatusOK); strings.Contains(page, "was rewritten") {
		t.Fatal("the teams page says a rewrite is pending after the sync that took it up")
	}
}

// A fetch in a terminal (`anamnesis team review`), not the dashboard's own,
// that finds a team's remote rewritten shows on the overview at its next
// load: the cached git state is stamped with the team clones' refs (it
// showed after its 30-second timer).
func TestTerminalFetchOfARewriteShowsAtOnce(t *testing.T) {
	f := newTeamFixture(t)
	c := newClient(t, f.fixture, nil)
	if page := want(t, c.get("/"), http.StatusOK); strings.Contains(page, "was rewritten") {
		t.Fatal("the overview says a rewrite is pending before any")
	}
	scratch := filepath.Join(t.TempDir(), "scratch")
	gitIn(t, ".", "clone", "--quiet", f.remote, scratch)
	gitIn(t, scratch, "-c", "user.name=x", "-c", "user.email=x@x", "commit", "--quiet", "--amend", "-m", "purged")
	gitIn(t, scratch, "push", "--quiet", "--force", "origin", "HEAD:main")
	if err := gitsync.FetchTeam(context.Background(), f.st, "platform", gitsync.DefaultTimeout); err != nil {
		t.Fatal(err)
	}
	want(t, c.get("/"), http.StatusOK, "Team platform", "main was rewritten")
}
