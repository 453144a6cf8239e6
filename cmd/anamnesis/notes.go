package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/input"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/status"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
	"github.com/anamnesis-dev/anamnesis/pkg/term"
)

// common flags every data command takes.
type common struct {
	home string
	json bool
}

func (c *common) register(fs *flag.FlagSet, withJSON bool) {
	fs.StringVar(&c.home, "home", "", "store directory (default $ANAMNESIS_HOME or ~/.anamnesis)")
	if withJSON {
		fs.BoolVar(&c.json, "json", false, "print JSON")
	}
}

func (c *common) config(e *env) config.Config { return config.Resolve(c.home, e.getenv) }

func (c *common) open(ctx context.Context, e *env) (*store.Store, config.Config, error) {
	return c.openWith(ctx, e, store.Open)
}

// openWith opens the store with opener and says so when it had to move an
// unusable index aside (the index is rebuilt from the notes; nothing is lost).
func (c *common) openWith(ctx context.Context, e *env, opener func(context.Context, string) (*store.Store, error)) (*store.Store, config.Config, error) {
	cfg := c.config(e)
	s, err := opener(ctx, cfg.Home)
	if err == nil {
		if moved, why := s.SetAside(); moved != "" {
			fmt.Fprintf(e.stderr, "anamnesis: the index was unusable (%s); moved it to %s and rebuilt it from the notes\n", why, moved)
		}
	}
	return s, cfg, err
}

// parseArgs parses flags that may appear before or after positional
// arguments ("anamnesis get ID --json" as well as "anamnesis get --json ID").
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := cli.Parse(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			trimProject(fs)
			return pos, nil
		}
		if args[0] == "--" {
			trimProject(fs)
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// trimProject makes a --project given with spaces around it (pasted, or
// from ANAMNESIS_PROJECT) the key, for every command that takes one: write
// stores it so, as MCP and the dashboard do, and a key with the spaces is
// no project's, so list, search, block, reflect and consolidate found
// nothing under it.
func trimProject(fs *flag.FlagSet) {
	if f := fs.Lookup("project"); f != nil {
		if v := f.Value.String(); v != strings.TrimSpace(v) {
			f.Value.Set(strings.TrimSpace(v))
		}
	}
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func runWrite(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "write")
	var c common
	c.register(fs, true)
	typ := fs.String("type", "", "procedural, semantic or episodic")
	title := fs.String("title", "", "short title")
	body := fs.String("body", "", "body text (else --body-file, else stdin)")
	bodyFile := fs.String("body-file", "", "read the body from this file ('-' for stdin)")
	project := fs.String("project", note.Global, "project key")
	tags := fs.String("tags", "", "comma-separated tags")
	scope := fs.String("scope", note.Portable, "portable or machine-local")
	keep := fs.Bool("keep-secrets", false, "store secrets as given instead of redacting them (the note syncs to every machine and stays in git history)")
	teamName := fs.String("team", "", "write the note to this team's store (shared with the team at the next sync)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("write takes no arguments (got %q); use --title and --body", pos)
	}
	n := note.New(*typ, *title, *body)
	// Spaces around a key are no part of it, as MCP and the dashboard
	// take it: kept, the note would be in no project's block or search.
	n.Project, n.Scope, n.Tags = strings.TrimSpace(*project), *scope, note.ParseTags(*tags)
	n.ID = "pending" // Write assigns the real id; this lets Validate run first
	if err := n.Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	if *teamName != "" {
		if *keep {
			return cli.Usagef("--keep-secrets cannot be used with --team: a team's notes reach every member")
		}
		cfg := c.config(e)
		if err := team.Prepare(ctx, cfg, n, *teamName); err != nil {
			return cli.Usagef("%v", err)
		}
	}
	switch {
	case *body != "" && *bodyFile != "":
		return cli.Usagef("give --body or --body-file, not both")
	case *bodyFile == "-" || (*body == "" && *bodyFile == ""):
		if term.IsTerminal(e.stdin) {
			return cli.Usagef("no body: give --body, --body-file or pipe it on stdin")
		}
		data, err := io.ReadAll(io.LimitReader(e.stdin, note.MaxFile+1))
		if err != nil {
			return err
		}
		if len(data) == 0 {
			// </dev/null, or a pipe that closed at once: not a body.
			return cli.Usagef("no body: stdin was empty; give --body, --body-file or pipe the body on stdin")
		}
		n.Body = strings.TrimSuffix(string(data), "\n")
	case *bodyFile != "":
		// A regular file only, bounded: /dev/zero or a FIFO must not hang
		// or exhaust the command.
		data, err := input.ReadFile(*bodyFile, note.MaxFile)
		if err != nil {
			return err
		}
		n.Body = strings.TrimSuffix(string(data), "\n")
	}
	s, cfg, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	n.MachineID = cfg.MachineID
	var redacted []string
	w, err := s.Write(ctx, n, store.KeepSecrets(*keep), store.Redacted(&redacted))
	if err != nil {
		return err
	}
	inject.RefreshStale(ctx, s)
	if msg := team.HeldNotice(w); msg != "" {
		fmt.Fprintln(e.stderr, "write: "+msg)
	}
	if len(redacted) > 0 {
		fmt.Fprintf(e.stderr, "write: redacted secrets (%s); the note holds [REDACTED] in their place (--keep-secrets stores them as given)\n",
			strings.Join(redacted, ", "))
	}
	if c.json {
		return printJSON(e.stdout, w.Out(true))
	}
	fmt.Fprintln(e.stdout, w.ID)
	return nil
}

// withNote parses "CMD ID [--json] [--home DIR]", validates the id before
// touching the store, and runs fn with the open store.
func withNote(ctx context.Context, e *env, cmd string, args []string, fn func(s *store.Store, id string, asJSON bool) error) error {
	fs := commandFlags(e, cmd)
	var c common
	c.register(fs, true)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return cli.Usagef("usage: anamnesis %s ID", cmd)
	}
	if err := note.CheckID(pos[0]); err != nil {
		return cli.Usagef("%v", err)
	}
	s, _, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s, pos[0], c.json)
}

