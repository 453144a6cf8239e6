package team_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// A read-only member who leaves with notes of their own is told that the
// remote refuses them, not to sync first: a sync never publishes them, so
// that advice sent the member round in a loop (sync, remove, the same
// refusal).
func TestRemoveTellsAReadOnlyMemberWhy(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	root := t.TempDir()
	remote := filepath.Join(root, "team.git")
	git(t, root, "init", "--quiet", "--bare", "--initial-branch=main", remote)
	if err := os.WriteFile(filepath.Join(remote, "hooks", "pre-receive"), []byte("#!/bin/sh\necho 'read access only' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	m := &member{name: "carol", machine: "carol-laptop", home: filepath.Join(root, "carol", ".anamnesis"),
		remote: filepath.Join(root, "carol-personal.git"), gitconfig: filepath.Join(root, "carol.gitconfig")}
	git(t, root, "init", "--quiet", "--bare", "--initial-branch=main", m.remote)
	if err := os.WriteFile(m.gitconfig, []byte("[user]\n\tname = Carol Reader\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := team.Add(m.home, config.Team{Name: "platform", URL: remote}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, m.home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	m.st = st
	m.writeTeam(t, "Carol's runbook", "Restart the quotes worker with systemctl restart quotes.", "acme/app")
	for range 2 {
		if r := m.sync(t); !r.Teams[0].ReadOnly {
			t.Fatalf("the refused push was not seen as read-only: %+v", r.Teams[0])
		}
	}
	err = team.Remove(ctx, st, "platform", false)
	if err == nil {
		t.Fatal("left the team with an unpublished note and no --force")
	}
	if msg := err.Error(); strings.Contains(msg, "sync first") || !strings.Contains(msg, "--force") || !strings.Contains(msg, "refuses") {
		t.Errorf("a read-only member is told: %s", msg)
	}
	if n := m.find(t, "Carol's runbook"); len(n) != 1 || n[0].Team != "platform" {
		t.Fatalf("the refused remove changed the notes: %+v", n)
	}
}
