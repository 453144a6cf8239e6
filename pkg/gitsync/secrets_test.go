package gitsync

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestMaskURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://user:tok3n@github.com/u/notes.git":                           "https://user:***@github.com/u/notes.git",
		"https://ghp_R7xK2mQ9vL4nB8wT1yZ6cF3hJ5sD0gA2eP4u@github.com/u/n.git": "https://[REDACTED:github-token]@github.com/u/n.git",
		"https://x9Yb2Kc4Md6Nf8Ph0Rj2Tl4Vn6Xp8Zr0@gitlab.example/u/n.git":     "https://[REDACTED]@gitlab.example/u/n.git",
		"https://oauth2:glpat-x9Yb2Kc4Md6Nf8Ph0Rj2@gitlab.com/u/n.git":        "https://oauth2:***@gitlab.com/u/n.git",
		"ssh://git@host/srv/notes.git":                                        "ssh://git@host/srv/notes.git",
		"git@github.com:u/notes.git":                                          "git@github.com:u/notes.git",
		"/srv/notes.git":                                                      "/srv/notes.git",
		"https://host/a@b":                                                    "https://host/a@b",
		"https://octocat@github.com/octocat/n.git":                            "https://octocat@github.com/octocat/n.git",
		// A token given as the user, with GitHub's placeholder password
		// (https://TOKEN:x-oauth-basic@github.com, its documented form for
		// OAuth tokens) or none: the user part is the secret.
		"https://3f2a9c1b7d4e8f6a0b5c2d9e1f7a3b8c4d6e0f2a:x-oauth-basic@github.com/u/n.git": "https://***:***@github.com/u/n.git",
		"https://ghp_R7xK2mQ9vL4nB8wT1yZ6cF3hJ5sD0gA2eP4u:X-OAuth-Basic@github.com/u/n.git": "https://***:***@github.com/u/n.git",
		"https://x9Yb2Kc4Md6Nf8Ph0Rj2Tl4Vn6Xp8Zr0:@gitlab.example/u/n.git":                  "https://***:***@gitlab.example/u/n.git",
		// A known token shape as the user beside a password: both masked.
		"https://ghp_R7xK2mQ9vL4nB8wT1yZ6cF3hJ5sD0gA2eP4u:s3cret@github.com/u/n.git": "https://[REDACTED:github-token]:***@github.com/u/n.git",
	} {
		if got := MaskURL(in); got != want {
			t.Errorf("MaskURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// The remote URL (which may carry a token) lands in memory/.git/config:
// after a sync that file is the owner's alone, also when it was 0644 before.
func TestRepoConfigPrivate(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	h := newHome(t, "alpha", remote)
	h.write(note.Semantic, "t", "b")
	h.sync()
	cfg := filepath.Join(h.dir, "memory", ".git", "config")
	check := func(when string) {
		info, err := os.Stat(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: %s has mode %v", when, cfg, info.Mode().Perm())
		}
	}
	check("first sync")
	os.Chmod(cfg, 0o644)
	h.sync()
	check("a sync of a store made before the fix")
}