func runGet(ctx context.Context, e *env, args []string) error {
	return withNote(ctx, e, "get", args, func(s *store.Store, id string, asJSON bool) error {
		if asJSON {
			n, err := s.Get(ctx, id)
			if err != nil {
				return err
			}
			return printJSON(e.stdout, n.Out(true))
		}
		p, err := s.Path(ctx, id)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(data)
		return err
	})
}

func runRm(ctx context.Context, e *env, args []string) error {
	return withNote(ctx, e, "rm", args, func(s *store.Store, id string, asJSON bool) error {
		var teamName string // a team's note leaves every member's store, not only this one
		if n, err := s.Get(ctx, id); err == nil {
			teamName = n.Team
		}
		if err := s.Delete(ctx, id); err != nil {
			return err
		}
		inject.RefreshStale(ctx, s)
		if asJSON {
			out := map[string]any{"deleted": id}
			if teamName != "" {
				out["team"] = teamName
			}
			return printJSON(e.stdout, out)
		}
		if teamName != "" {
			fmt.Fprintf(e.stdout, "deleted %s from team %s: %s\n", id, teamName, team.Deletion(ctx, config.Resolve(s.Home(), e.getenv), teamName))
			return nil
		}
		fmt.Fprintf(e.stdout, "deleted %s\n", id)
		return nil
	})
}

// runRelease lifts the screen's hold on a note (SPEC 17): only a person
// does this, after reading it.
func runRelease(ctx context.Context, e *env, args []string) error {
	return withNote(ctx, e, "release", args, func(s *store.Store, id string, asJSON bool) error {
		var redacted []string
		n, err := s.Release(ctx, id, store.Redacted(&redacted))
		if err != nil {
			return err
		}
		if len(redacted) > 0 {
			fmt.Fprintf(e.stderr, "release: redacted secrets (%s); the note holds [REDACTED] in their place\n", strings.Join(redacted, ", "))
		}
		if asJSON {
			return printJSON(e.stdout, n.Out(false))
		}
		if n.Team != "" {
			fmt.Fprintf(e.stdout, "released %s, team %s's note by %s, on this machine only: recorded in %s, not in the team's files; inject, recall and search here show it from now on, other members' machines still hold it, and an edit of its text is screened again\n",
				id, n.Team, cmp.Or(n.Author, "unknown"), store.TeamReleasesPath(s.Home()))
			return nil
		}
		fmt.Fprintf(e.stdout, "released %s: inject, recall and search show it from now on\n", id)
		return nil
	})
}

