package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// A sync that was given its teams before it waited for the lock (the
// SessionStart sync, started as `team remove` ran) does not bring back the
// clone of a team config.json no longer names.
func TestSyncSkipsATeamRemovedMeanwhile(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	h := newHome(t, "alice", "")
	if err := layout.MkdirAll(h.dir); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	f.SetTeam(config.Team{Name: "kept", URL: remote})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	o := h.opts()
	o.Teams = []TeamSpec{{Name: "gone", URL: remote}, {Name: "kept", URL: remote}}
	r, err := Sync(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Teams) != 1 || r.Teams[0].Name != "kept" {
		t.Fatalf("synced teams %+v, want only kept", r.Teams)
	}
	if _, err := os.Stat(filepath.Join(h.dir, "teams", "gone")); err == nil {
		t.Fatal("the removed team's clone came back")
	}
}
