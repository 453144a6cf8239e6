package gitsync

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/redact"
)

// HistorySecret is a commit that adds lines holding secrets to one file.
type HistorySecret struct {
	Commit string   `json:"commit"`
	Date   string   `json:"date"`
	Path   string   `json:"path"` // relative to memory/
	Kinds  []string `json:"kinds"`
}

// privateKeyBlock is the replacement rule for PEM private keys, whose inner
// lines carry no marker of their own.
const privateKeyBlock = `regex:-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----==>[REDACTED:private-key]`

// HistorySecrets scans every commit reachable from any ref of home's memory
// repository for added lines the redactor would change. It returns them,
// newest first, with the replacement rules (git filter-repo and BFG
// --replace-text format: each offending line, literally, to its redacted
// form) that purge them from history. Nothing is rewritten here: rewriting
// shared history is the user's decision. The rules hold the secrets: the
// caller writes them to a private file, never to output.
func HistorySecrets(ctx context.Context, home string) ([]HistorySecret, []string, error) {
	mem := layout.Home(home).Memory()
	if _, err := os.Stat(filepath.Join(mem, ".git")); err != nil {
		return nil, nil, nil // no repository, no history
	}
	g := &git{dir: mem, readOnly: true}
	if ok, _ := g.ok(ctx, "rev-parse", "--verify", "--quiet", "HEAD"); !ok {
		return nil, nil, nil // no commit yet
	}
	out, err := g.run(ctx, "log", "--all", "--no-color", "--no-ext-diff", "--no-textconv", "--unified=0",
		"--format=%x00%H %cI", "-p")
	if err != nil {
		return nil, nil, err
	}
	var found []HistorySecret
	var rules []string
	seen := map[string]bool{}
	var commit, date, path string
	var cur *HistorySecret
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "\x00"):
			commit, date, _ = strings.Cut(line[1:], " ")
			path, cur = "", nil
		case strings.HasPrefix(line, "+++ "):
			path, cur = strings.TrimPrefix(strings.TrimPrefix(line, "+++ "), "b/"), nil
		case strings.HasPrefix(line, "+") && path != "":
			added := line[1:]
			red, kinds := redact.Redact(added)
			if len(kinds) == 0 {
				continue
			}
			if cur == nil {
				found = append(found, HistorySecret{Commit: commit, Date: date, Path: path})
				cur = &found[len(found)-1]
			}
			for _, k := range kinds {
				if !slices.Contains(cur.Kinds, k) {
					cur.Kinds = append(cur.Kinds, k)
				}
			}
			rule := "literal:" + added + "==>" + red
			if slices.Contains(kinds, "private-key") {
				rule = privateKeyBlock
			} else if strings.Count(rule, "==>") != 1 {
				continue // the format cannot say it; the commit is still reported
			}
			if !seen[rule] {
				seen[rule] = true
				rules = append(rules, rule)
			}
		}
	}
	for i := range found {
		slices.Sort(found[i].Kinds)
	}
	return found, rules, nil
}
