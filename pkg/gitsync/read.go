package gitsync

import (
	"context"
	"errors"
	"os"
	"time"
)

// Output runs a read-only git command in the repository at dir, for the
// surfaces that show history (the dashboard) or check the repository
// (doctor). It uses this package's hardened environment and configuration,
// so an inherited GIT_DIR, the user's config, hooks, pagers and prompts
// cannot change what it shows, and takes no optional locks. Callers pass
// fixed arguments; request values only after "--" or "--end-of-options".
func Output(ctx context.Context, dir string, args ...string) (string, error) {
	g := &git{dir: dir, readOnly: true}
	return g.run(ctx, args...)
}

// Probe says whether remote answers `git ls-remote` within timeout. The
// error names the remote with its password masked.
func Probe(ctx context.Context, remote string, timeout time.Duration) error {
	_, err := probe(ctx, remote, timeout)
	return err
}

func probe(ctx context.Context, remote string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	g := &git{dir: os.TempDir(), readOnly: true, connect: int(timeout / time.Second)}
	out, err := g.run(ctx, "ls-remote", "--heads", "--", remote)
	if err == nil {
		return out, nil
	}
	msg := err.Error()
	var ge *GitError
	if errors.As(err, &ge) {
		if errors.Is(ge.Err, ErrTimeout) {
			msg = "timed out after " + timeout.String()
		} else if msg = reason(ge.Stderr); msg == "" {
			msg = ge.Err.Error()
		}
	}
	// git's message may quote the URL, credentials and all.
	return "", errors.New(maskIn(msg, remote))
}
