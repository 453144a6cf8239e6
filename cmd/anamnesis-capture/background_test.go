package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/walktest"
)

// installSelf puts this test binary on PATH as anamnesis-capture (TestMain
// runs it as the real command under that name), so capture starts itself
// detached as an installed binary does.
func installSelf(t *testing.T) string {
	t.Helper()
	binDir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(binDir, "anamnesis-capture")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return link
}

// waitChild waits for the detached child whose pid capture printed.
func waitChild(t *testing.T, stdout string) {
	t.Helper()
	m := regexp.MustCompile(`in the background \(pid (\d+)\)`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no background child in %q", stdout)
	}
	pid, _ := strconv.Atoi(m[1])
	p, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	p.Wait()
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// SessionEnd returns at once: a detached child writes the note, renders the
// project's block again (a SessionStart after it, as /compact starts, reads
// the cache), commits and merges the index's small segments (SPEC 5, 9).
// The child gets the hook's payload: its session id names the note of a
// transcript that has none.
func TestCaptureCommitsInTheBackground(t *testing.T) {
	env(t)
	installSelf(t)
	home := t.TempDir()
	ctx := context.Background()
	key := blockcache.Key{Project: quotesAPI, K: 8, Budget: 9500}
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inject.Render(ctx, st, key, nil); err != nil {
		t.Fatal(err)
	}
	// Each write leaves a small full-text segment, which the child merges.
	for i := range 6 {
		if _, err := st.Write(ctx, note.New(note.Semantic, fmt.Sprintf("Earlier note %d", i), "The quotes service caches rates.")); err != nil {
			t.Fatal(err)
		}
	}
	if n := segments(t, home); n < 6 {
		t.Fatalf("%d full-text segments after six writes", n)
	}
	// The transcript without its session ids, and from another directory:
	// the child finds it, and the payload supplies the session.
	dir := t.TempDir()
	fixtureWithout(t, "82bbae79", dir, `"sessionId":"[^"]*",?`)
	t.Chdir(dir)
	payload := `{"session_id":"5f0c1d2e-hook-payload","transcript_path":"t.jsonl","hook_event_name":"SessionEnd","reason":"other"}`
	r := startCapture(t, home, strings.NewReader(payload), "--no-sync", "--project", quotesAPI)
	if r.stdout != "" && !regexp.MustCompile(`^capture: capturing the session in the background \(pid \d+\)\n$`).MatchString(r.stdout) {
		t.Fatalf("stdout %q", r.stdout)
	}
	waitChild(t, r.stdout)
	log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	m := regexp.MustCompile(`episodic note (\S+)`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("the child wrote no note:\n%s", log)
	}
	id := string(m[1])
	n, err := st.Get(ctx, id)
	if err != nil || n.ProvSession != "5f0c1d2e-hook-payload" {
		t.Fatalf("the note (%v) is not the payload's session's: %+v", err, n)
	}
	got, ok := blockcache.Open(home, key).Cached()
	want, err := inject.Block(ctx, st, quotesAPI, 8, 9500, nil)
	st.Close()
	if err != nil || !ok || got.Text != want.Block || !strings.Contains(got.Text, "[episodic]") {
		t.Fatalf("after the child the project's block was not current (cached %v, %v):\n%s", ok, err, got.Text)
	}
	mem := filepath.Join(home, "memory")
	if got := git(t, mem, "ls-tree", "-r", "--name-only", "HEAD"); !strings.Contains(got, "episodic/"+id+".md") {
		t.Fatalf("HEAD holds %q, not the note", got)
	}
	if got := git(t, mem, "status", "--porcelain", "--", "episodic"); got != "" { // the earlier notes are not capture's to commit
		t.Errorf("left uncommitted: %q", got)
	}
	if n := strings.Count(string(log), "capture: committed locally ("); n != 1 {
		t.Errorf("the child's commit is in the log %d times, want once:\n%s", n, log)
	}
	if n := segments(t, home); n > 2 {
		t.Errorf("%d full-text segments after the child, want its merge to leave at most 2", n)
	}
}

// The child runs in the home, not where Claude Code ran the hook: a session
// whose transcript and payload name no directory is the project of the
// hook's own directory, as when capture did the work itself.
func TestCaptureChildKeepsTheHookDirectory(t *testing.T) {
	home := hookHome(t)
	proj := t.TempDir()
	if err := os.MkdirAll(filepath.Join(proj, ".anamnesis"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, ".anamnesis", "project"), []byte("github.com/acme/from-marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixtureWithout(t, "82bbae79", proj, `"cwd":"[^"]*",?`)
	t.Chdir(proj)
	r := startCapture(t, home, strings.NewReader(`{"session_id":"s-no-cwd","transcript_path":"t.jsonl"}`), "--no-sync")
	waitChild(t, r.stdout)
	log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	if !strings.Contains(string(log), "(project github.com/acme/from-marker, session-end)") {
		t.Fatalf("the note is not the hook directory's project:\n%s", log)
	}
}

// A hook whose transcript does not exist says so and starts nothing.
func TestCaptureMissingTranscriptStartsNoChild(t *testing.T) {
	home := hookHome(t)
	payload := `{"session_id":"s1","transcript_path":"` + filepath.Join(t.TempDir(), "gone.jsonl") + `"}`
	r := startCapture(t, home, strings.NewReader(payload), "--no-sync")
	if strings.Contains(r.stdout, "background") || !strings.Contains(r.stderr, "reading transcript") {
		t.Fatalf("stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

// hookHome is a home made already, with this test binary installed as
// anamnesis-capture: capture hands its sessions to a detached child there.
func hookHome(t *testing.T) string {
	t.Helper()
	env(t)
	installSelf(t)
	home := t.TempDir()
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	return home
}

// fixtureWithout writes fixture name into dir as t.jsonl with every match
// of re removed, and returns its path.
func fixtureWithout(t *testing.T, name, dir, re string) string {
	t.Helper()
	raw, err := os.ReadFile(fixture(t, name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(path, regexp.MustCompile(re).ReplaceAll(raw, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// segments counts the full-text index's segments.
func segments(t *testing.T, home string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "index.db")+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT count(DISTINCT segid) FROM memories_fts_idx").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The machine stops after the note is written and before the detached
// child commits it (here: the child does nothing): the next sync commits
// and pushes it to the remote all the same.
func TestNoteTheChildNeverCommittedIsSynced(t *testing.T) {
	env(t)
	binDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(binDir, "anamnesis-capture"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	home, remote := t.TempDir(), filepath.Join(t.TempDir(), "remote.git")
	git(t, filepath.Dir(remote), "init", "--quiet", "--bare", "-b", "main", remote)

	r := startCapture(t, home, nil, "--transcript", fixture(t, "82bbae79"), "--no-sync", "--project", quotesAPI)
	id := regexp.MustCompile(`episodic note (\S+)`).FindStringSubmatch(r.stdout)[1]
	if _, err := os.Stat(filepath.Join(home, "memory", ".git", "HEAD")); err == nil {
		if out, err := exec.Command("git", "-C", filepath.Join(home, "memory"), "rev-parse", "--verify", "-q", "HEAD").Output(); err == nil {
			t.Fatalf("the foreground committed (%s); this test needs it not to", out)
		}
	}
	res, err := gitsync.Sync(context.Background(), gitsync.Options{Home: home, MachineID: "dev", Remote: remote, Timeout: 30 * time.Second, LockWait: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Pushed {
		t.Fatalf("sync did not push: %+v", res)
	}
	if got := git(t, remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(got, "episodic/"+id+".md") {
		t.Fatalf("the remote holds %q, not the note", got)
	}
}

// Capture, the detached child included, never walks the store: no note
// directory is listed and only a bounded number of note files (the block's)
// is looked at, whatever the store holds. Counted with strace on the real
// process tree.
func TestCaptureWalksNoDirectory(t *testing.T) {
	walktest.Available(t)
	env(t)
	self := installSelf(t)
	home := t.TempDir()
	ctx := context.Background()
	// 1200 notes, as files; the store indexes them at its open.
	const notes = 1200
	walktest.Notes(t, home, quotesAPI, notes)
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	// A cached block for the project, which capture renders again.
	if _, err := inject.Render(ctx, st, blockcache.Key{Project: quotesAPI, K: 8, Budget: 9500}, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	mem := filepath.Join(home, "memory")
	if m, _ := filepath.Glob(filepath.Join(mem, "*", "*.md")); len(m) != notes {
		t.Fatalf("%d notes on disk", len(m))
	}
	git(t, mem, "init", "--quiet", "-b", "main")
	git(t, mem, "add", "--all")
	git(t, mem, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "notes")

	cmd := exec.Command(self, "--home", home, "--transcript", fixture(t, "82bbae79"), "--no-sync", "--project", quotesAPI)
	cmd.Stdin = strings.NewReader("")
	out, tr := walktest.Run(t, cmd)
	if !strings.Contains(out, "in the background (pid ") {
		t.Fatalf("capture printed:\n%s", out)
	}
	// strace -f returns once the detached child is done too.
	if got := git(t, mem, "status", "--porcelain"); got != "" {
		t.Fatalf("the child did not commit: %q", got)
	}
	if !tr.Started("git") {
		t.Fatalf("the trace holds no git: the child was not traced (ran %v)", tr.Ran)
	}
	for d, n := range tr.Listed {
		t.Errorf("a note directory was listed: %s (%d listings)", d, n)
	}
	// The new note, and the candidates the block's rendering pages through
	// (a fixed number: 80 with 1,200 notes and with 3,000).
	if len(tr.Looked) > 120 {
		t.Errorf("capture looked at %d of the store's %d note files (by program: %v)", len(tr.Looked), notes+1, tr.By)
	}
	t.Logf("%d note files looked at (by program: %v)", len(tr.Looked), tr.By)
}

// With a summary model, the hook's child writes the heuristic note and
// starts another child to replace it with the model's summary. The session
// is the payload's when the transcript names none: that child must replace
// the same note, not write a second one without the session (which recall
// would then show to the session it summarises).
func TestSummaryChildKeepsThePayloadsSession(t *testing.T) {
	home := hookHome(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
			"content": `{"skip": false, "title": "Quotes cache fix", "body": "The quotes service caches rates for a minute."}`}}}})
	}))
	defer srv.Close()
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "quick")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	t.Setenv("ANAMNESIS_REFLECTION_TIMEOUT", "20")
	dir := t.TempDir()
	fixtureWithout(t, "82bbae79", dir, `"sessionId":"[^"]*",?`)
	t.Chdir(dir)
	payload := `{"session_id":"5f0c1d2e-hook-payload","transcript_path":"t.jsonl","hook_event_name":"SessionEnd","reason":"other"}`
	r := startCapture(t, home, strings.NewReader(payload), "--no-sync", "--project", quotesAPI)
	waitChild(t, r.stdout)
	log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	m := regexp.MustCompile(`will replace the note in the background \(pid (\d+)\)`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("no summary child:\n%s", log)
	}
	// The summary child is not this process's: wait for its last line.
	deadline := time.Now().Add(30 * time.Second)
	for {
		log, _ = os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
		if strings.Count(string(log), "episodic note") >= 2 && strings.Count(string(log), "committed locally") >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the summary child never finished:\n%s", log)
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	ns := notes(t, home)
	if len(ns) != 1 {
		t.Fatalf("%d notes for one session, want the heuristic one replaced:\n%v\nlog:\n%s", len(ns), ns, log)
	}
	for _, n := range ns {
		if !strings.Contains(n, "prov_session: 5f0c1d2e-hook-payload\n") || !strings.Contains(n, "prov_model: local/quick\n") {
			t.Errorf("note:\n%s", n)
		}
	}
}
