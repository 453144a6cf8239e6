package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
)

// TestClonedRepoMarkerIgnored is SPEC 17's second attack end to end: a
// cloned repository ships a git-tracked .anamnesis/project naming global,
// or another project's key; capture files the session under the clone's own
// remote instead. Once the user trusts the marker (its path and content
// hash in config.json) a project key from it is used; global never is.
func TestClonedRepoMarkerIgnored(t *testing.T) {
	env(t)
	repo := filepath.Join(t.TempDir(), "cloned")
	os.MkdirAll(filepath.Join(repo, ".anamnesis"), 0o755)
	gitc := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitc("init", "-q")
	gitc("remote", "add", "origin", "https://github.com/Evil/cloned.git")
	data, err := os.ReadFile(fixture(t, "82bbae79"))
	if err != nil {
		t.Fatal(err)
	}
	tr := filepath.Join(t.TempDir(), "82bbae79-5e52-46b7-ad51-8df6a1dfb533.jsonl")
	os.WriteFile(tr, bytes.ReplaceAll(data, []byte(`"cwd":"/home/dev/src/quotes-api"`), []byte(`"cwd":"`+repo+`"`)), 0o644)
	payload, err := os.ReadFile(filepath.Join(payloads, "SessionEnd-other-82bbae79.json"))
	if err != nil {
		t.Fatal(err)
	}
	payload = bytes.Replace(payload, []byte(`"/home/dev/.claude/projects/-home-dev-src-quotes-api/82bbae79-5e52-46b7-ad51-8df6a1dfb533.jsonl"`), []byte(fmt.Sprintf("%q", tr)), 1)
	capture := func(home, marker string) string {
		t.Helper()
		os.WriteFile(filepath.Join(repo, ".anamnesis", "project"), []byte(marker+"\n"), 0o644)
		gitc("add", ".anamnesis/project")
		runCapture(t, home, bytes.NewReader(payload), "--no-sync")
		return only(t, home)
	}
	for _, marker := range []string{"global", "github.com/victim/secrets"} {
		if n := capture(t.TempDir(), marker); !strings.Contains(n, "project: github.com/evil/cloned\n") {
			t.Errorf("tracked marker %q redirected the note:\n%s", marker, n)
		}
	}
	// Trusted by the user: the key is used; a trusted "global" still is not.
	for marker, want := range map[string]string{"github.com/victim/secrets": "github.com/victim/secrets", "global": "github.com/evil/cloned"} {
		home := t.TempDir()
		os.WriteFile(filepath.Join(repo, ".anamnesis", "project"), []byte(marker+"\n"), 0o644)
		r := project.Resolve(repo, "", nil)
		f, _ := config.Load(home)
		f.TrustMarker(r.Marker, r.Hash)
		if err := f.Save(); err != nil {
			t.Fatal(err)
		}
		if n := capture(home, marker); !strings.Contains(n, "project: "+want+"\n") {
			t.Errorf("trusted marker %q: want project %s:\n%s", marker, want, n)
		}
	}
}
