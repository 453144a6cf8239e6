package recall

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// teamStore is a new home that joined teams (their stores empty), opened.
func teamStore(t *testing.T, teams ...config.Team) *store.Store {
	t.Helper()
	home := t.TempDir()
	f, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range teams {
		f.SetTeam(c)
		if err := layout.MkdirAll(filepath.Join(home, "teams", c.Name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestTeamGlobsInRecall: a team's --projects globs decide where its global
// notes are recalled, as they decide where inject shows them: team acme
// (github.com/acme/*) has its global note recalled in an acme project and
// not in another; team open (no globs) everywhere; a team's note written
// for a project is recalled in that project whatever the globs.
func TestTeamGlobsInRecall(t *testing.T) {
	ctx := context.Background()
	st := teamStore(t, config.Team{Name: "acme", URL: "/srv/acme.git", Projects: []string{"github.com/acme/*"}},
		config.Team{Name: "open", URL: "/srv/open.git"})
	write := func(team, project, title, body string) string {
		n := note.New(note.Semantic, title, body)
		n.Project, n.Team, n.Author, n.MachineID = project, team, "Bob", "m"
		w, err := st.Write(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return w.ID
	}
	acmeGlobal := write("acme", note.Global, "Zeppelin deploy freeze", "No zeppelin deploys on fridays; the freeze covers every service.")
	openGlobal := write("open", note.Global, "Zeppelin changelog style", "Zeppelin changelogs list breaking changes first.")
	acmeOther := write("acme", "github.com/other/x", "Zeppelin mirror for other", "The other project mirrors zeppelin builds nightly.")
	for i := range 30 { // enough notes that the words are informative
		write("", "github.com/acme/api", "filler note number", "ordinary words about caching and queues "+string(rune('a'+i%26)))
	}
	found := func(query, project, id string) bool {
		t.Helper()
		cs, err := Find(ctx, st, query, project, DefaultFloor, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if c.Note.ID == id {
				return true
			}
		}
		return false
	}
	const freeze, changelog, mirror = "zeppelin deploy freeze fridays", "zeppelin changelogs breaking changes", "zeppelin mirror nightly builds"
	if !found(freeze, "github.com/acme/api", acmeGlobal) || !found(changelog, "github.com/acme/api", openGlobal) {
		t.Error("in an acme project, acme's and open's global notes are not both recalled")
	}
	if found(freeze, "github.com/other/x", acmeGlobal) {
		t.Error("acme's global note is recalled in a project its globs do not match")
	}
	if !found(changelog, "github.com/other/x", openGlobal) || !found(mirror, "github.com/other/x", acmeOther) {
		t.Error("in github.com/other/x, open's global note or acme's note for that project is not recalled")
	}
}

// A note this person shared with a team is in the team's store too, title
// and body alike: recall gave both, one of its few places spent on the
// same text. It gives the person's own once.
func TestSharedNoteRecalledOnce(t *testing.T) {
	ctx := context.Background()
	st := teamStore(t, config.Team{Name: "open", URL: "/srv/open.git"})
	write := func(team, title, body string) string {
		n := note.New(note.Semantic, title, body)
		n.Project, n.Team, n.MachineID = "github.com/acme/api", team, "m"
		if team != "" {
			n.Author = "Alice"
		}
		w, err := st.Write(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return w.ID
	}
	// The team's copy first: it is the newer, and ties in rank go to it.
	mine := write("", "Zeppelin deploy freeze", "No zeppelin deploys on fridays; the freeze covers every service.")
	write("open", "Zeppelin deploy freeze", "No zeppelin deploys on fridays; the freeze covers every service.")
	other := write("open", "Zeppelin changelog style", "Zeppelin changelogs list breaking changes first.")
	for i := range 30 { // enough notes that the words are informative
		write("", "filler note number", "ordinary words about caching and queues "+string(rune('a'+i%26)))
	}
	cs, err := Find(ctx, st, "zeppelin deploys freeze changelogs", "github.com/acme/api", DefaultFloor, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cs {
		ids = append(ids, c.Note.ID)
	}
	if len(ids) != 2 || ids[0] != mine && ids[1] != mine || ids[0] != other && ids[1] != other {
		t.Errorf("recalled %v, want %s (the person's own) and %s once each", ids, mine, other)
	}
	// The person's note already in the session's context (the block
	// showed it, and left the team's copy out as a repeat): the copy is
	// not recalled in its place.
	cs, err = Find(ctx, st, "zeppelin deploys freeze changelogs", "github.com/acme/api", DefaultFloor, func(n *note.Note) bool { return n.ID == mine })
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Note.ID != other {
		var got []string
		for _, c := range cs {
			got = append(got, c.Note.ID+" "+c.Note.Title)
		}
		t.Errorf("with %s in context, recalled %v, want only %s", mine, got, other)
	}
}
