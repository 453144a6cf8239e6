package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestNormalizeRemote(t *testing.T) {
	for in, want := range map[string]string{
		"git@github.com:oscardvs/anamnesis.git":        "github.com/oscardvs/anamnesis",
		"https://github.com/oscardvs/anamnesis":        "github.com/oscardvs/anamnesis",
		"https://github.com/Oscardvs/Anamnesis.git/":   "github.com/oscardvs/anamnesis.git",
		"ssh://git@github.com/acme/quotes-api.git":     "github.com/acme/quotes-api",
		"git://example.org/x/y.git":                    "example.org/x/y",
		"https://user:tok@gitlab.com/g/sub/p.git":      "gitlab.com/g/sub/p",
		"git@github.com:acme/quotes-api.git":           "github.com/acme/quotes-api",
		"  https://github.com/acme/quotes-api.git  ":   "github.com/acme/quotes-api",
		"/srv/git/memory.git":                          "/srv/git/memory",
		"you@host.tailnet.ts.net:anamnesis-memory.git": "host.tailnet.ts.net/anamnesis-memory",
		// A query or fragment names no repository (and often carries a
		// token): the same project whatever it holds.
		"https://gitlab.com/g/p.git?private_token=glpat-Zx8kQ2mNpL4vR7tYw9ab": "gitlab.com/g/p",
		"https://gitlab.com/g/p?private_token=rotated":                        "gitlab.com/g/p",
		"https://github.com/acme/q.git#main":                                  "github.com/acme/q",
		"git@host.example:team/odd?name.git":                                  "host.example/team/odd?name",
	} {
		if got := NormalizeRemote(in); got != want {
			t.Errorf("NormalizeRemote(%q) = %q, want %q", in, got, want)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestResolve(t *testing.T) {
	home := t.TempDir()
	// origin remote wins over the directory name, from any subdirectory.
	repo := filepath.Join(home, "src", "Quotes-API")
	os.MkdirAll(filepath.Join(repo, "pkg", "deep"), 0o755)
	git(t, repo, "init", "-q")
	git(t, repo, "remote", "add", "origin", "git@github.com:acme/quotes-api.git")
	if got := Resolve(filepath.Join(repo, "pkg", "deep"), home, nil).Key; got != "github.com/acme/quotes-api" {
		t.Errorf("remote: %q", got)
	}
	// No origin: the repository root's name, lowercased.
	bare := filepath.Join(home, "src", "NoRemote")
	os.MkdirAll(filepath.Join(bare, "sub"), 0o755)
	git(t, bare, "init", "-q")
	if got := Resolve(filepath.Join(bare, "sub"), home, nil).Key; got != "noremote" {
		t.Errorf("repo root: %q", got)
	}
	// A worktree's .git file points at the main repository's config.
	wt := filepath.Join(home, "wt")
	git(t, repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x")
	git(t, repo, "worktree", "add", "-q", wt)
	if got := Resolve(wt, home, nil).Key; got != "github.com/acme/quotes-api" {
		t.Errorf("worktree: %q", got)
	}
	// Outside git: cwd basename.
	plain := filepath.Join(home, "Notes Dir")
	os.MkdirAll(plain, 0o755)
	if got := Resolve(plain, home, nil).Key; got != "notes dir" {
		t.Errorf("basename: %q", got)
	}
	// A marker overrides everything below it, but one at $HOME is ignored.
	os.MkdirAll(filepath.Join(repo, ".anamnesis"), 0o755)
	os.WriteFile(filepath.Join(repo, ".anamnesis", "project"), []byte("\n  my-key  \nignored\n"), 0o644)
	if got := Resolve(filepath.Join(repo, "pkg"), home, nil).Key; got != "my-key" {
		t.Errorf("marker: %q", got)
	}
	os.MkdirAll(filepath.Join(home, ".anamnesis"), 0o755)
	os.WriteFile(filepath.Join(home, ".anamnesis", "project"), []byte("hijack\n"), 0o644)
	if got := Resolve(plain, home, nil).Key; got != "notes dir" {
		t.Errorf("marker at $HOME used: %q", got)
	}
}

// A directory reached through a symbolic link of another name is its
// target's project, as the hooks (which get the physical path) see it:
// a repository without an origin and a plain directory alike.
func TestFallbackReadsThePhysicalPath(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "quotes-api")
	plain := filepath.Join(base, "Scratch")
	for _, d := range []string{repo, plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "init", "-q")
	for target, want := range map[string]string{repo: "quotes-api", plain: "scratch"} {
		link := filepath.Join(base, "link-to-"+filepath.Base(target))
		if err := os.Symlink(target, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		for _, dir := range []string{target, link} {
			if got := Resolve(dir, base, nil).Key; got != want {
				t.Errorf("Resolve(%s) = %q, want %q", dir, got, want)
			}
		}
	}
}
