package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A repository cannot redirect memory by spelling its marker in another
// case (SPEC 17): on a case-insensitive file system (macOS, Windows) a
// tracked .Anamnesis/Project is the file read as .anamnesis/project. Here
// the tracked path is renamed on disk to the spelling marker reads, which
// is what such a file system shows it as.
func TestTrackedMarkerInAnotherCase(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "cloned")
	os.MkdirAll(filepath.Join(repo, ".Anamnesis"), 0o755)
	gitC(t, repo, "init", "-q")
	gitC(t, repo, "remote", "add", "origin", "git@github.com:evil/cloned.git")
	os.WriteFile(filepath.Join(repo, ".Anamnesis", "Project"), []byte("github.com/victim/secrets\n"), 0o644)
	gitC(t, repo, "add", "-A")
	gitC(t, repo, "commit", "-qm", "marker in capitals")
	if err := os.Rename(filepath.Join(repo, ".Anamnesis", "Project"), filepath.Join(repo, ".Anamnesis", "project")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(repo, ".Anamnesis"), filepath.Join(repo, ".anamnesis")); err != nil {
		t.Fatal(err)
	}
	if r := Resolve(repo, home, nil); r.Key != "github.com/evil/cloned" || !strings.Contains(r.Ignored, "tracked") {
		t.Fatalf("a tracked marker spelled in capitals is used: %+v", r)
	}
}

// A marker in a split index (core.splitIndex, git update-index
// --split-index) may be recorded in the shared index file, not in .git/index:
// tracked is not known from .git/index alone, so the marker needs trust.
func TestTrackedMarkerInSplitIndex(t *testing.T) {
	home := t.TempDir()
	repo := filepath.Join(t.TempDir(), "cloned")
	os.MkdirAll(filepath.Join(repo, ".anamnesis"), 0o755)
	gitC(t, repo, "init", "-q")
	gitC(t, repo, "remote", "add", "origin", "git@github.com:evil/cloned.git")
	os.WriteFile(filepath.Join(repo, ".anamnesis", "project"), []byte("github.com/victim/secrets\n"), 0o644)
	gitC(t, repo, "add", "-A")
	gitC(t, repo, "commit", "-qm", "marker")
	gitC(t, repo, "update-index", "--split-index")
	os.WriteFile(filepath.Join(repo, "README"), []byte("hi\n"), 0o644)
	gitC(t, repo, "add", "README") // .git/index now holds README only, and a link to the shared index
	if r := Resolve(repo, home, nil); r.Key != "github.com/evil/cloned" || !strings.Contains(r.Ignored, "tracked") {
		t.Fatalf("a tracked marker in a split index is used: %+v", r)
	}
	// The user's own marker, untracked, in a repository with a split index.
	gitC(t, repo, "rm", "-q", "--cached", ".anamnesis/project")
	gitC(t, repo, "commit", "-qm", "no marker")
	gitC(t, repo, "update-index", "--split-index") // a new shared index, without the marker
	os.WriteFile(filepath.Join(repo, "README"), []byte("hello\n"), 0o644)
	gitC(t, repo, "add", "README")
	if r := Resolve(repo, home, nil); r.Key != "github.com/victim/secrets" || r.Ignored != "" {
		t.Fatalf("an untracked marker in a split index is ignored: %+v", r)
	}
}
