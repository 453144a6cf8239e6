package team_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// A team left is gone from the last sync's record, which status prints:
// the failing line of a team whose repository is gone (the reason to leave
// it) stayed in every status until the next sync. The other team's stays.
func TestRemoveForgetsTheTeamsLastSync(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(t.TempDir(), "gitconfig"))
	ctx := context.Background()
	home := t.TempDir()
	good := filepath.Join(t.TempDir(), "good.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", good).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	for name, url := range map[string]string{"plat": good, "lost": filepath.Join(t.TempDir(), "gone.git")} {
		if err := team.Add(home, config.Team{Name: name, URL: url}); err != nil {
			t.Fatal(err)
		}
	}
	cfg := config.Resolve(home, func(string) string { return "" })
	if r, _ := gitsync.Sync(ctx, gitsync.Options{Home: home, MachineID: "box", Teams: gitsync.TeamsFrom(cfg.Teams), Author: "box"}); len(r.Teams) != 2 {
		t.Fatalf("sync: %+v", r.Teams)
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := team.Remove(ctx, st, "lost", true); err != nil {
		t.Fatal(err)
	}
	l := gitsync.Last(home)
	if l == nil || len(l.Result.Teams) != 1 || l.Result.Teams[0].Name != "plat" {
		t.Fatalf("the last sync's record after leaving team lost: %+v", l)
	}
}
