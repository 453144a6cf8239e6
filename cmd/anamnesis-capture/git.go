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
	"time"
)

// commitNote commits one note file (and the store's .gitignore) to the
// memory/ repository, creating the repository on branch main if needed, so a
// sync that starts later, here or on a pull, cannot lose it (SPEC 5). Only
// these paths are committed: whatever else is pending belongs to the next
// sync. It returns the short commit hash, or "" when nothing changed.
func commitNote(ctx context.Context, memDir, rel, machine, noteID, sessionID string) (string, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", errors.New("git is not installed")
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	g := gitRunner{dir: memDir, machine: machine}
	if _, err := os.Stat(filepath.Join(memDir, ".git")); errors.Is(err, os.ErrNotExist) {
		if _, err := g.run(ctx, "init", "-q", "-b", "main"); err != nil {
			// git before 2.28 has no -b.
			if _, err := g.run(ctx, "init", "-q"); err != nil {
				return "", err
			}
			if _, err := g.run(ctx, "symbolic-ref", "HEAD", "refs/heads/main"); err != nil {
				return "", err
			}
		}
	}
	paths := []string{rel}
	if _, err := os.Stat(filepath.Join(memDir, ".gitignore")); err == nil {
		paths = append(paths, ".gitignore")
	}
	if _, err := g.run(ctx, append([]string{"add", "--"}, paths...)...); err != nil {
		return "", err
	}
	// Nothing staged for these paths (the note did not change): no commit.
	if _, err := g.run(ctx, append([]string{"diff", "--cached", "--quiet", "--"}, paths...)...); err == nil {
		return "", nil
	}
	short := sessionID
	if len(short) > 8 {
		short = short[:8]
	}
	msg := fmt.Sprintf("anamnesis: capture session %s (note %s) from %s at %s", short, noteID, machine, time.Now().UTC().Format(time.RFC3339))
	if _, err := g.run(ctx, append([]string{"commit", "-q", "--no-verify", "-m", msg, "--"}, paths...)...); err != nil {
		return "", err
	}
	return g.run(ctx, "rev-parse", "--short", "HEAD")
}

type gitRunner struct {
	dir, machine string
}

// run runs git in the repository with our identity, never prompting and
// never signing, and retries while another git process holds the index lock.
func (g gitRunner) run(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"-C", g.dir, "-c", "commit.gpgsign=false", "-c", "core.hooksPath=" + os.DevNull}, args...)
	for attempt := 0; ; attempt++ {
		var stdout, stderr bytes.Buffer
		cmd := exec.CommandContext(ctx, "git", full...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Env = append(os.Environ(),
			"GIT_TERMINAL_PROMPT=0", "LC_ALL=C",
			"GIT_AUTHOR_NAME=anamnesis", "GIT_AUTHOR_EMAIL=anamnesis@"+g.machine,
			"GIT_COMMITTER_NAME=anamnesis", "GIT_COMMITTER_EMAIL=anamnesis@"+g.machine)
		err := cmd.Run()
		if err == nil {
			return strings.TrimSpace(stdout.String()), nil
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "index.lock") && attempt < 20 && ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		if msg == "" {
			return "", fmt.Errorf("git %s: %w", args[0], err)
		}
		return "", fmt.Errorf("git %s: %s", args[0], msg)
	}
}
