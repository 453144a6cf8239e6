package gitsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrTimeout marks a git step cut off by the sync's deadline.
var ErrTimeout = errors.New("timed out")

// GitError is a failed git command with what it printed.
type GitError struct {
	Args   []string
	Code   int
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := reason(e.Stderr)
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", e.Args[0], msg)
}

func (e *GitError) Unwrap() error { return e.Err }

// reason picks the most telling line of git's stderr: ssh's own complaint
// (connection refused, host key), else the first fatal or error line, else
// the last line.
func reason(stderr string) string {
	lines := strings.Split(stderr, "\n")
	// ssh's refusal has no "ssh: " prefix, and a remote's refusal of a
	// push comes before git's generic "failed to push some refs": the
	// refusal is the cause.
	for _, l := range lines {
		if l = strings.TrimSpace(l); strings.Contains(l, "Permission denied (") || strings.Contains(l, "Host key verification failed") ||
			strings.Contains(l, "[remote rejected]") {
			return l
		}
	}
	for _, prefix := range []string{"ssh: ", "fatal: ", "error: "} {
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if strings.HasPrefix(l, prefix) {
				if prefix == "ssh: " {
					return l
				}
				return strings.TrimPrefix(l, prefix)
			}
		}
	}
	return lastLine(stderr)
}

// lastLine is the last non-empty line of s: git puts the reason there
// ("fatal: ...", "error: ...").
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			return l
		}
	}
	return ""
}

// git runs git in one repository with a fixed, prompt-free environment and
// configuration overrides, so neither the user's global git config (hooks,
// signing, pull.rebase, autocrlf, init.defaultBranch) nor an inherited
// GIT_DIR can change what a sync does.
type git struct {
	dir     string
	machine string
	// connect bounds ssh's connection and handshake, in seconds.
	connect int
	// readOnly asks git not to take optional locks (status refreshing the index).
	readOnly bool
	// indexFile, when set, is a private index (building a merge's tree).
	indexFile string
}

// envDrop are variables that would point git at another repository or index.
var envDrop = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_COMMON_DIR", "GIT_PREFIX",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_TERMINAL_PROMPT",
	"GIT_ASKPASS", "SSH_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_MERGE_AUTOEDIT",
	"GIT_OPTIONAL_LOCKS", "LC_ALL", "LANG", "LANGUAGE", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	// It overrides protocol.*.allow, the ext:: pin in args included.
	"GIT_ALLOW_PROTOCOL"}

func (g *git) env() []string {
	var env []string
	userSSH := false
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		drop := false
		for _, d := range envDrop {
			if strings.EqualFold(k, d) {
				drop = true
				break
			}
		}
		if strings.HasPrefix(k, "GIT_CONFIG_KEY_") || strings.HasPrefix(k, "GIT_CONFIG_VALUE_") {
			drop = true
		}
		if k == "GIT_SSH_COMMAND" || k == "GIT_SSH" {
			userSSH = true
		}
		if !drop {
			env = append(env, kv)
		}
	}
	connect := g.connect
	if connect <= 0 {
		connect = 30
	}
	env = append(env, "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "GIT_EDITOR=:",
		"GIT_MERGE_AUTOEDIT=no", "LC_ALL=C", "LANGUAGE=C", "GIT_PAGER=cat",
		// The repository is dir itself: never one found above it.
		"GIT_CEILING_DIRECTORIES="+filepath.Dir(g.dir))
	if !userSSH {
		// A user who set their own ssh command chose its options; otherwise
		// ssh must never ask for a password or a host key on a terminal.
		env = append(env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes -o ConnectTimeout="+strconv.Itoa(connect))
	}
	if g.readOnly {
		env = append(env, "GIT_OPTIONAL_LOCKS=0")
	}
	if g.indexFile != "" {
		env = append(env, "GIT_INDEX_FILE="+g.indexFile)
	}
	return env
}

