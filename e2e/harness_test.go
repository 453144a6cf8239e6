//go:build e2e

// Package e2e runs Anamnesis against the real Claude Code CLI: run it with
// scripts/e2e/claude.sh (make e2e), which installs the pinned CLI into a
// cache and sets ANAMNESIS_E2E_CLAUDE.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/e2e/standin"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// harness is one throwaway machine: HOME (with a space in it, as on many
// macOS and Windows machines), CLAUDE_CONFIG_DIR under it, an install
// prefix, a git project, and the Messages API stand-in.
type harness struct {
	t         *testing.T
	root      string
	repo      string // the Anamnesis checkout
	home      string // $HOME
	claudeDir string // $CLAUDE_CONFIG_DIR
	prefix    string // install.sh PREFIX
	bin       string // prefix/bin
	proj      string // the project Claude Code works in
	store     string // ~/.anamnesis
	claude    string // the claude binary
	api       *standin.Server
	apiURL    string
	env       []string
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	claude := os.Getenv("ANAMNESIS_E2E_CLAUDE")
	if claude == "" {
		t.Fatal("ANAMNESIS_E2E_CLAUDE is not set: run the end-to-end test with scripts/e2e/claude.sh (make e2e)")
	}
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	root, err := os.MkdirTemp("", "anamnesis-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("ANAMNESIS_E2E_KEEP") == "1" {
		t.Logf("keeping the throwaway machine in %s", root)
	} else {
		t.Cleanup(func() { removeAllPatiently(root) })
	}
	h := &harness{t: t, root: root, repo: repo, claude: claude}
	h.home = filepath.Join(root, "user home")
	h.claudeDir = filepath.Join(h.home, ".claude")
	h.prefix = filepath.Join(root, "install prefix") // spaces: hook commands must quote
	h.bin = filepath.Join(h.prefix, "bin")
	h.proj = filepath.Join(h.home, "src", "quotes-api")
	h.store = filepath.Join(h.home, ".anamnesis")
	for _, d := range []string{h.claudeDir, h.proj, filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}

	rec, err := os.Create(filepath.Join(root, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rec.Close() })
	h.api = standin.New(&lockedWriter{w: rec})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h.api, ReadHeaderTimeout: 30 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	h.apiURL = "http://" + ln.Addr().String()

	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("go is not on PATH")
	}
	path := strings.Join([]string{h.bin, filepath.Dir(claude), filepath.Dir(goBin), os.Getenv("PATH")}, string(os.PathListSeparator))
	h.env = []string{
		"PATH=" + path,
		"HOME=" + h.home,
		"USER=e2e",
		"LANG=C.UTF-8",
		"TMPDIR=" + filepath.Join(root, "tmp"),
		"CLAUDE_CONFIG_DIR=" + h.claudeDir,
		"ANTHROPIC_BASE_URL=" + h.apiURL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-not-a-real-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
	}
	// The throwaway HOME must not cost a cold Go build: keep the
	// developer's caches and module settings.
	out, err := exec.Command(goBin, "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN", "GOSUMDB", "GONOSUMDB", "GOPRIVATE", "GOINSECURE").Output()
	if err != nil {
		t.Fatal(err)
	}
	var goEnv map[string]string
	if err := json.Unmarshal(out, &goEnv); err != nil {
		t.Fatal(err)
	}
	for k, v := range goEnv {
		if v != "" {
			h.env = append(h.env, k+"="+v)
		}
	}

	// A project as users have them: git, branch main, one commit.
	h.git(h.proj, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(h.proj, "README.md"), []byte("# quotes-api\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.git(h.proj, "add", "README.md")
	h.git(h.proj, "-c", "user.name=Dev", "-c", "user.email=dev@example.com", "commit", "-q", "-m", "init")
	return h
}

type lockedWriter struct {
	mu sync.Mutex
	w  *os.File
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// removeAllPatiently removes the throwaway machine. A detached background
// sync (by design it outlives Claude Code) may still be finishing, so a
// failed removal is retried for a while rather than failing the test.
func removeAllPatiently(dir string) {
	deadline := time.Now().Add(90 * time.Second)
	for {
		if err := os.RemoveAll(dir); err == nil || time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Second)
	}
}

type result struct {
	stdout, stderr string
	dur            time.Duration
	end            time.Time
	err            error
}

// run runs a program in dir with the harness environment plus extra.
func (h *harness) run(timeout time.Duration, dir string, extra []string, name string, args ...string) result {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), h.env...), extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// The command's own children (hooks, a detached sync) must not keep
	// our pipes open after it exits.
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), dur: time.Since(start), end: time.Now(), err: err}
	if ctx.Err() != nil {
		r.err = errors.New("timed out after " + timeout.String())
	}
	return r
}