func filterFlags(fs *flag.FlagSet, f *store.Filter) {
	fs.StringVar(&f.Project, "project", "", "only this project")
	fs.StringVar(&f.Type, "type", "", "only this type")
	fs.StringVar(&f.Scope, "scope", "", "only this scope")
	fs.StringVar(&f.Team, "team", "", "only this team's notes (team notes are included by default)")
	f.Teams = true
}

func checkFilter(f store.Filter) error {
	if f.Type != "" && !contains(note.Types, f.Type) {
		return cli.Usagef("invalid --type %q (want one of %s)", f.Type, strings.Join(note.Types, ", "))
	}
	if f.Scope != "" && !contains(note.Scopes, f.Scope) {
		return cli.Usagef("invalid --scope %q (want one of %s)", f.Scope, strings.Join(note.Scopes, ", "))
	}
	if f.Team != "" {
		if err := config.CheckTeamName(f.Team); err != nil {
			return cli.Usagef("--team: %v", err)
		}
	}
	return nil
}

// joinedFilter refuses a --team this person has not joined (a typo, a
// team left), as MCP does: "no notes match" would hide the mistake.
func joinedFilter(cfg config.Config, f store.Filter) error {
	if f.Team == "" {
		return nil
	}
	if err := team.Joined(cfg, f.Team); err != nil {
		return cli.Usagef("--team: %v", err)
	}
	return nil
}

// filterText names the filters in effect, for the line an empty result prints.
func filterText(f store.Filter) string {
	var parts []string
	for _, p := range [][2]string{{"project", f.Project}, {"type", f.Type}, {"scope", f.Scope}, {"machine", f.Machine}, {"team", f.Team}} {
		if p[1] != "" {
			parts = append(parts, p[0]+" "+p[1])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func printNotes(w io.Writer, notes []*note.Note) {
	for _, n := range notes {
		printLine(w, n.ID, n.Type, n.Project, n.Title, n.Team)
	}
}

// teamLabel marks a team's note in a listing.
func teamLabel(team string) string {
	if team == "" {
		return ""
	}
	return "  (team " + team + ")"
}

// printLine is the one line list and search print per note. The project
// is as the note's file has it (a teammate's, a hand edit): made one
// printable line, as the title already is.
func printLine(w io.Writer, id, typ, project, title, team string) {
	fmt.Fprintf(w, "%s  %-10s  %-20s  %s%s\n", id, typ, note.OneLine(project), title, teamLabel(team))
}

func runList(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "list")
	var c common
	c.register(fs, true)
	var f store.Filter
	filterFlags(fs, &f)
	fs.StringVar(&f.Machine, "machine", "", "only notes written on this machine")
	fs.IntVar(&f.Limit, "limit", 0, "at most this many (0 = all)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("list takes no arguments")
	}
	if err := checkFilter(f); err != nil {
		return err
	}
	if f.Limit < 0 {
		return cli.Usagef("--limit must be >= 0")
	}
	s, cfg, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := joinedFilter(cfg, f); err != nil {
		return err
	}
	notes, err := s.List(ctx, f)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, note.Outs(notes, false))
	}
	if len(notes) == 0 {
		// On stderr: stdout stays one note per line for scripts.
		fmt.Fprintln(e.stderr, "no notes"+filterText(f))
	}
	printNotes(e.stdout, notes)
	return sayHeld(ctx, e, s, f)
}

// sayHeld tells the person, on stderr, how many notes of f's scope list and
// search left out as held, as MCP's memory_list and memory_search tell the
// model: without it a captured or imported note the screen held was simply
// not there.
func sayHeld(ctx context.Context, e *env, s *store.Store, f store.Filter) error {
	f.Held, f.Limit, f.Offset = true, 0, 0
	n, err := s.Count(ctx, f)
	if err != nil || n == 0 {
		return err
	}
	fmt.Fprintf(e.stderr, "%d held note(s) left out: they read as instructions to an agent (anamnesis status lists them; anamnesis get ID shows one, anamnesis release ID lets it through)\n", n)
	return nil
}