// args puts the fixed configuration in front of a command. Everything a
// caller passes after it is either a literal from this package or comes
// after "--", so no user-controlled string lands in an option position.
func (g *git) args(cmd []string) []string {
	machine := g.machine
	if machine == "" {
		machine = "unknown"
	}
	a := []string{"-C", g.dir,
		"-c", "user.name=anamnesis", "-c", "user.email=anamnesis@" + machine,
		"-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false",
		"-c", "core.hooksPath=" + os.DevNull, "-c", "core.autocrlf=false", "-c", "core.eol=lf",
		"-c", "core.safecrlf=false", "-c", "core.quotepath=false", "-c", "core.fsmonitor=false",
		"-c", "init.defaultBranch=main", "-c", "pull.rebase=false", "-c", "merge.ff=true",
		"-c", "merge.verifySignatures=false", "-c", "merge.renames=false", "-c", "diff.renames=false",
		"-c", "merge.conflictStyle=merge", "-c", "rerere.enabled=false", "-c", "fetch.recurseSubmodules=false",
		"-c", "submodule.recurse=false", "-c", "push.gpgSign=false", "-c", "push.recurseSubmodules=no",
		"-c", "commit.verbose=false", "-c", "commit.cleanup=verbatim", "-c", "advice.detachedHead=false",
		"-c", "gc.autoDetach=false", "-c", "maintenance.auto=false",
		"-c", "log.showSignature=false", "-c", "diff.noprefix=false", "-c", "color.ui=never",
		// An ext:: remote is a command line: never run one, whatever the
		// user's protocol.allow says (a remote or team URL is pasted text).
		"-c", "protocol.ext.allow=never",
	}
	return append(a, cmd...)
}

// run runs git with args and returns its stdout.
func (g *git) run(ctx context.Context, args ...string) (string, error) {
	return g.runIn(ctx, nil, args...)
}

// runIn runs git with stdin.
func (g *git) runIn(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	var out string
	var err error
	for attempt := 0; ; attempt++ {
		out, err = g.once(ctx, stdin, args...)
		// Another git process (a user's, a dashboard's) holding index.lock
		// for a moment is not a reason to fail a sync.
		var ge *GitError
		if err == nil || stdin != nil || attempt >= 10 || !errors.As(err, &ge) || !strings.Contains(ge.Stderr, ".lock': File exists") {
			return out, err
		}
		select {
		case <-ctx.Done():
			return out, err
		case <-time.After(time.Duration(50*(attempt+1)) * time.Millisecond):
		}
	}
}

func (g *git) once(ctx context.Context, stdin io.Reader, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", g.args(args)...)
	cmd.Env = g.env()
	cmd.Dir = g.dir
	if stdin != nil {
		cmd.Stdin = stdin
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// ssh, a child of git, may keep the pipes open after git is killed:
	// do not wait for it past this.
	cmd.WaitDelay = 2 * time.Second
	err := runGroup(cmd)
	if err == nil {
		return stdout.String(), nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		if errors.Is(ctxErr, context.DeadlineExceeded) {
			return stdout.String(), &GitError{Args: args, Code: -1, Stderr: stderr.String(), Err: ErrTimeout}
		}
		return stdout.String(), &GitError{Args: args, Code: -1, Stderr: stderr.String(), Err: ctxErr}
	}
	code := -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	}
	return stdout.String(), &GitError{Args: args, Code: code, Stderr: stderr.String() + stdout.String(), Err: err}
}

// exitCode is the exit status of a failed git command, -1 otherwise.
func exitCode(err error) int {
	var ge *GitError
	if errors.As(err, &ge) {
		return ge.Code
	}
	return -1
}

// ok runs a command whose exit status is the answer (0 yes, 1 no).
func (g *git) ok(ctx context.Context, args ...string) (bool, error) {
	_, err := g.run(ctx, args...)
	if err == nil {
		return true, nil
	}
	if exitCode(err) == 1 {
		return false, nil
	}
	return false, err
}

// refExists reports whether a full ref name resolves to a commit.
func (g *git) refExists(ctx context.Context, ref string) bool {
	_, err := g.run(ctx, "rev-parse", "-q", "--verify", ref+"^{commit}")
	return err == nil
}

// refs maps HEAD and every ref of the repository to its object's name,
// abbreviated as git abbreviates it (unique, so two refs show the same name
// only when they point at the same object), in one git process; none in a
// repository without a commit.
func (g *git) refs(ctx context.Context) map[string]string {
	out, _ := g.run(ctx, "show-ref", "--head", "--abbrev")
	m := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) == 2 {
			m[f[1]] = f[0]
		}
	}
	return m
}

// rev resolves a ref to its full hash.
func (g *git) rev(ctx context.Context, ref string) (string, error) {
	out, err := g.run(ctx, "rev-parse", "-q", "--verify", ref+"^{commit}")
	return strings.TrimSpace(out), err
}

// count is `git rev-list --count RANGE`.
func (g *git) count(ctx context.Context, rng string) (int, error) {
	out, err := g.run(ctx, "rev-list", "--count", rng)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(out))
}

// shortHead is the abbreviated HEAD, "" before the first commit.
func (g *git) shortHead(ctx context.Context) string {
	out, err := g.run(ctx, "rev-parse", "-q", "--verify", "--short", "HEAD^{commit}")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(out)
}

// nulList splits -z output.
func nulList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// nulJoin builds --stdin -z input.
func nulJoin(paths []string) io.Reader {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return &b
}
