package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// A team add whose URL reaches no repository is refused and changes
// nothing: no config.json, teams/, team clone or lock file is left in the
// home, a home not made yet is not made, and the message does not speak of
// local notes waiting for a sync (none of this home's notes go to a team).
// A repository that answers but whose first fetch fails (a main naming an
// object it lacks) is taken back whole too, its lock files included.
func TestTeamAddUnreachableChangesNothing(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	home := filepath.Join(root, "home")
	cmd := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		err := run(context.Background(), append(args, "--home", home), strings.NewReader(""), &out, &errb)
		return out.String() + errb.String(), err
	}
	files := func() []string {
		var out []string
		filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
			rel, _ := filepath.Rel(home, p)
			out = append(out, rel)
			return nil
		})
		return out
	}
	add := func(url string) {
		t.Helper()
		before := files()
		_, err := cmd("team", "add", "plat", url)
		if err == nil || !strings.Contains(err.Error(), "not added, nothing was changed") || strings.Contains(err.Error(), "local notes") {
			t.Fatalf("team add of %s: %v", url, err)
		}
		if after := files(); !slices.Equal(before, after) {
			t.Errorf("team add of %s changed the home:\nbefore %q\nafter  %q", url, before, after)
		}
	}
	add(filepath.Join(root, "nosuch.git")) // no home yet
	// Without git nothing can be joined, and the message says so (not
	// that the repository does not answer).
	path := os.Getenv("PATH")
	t.Setenv("PATH", "")
	if _, err := cmd("team", "add", "plat", filepath.Join(root, "nosuch.git")); err == nil || !strings.Contains(err.Error(), "git is not on PATH") {
		t.Fatalf("team add without git: %v", err)
	}
	t.Setenv("PATH", path)
	if out, err := cmd("write", "--type", "semantic", "--title", "Deploy target", "--body", "We deploy to eu-west-1."); err != nil {
		t.Fatalf("write: %v %s", err, out)
	}
	add(filepath.Join(root, "nosuch.git"))
	broken := filepath.Join(root, "broken.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", broken).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(broken, "refs", "heads", "main"), []byte(strings.Repeat("ab", 20)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	add(broken)
}

// A team's repository given as a path relative to where the person stands
// is joined (config.json holds it absolute): the reachability check asked
// the relative path from elsewhere and refused it.
func TestTeamAddRelativePath(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "--quiet", "--bare", filepath.Join(root, "team.git")).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	t.Chdir(root)
	var out, errb bytes.Buffer
	if err := run(context.Background(), []string{"team", "add", "plat", "./team.git", "--home", filepath.Join(root, "home")}, strings.NewReader(""), &out, &errb); err != nil || !strings.Contains(out.String(), "joined team plat") {
		t.Fatalf("team add of a relative path: %v %q %q", err, out.String(), errb.String())
	}
}

// rm of a teammate's note says it leaves the whole team: the next sync
// deletes it from the team's remote, so from every member's store.
func TestRmTeamNoteSaysItLeavesTheTeam(t *testing.T) {
	home := t.TempDir()
	f, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	f.SetTeam(config.Team{Name: "plat", URL: "/srv/plat.git"})
	f.SetTeam(config.Team{Name: "rev", URL: "/srv/rev.git", Review: true})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	for _, team := range []string{"plat", "rev"} {
		if err := layout.MkdirAll(filepath.Join(home, "teams", team)); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, team := range []string{"plat", "", "rev"} {
		n := note.New(note.Semantic, "Deploy target", "We deploy to eu-west-1.")
		n.Team, n.Author = team, "Bob"
		w, err := st.Write(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, w.ID)
	}
	st.Close()
	// In review mode the deletion is a proposal: members lose the note
	// once a reviewer accepts it (team.Deletion).
	for i, want := range []string{"deleted " + ids[0] + " from team plat: every member loses it", "deleted " + ids[1] + "\n",
		"deleted " + ids[2] + " from team rev: the next sync proposes its deletion on proposals/"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"rm", ids[i], "--home", home}, strings.NewReader(""), &out, &out); err != nil || !strings.HasPrefix(out.String(), want) {
			t.Errorf("rm %s: %v %q, want %q", ids[i], err, out.String(), want)
		}
	}
}
