package dashboard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// refRE is the only shape of ref a request may name: a (possibly abbreviated)
// commit hash. Anything else, "--output=…" or "HEAD~1" included, is refused.
var refRE = regexp.MustCompile(`^[0-9a-f]{7,64}$`)

// ValidRef reports whether ref may be passed to git.
func ValidRef(ref string) bool { return refRE.MatchString(ref) }

// Limits on what history pages read from git.
const (
	maxCommits   = 200
	maxPatchSize = 256 << 10
	gitTimeout   = 20 * time.Second
	fleetScan    = 20000
)

// git runs in the memory repo through gitsync's hardened runner, with fixed
// arguments. Request values reach it only as validated ids (inside fixed
// paths after "--") or validated hashes (after --end-of-options). External
// diff drivers and text conversions are off so a hostile repo config cannot
// run programs through a page view.
type git struct{ dir string }

func (g git) ok() bool {
	_, err := os.Stat(filepath.Join(g.dir, ".git"))
	return err == nil
}

func (g git) run(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	out, err := gitsync.Output(ctx, g.dir, args...)
	return []byte(out), err
}

// Commit is one commit as the history and fleet pages show it.
type Commit struct {
	Hash, Author, Email, Date, Subject string
	Machine                            string
	Files                              []FileDiff
	Truncated                          bool
}

// FileDiff is one file's part of a commit's patch.
type FileDiff struct {
	Header string // "semantic/X.md" or "episodic/X.md → semantic/X.md"
	Lines  []DiffLine
}

// DiffLine is one line of a patch with its kind: add, del, hunk, meta or ctx.
type DiffLine struct{ Kind, Text string }

var syncSubject = regexp.MustCompile(`^anamnesis: sync from (\S+) at `)

// machineOf names the machine a commit came from: the author address
// anamnesis@MACHINE that sync uses, else the sync subject, else the author name.
func machineOf(name, email, subject string) string {
	if m, ok := strings.CutPrefix(email, "anamnesis@"); ok && m != "" {
		return m
	}
	if m := syncSubject.FindStringSubmatch(subject); m != nil {
		return m[1]
	}
	return name
}

const logFormat = "--format=%x1e%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f"

func parseHeader(h string) (Commit, bool) {
	f := strings.Split(h, "\x1f")
	if len(f) < 5 {
		return Commit{}, false
	}
	return Commit{Hash: f[0], Author: f[1], Email: f[2], Date: f[3], Subject: f[4], Machine: machineOf(f[1], f[2], f[4])}, true
}

// parseLog splits `git log -p` output made with logFormat into commits.
func parseLog(out []byte) []Commit {
	var commits []Commit
	for _, chunk := range strings.Split(string(out), "\x1e") {
		if chunk == "" {
			continue
		}
		head, patch, _ := strings.Cut(chunk, "\n")
		i := strings.LastIndex(head, "\x1f")
		if i < 0 {
			continue
		}
		c, ok := parseHeader(head[:i])
		if !ok {
			continue
		}
		if len(patch) > maxPatchSize {
			patch = patch[:maxPatchSize]
			c.Truncated = true
		}
		c.Files = parseDiff(patch)
		commits = append(commits, c)
	}
	return commits
}

func parseDiff(patch string) []FileDiff {
	var files []FileDiff
	var cur *FileDiff
	var from, to string
	for _, line := range strings.Split(strings.TrimRight(patch, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			files = append(files, FileDiff{})
			cur = &files[len(files)-1]
			from, to = "", ""
			cur.Lines = append(cur.Lines, DiffLine{"meta", line})
			if a, b, ok := strings.Cut(strings.TrimPrefix(line, "diff --git "), " b/"); ok {
				from, to = strings.TrimPrefix(a, "a/"), b
				cur.Header = to
				if from != to {
					cur.Header = from + " → " + to
				}
			}
		case cur == nil:
			continue
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			cur.Lines = append(cur.Lines, DiffLine{"meta", line})
		case strings.HasPrefix(line, "@@"):
			cur.Lines = append(cur.Lines, DiffLine{"hunk", line})
		case strings.HasPrefix(line, "+"):
			cur.Lines = append(cur.Lines, DiffLine{"add", line})
		case strings.HasPrefix(line, "-"):
			cur.Lines = append(cur.Lines, DiffLine{"del", line})
		case strings.HasPrefix(line, " "), line == "":
			cur.Lines = append(cur.Lines, DiffLine{"ctx", line})
		default: // index, rename from/to, similarity, new file mode, \ No newline
			cur.Lines = append(cur.Lines, DiffLine{"meta", line})
		}
	}
	return files
}

var diffFlags = []string{"--no-color", "--no-ext-diff", "--no-textconv", "-M"}

// noteHistory returns the commits that touched note id's file in memory/,
// newest first, with their diffs. Every type directory the id could have
// lived in is named, so a move between types is followed however much the
// text changed with it (--follow takes one path and needs a similar text).
func (g git) noteHistory(ctx context.Context, id string) ([]Commit, bool, error) {
	if err := note.CheckID(id); err != nil {
		return nil, false, err
	}
	args := append([]string{"log"}, diffFlags...)
	args = append(args, fmt.Sprintf("--max-count=%d", maxCommits+1), logFormat, "-p", "--")
	for _, t := range note.Types {
		args = append(args, layout.NoteRel(t, id))
	}
	out, err := g.run(ctx, args...)
	if err != nil {
		if isEmptyRepo(err) {
			return nil, false, nil
		}
		return nil, false, err
	}
	cs := parseLog(out)
	more := len(cs) > maxCommits
	if more {
		cs = cs[:maxCommits]
	}
	return cs, more, nil
}

func isEmptyRepo(err error) bool {
	m := err.Error()
	return strings.Contains(m, "does not have any commits") || strings.Contains(m, "bad default revision")
}

// show returns one commit with its whole patch. ref must pass ValidRef; it is
// placed after --end-of-options and peeled to a commit, so it can never be
// read as an option or name a tree or blob.
func (g git) show(ctx context.Context, ref string) (Commit, error) {
	if !ValidRef(ref) {
		return Commit{}, fmt.Errorf("invalid commit %q (want a hex hash)", ref)
	}
	args := append([]string{"show"}, diffFlags...)
	args = append(args, logFormat, "-p", "--end-of-options", ref+"^{commit}", "--")
	out, err := g.run(ctx, args...)
	if err != nil {
		return Commit{}, err
	}
	cs := parseLog(out)
	if len(cs) != 1 {
		return Commit{}, errors.New("no such commit")
	}
	return cs[0], nil
}

// recent returns up to n commits, newest first, without patches.
func (g git) recent(ctx context.Context, n int, rev string) ([]Commit, error) {
	args := []string{"log", fmt.Sprintf("--max-count=%d", n), logFormat}
	if rev != "" {
		args = append(args, "--end-of-options", rev)
	}
	args = append(args, "--")
	out, err := g.run(ctx, args...)
	if err != nil {
		if isEmptyRepo(err) || strings.Contains(err.Error(), "bad revision") || strings.Contains(err.Error(), "unknown revision") {
			return nil, nil
		}
		return nil, err
	}
	return parseLog(out), nil
}
