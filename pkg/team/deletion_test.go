package team_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// What deleting a team's note does depends on the member: every member
// loses it; in review mode the deletion is proposed; a member the remote
// refused (read only) deletes it from their machine alone.
func TestDeletionSaysWhatTheTeamLoses(t *testing.T) {
	home := t.TempDir()
	cfg := config.Config{Home: home, Author: "Carol", Teams: []config.Team{{Name: "plat", URL: "/srv/plat.git"}, {Name: "rev", URL: "/srv/rev.git", Review: true}}}
	ctx := context.Background()
	if got := team.Deletion(ctx, cfg, "plat"); !strings.HasPrefix(got, "every member loses it") {
		t.Errorf("plat: %q", got)
	}
	if got := team.Deletion(ctx, cfg, "rev"); !strings.Contains(got, "proposes its deletion on proposals/carol") {
		t.Errorf("rev: %q", got)
	}
	last := gitsync.LastSync{Result: gitsync.Result{Teams: []gitsync.TeamResult{{Name: "plat", ReadOnly: true}}}}
	data, _ := json.Marshal(last)
	p := layout.Home(home).Logs("last-sync.json")
	if err := layout.MkdirAll(filepath.Dir(p)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := team.Deletion(ctx, cfg, "plat"); !strings.Contains(got, "the other members keep it") {
		t.Errorf("plat, read only: %q", got)
	}
}
