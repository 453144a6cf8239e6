package gitsync

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func needGit(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
}

// isolateGit keeps the developer's git config out of the tests, and makes
// sure the code under test neutralises hostile settings itself: the global
// config the tests install turns on everything that would break a sync.
func isolateGit(t testing.TB) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "gitconfig")
	hooks := filepath.Join(dir, "hooks")
	os.MkdirAll(hooks, 0o755)
	for _, h := range []string{"pre-commit", "commit-msg", "pre-push", "post-merge"} {
		os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\necho hook ran >&2\nexit 1\n"), 0o755)
	}
	os.WriteFile(cfg, []byte(`[commit]
	gpgsign = true
[user]
	signingkey = NOPE
[core]
	hooksPath = `+hooks+`
	autocrlf = true
[init]
	defaultBranch = trunk
[pull]
	rebase = true
[merge]
	ff = only
`), 0o644)
	t.Setenv("GIT_CONFIG_GLOBAL", cfg)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_DIR", filepath.Join(dir, "not-the-repo")) // an inherited GIT_DIR must not redirect a sync
}

// gitIn runs plain git (the test's, not the package's runner) in dir.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := gitTry(dir, args...)
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return out
}

// gitTry is gitIn for commands expected to fail.
func gitTry(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false",
		"-c", "user.name=test", "-c", "user.email=test@test", "-c", "merge.ff=true", "-c", "core.autocrlf=false"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_DIR=")
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "GIT_DIR=") {
			cmd.Env[i] = "GIT_NO_SUCH_VAR="
		}
	}
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// newRemote makes an empty bare repository whose HEAD names main.
func newRemote(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "remote.git")
	gitIn(t, ".", "init", "--quiet", "--bare", dir)
	gitIn(t, dir, "symbolic-ref", "HEAD", "refs/heads/main")
	return dir
}

type home struct {
	t       testing.TB
	dir     string
	machine string
	remote  string
}

func newHome(t testing.TB, machine, remote string) *home {
	return &home{t: t, dir: filepath.Join(t.TempDir(), machine), machine: machine, remote: remote}
}

func (h *home) store() *store.Store {
	h.t.Helper()
	st, err := store.Open(context.Background(), h.dir)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { st.Close() })
	return st
}

func (h *home) opts() Options {
	return Options{Home: h.dir, MachineID: h.machine, Remote: h.remote, Timeout: 30 * time.Second, LockWait: 10 * time.Second}
}

func (h *home) sync() Result {
	h.t.Helper()
	r, err := Sync(context.Background(), h.opts())
	if err != nil {
		h.t.Fatalf("%s: sync: %v (%s)", h.machine, err, r.Line())
	}
	return r
}

// write creates a note with the given title and body.
func (h *home) write(typ, title, body string) *note.Note {
	h.t.Helper()
	st := h.store()
	defer st.Close()
	n := note.New(typ, title, body)
	n.MachineID = h.machine
	w, err := st.Write(context.Background(), n)
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

// edit rewrites a note's body with updated_at = at (zero: now).
func (h *home) edit(id, body string, at time.Time) *note.Note {
	h.t.Helper()
	st := h.store()
	defer st.Close()
	n, err := st.Get(context.Background(), id)
	if err != nil {
		h.t.Fatalf("%s: get %s: %v", h.machine, id, err)
	}
	n.Body = body
	n.MachineID = h.machine
	if at.IsZero() {
		at = time.Now()
	}
	n.UpdatedAt = note.FormatTime(at)
	if err := st.Put(context.Background(), n); err != nil {
		h.t.Fatal(err)
	}
	return n
}

func (h *home) get(id string) *note.Note {
	h.t.Helper()
	st := h.store()
	defer st.Close()
	n, err := st.Get(context.Background(), id)
	if err != nil {
		h.t.Fatalf("%s: get %s: %v", h.machine, id, err)
	}
	return n
}

// files maps every note file under memory/ (relative path) to its bytes.
func (h *home) files() map[string]string {
	h.t.Helper()
	out := map[string]string{}
	mem := filepath.Join(h.dir, "memory")
	filepath.WalkDir(mem, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(mem, p)
			data, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	return out
}

// notes parses every note under memory/.
func (h *home) notes() map[string]*note.Note {
	h.t.Helper()
	out := map[string]*note.Note{}
	for p, data := range h.files() {
		n, err := note.Parse([]byte(data))
		if err != nil {
			h.t.Fatalf("%s: %s does not parse: %v", h.machine, p, err)
		}
		if _, dup := out[n.ID]; dup {
			h.t.Fatalf("%s: id %s is in two files", h.machine, n.ID)
		}
		out[n.ID] = n
	}
	return out
}

// assertClean fails if the repository is mid-merge or mid-rebase, or has
// anything uncommitted.
func (h *home) assertClean() {
	h.t.Helper()
	gd := filepath.Join(h.dir, "memory", ".git")
	for _, f := range []string{"MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD"} {
		if _, err := os.Stat(filepath.Join(gd, f)); err == nil {
			h.t.Errorf("%s: repository left with %s", h.machine, f)
		}
	}
	if out := gitIn(h.t, filepath.Join(h.dir, "memory"), "status", "--porcelain"); out != "" {
		h.t.Errorf("%s: uncommitted changes after sync:\n%s", h.machine, out)
	}
}

func (h *home) head() string {
	return gitIn(h.t, filepath.Join(h.dir, "memory"), "rev-parse", "HEAD")
}

// teamNote writes a note of team into h's store, by author.
func (h *home) teamNote(team, author, title string) *note.Note {
	h.t.Helper()
	st := h.store()
	defer st.Close()
	if err := layout.MkdirAll(st.TeamDir(team)); err != nil {
		h.t.Fatal(err)
	}
	n := note.New(note.Semantic, title, "body of "+title)
	n.Team, n.Author = team, author
	w, err := st.Write(context.Background(), n)
	if err != nil {
		h.t.Fatal(err)
	}
	return w
}

// teamOpts syncs h with team only (no personal remote), as author.
func (h *home) teamOpts(team, remote, author string, review bool) Options {
	o := h.opts()
	o.Remote, o.Author = "", author
	o.Teams = []TeamSpec{{Name: team, URL: remote, Review: review}}
	return o
}

// syncTeam syncs h with o and fails unless its one team synced cleanly.
func (h *home) syncTeam(o Options) {
	h.t.Helper()
	if r, err := Sync(context.Background(), o); err != nil || len(r.Teams) != 1 || r.Teams[0].Error != "" {
		h.t.Fatalf("%s: sync %v %+v", h.machine, err, r.Teams)
	}
}
