package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

const teamUsage = "usage: anamnesis team add NAME URL [--projects GLOB,...] [--review] | list | remove NAME [--force] | review NAME [--accept proposals/AUTHOR]"

// runTeam is `anamnesis team`: join, list, leave and review team stores (SPEC 18).
func runTeam(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 {
		return cli.Usagef(teamUsage)
	}
	if strings.HasPrefix(args[0], "-") {
		// anamnesis team --help: every subcommand's flags in one list.
		fs := commandFlags(e, "team")
		var c common
		c.register(fs, true)
		fs.String("projects", "", "add: comma-separated project-key globs the team's global notes are shown in (default: every project)")
		fs.Bool("review", false, "add: send your team notes to proposals/<author> for review instead of the team's main branch")
		fs.Bool("force", false, "remove: remove even with notes the remote lacks (they are lost)")
		fs.String("accept", "", "review: merge this proposal branch into the team's main and push it")
		if _, err := parseArgs(fs, args); err != nil {
			return err
		}
		return cli.Usagef(teamUsage)
	}
	verb, rest := args[0], args[1:]
	fs := commandFlags(e, "team "+verb)
	var c common
	c.register(fs, true)
	switch verb {
	case "add":
		projects := fs.String("projects", "", "comma-separated project-key globs the team's global notes are shown in (default: every project)")
		review := fs.Bool("review", false, "send your team notes to proposals/<author> for review instead of the team's main branch")
		pos, err := parseArgs(fs, rest)
		if err != nil {
			return err
		}
		if len(pos) != 2 {
			return cli.Usagef("usage: anamnesis team add NAME URL [--projects GLOB,...] [--review]")
		}
		t := config.Team{Name: pos[0], URL: pos[1], Review: *review}
		for _, g := range strings.Split(*projects, ",") {
			if g = strings.TrimSpace(g); g != "" {
				t.Projects = append(t.Projects, g)
			}
		}
		if err := team.Check(t); err != nil {
			return cli.Usagef("%v", err)
		}
		cfg := c.config(e)
		// A URL that reaches no repository changes nothing, not even a
		// home not made yet: asked before anything is written, as
		// config.json will hold it (a relative path made absolute).
		t.URL = config.AbsRemote(t.URL)
		if _, err := exec.LookPath("git"); err != nil {
			return fmt.Errorf("team %s not added, nothing was changed: %w (a team's notes sync over git)", t.Name, gitsync.ErrNoGit)
		}
		if err := gitsync.Probe(ctx, t.URL, gitsync.OptionsFrom(cfg).Timeout); err != nil {
			return fmt.Errorf("team %s not added, nothing was changed: %s does not answer: %v", t.Name, gitsync.MaskURL(t.URL), err)
		}
		before := team.Snapshot(cfg.Home)
		if err := team.Add(cfg.Home, t); err != nil {
			return err
		}
		s, cfg, err := c.open(ctx, e)
		if err != nil {
			return err
		}
		defer s.Close()
		// The first fetch: a URL that reaches no repository is refused now,
		// and nothing stays behind.
		tr, err := gitsync.SyncTeam(ctx, gitsync.OptionsFrom(cfg), s, t.Name)
		if err != nil {
			if tr.Error != "" {
				err = errors.New(tr.Error) // not its detail: no notes of this home wait to be sent
			}
			if rerr := team.Abandon(ctx, s, t.Name, before); rerr != nil {
				return fmt.Errorf("team %s: %v (and undoing the add failed: %v)", t.Name, err, rerr)
			}
			return fmt.Errorf("team %s not added, nothing was changed: %v", t.Name, err)
		}
		if c.json {
			return printJSON(e.stdout, tr)
		}
		mode := "writes go to the team's main branch"
		if t.Review {
			mode = "writes go to " + gitsync.ProposalBranch(gitsync.Author(ctx, cfg.Author, cfg.MachineID)) + " for review"
		}
		fmt.Fprintf(e.stdout, "joined team %s (%s): %s; %s\n", t.Name, gitsync.MaskURL(t.URL), tr.Detail, mode)
		return nil
	case "list":
		pos, err := parseArgs(fs, rest)
		if err != nil {
			return err
		}
		if len(pos) > 0 {
			return cli.Usagef("team list takes no arguments")
		}
		cfg := c.config(e)
		type row struct {
			Name     string   `json:"name"`
			URL      string   `json:"url"`
			Projects []string `json:"projects"`
			Review   bool     `json:"review"`
			Dir      string   `json:"dir"`
		}
		rows := []row{}
		for _, t := range cfg.Teams {
			ps := t.Projects
			if ps == nil {
				ps = []string{}
			}
			rows = append(rows, row{t.Name, gitsync.MaskURL(t.URL), ps, t.Review, layout.Home(cfg.Home).Team(t.Name)})
		}
		if c.json {
			return printJSON(e.stdout, rows)
		}
		if len(rows) == 0 {
			fmt.Fprintln(e.stderr, "no teams (join one with anamnesis team add NAME URL)")
		}
		for _, r := range rows {
			extra := ""
			if len(r.Projects) > 0 {
				extra += "  projects " + strings.Join(r.Projects, ",")
			}
			if r.Review {
				extra += "  review"
			}
			fmt.Fprintf(e.stdout, "%s  %s%s\n", r.Name, r.URL, extra)
		}
		return nil
	case "remove":
		force := fs.Bool("force", false, "remove even with notes the remote lacks (they are lost)")
		pos, err := parseArgs(fs, rest)
		if err != nil {
			return err
		}
		if len(pos) != 1 {
			return cli.Usagef("usage: anamnesis team remove NAME [--force]")
		}
		if err := config.CheckTeamName(pos[0]); err != nil {
			return cli.Usagef("%v", err)
		}
		s, _, err := c.open(ctx, e)
		if err != nil {
			return err
		}
		defer s.Close()
		if err := team.Remove(ctx, s, pos[0], *force); err != nil {
			if errors.Is(err, team.ErrUnknown) {
				return cli.Usagef("%v", err)
			}
			return err
		}
		fmt.Fprintf(e.stdout, "left team %s; its notes are gone from this machine (the team's remote keeps them)\n", pos[0])
		return nil
	case "review":
		accept := fs.String("accept", "", "merge this proposal branch (as listed) into the team's main and push it")
		pos, err := parseArgs(fs, rest)
		if err != nil {
			return err
		}
		if len(pos) != 1 {
			return cli.Usagef("usage: anamnesis team review NAME [--accept proposals/AUTHOR]")
		}
		if err := config.CheckTeamName(pos[0]); err != nil {
			return cli.Usagef("%v", err)
		}
		s, cfg, err := c.open(ctx, e)
		if err != nil {
			return err
		}
		defer s.Close()
		if _, ok := cfg.Team(pos[0]); !ok {
			return cli.Usagef("%v: %s (anamnesis team list)", team.ErrUnknown, pos[0])
		}
		if *accept != "" {
			tr, err := gitsync.AcceptProposal(ctx, gitsync.OptionsFrom(cfg), s, pos[0], *accept)
			if err != nil {
				return err
			}
			if c.json {
				return printJSON(e.stdout, tr)
			}
			fmt.Fprintf(e.stdout, "team %s: %s (head %s)\n", pos[0], tr.Detail, tr.Head)
			return nil
		}
		if err := gitsync.FetchTeam(ctx, s, pos[0], gitsync.DefaultTimeout); err != nil {
			return err
		}
		list, err := gitsync.Proposals(ctx, s, pos[0])
		if err != nil {
			return err
		}
		if c.json {
			if list == nil {
				list = []gitsync.ProposalInfo{}
			}
			return printJSON(e.stdout, list)
		}
		if len(list) == 0 {
			fmt.Fprintf(e.stdout, "team %s: no proposals waiting\n", pos[0])
		}
		for _, p := range list {
			fmt.Fprintf(e.stdout, "%s  %d commit(s)\n", p.Branch, p.Commits)
			for _, f := range p.Files {
				fmt.Fprintf(e.stdout, "    %s\n", f)
			}
		}
		if len(list) > 0 {
			fmt.Fprintf(e.stdout, "read one with git -C %s show origin/BRANCH; merge with anamnesis team review %s --accept BRANCH\n", s.TeamDir(pos[0]), pos[0])
		}
		// This fetch may have found the team's history rewritten: said
		// here, where the person is looking, as status and doctor say it.
		if p := gitsync.RewritePending(ctx, s.TeamDir(pos[0])); p != nil {
			fmt.Fprintf(e.stderr, "team %s: %s; fix: %s\n", pos[0], p.Detail, p.Fix)
		}
		return nil
	}
	return cli.Usagef(teamUsage)
}
