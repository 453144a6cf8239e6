package inject_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// TestTeamNotesWithinAQuarter: a project's team notes come after its own,
// attributed (team NAME, by AUTHOR), and take at most a quarter of the
// budget while personal notes are left out; with few personal notes they
// use the room those leave.
func TestTeamNotesWithinAQuarter(t *testing.T) {
	ctx := context.Background()
	for _, personal := range []int{40, 1} {
		t.Run(fmt.Sprint(personal, " personal"), func(t *testing.T) {
			home := t.TempDir()
			f, _ := config.Load(home)
			f.SetTeam(config.Team{Name: "platform", URL: "/nowhere.git"})
			if err := f.Save(); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(home, "teams", "platform"), 0o700); err != nil {
				t.Fatal(err)
			}
			st, err := store.Open(ctx, home)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			body := strings.Repeat("A line of the note that says something useful. ", 8)
			for i := range personal {
				n := note.New(note.Semantic, fmt.Sprintf("Personal note %d", i), body)
				n.Project = "acme/app"
				if _, err := st.Write(ctx, n); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 6 {
				n := note.New(note.Procedural, fmt.Sprintf("Team note %d", i), body)
				n.Project, n.Team, n.Author = "acme/app", "platform", "Bob Builder"
				if _, err := st.Write(ctx, n); err != nil {
					t.Fatal(err)
				}
			}
			const budget = 4000
			r, err := inject.Block(ctx, st, "acme/app", 40, budget, nil)
			if err != nil {
				t.Fatal(err)
			}
			if w := hook.Width(r.Block); w > budget {
				t.Fatalf("block is %d characters, over %d", w, budget)
			}
			i := strings.Index(r.Block, "## [procedural] Team note")
			if i < 0 || !strings.Contains(r.Block, "(team platform, by Bob Builder)") {
				t.Fatalf("no attributed team note:\n%s", r.Block)
			}
			if strings.Contains(r.Block[i:], "Personal note") {
				t.Fatalf("a personal note after the team's:\n%s", r.Block)
			}
			team := hook.Width(r.Block[i:])
			switch personal {
			case 40:
				if team > budget/4 {
					t.Fatalf("team notes take %d of %d while personal notes are left out", team, budget)
				}
			case 1:
				if team <= budget/4 {
					t.Fatalf("team notes take only %d with room left:\n%s", team, r.Block)
				}
			}
		})
	}
}

// A note this person shared with a team is in the team's store too, with
// the same title and body (team.Share): the block showed it twice, once as
// theirs and once as the team's, in every session. So did a note copied
// into two teams. The team's copy of what is shown already is left out;
// a team note saying something else is kept.
func TestSharedNoteIsShownOnce(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	f, _ := config.Load(home)
	f.SetTeam(config.Team{Name: "platform", URL: "/nowhere.git"})
	f.SetTeam(config.Team{Name: "infra", URL: "/elsewhere.git"})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	for _, team := range []string{"platform", "infra"} {
		if err := os.MkdirAll(filepath.Join(home, "teams", team), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	write := func(title, body, team string) {
		t.Helper()
		n := note.New(note.Semantic, title, body)
		n.Project, n.Team = "acme/app", team
		if team != "" {
			n.Author = "Alice Archer"
		}
		if _, err := st.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	write("Deploy target", "We deploy to eu-west-1 through argo.", "")
	write("Deploy target", "We deploy to eu-west-1 through argo.", "platform")
	write("Staging database", "Staging runs Postgres 16 on db-stg-2.", "platform")
	write("Staging database", "Staging runs Postgres 16 on db-stg-2.", "infra")
	r, err := inject.Block(ctx, st, "acme/app", 10, 8000, nil)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]int{"We deploy to eu-west-1 through argo.": 1, "Staging runs Postgres 16 on db-stg-2.": 1} {
		if n := strings.Count(r.Block, text); n != want {
			t.Errorf("%q is in the block %d times, want %d:\n%s", text, n, want, r.Block)
		}
	}
	if !strings.Contains(r.Block, "## [semantic] Deploy target\n") || !strings.Contains(r.Block, "Staging database (team ") {
		t.Errorf("the personal note or the team's own note is missing:\n%s", r.Block)
	}
	if len(r.IDs) != 2 {
		t.Errorf("shown ids %v, want 2", r.IDs)
	}
}