func (h *harness) mustRun(timeout time.Duration, dir string, name string, args ...string) result {
	h.t.Helper()
	r := h.run(timeout, dir, nil, name, args...)
	if r.err != nil {
		h.t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), r.err, r.stdout, r.stderr)
	}
	return r
}

func (h *harness) git(dir string, args ...string) string {
	h.t.Helper()
	return h.mustRun(time.Minute, dir, "git", args...).stdout
}

func (h *harness) anamnesis(args ...string) result {
	h.t.Helper()
	return h.mustRun(5*time.Minute, h.proj, filepath.Join(h.bin, "anamnesis"), args...)
}

// session is one `claude -p` run and the requests it made.
type session struct {
	ID       string
	Result   string
	IsError  bool
	Denials  []json.RawMessage
	Dur      time.Duration
	End      time.Time // when the claude process had exited
	Requests []standin.Request
}

type claudeJSON struct {
	SessionID         string            `json:"session_id"`
	Result            string            `json:"result"`
	IsError           bool              `json:"is_error"`
	PermissionDenials []json.RawMessage `json:"permission_denials"`
}

// claudeP runs `claude -p` in the project with the given script.
func (h *harness) claudeP(script []standin.Turn, args ...string) session {
	h.t.Helper()
	h.api.SetScript(script)
	before := len(h.api.Requests())
	full := append([]string{"-p"}, args...)
	full = append(full, "--permission-mode", "acceptEdits",
		"--allowedTools", "Write Edit mcp__anamnesis__memory_search",
		"--output-format", "json")
	r := h.run(5*time.Minute, h.proj, nil, h.claude, full...)
	if r.err != nil {
		h.t.Fatalf("claude %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(full, " "), r.err, r.stdout, r.stderr)
	}
	var out claudeJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		h.t.Fatalf("claude output is not JSON: %v\n%s\nstderr:\n%s", err, r.stdout, r.stderr)
	}
	if out.IsError {
		h.t.Fatalf("claude reported an error: %s\nstderr:\n%s", r.stdout, r.stderr)
	}
	if n := h.api.Remaining(); n != 0 {
		h.t.Errorf("claude ended with %d scripted turn(s) unused; requests in %s", n, filepath.Join(h.root, "requests.jsonl"))
	}
	return session{ID: out.SessionID, Result: out.Result, IsError: out.IsError, Denials: out.PermissionDenials, Dur: r.dur, End: r.end, Requests: h.api.Requests()[before:]}
}

// exit is how long claude took to exit after its last conversation request
// reached the API: the reply, the SessionEnd hooks and the process's own
// teardown, without node's start-up (which varies by seconds on a loaded
// machine and has nothing to do with the hooks at exit).
func (s session) exit() time.Duration {
	turns := s.turns()
	if len(turns) == 0 {
		return s.Dur
	}
	return s.End.Sub(turns[len(turns)-1].Time)
}

// turns are the conversation requests of a session, in order.
func (s session) turns() []standin.Request {
	var out []standin.Request
	for _, r := range s.Requests {
		if r.Kind == "turn" {
			out = append(out, r)
		}
	}
	return out
}

// notesOf reads the episodic notes of a Claude Code session from the files
// (the source of truth), wherever their scope put them.
func (h *harness) notesOf(sessionID string) []*note.Note {
	h.t.Helper()
	var out []*note.Note
	for _, tree := range []string{"memory", "local"} {
		files, _ := filepath.Glob(filepath.Join(h.store, tree, "episodic", "*.md"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			n, err := note.Parse(b)
			if err != nil {
				h.t.Errorf("%s: %v", f, err)
				continue
			}
			if n.ProvSession == sessionID {
				out = append(out, n)
			}
		}
	}
	return out
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", timeout, what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// hangingRemote accepts connections and never answers: a git remote on a
// network that has gone away (the worst case: no refusal, just silence).
type hangingRemote struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newHangingRemote(t *testing.T) *hangingRemote {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &hangingRemote{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.conns = append(r.conns, c)
			r.mu.Unlock()
		}
	}()
	t.Cleanup(r.close)
	return r
}

func (r *hangingRemote) url() string { return "http://" + r.ln.Addr().String() + "/notes.git" }

func (r *hangingRemote) accepted() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.conns)
}

func (r *hangingRemote) close() {
	r.ln.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
}
