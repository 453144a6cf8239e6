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

// A .gitignore a teammate pushed that covers note files ("*.md", a type
// directory) must not keep a member's team notes out of git: they were
// never committed nor pushed (the sync said "up to date"), and team remove
// counted them as nothing unpushed and deleted them without --force.
func TestIgnoredTeamNotesArePushed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	root := t.TempDir()
	remote := filepath.Join(root, "team.git")
	git(t, root, "init", "--quiet", "--bare", "--initial-branch=main", remote)
	// A teammate's commit: a .gitignore that covers every note file.
	work := filepath.Join(root, "teammate")
	git(t, root, "clone", "--quiet", remote, work)
	if err := os.WriteFile(filepath.Join(work, ".gitignore"), []byte("*.md\nsemantic/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, work, "add", ".gitignore")
	git(t, work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "ignore")
	git(t, work, "push", "--quiet", "origin", "HEAD:main")

	m := &member{name: "bob", machine: "bob-laptop", home: filepath.Join(root, "bob", ".anamnesis"),
		remote: filepath.Join(root, "bob-personal.git"), gitconfig: filepath.Join(root, "bob.gitconfig")}
	git(t, root, "init", "--quiet", "--bare", "--initial-branch=main", m.remote)
	if err := os.WriteFile(m.gitconfig, []byte("[user]\n\tname = Bob\n\temail = bob@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := team.Add(m.home, config.Team{Name: "platform", URL: remote}); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, m.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m.st = st
	m.sync(t)
	n := m.writeTeam(t, "Release train leaves Thursdays", "Cut the branch by Wednesday noon.", "global")
	m.sync(t)
	if objs := git(t, remote, "rev-list", "--all", "--objects"); !strings.Contains(objs, n.ID) {
		err := team.Remove(ctx, st, "platform", false)
		t.Fatalf("the team note never reached the team's remote (team remove without --force: %v)", err)
	}
	// A note written since, not yet synced: team remove must refuse.
	n2 := m.writeTeam(t, "Freeze before holidays", "No deploys from Dec 20.", "global")
	if err := team.Remove(ctx, st, "platform", false); err == nil {
		t.Fatal("team remove dropped an unsynced note a .gitignore covers without --force")
	}
	if _, err := os.Stat(filepath.Join(m.home, "teams", "platform", "semantic", n2.ID+".md")); err != nil {
		t.Fatalf("the unsynced note is gone: %v", err)
	}
}
