package team_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// Leaving a team waits for a running sync of the home (which may be
// pushing, merging or cloning that team) and, while one runs, changes
// nothing, even with --force.
func TestRemoveWaitsForARunningSync(t *testing.T) {
	home := t.TempDir()
	if err := team.Add(home, config.Team{Name: "platform", URL: "https://git.example.com/platform.git"}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	release, err := gitsync.Hold(context.Background(), gitsync.LockPath(home), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	err = team.Remove(ctx, st, "platform", true)
	cancel()
	if err == nil {
		t.Fatal("removed the team while a sync held the lock")
	}
	f, _ := config.Load(home)
	if len(f.Teams()) != 1 {
		t.Fatalf("config.json changed: %v", f.Teams())
	}
	if _, err := os.Stat(layout.Home(home).Team("platform")); err != nil {
		t.Fatalf("the team's directory went: %v", err)
	}
	release()
	if err := team.Remove(context.Background(), st, "platform", true); err != nil {
		t.Fatal(err)
	}
}
