package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// team review fetches the team's remote: when that fetch finds the team's
// history rewritten, it says so (and what to do), as status and doctor do,
// instead of only "no proposals waiting".
func TestTeamReviewSaysARewrite(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	home, remote, scratch := filepath.Join(root, "home"), filepath.Join(root, "team.git"), filepath.Join(root, "scratch")
	git := func(dir string, args ...string) {
		t.Helper()
		c := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		c.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(root, "init", "--quiet", "--bare", "--initial-branch=main", remote)
	git(root, "clone", "--quiet", remote, scratch)
	if err := os.MkdirAll(filepath.Join(scratch, "semantic"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(scratch, "semantic", "01J0000000000000000000TEAM.md"), []byte("---\nid: 01J0000000000000000000TEAM\ntype: semantic\ntitle: Deploy target\nauthor: bob\n---\nWe deploy to eu-west-1.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(scratch, "add", "-A")
	git(scratch, "commit", "--quiet", "-m", "first")
	git(scratch, "push", "--quiet", "origin", "HEAD:main")
	cmd := func(args ...string) (string, string, error) {
		var out, errb bytes.Buffer
		err := run(context.Background(), append(args, "--home", home), strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), err
	}
	if out, stderr, err := cmd("team", "add", "plat", remote); err != nil || !strings.Contains(out, "pulled") {
		t.Fatalf("team add: %v %s %s", err, out, stderr)
	}
	if _, stderr, err := cmd("team", "review", "plat"); err != nil || strings.Contains(stderr, "rewritten") {
		t.Fatalf("team review before any rewrite: %v %q", err, stderr)
	}
	git(scratch, "commit", "--quiet", "--amend", "-m", "purged")
	git(scratch, "push", "--quiet", "--force", "origin", "HEAD:main")
	_, stderr, err := cmd("team", "review", "plat")
	if err != nil || !strings.Contains(stderr, "team plat: the remote's main was rewritten") || !strings.Contains(stderr, "fix: anamnesis sync") {
		t.Fatalf("team review after a rewrite: %v %q", err, stderr)
	}
}
