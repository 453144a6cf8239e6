// Package scrub finds secrets already in a store (note files written before
// the store redacted, kept on purpose, or hand-edited) and in its git
// history; it redacts the files on request and says how to purge history,
// which it never rewrites itself (shared history is the user's decision).
package scrub

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/atomicfile"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// replacementsFile holds the rules that purge secrets from history. They
// contain the secrets themselves, so the file is private (0600) and lives
// beside config.json, outside the synced tree.
const ReplacementsFile = "scrub-replacements.txt"

// Result is what a scrub found and did.
type Result struct {
	Applied  bool                    `json:"applied"`
	Files    []store.Scrubbed        `json:"files"`
	Commit   string                  `json:"commit,omitempty"`
	History  []gitsync.HistorySecret `json:"history"`
	Rules    string                  `json:"replacements_file,omitempty"`
	Commands []string                `json:"purge_commands,omitempty"`
}

// Run scrubs st (whose home is home): a report, or with apply the note
// files redacted and committed and the purge rules written.
func Run(ctx context.Context, st *store.Store, home, machineID string, apply bool) (Result, error) {
	var err error
	res := Result{Applied: apply}
	if res.Files, err = st.Scrub(ctx, apply); err != nil {
		return res, err
	}
	if apply {
		var paths []string
		for _, f := range res.Files {
			if rel, ok := strings.CutPrefix(f.Path, layout.TreeName(note.Portable)+"/"); ok && !f.Unreadable {
				paths = append(paths, rel)
			}
		}
		if len(paths) > 0 {
			msg := fmt.Sprintf("anamnesis: scrub secrets from %d note(s)", len(paths))
			if res.Commit, err = gitsync.CommitPaths(ctx, home, machineID, msg, 30*time.Second, paths...); err != nil {
				return res, fmt.Errorf("notes redacted, but the commit failed (the next sync commits them): %w", err)
			}
		}
	}
	history, rules, err := gitsync.HistorySecrets(ctx, home)
	if err != nil {
		return res, err
	}
	res.History = history
	if len(history) > 0 {
		res.Rules = filepath.Join(home, ReplacementsFile)
		mem := layout.Home(home).Memory()
		m, r := cli.ShellQuote(mem), cli.ShellQuote(res.Rules)
		// filter-repo drops the origin remote after a rewrite; the URL is
		// kept in a shell variable so it is never printed (it may hold a token).
		res.Commands = []string{
			fmt.Sprintf(`url=$(git -C %s remote get-url origin) && git -C %s filter-repo --force --replace-text %s && { git -C %s remote add origin "$url" 2>/dev/null; git -C %s push --force --all origin; }`, m, m, r, m, m),
			fmt.Sprintf("rm %s", r),
		}
		if apply {
			if err := atomicfile.Write(res.Rules, []byte(strings.Join(rules, "\n")+"\n"), layout.FileMode); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// Remaining says whether secrets remain after this run: in the note files
// (a report, or files too broken to rewrite) or in git history (until its
// purge commands run). `anamnesis scrub` then exits 1.
func (res Result) Remaining() bool {
	for _, f := range res.Files {
		if !res.Applied || f.Unreadable {
			return true
		}
	}
	return len(res.History) > 0
}

// Text writes the result for a terminal.
func (res Result) Text(w io.Writer) {
	verb := "would redact"
	if res.Applied {
		verb = "redacted"
	}
	for _, f := range res.Files {
		if f.Unreadable {
			fmt.Fprintf(w, "scrub: %s holds secrets (%s) but is not a readable note: redact it by hand\n", f.Path, strings.Join(f.Kinds, ", "))
			continue
		}
		fmt.Fprintf(w, "scrub: %s %s (%s)\n", verb, f.Path, strings.Join(f.Kinds, ", "))
	}
	switch {
	case len(res.Files) == 0:
		fmt.Fprintln(w, "scrub: no secrets in the notes")
	case !res.Applied:
		fmt.Fprintf(w, "scrub: %d note file(s) hold secrets; run `anamnesis scrub --apply` to redact them\n", len(res.Files))
	case res.Commit != "":
		fmt.Fprintf(w, "scrub: committed the redacted notes (%s); the next sync sends them to your other machines\n", res.Commit)
	}
	if len(res.History) == 0 {
		fmt.Fprintln(w, "scrub: no secrets in git history")
		return
	}
	for _, h := range res.History {
		fmt.Fprintf(w, "scrub: commit %s (%s) adds %s with secrets (%s)\n", h.Commit[:min(12, len(h.Commit))], h.Date, h.Path, strings.Join(h.Kinds, ", "))
	}
	commits := map[string]bool{}
	for _, h := range res.History {
		commits[h.Commit] = true
	}
	fmt.Fprintf(w, "scrub: %d commit(s) in git history still hold secrets, on this machine and on the remote.\n", len(commits))
	fmt.Fprintln(w, "scrub: redacting the files does not remove them from history. Rotate those credentials first.")
	fmt.Fprintln(w, "scrub: to purge history (this rewrites shared history: every other machine must re-clone memory/ afterwards):")
	if !res.Applied {
		fmt.Fprintf(w, "scrub: (run `anamnesis scrub --apply` first: it redacts the files and writes %s, the private list these commands use)\n", res.Rules)
	}
	for _, c := range res.Commands {
		fmt.Fprintf(w, "  %s\n", c)
	}
	fmt.Fprintln(w, "scrub: (git filter-repo: https://github.com/newren/git-filter-repo; on a store without a remote, run the filter-repo part alone)")
}