func runSearch(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "search")
	var c common
	c.register(fs, true)
	var f store.Filter
	filterFlags(fs, &f)
	k := fs.Int("k", 8, "how many results (clamped to 1-100)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return cli.Usagef("usage: anamnesis search QUERY")
	}
	if err := checkFilter(f); err != nil {
		return err
	}
	s, cfg, err := c.openWith(ctx, e, store.OpenReader)
	if err != nil {
		return err
	}
	if err := joinedFilter(cfg, f); err != nil {
		return err
	}
	// No Close, as in the hooks: a reader has nothing to checkpoint and the
	// process ends after printing (docs/performance.md: what closing costs).
	query := strings.Join(pos, " ")
	hits, err := s.Search(ctx, store.Query{Text: query, Filter: f, K: *k})
	if err != nil {
		return err
	}
	if c.json {
		// Whole notes, bodies included, as their files hold them.
		return printJSON(e.stdout, note.Outs(store.Notes(hits), true))
	}
	// The lines list prints, from the index as list reads them: the
	// files are not read.
	if len(hits) == 0 {
		fmt.Fprintf(e.stderr, "no notes match %q%s\n", query, filterText(f))
	}
	for _, h := range hits {
		printLine(e.stdout, h.ID, h.Type, h.Project, h.Title, h.Team)
	}
	return sayHeld(ctx, e, s, f)
}

func runReindex(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "reindex")
	var c common
	c.register(fs, true)
	full := fs.Bool("full", false, "rebuild the whole index from the files")
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("reindex takes no arguments (got %q)", pos)
	}
	s, _, err := c.openWith(ctx, e, store.Open)
	if err != nil {
		return err
	}
	// No Close: the process ends after printing, and closing frees a
	// rebuild's page cache a page at a time (docs/performance.md). Each
	// reindex leaves its transaction committed and the WAL copied.
	// --full is the repair doctor prints: the rebuild reads every page of
	// the old index, and one with damage the header does not show is moved
	// aside and rebuilt (Store.Rebuild).
	before, _ := s.SetAside()
	var r store.ReindexResult
	if *full {
		r, err = s.Rebuild(ctx)
	} else {
		r, err = s.Reindex(ctx, false)
	}
	if err != nil {
		return err
	}
	if moved, why := s.SetAside(); moved != before {
		fmt.Fprintf(e.stderr, "anamnesis: the index was damaged (%s); moved it to %s and rebuilt it from the notes\n", why, moved)
	}
	probs, _ := s.Problems(ctx)
	if c.json {
		return printJSON(e.stdout, map[string]any{"indexed": r.Indexed, "removed": r.Removed, "unchanged": r.Unchanged,
			"skipped": r.Skipped, "total": r.Total, "unreadable": problemsOrEmpty(probs)})
	}
	// The seed prints the notes in the index; --json says what was re-read.
	fmt.Fprintf(e.stdout, "reindex: indexed %d note(s)\n", r.Total)
	if len(probs) > 0 {
		fmt.Fprintf(e.stderr, "reindex: %d file(s) could not be read; see 'anamnesis status'\n", len(probs))
	}
	return nil
}

func problemsOrEmpty(p []store.Problem) []store.Problem {
	if p == nil {
		return []store.Problem{}
	}
	return p
}

func runStatus(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "status")
	var c common
	c.register(fs, true)
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("status takes no arguments (got %q)", pos)
	}
	s, cfg, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := status.Build(ctx, s, cfg.MachineID, gitsync.State(ctx, cfg.Home, cfg.Remote, s))
	if err != nil {
		return err
	}
	if cfg.FileErr != nil {
		rep.ConfigError = cfg.FileErr.Error()
	}
	// The injection trace is this machine's hook log, not the store's: it
	// is shown here and on the dashboard, not in MCP's memory_status.
	inj := lastInjections(cfg.Home, statusInjections)
	var marker *project.Resolution
	if r := project.Here("", cfg); r.Ignored != "" {
		marker = &r
	}
	if c.json {
		var ignored map[string]string
		if marker != nil {
			ignored = map[string]string{"path": marker.Marker, "reason": marker.Ignored, "project": marker.Key}
		}
		return printJSON(e.stdout, struct {
			status.Report
			Injections    []session.Entry   `json:"injections"`
			MarkerIgnored map[string]string `json:"marker_ignored,omitempty"`
		}{rep, inj, ignored})
	}
	if err := rep.Text(e.stdout); err != nil {
		return err
	}
	if marker != nil {
		fmt.Fprintf(e.stdout, "marker:   %s ignored: %s; notes here go under %s\n", marker.Marker, marker.Ignored, marker.Key)
	}
	printInjections(e.stdout, inj)
	return nil
}
