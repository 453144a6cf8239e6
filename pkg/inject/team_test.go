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
