package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// A personal note moved by hand from memory/ into teams/NAME/ keeps its
// personal id: the team's cycle must not publish it (SPEC 18: personal
// notes reach a team only as a shared copy, redacted and screened again
// under a new id). It stays where it was put, uncommitted, and the team's
// result says why; the team's other notes go on.
func TestPersonalNoteMovedIntoTeamIsNotPushed(t *testing.T) {
	needGit(t)
	isolateGit(t)
	personal, teamRemote := newRemote(t), newRemote(t)
	h := newHome(t, "alpha", personal)
	o := h.opts()
	o.Teams = []TeamSpec{{Name: "core", URL: teamRemote}}
	mine := h.write(note.Semantic, "My salary", "personal: never for the team")
	if _, err := Sync(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	st := h.store()
	if err := layout.MkdirAll(filepath.Join(st.TeamDir("core"), "semantic")); err != nil {
		t.Fatal(err)
	}
	shared := note.New(note.Semantic, "Team fact", "for everyone")
	shared.Team, shared.Author = "core", "alpha"
	if _, err := st.Write(context.Background(), shared); err != nil {
		t.Fatal(err)
	}
	st.Close()
	from := filepath.Join(h.dir, "memory", "semantic", mine.ID+".md")
	to := filepath.Join(h.dir, "teams", "core", "semantic", mine.ID+".md")
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
	r, err := Sync(context.Background(), o)
	if err != nil || len(r.Teams) != 1 {
		t.Fatalf("sync: %v %s", err, r.Line())
	}
	objs := gitIn(t, teamRemote, "rev-list", "--all", "--objects")
	if strings.Contains(objs, mine.ID) {
		t.Fatalf("the personal note moved by hand reached the team's remote: %+v", r.Teams[0])
	}
	if !strings.Contains(objs, shared.ID) {
		t.Fatalf("the team's own note was not pushed: %+v", r.Teams[0])
	}
	if !strings.Contains(r.Teams[0].Detail, mine.ID) {
		t.Errorf("the team's detail does not name the withheld note: %q", r.Teams[0].Detail)
	}
	if _, err := os.Stat(to); err != nil {
		t.Errorf("the moved note is gone: %v", err)
	}
}
