package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

// syncOutcome is what one sync cycle did (seed 003's memory_sync fields
// before the reindex).
type syncOutcome struct {
	Pushed     bool
	Pulled     int
	Conflicted bool
	Head       string
	Detail     string
}

// syncState is memory_status's sync block (seed 003).
type syncState struct {
	Initialized bool    `json:"initialized"`
	Remote      *string `json:"remote"`
	Head        *string `json:"head"`
	Dirty       bool    `json:"dirty"`
	Detail      string  `json:"detail"`
}

// syncer runs sync cycles and reports the repository's state.
type syncer interface {
	Sync(ctx context.Context) (syncOutcome, error)
	State(ctx context.Context) syncState
}

// localGit is the stand-in used until the git sync engine lands: it commits
// the portable notes to memory/'s own repository (created on branch main if
// needed) and says that nothing was pushed or pulled.
type localGit struct {
	dir       string // <home>/memory
	remote    string
	machineID string
	mu        sync.Mutex // one commit at a time in this process
}

func (g *localGit) git(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// Never prompt for credentials or an editor from under an MCP server.
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true")
	err := cmd.Run()
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = strings.TrimSpace(out.String())
		}
		return out.String(), fmt.Errorf("git %s: %w: %s", args[0], err, msg)
	}
	return out.String(), nil
}

// retryLocked reruns a git step that lost a race for index.lock with another
// process (a hook or another server) committing in the same repository.
func (g *localGit) retryLocked(ctx context.Context, args ...string) (string, error) {
	var out string
	var err error
	for i := range 20 {
		out, err = g.git(ctx, args...)
		if err == nil || !strings.Contains(err.Error(), "index.lock") {
			return out, err
		}
		select {
		case <-ctx.Done():
			return out, ctx.Err()
		case <-time.After(time.Duration(50*(i+1)) * time.Millisecond):
		}
	}
	return out, err
}

func (g *localGit) initialized() bool {
	_, err := os.Stat(filepath.Join(g.dir, ".git"))
	return err == nil
}

func (g *localGit) Sync(ctx context.Context) (syncOutcome, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.initialized() {
		if _, err := g.git(ctx, "init", "-q"); err != nil {
			return syncOutcome{}, err
		}
		if _, err := g.git(ctx, "symbolic-ref", "HEAD", "refs/heads/main"); err != nil {
			return syncOutcome{}, err
		}
	}
	if _, err := g.retryLocked(ctx, "add", "-A"); err != nil {
		return syncOutcome{}, err
	}
	committed := false
	if _, err := g.git(ctx, "diff", "--cached", "--quiet"); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return syncOutcome{}, err
		}
		args := []string{"commit", "-q", "--no-verify", "-m", "anamnesis: notes from " + g.machineID}
		if out, _ := g.git(ctx, "config", "--get", "user.email"); strings.TrimSpace(out) == "" {
			args = append([]string{"-c", "user.name=anamnesis", "-c", "user.email=anamnesis@" + g.machineID}, args...)
		}
		if _, err := g.retryLocked(ctx, args...); err != nil {
			return syncOutcome{}, err
		}
		committed = true
	}
	head, _ := g.git(ctx, "rev-parse", "--short", "HEAD")
	what := "nothing new to commit"
	if committed {
		what = "committed locally"
	}
	detail := what + "; no remote configured, so nothing was pushed or pulled"
	if g.remote != "" {
		detail = what + "; pushing to and pulling from the remote needs the git sync engine, which this build does not have yet"
	}
	return syncOutcome{Head: strings.TrimSpace(head), Detail: detail}, nil
}

func (g *localGit) State(ctx context.Context) syncState {
	st := syncState{Detail: "ok"}
	if g.remote != "" {
		r := g.remote
		st.Remote = &r
	}
	if !g.initialized() {
		st.Detail = "memory/ is not a git repository yet; memory_sync creates it"
		return st
	}
	st.Initialized = true
	if h, err := g.git(ctx, "rev-parse", "--short", "HEAD"); err == nil {
		h = strings.TrimSpace(h)
		st.Head = &h
	} else {
		st.Detail = "no commits yet"
	}
	if out, err := g.git(ctx, "status", "--porcelain"); err == nil {
		st.Dirty = strings.TrimSpace(out) != ""
	} else {
		st.Detail = lines(err.Error(), 500)
	}
	return st
}

// newSyncer picks the sync implementation for this build.
func newSyncer(cfg config.Config) syncer {
	return &localGit{dir: filepath.Join(cfg.Home, "memory"), remote: cfg.Remote, machineID: cfg.MachineID}
}
