package setup

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func runDoctorJSON(t *testing.T, e *env) ([]Check, error) {
	t.Helper()
	var out bytes.Buffer
	err := Doctor(context.Background(), DoctorOptions{Paths: Paths{BinDir: e.binDir}, JSON: true}, &out, &out)
	var checks []Check
	if jerr := json.Unmarshal(out.Bytes(), &checks); jerr != nil {
		t.Fatalf("doctor --json output: %v\n%s", jerr, out.String())
	}
	return checks, err
}

func failures(checks []Check) []Check {
	var f []Check
	for _, c := range checks {
		if c.Status != statusOK {
			f = append(f, c)
		}
	}
	return f
}

func TestDoctorHealthyThenBroken(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	e := newEnv(t, true)
	e.writeSettings(readTestdata(t, "rich-settings.json"))
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitRun(t, t.TempDir(), "init", "-q", "--bare", remote)
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box", "--remote", remote); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// What a first sync leaves: the notes tree as a git repo on main.
	ctx := context.Background()
	st, err := store.Open(ctx, e.defaultHome())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(ctx, note.New("semantic", "Deploys go through make release", "Never push tags by hand.")); err != nil {
		t.Fatal(err)
	}
	st.Close()
	mem := filepath.Join(e.defaultHome(), "memory")
	gitRun(t, mem, "init", "-q", "-b", "main")
	gitRun(t, mem, "add", "-A")
	gitRun(t, mem, "commit", "-q", "-m", "first")

	checks, err := runDoctorJSON(t, e)
	if err != nil || len(failures(checks)) > 0 {
		t.Fatalf("healthy install: err=%v, not ok: %+v", err, failures(checks))
	}
	names := map[string]bool{}
	for _, c := range checks {
		names[c.Name] = true
	}
	for _, n := range []string{"binaries", "hooks", "mcp", "config", "index", "git", "remote"} {
		if !names[n] {
			t.Errorf("no %q check in %+v", n, checks)
		}
	}

	// Break four things.
	settings := e.read(e.settingsPath())
	d, _ := parseSettings(settings)
	hi := d.top.index("hooks")
	hooks, _ := parseObject(d.top[hi].val)
	hooks = append(hooks[:2:2], hooks[3:]...) // PreToolUse, SessionStart, [SessionEnd], Stop, PreCompact
	d.top[hi].val = hooks.compact()
	e.writeSettings(d.bytes())
	if out, err := exec.Command("claude", "mcp", "remove", "--scope", "user", "anamnesis").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	bad := filepath.Join(mem, "semantic", "01HZZZZZZZZZZZZZZZZZZZZZZZ.md")
	if err := os.WriteFile(bad, []byte("---\ntitle: [unclosed\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(e.defaultHome(), "config.json")
	unreachable := filepath.Join(t.TempDir(), "gone", "remote.git")
	if err := os.WriteFile(cfg, []byte(`{"machine_id": "box", "remote": "`+unreachable+`"}`), 0o600); err != nil {
		t.Fatal(err)
	}

	checks, err = runDoctorJSON(t, e)
	if !errors.Is(err, ErrChecksFailed) {
		t.Fatalf("doctor err = %v", err)
	}
	want := []struct{ name, detail, fix string }{
		{"hooks", "SessionEnd capture hook missing", "anamnesis init"},
		{"mcp", `"anamnesis" is not registered`, "claude mcp add --scope user anamnesis -- '" + bin.Path(e.binDir, BinMCP) + "'"},
		{"notes", bad + " cannot be read as a note", "correct the file (or delete it), then `anamnesis reindex`"},
		{"remote", unreachable + " is not reachable", "there is no repository at that path on the host"},
	}
	for _, w := range want {
		found := false
		for _, c := range checks {
			if c.Name == w.name && c.Status == statusFail && strings.Contains(c.Detail, w.detail) && strings.Contains(c.Fix, w.fix) {
				found = true
			}
		}
		if !found {
			t.Errorf("no FAIL %s %q with fix %q in:\n%+v", w.name, w.detail, w.fix, checks)
		}
	}
	if n := len(failures(checks)); n != len(want) {
		t.Errorf("%d problems reported, want %d: %+v", n, len(want), failures(checks))
	}

	// The text form: one line per check, failures with their fix.
	var out bytes.Buffer
	if err := Doctor(ctx, DoctorOptions{Paths: Paths{BinDir: e.binDir}}, &out, &out); err == nil {
		t.Fatal("doctor exited 0 on a broken install")
	}
	if !strings.Contains(out.String(), "FAIL mcp: \"anamnesis\" is not registered with Claude Code; fix: claude mcp add") {
		t.Errorf("text report:\n%s", out.String())
	}
}

func TestDoctorMalformedConfigAndSettings(t *testing.T) {
	e := newEnv(t, false)
	os.MkdirAll(e.defaultHome(), 0o700)
	os.WriteFile(filepath.Join(e.defaultHome(), "config.json"), []byte("{nope"), 0o600)
	e.writeSettings([]byte("{]"))
	checks, err := runDoctorJSON(t, e)
	if !errors.Is(err, ErrChecksFailed) {
		t.Fatal(err)
	}
	var got []string
	for _, c := range failures(checks) {
		got = append(got, c.Name+": "+c.Detail)
	}
	joined := strings.Join(got, "\n")
	for _, s := range []string{"config: " + filepath.Join(e.defaultHome(), "config.json") + " is not valid JSON", "hooks: " + e.settingsPath() + ": not valid JSON", "mcp: \"anamnesis\" is not registered", "git: "} {
		if !strings.Contains(joined, s) {
			t.Errorf("missing %q in\n%s", s, joined)
		}
	}
}

// doctor reads the notes through the store, which never follows a symlink:
// a note file linked to /dev/zero once made doctor read until memory ran out.
func TestDoctorDoesNotFollowSymlinkedNote(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	e := newEnv(t, true)
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box", "--local-only"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	dir := filepath.Join(e.defaultHome(), "memory", "semantic")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "01HZZZZZZZZZZZZZZZZZZZZZZZ.md")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this file system makes no symbolic links (Wine)")
	}
	done := make(chan []Check, 1)
	go func() {
		checks, _ := runDoctorJSON(t, e)
		done <- checks
	}()
	select {
	case checks := <-done:
		found := false
		for _, c := range checks {
			if c.Name == "notes" && c.Status == statusFail && strings.Contains(c.Detail, link) && strings.Contains(c.Detail, "symlinks are not followed") {
				found = true
			}
		}
		if !found {
			t.Fatalf("symlinked note not reported: %+v", checks)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("doctor is still reading the symlinked note after 60 s")
	}
}

// doctor runs git through gitsync (an inherited GIT_DIR does not redirect
// it) and never prints the remote's password.
func TestDoctorGitHardenedAndMasked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	e := newEnv(t, true)
	remote := "https://bob:s3cret@127.0.0.1:1/x.git"
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box", "--remote", remote); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	mem := filepath.Join(e.defaultHome(), "memory")
	os.MkdirAll(mem, 0o755)
	gitRun(t, mem, "init", "-q", "-b", "main")
	other := t.TempDir()
	gitRun(t, other, "init", "-q", "-b", "elsewhere")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	checks, _ := runDoctorJSON(t, e)
	for _, c := range checks {
		if strings.Contains(c.Detail+c.Fix, "s3cret") {
			t.Errorf("credential printed: %+v", c)
		}
		if c.Name == "git" && (c.Status != statusOK || !strings.Contains(c.Detail, "on main")) {
			t.Errorf("git check followed GIT_DIR: %+v", c)
		}
		if c.Name == "remote" && (c.Status != statusFail || !strings.Contains(c.Detail, "bob:***@")) {
			t.Errorf("remote check: %+v", c)
		}
	}
}

