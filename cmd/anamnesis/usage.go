package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// commandFlags is the flag set of built-in command name ("eval run" for a
// subcommand), whose --help prints the command's usage line (its arguments,
// e.g. QUERY or ID, from the command table), what it does, what else it
// needs, its flags and examples. Every built-in's flag set comes from here,
// so `anamnesis help X` and `anamnesis X --help` print the same text.
func commandFlags(e *env, name string) *flag.FlagSet {
	fs := cli.FlagSet(name, e.stderr)
	fs.Usage = func() { printUsage(fs, name) }
	return fs
}

func printUsage(fs *flag.FlagSet, name string) {
	w := fs.Output()
	top, _, _ := strings.Cut(name, " ")
	if c := lookup(top); c != nil {
		fmt.Fprintf(w, "usage: anamnesis %s %s\n\n%s\n", c.name, c.args, c.summary)
	}
	h := helpText(top)
	if h.more != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(h.more))
	}
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		fmt.Fprintf(w, "\nFlags: each subcommand's (anamnesis %s run --help)\n", top)
	} else {
		fmt.Fprint(w, "\nFlags:\n")
		fs.PrintDefaults()
	}
	if len(h.examples) > 0 {
		label := "Example"
		if len(h.examples) > 1 {
			label = "Examples"
		}
		fmt.Fprintf(w, "\n%s:\n", label)
		for _, ex := range h.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

// helpOf prints built-in c's --help on stdout (`anamnesis help c`): the
// command itself prints it, so the two can never differ.
func helpOf(ctx context.Context, e *env, c *command) error {
	he := *e
	he.stderr = e.stdout
	err := c.run(ctx, &he, []string{"--help"})
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

type help struct {
	more     string   // what else the command needs or does, exit codes
	examples []string // typical uses
}

// modelNeeded is what reflect and consolidate say about their model.
const modelNeeded = `Needs a model provider: the default ("heuristic") cannot do this. Set one in
config.json or the environment, then check it with 'anamnesis config test':
  anamnesis config set reflection.provider openai    # or deepseek, local, claude
  anamnesis config set reflection.model gpt-4o-mini
  anamnesis config set reflection.api_key sk-...     # openai, deepseek
  anamnesis config set reflection.base_url http://localhost:11434/v1   # local
("claude" runs the Claude Code CLI you are logged in to; the environment's
ANAMNESIS_REFLECTION_PROVIDER, _MODEL, _API_KEY and _BASE_URL win over config.json.)
Without --apply it shows what it would write and changes nothing.`

// helpText is the help of built-in name beyond its usage line and flags.
func helpText(name string) help {
	switch name {
	case "help":
		return help{examples: []string{"anamnesis help search", "anamnesis help -a"}}
	case "version":
		return help{examples: []string{"anamnesis version --json"}}
	case "init":
		return help{more: `Wires Anamnesis into Claude Code: the SessionStart, UserPromptSubmit,
SessionEnd and PreCompact hooks in settings.json, the MCP server (claude mcp
add --scope user), config.json, and a first sync. Safe to run again; --print
shows the plan.`,
			examples: []string{
				"anamnesis init                                  # asks on a terminal",
				"anamnesis init --yes --local-only               # no questions, no remote",
				"anamnesis init --remote me@host:anamnesis.git   # sync through a bare repo",
				"anamnesis init --print                          # dry run",
			}}
	case "uninstall":
		return help{more: `Removes the hooks and the MCP registration init added. It keeps the store
(your notes, config.json, the git repository) and the binaries, and says
where they are; delete them yourself if you want them gone. A Claude Code
plugin is removed with 'claude plugin uninstall anamnesis@anamnesis'.`,
			examples: []string{"anamnesis uninstall --print", "anamnesis uninstall"}}
	case "doctor":
		return help{more: `Checks binaries, hooks (from init or the Claude Code plugin), the MCP server,
config, index, notes, the git repository and its remote: one line per check,
each failure with its fix. Exit 0 when everything works (warnings included),
1 when a check failed. Every index page and every note file are read only
under 256 MB of index (about 70,000 notes) unless --deep is given.`,
			examples: []string{"anamnesis doctor", "anamnesis doctor --deep", "anamnesis doctor --json --timeout 5"}}
	case "team":
		return help{more: `Team memory on a plain git remote the team already has (GitHub, GitLab, a
bare repository over ssh; docs/teams.md). add joins a team (config.json's
teams; its notes go to <home>/teams/NAME, a clone of URL) and fetches it
once: a URL that reaches no repository is refused. Write to it with
'anamnesis write --team NAME'; every sync brings each team up to date. With
--review your notes go to proposals/<author>; review lists proposals and
--accept merges one into the team's main. remove leaves the team, refusing
while notes are unpushed unless --force.`,
			examples: []string{
				"anamnesis team add platform git@github.com:acme/team-memory.git --projects 'github.com/acme/*'",
				"anamnesis team list",
				"anamnesis team review platform --accept proposals/dave",
				"anamnesis team remove platform",
			}}
	case "write":
		return help{examples: []string{`anamnesis write --type procedural --title "Run tests" --body "make test -race" --project github.com/acme/api`}}
	case "project":
		return help{more: `show prints the project key sessions in DIR (default: here) file notes
under, and whether an .anamnesis/project marker was used. A marker tracked by
the repository's git was written by whoever wrote the repository, so it is
ignored until you trust it: trust records its path and content hash in
config.json, and a later change to the file needs trusting again. A marker
may never name global.`,
			examples: []string{"anamnesis project show", "anamnesis project trust ~/src/app"}}
	case "release":
		return help{more: `Lets a note the screen held reach the model again. Model-written, captured
and imported notes that read like instructions to an agent are held: kept out
of inject, recall and search, listed by status and doctor. Read the note
first (anamnesis get ID); the release covers that text only, so a later edit
is screened again. A teammate's note (a team store) is released on this
machine only: the release is recorded in state/team-releases.json, never in
the team's files, where anyone who can push could forge one.`,
			examples: []string{"anamnesis release 01HF7YAT0000Z5KRW4X7KA0H5J"}}
	case "get":
		return help{examples: []string{"anamnesis get 01HF7YAT0000Z5KRW4X7KA0H5J --json"}}
	case "rm":
		return help{examples: []string{"anamnesis rm 01HF7YAT0000Z5KRW4X7KA0H5J"}}
	case "list":
		return help{examples: []string{"anamnesis list --type episodic --project github.com/acme/api --limit 5"}}
	case "search":
		return help{examples: []string{`anamnesis search "how do we deploy" --project github.com/acme/api --k 5`}}
	case "status":
		return help{examples: []string{"anamnesis status --json"}}
	case "reindex":
		return help{examples: []string{"anamnesis reindex --full"}}
	case "block":
		return help{examples: []string{"anamnesis block --project github.com/acme/api"}}
	case "import":
		return help{more: `Imports Claude Code's native memory files (<claude dir>/projects/*/memory/*.md,
not MEMORY.md) as notes: feedback becomes procedural, the rest semantic,
tagged import and kind:<type>. Re-imports update the same notes; unchanged
files are skipped, so a note you deleted stays deleted until Claude Code
changes its file; malformed ones are reported and skipped. Then syncs.`,
			examples: []string{"anamnesis import", "anamnesis import --claude-home ~/other/.claude --no-sync"}}
	case "scrub":
		return help{more: `Finds secrets already in the notes and in their git history (no model needed).
Without --apply it only reports; --apply redacts the note files, commits them
and prints the commands that purge the history.
Exit 0 when no secret remains, 1 when secrets remain: in the notes (before
--apply, or in files it cannot rewrite) or in git history (until purged).`,
			examples: []string{"anamnesis scrub", "anamnesis scrub --apply"}}
	case "config":
		return help{more: `Machine-local settings in <home>/config.json (never synced). 'list' shows the
set keys, then the defaults of the others, marked "(default)"; 'get' of an
unset key prints its default (or fails when it has none, like remote); the
environment (ANAMNESIS_*) wins over the file. 'test' asks the configured
model provider one question.`,
			examples: []string{
				"anamnesis config list",
				"anamnesis config get reflection.provider",
				"anamnesis config set remote git@github.com:me/anamnesis-memory.git",
				"anamnesis config test",
			}}
	case "eval":
		return help{more: `run: recall@k and MRR of the search over an eval set (JSONL cases);
build: make an eval set from the notes; experiment: measure what reflect or
consolidate would change (needs a model provider, as they do); coding: the
coding-memory benchmark (testdata/eval/coding) built through anamnesis-capture.`,
			examples: []string{"anamnesis eval run --eval-set cases.jsonl --per-category", "anamnesis eval coding --split heldout", "anamnesis eval run --help"}}
	case "reflect":
		return help{more: modelNeeded, examples: []string{"anamnesis reflect --project github.com/acme/api", "anamnesis reflect --all --apply"}}
	case "consolidate", "merge":
		return help{more: modelNeeded, examples: []string{"anamnesis consolidate --project github.com/acme/api", "anamnesis consolidate --all --apply"}}
	case "dedup":
		return help{more: "Without --apply it only reports.", examples: []string{"anamnesis dedup", "anamnesis dedup --apply"}}
	case "migrate":
		return help{more: "Without --apply it only reports.", examples: []string{`anamnesis migrate --map map.json   # {"old-project": "github.com/acme/api"}`, "anamnesis migrate --map map.json --apply"}}
	case "backfill-provenance":
		return help{more: "Without --apply it only reports.", examples: []string{"anamnesis backfill-provenance --apply"}}
	}
	return help{}
}
