package gitsync

import (
	"context"
	"path"
	"runtime"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// rewriteRef keeps the remote's main as this clone last knew it, from the
// fetch that finds the remote's main rewritten (a force push: history
// filtered to purge a note, or the repository deleted and re-created)
// until the sync that takes the new history up lands. It is the base that
// tells what the member changed since (their own, kept) from what the
// remote dropped (dropped here too).
const rewriteRef = "refs/anamnesis/rewritten-from"

// rewrite is what taking up a rewritten or unrelated history did.
type rewrite struct {
	// known: the old remote main was known (a rewrite), not merely a
	// history sharing no commit with this clone's.
	known bool
	// removed: note files of this clone the new history does not hold,
	// removed here; mine: files of this clone re-committed on top of it.
	removed, mine int
	// dropped: the objects only the old history held are gone from this
	// clone (dropUnreachable).
	dropped bool
}

// dropUnreachable deletes from g's repository every object no ref holds,
// reflogs expired first: once a clone has taken up a rewritten history, a
// note purged from the remote (a leaked secret, most often) leaves the
// clone's .git too, not only after git's own 90 days. The caller holds
// the commit lock, which every local git step of the home takes, so no
// object written but not yet referenced can be pruned under a writer.
func dropUnreachable(ctx context.Context, g *git) error {
	if _, err := g.run(ctx, "reflog", "expire", "--expire=now", "--expire-unreachable=now", "--all"); err != nil {
		return err
	}
	_, err := g.run(ctx, "gc", "--quiet", "--prune=now")
	return err
}

// fetchOrigin fetches every branch of origin (as every fetch of a sync or
// a review does) and records a rewrite of its main in rewriteRef: its tip
// before the fetch is not an ancestor of its tip now, or main is gone from
// the remote. An ordinary fetch only ever moves main forward, and a push
// of this clone's only from that tip. A rewrite recorded by an earlier
// fetch stays recorded until a sync takes the new history up.
func fetchOrigin(ctx context.Context, g *git) error {
	known, _ := g.rev(ctx, remoteRef)
	if _, err := g.run(ctx, "fetch", "--quiet", "--no-tags", "--prune", "--no-recurse-submodules",
		"origin", "+refs/heads/*:refs/remotes/origin/*"); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	now, _ := g.rev(ctx, remoteRef)
	if known == "" || now == known || g.refExists(ctx, rewriteRef) {
		return nil
	}
	if now != "" {
		if forward, err := g.ok(ctx, "merge-base", "--is-ancestor", known, now); err != nil || forward {
			return err
		}
	}
	_, err := g.run(ctx, "update-ref", rewriteRef, known)
	return err
}

// Pending is a rewrite of a clone's remote main that a fetch recorded (a
// sync's, a team review's, the dashboard's Fetch) and no sync has taken up
// yet: what status, doctor, the dashboard and MCP memory_status say of it,
// and what to do about it.
type Pending struct {
	Detail string `json:"detail"`
	Fix    string `json:"fix"`
}

// RewritePending says whether a rewrite of the remote main of the git clone
// at dir (memory/ or a team's) is pending; nil when none is. It is the one
// rule every surface reads. It changes nothing and reaches no remote.
func RewritePending(ctx context.Context, dir string) *Pending {
	return pendingOf(ctx, &git{dir: dir, readOnly: true})
}

func pendingOf(ctx context.Context, g *git) *Pending {
	return pendingFrom(g.refs(ctx), g.dir)
}

// pendingFrom is pendingOf from the refs (g.refs) of the clone at dir.
func pendingFrom(refs map[string]string, dir string) *Pending {
	if refs[rewriteRef] == "" {
		return nil
	}
	if refs[remoteRef] == "" {
		// A sync pushes nothing to a remote whose main is gone (it would
		// bring back what was deleted), so running one changes nothing
		// until someone pushes a main.
		return &Pending{Detail: mainGoneFact, Fix: mainGoneFix(dir)}
	}
	return &Pending{Detail: rewritePending, Fix: "anamnesis sync"}
}

// Line is the rewrite and its fix in one line, for a surface with no place
// of its own for the fix (status's sync and team lines). Detail never
// holds the fix: doctor, the dashboard and team review print both, and
// said in each the push was named twice.
func (p Pending) Line() string { return p.Detail + "; fix: " + p.Fix }

// rewritePending is what RewritePending says while a rewrite is recorded
// and the remote has a main to take up.
const rewritePending = "the remote's main was rewritten or deleted: this clone's old history is not pushed back; the next sync takes the new history up (once the remote has one), keeping your unpublished notes"

// mainGoneFact is what RewritePending says while the remote's main is gone
// (its Fix says what to do).
const mainGoneFact = "the remote's main is gone (deleted, or the repository re-created empty?): nothing pushed, so its old history does not come back; the next sync takes up the new history once one is pushed, keeping your unpublished notes"

// mainGone is what a sync's line says of the clone at dir while the
// remote's main is gone: the fact and the push that undoes it.
func mainGone(dir string) string {
	return mainGoneFact + " (to make this clone's history the remote's again instead: " + pushBack(dir) + ")"
}

// mainGoneFix is what to do while the remote's main is gone: wait for the
// new history, or push this clone's back (a sync then takes it up as the
// remote's main).
func mainGoneFix(dir string) string {
	return "once the new history is pushed to the remote, `anamnesis sync` takes it up; to make this clone's history the remote's again instead: " + pushBack(dir)
}

func pushBack(dir string) string {
	return cli.UserLine("git", "-C", dir, "push", "origin", "main") + ", then `anamnesis sync`"
}

// forgetRemote drops what this clone knew of its remote (its tracking refs
// and any rewrite recorded): the remote is another repository now.
func forgetRemote(ctx context.Context, g *git) error {
	out, err := g.run(ctx, "for-each-ref", "--format=%(refname)", "refs/remotes/origin/", rewriteRef)
	if err != nil {
		return err
	}
	for _, ref := range strings.Fields(out) {
		if _, err := g.run(ctx, "update-ref", "-d", ref); err != nil {
			return err
		}
	}
	return nil
}

// repoOf is a remote URL without its credentials, a file:// scheme, a
// trailing "/" or ".git": the repository it names, one for every way of
// writing its URL (a token added, a local path given as a file URL).
func repoOf(u string) string {
	u = strings.TrimPrefix(u, "file://")
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		at, slash := strings.LastIndex(rest, "@"), strings.Index(rest, "/")
		if at >= 0 && (slash < 0 || at < slash) {
			rest = rest[at+1:]
		}
		u = scheme + "://" + rest
	} else {
		// A local path, as Windows writes it too: either separator, the
		// drive letter in either case (and after a file URL's slash),
		// and, where paths ignore case, any case. C:\Users\me\memory.git
		// and file:///c:/Users/me/memory.git are one repository; told
		// apart, a team could be joined at the personal remote.
		u = strings.ReplaceAll(u, `\`, "/")
		if len(u) >= 3 && u[0] == '/' && u[2] == ':' && isLetter(u[1]) {
			u = u[1:]
		}
		if len(u) >= 2 && u[1] == ':' && isLetter(u[0]) {
			u = strings.ToUpper(u[:1]) + u[1:]
		}
		if runtime.GOOS == "windows" {
			u = strings.ToLower(u)
		}
		u = path.Clean(u)
	}
	u = strings.TrimRight(u, "/")
	return strings.TrimRight(strings.TrimSuffix(u, ".git"), "/")
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// SameRepo reports whether remotes a and b name one repository (repoOf):
// the rule that keeps a team's remote and the personal one apart, and one
// team per repository.
func SameRepo(a, b string) bool { return a != "" && b != "" && repoOf(a) == repoOf(b) }
