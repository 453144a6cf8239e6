package team_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

// A repository is one team's: joining it again under another name (its URL
// written with a token, a trailing .git or as a file URL) made a second
// clone, every note's id in two files, all of them unreadable, and doctor's
// fix (delete the file) would have deleted the notes for the whole team.
// The personal remote is refused too. Nothing changes when add refuses.
func TestAddRefusesARepositoryAlreadySynced(t *testing.T) {
	home := t.TempDir()
	if err := team.Add(home, config.Team{Name: "platform", URL: "https://git.example.com/acme/platform.git"}); err != nil {
		t.Fatal(err)
	}
	f, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Set("remote", "/srv/git/alice-memory.git"); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	for url, want := range map[string]string{
		"https://git.example.com/acme/platform.git":           "team platform already syncs",
		"https://oauth2:tok3n@git.example.com/acme/platform/": "team platform already syncs",
		"https://git.example.com/acme/platform":               "team platform already syncs",
		"file:///srv/git/alice-memory":                        "your personal remote",
		"/srv/git/alice-memory.git/":                          "your personal remote",
	} {
		err := team.Add(home, config.Team{Name: "second", URL: url})
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "tok3n") {
			t.Errorf("add %s: %v, want %q", url, err, want)
		}
	}
	if f, _ := config.Load(home); len(f.Teams()) != 1 {
		t.Errorf("a refused add changed config.json: %+v", f.Teams())
	}
	if _, err := os.Lstat(filepath.Join(home, "teams", "second")); !os.IsNotExist(err) {
		t.Errorf("a refused add left a directory: %v", err)
	}
	if err := team.Add(home, config.Team{Name: "second", URL: "https://git.example.com/acme/platform-2.git"}); err != nil {
		t.Errorf("another repository: %v", err)
	}
}
