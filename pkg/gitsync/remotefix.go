package gitsync

import (
	"context"
	"strings"
	"time"
)

// RemoteFix names the likely cause of a failed remote access, from git's or
// ssh's message, and what to do about it; "" when the message is not one it
// knows. doctor and the sync report show it beside the message.
func RemoteFix(msg string) string {
	m := strings.ToLower(msg)
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(m, s) {
				return true
			}
		}
		return false
	}
	switch {
	case has("permission denied (publickey", "host key verification failed"):
		return "the host does not accept an ssh key of this machine's: make one (ssh-keygen -t ed25519) and add ~/.ssh/id_ed25519.pub " +
			"to ~/.ssh/authorized_keys on the host (GitHub/GitLab: your account's SSH keys); `ssh HOST true` must then work without a password prompt"
	case has("could not resolve hostname", "connection refused", "no route to host", "network is unreachable", "operation timed out",
		"connection timed out", "timed out after"):
		return "the host is not reachable: check its name, that it is on and that this machine can reach it (Tailscale: `tailscale status`); " +
			"new notes stay committed here and go out with the first sync that reaches it"
	case has("does not appear to be a git repository", "repository not found", "no such file or directory", "not a git repository"):
		return "there is no repository at that path on the host: create it there with `git init --bare PATH` " +
			"(GitHub/GitLab: create the private repository first), or correct the URL: anamnesis config set remote URL"
	case has("branch is currently checked out", "refusing to update checked out branch", "denycurrentbranch"):
		return "the remote is not a bare repository, so it refuses pushes to its checked-out branch: make a bare copy on the host " +
			"(`git clone --bare PATH PATH.git`) and use it: anamnesis config set remote HOST:PATH.git"
	}
	return ""
}

// RemoteHeads lists the branches remote has (`git ls-remote --heads`),
// within timeout; the error is Probe's.
func RemoteHeads(ctx context.Context, remote string, timeout time.Duration) ([]string, error) {
	out, err := probe(ctx, remote, timeout)
	if err != nil {
		return nil, err
	}
	var heads []string
	for _, l := range strings.Split(out, "\n") {
		if _, ref, ok := strings.Cut(strings.TrimSpace(l), "\t"); ok {
			heads = append(heads, strings.TrimPrefix(ref, "refs/heads/"))
		}
	}
	return heads, nil
}