// A missing binary fails the check, unless only the optional dashboard is
// missing: a warning that says what needs it.
func TestDoctorBinaries(t *testing.T) {
	for _, tc := range []struct {
		remove []string
		status string
		detail string
	}{
		{nil, statusOK, "all 7 in "},
		{[]string{BinDashboard}, statusWarn, "anamnesis-dashboard missing from"},
		{[]string{BinDashboard}, statusWarn, "(only `anamnesis dashboard` needs it)"},
		{[]string{BinDashboard, BinInject}, statusFail, "anamnesis-inject, anamnesis-dashboard missing from"},
	} {
		e := newEnv(t, false)
		for _, b := range tc.remove {
			if err := os.Remove(bin.Path(e.binDir, b)); err != nil {
				t.Fatal(err)
			}
		}
		d := &doctor{p: Paths{BinDir: e.binDir}}
		d.binaries()
		if len(d.checks) != 1 || d.checks[0].Status != tc.status || !strings.Contains(d.checks[0].Detail, tc.detail) {
			t.Errorf("without %v: %+v", tc.remove, d.checks)
		}
	}
}

// Notes indexed by an earlier version, before each project had its own
// rowids, are named with the one command that moves them; after it,
// nothing is said.
func TestDoctorNamesNotesIndexedBeforeSlots(t *testing.T) {
	e := newEnv(t, true)
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	ctx := context.Background()
	home := e.defaultHome()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	n := note.New("semantic", "Deploys go through make release", "Never push tags by hand.")
	n.Project = "github.com/acme/api"
	if n, err = st.Write(ctx, n); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// The row as an earlier version numbered it: rowid 1, its FTS row too.
	db, err := sql.Open("sqlite", filepath.Join(home, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	var title, body, tags string
	if err := db.QueryRow("SELECT title, body, tags FROM memories_fts WHERE id = ?", n.ID).Scan(&title, &body, &tags); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"DELETE FROM memories_fts WHERE id = ?1", "UPDATE memories SET rowid = 1 WHERE id = ?1",
		"INSERT INTO memories_fts (rowid, id, title, body, tags) VALUES (1, ?1, ?2, ?3, ?4)"} {
		if _, err := db.Exec(q, n.ID, title, body, tags); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	warned := func() bool {
		checks, _ := runDoctorJSON(t, e)
		for _, c := range checks {
			if c.Name == "index" && c.Status == statusWarn && strings.Contains(c.Detail, "1 note(s) were indexed by an earlier version") && strings.Contains(c.Fix, "anamnesis reindex --full") {
				return true
			}
		}
		return false
	}
	if !warned() {
		t.Error("doctor does not name the note indexed before the slots")
	}
	st, err = store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	st.Close()
	if warned() {
		t.Error("doctor still names it after reindex --full")
	}
}

// When the personal remote's or a team's history was rewritten (a purge:
// here each repository deleted and re-created empty) and the sync that
// takes the new history up has not run, doctor says so for each, in the
// words status uses, and names the fix; before, it said nothing.
func TestDoctorSaysARewriteIsPending(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	e := newEnv(t, true)
	bare := func(path string) {
		gitRun(t, filepath.Dir(path), "init", "-q", "--bare", path)
		gitRun(t, path, "symbolic-ref", "HEAD", "refs/heads/main")
	}
	remote, teamRemote := filepath.Join(t.TempDir(), "remote.git"), filepath.Join(t.TempDir(), "team.git")
	bare(remote)
	bare(teamRemote)
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box", "--remote", remote); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	home := e.defaultHome()
	f, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	f.SetTeam(config.Team{Name: "plat", URL: teamRemote})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(ctx, note.New(note.Semantic, "Deploy runbook", "Deploys go through the staging cluster first.")); err != nil {
		t.Fatal(err)
	}
	st.Close()
	cfg := config.Resolve(home, os.Getenv)
	o := gitsync.Options{Home: home, MachineID: "box", Remote: remote, Teams: gitsync.TeamsFrom(cfg.Teams), Author: "box"}
	sync := func() {
		t.Helper()
		if r, err := gitsync.Sync(ctx, o); err != nil || len(r.Teams) != 1 || r.Teams[0].Error != "" {
			t.Fatalf("sync: %v %+v", err, r)
		}
	}
	sync() // makes the team's clone
	shared := note.New(note.Semantic, "Staging cluster", "The staging cluster is in eu-west-1.")
	shared.Team, shared.Author = "plat", "box"
	if st, err = store.Open(ctx, home); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(ctx, shared); err != nil {
		t.Fatal(err)
	}
	st.Close()
	sync()
	pending := func() map[string]Check {
		t.Helper()
		checks, _ := runDoctorJSON(t, e)
		out := map[string]Check{}
		for _, c := range checks {
			if strings.Contains(c.Detail, "rewritten") || strings.Contains(c.Detail, "main is gone") {
				out[c.Name] = c
			}
		}
		return out
	}
	if got := pending(); len(got) != 0 {
		t.Fatalf("doctor after a clean sync says a rewrite is pending: %+v", got)
	}
	for _, r := range []string{remote, teamRemote} {
		if err := os.RemoveAll(r); err != nil {
			t.Fatal(err)
		}
		bare(r)
	}
	sync() // pushes nothing: the remotes' main is gone
	got := pending()
	status := gitsync.State(ctx, home, remote, nil).Detail
	for _, name := range []string{"remote", "team plat"} {
		c, ok := got[name]
		// A sync changes nothing until the remote has a main again: the
		// fix names the push that gives it this clone's (TestMainGoneFixWorks
		// runs it).
		if !ok || c.Status != statusWarn || !strings.Contains(c.Fix, "push origin main") {
			t.Errorf("doctor's %q check: %+v, want a warning that the remote's main is gone, fixed by a push", name, c)
		}
		// The fix is named once: the warning printed it in its detail and
		// again as its fix.
		if n := strings.Count(c.Detail+c.Fix, "push origin main"); n != 1 {
			t.Errorf("doctor's %q check names the push %d times: %+v", name, n, c)
		}
		if name == "remote" && c.Detail+"; fix: "+c.Fix != status {
			t.Errorf("doctor says %q (fix %q), status %q", c.Detail, c.Fix, status)
		}
	}
}

// A team whose last sync failed (its repository moved away) is a warning
// that says why, as status's team line does; a team that synced is not.
func TestDoctorSaysATeamSyncFailed(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	e := newEnv(t, true)
	if out, err := e.init("--yes", "--no-sync", "--machine-id", "box"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	home := e.defaultHome()
	good, gone := filepath.Join(t.TempDir(), "good.git"), filepath.Join(t.TempDir(), "gone.git")
	gitRun(t, filepath.Dir(good), "init", "-q", "--bare", good)
	f, err := config.Load(home)
	if err != nil {
		t.Fatal(err)
	}
	f.SetTeam(config.Team{Name: "plat", URL: good})
	f.SetTeam(config.Team{Name: "lost", URL: gone})
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	cfg := config.Resolve(home, os.Getenv)
	if r, _ := gitsync.Sync(ctx, gitsync.Options{Home: home, MachineID: "box", Teams: gitsync.TeamsFrom(cfg.Teams), Author: "box"}); len(r.Teams) != 2 {
		t.Fatalf("sync: %+v", r)
	}
	checks, _ := runDoctorJSON(t, e)
	var lost *Check
	for i, c := range checks {
		switch c.Name {
		case "team plat":
			t.Errorf("a team that synced: %+v", c)
		case "team lost":
			lost = &checks[i]
		}
	}
	if lost == nil || lost.Status != statusWarn || !strings.Contains(lost.Detail, "failed") || !strings.Contains(lost.Detail, "gone.git") || lost.Fix == "" {
		t.Fatalf("doctor's check of the team whose sync failed: %+v", lost)
	}
}
