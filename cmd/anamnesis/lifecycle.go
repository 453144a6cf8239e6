package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/lifecycle"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// upkeep holds the flags every lifecycle command shares (SPEC 14).
type upkeep struct {
	common
	apply, noSync bool
}

func (u *upkeep) register(fs *flag.FlagSet) {
	u.common.register(fs, true)
	fs.BoolVar(&u.apply, "apply", false, "write the changes (default: a dry run that writes nothing)")
	fs.BoolVar(&u.noSync, "no-sync", false, "with --apply: commit locally but do not sync")
}

// syncOptions is the sync after an apply, nil with --no-sync.
func (u *upkeep) syncOptions(cfg config.Config) *gitsync.Options {
	if u.noSync {
		return nil
	}
	o := gitsync.OptionsFrom(cfg)
	return &o
}

// openUpkeep opens the store and settles what a killed lifecycle apply
// left (its journal rolled back or forward), saying so.
func (u *upkeep) openUpkeep(ctx context.Context, e *env) (*store.Store, config.Config, error) {
	s, cfg, err := u.open(ctx, e)
	if err != nil {
		return s, cfg, err
	}
	lines, err := lifecycle.Recover(ctx, s, cfg.MachineID)
	for _, l := range lines {
		fmt.Fprintln(e.stderr, "anamnesis: "+l)
	}
	if err != nil {
		s.Close()
		return nil, cfg, err
	}
	return s, cfg, nil
}

// report prints the result (JSON, or the report then the commit and sync
// lines) and returns the command's error.
func (u *upkeep) report(e *env, res interface{ Print(io.Writer) }, lines []string, err error) error {
	if u.json {
		if perr := printJSON(e.stdout, res); perr != nil {
			return perr
		}
		return err
	}
	res.Print(e.stdout)
	for _, l := range lines {
		fmt.Fprintln(e.stdout, l)
	}
	if !u.apply {
		fmt.Fprintln(e.stdout, "dry run: nothing written; add --apply to write")
	}
	return err
}

// scoped adds --project, --all and --min for reflect and consolidate, and
// the plan flags.
type scoped struct {
	upkeep
	project string
	all     bool
	min     int
	plan    string
	maxNew  int
}

// options are the lifecycle options the flags give.
func (sc *scoped) options(cfg config.Config) lifecycle.Options {
	return lifecycle.Options{Apply: sc.apply, MachineID: cfg.MachineID, Plan: sc.plan, MaxNew: sc.maxNew, AllProjects: sc.all}
}

func (sc *scoped) register(fs *flag.FlagSet, def int, minEnv string, maxNew int) {
	sc.upkeep.register(fs)
	fs.StringVar(&sc.project, "project", "", "project key (default: the current directory's project)")
	fs.BoolVar(&sc.all, "all", false, "every project")
	if def <= 0 {
		def = lifecycle.DefaultMin
	}
	fs.IntVar(&sc.min, "min", def, "notes a project needs before the model is asked ($"+minEnv+")")
	fs.StringVar(&sc.plan, "plan", "", "with --apply: apply this saved plan (the id a dry run printed)")
	if maxNew <= 0 {
		maxNew = lifecycle.DefaultMaxNew
	}
	fs.IntVar(&sc.maxNew, "max-new", maxNew, "most new notes one reply may create per project ($ANAMNESIS_MAX_NEW_NOTES)")
}

// check refuses --plan without --apply.
func (sc *scoped) check() error {
	if sc.plan != "" && !sc.apply {
		return cli.Usagef("--plan applies a saved plan: give it with --apply")
	}
	if sc.maxNew < 1 {
		return cli.Usagef("--max-new must be at least 1")
	}
	return nil
}

// projects resolves the projects the command covers.
func (sc *scoped) projects(ctx context.Context, e *env, s *store.Store, typ string) ([]string, error) {
	switch {
	case sc.all && sc.project != "":
		return nil, cli.Usagef("give --project or --all, not both")
	case sc.all:
		return lifecycle.Projects(ctx, s, typ)
	case sc.project != "":
		return []string{sc.project}, nil
	}
	return []string{project.Here("", config.Resolve(s.Home(), e.getenv)).Key}, nil
}

// modelClient is the configured model, or the error that says one is needed.
func modelClient(cfg config.Config) (model.Client, error) {
	c, err := model.New(model.FromConfig(cfg.Reflection))
	if errors.Is(err, model.ErrNoProvider) {
		return nil, fmt.Errorf("%w (the heuristic provider cannot do this)", err)
	}
	return c, err
}

func runReflect(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "reflect")
	var sc scoped
	cfg0 := config.Resolve("", e.getenv)
	sc.register(fs, cfg0.ReflectMin, "ANAMNESIS_REFLECT_MIN_EPISODICS", cfg0.MaxNewNotes)
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("reflect takes no arguments")
	} else if err := sc.check(); err != nil {
		return err
	}
	s, cfg, err := sc.openUpkeep(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	client, err := modelClient(cfg)
	if err != nil {
		return err
	}
	projects, err := sc.projects(ctx, e, s, "episodic")
	if err != nil {
		return err
	}
	res, err := lifecycle.Reflect(ctx, s, client, projects, sc.min, sc.options(cfg))
	if err == nil && sc.apply && res.Written {
		res.Lines, err = lifecycle.Finish(ctx, cfg.Home, cfg.MachineID, sc.syncOptions(cfg), res.Paths, "anamnesis reflect ("+cfg.MachineID+")")
	}
	return sc.report(e, res, res.Lines, err)
}

// readEvalSet reads an eval set file (approved cases only unless all).
func readEvalSet(path string, all bool) ([]eval.Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	read := eval.Read
	if all {
		read = eval.ReadAll
	}
	cases, err := read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cases, nil
}

func runConsolidate(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "consolidate")
	var sc scoped
	cfg0 := config.Resolve("", e.getenv)
	sc.register(fs, cfg0.ConsolidateMin, "ANAMNESIS_MERGE_MIN_DURABLE", cfg0.MaxNewNotes)
	set := fs.String("eval-set", "", "gate on this eval set's recall@8 (default: cases made from the notes)")
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("consolidate takes no arguments")
	} else if err := sc.check(); err != nil {
		return err
	}
	var cases []eval.Case
	if *set != "" {
		var err error
		if cases, err = readEvalSet(*set, false); err != nil {
			return err
		}
		if cases == nil {
			cases = []eval.Case{}
		}
	}
	s, cfg, err := sc.openUpkeep(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	client, err := modelClient(cfg)
	if err != nil {
		return err
	}
	projects, err := sc.projects(ctx, e, s, "")
	if err != nil {
		return err
	}
	res, err := lifecycle.Consolidate(ctx, s, client, projects, sc.min, cases, sc.options(cfg))
	if err == nil && sc.apply && res.Written {
		res.Lines, err = lifecycle.Finish(ctx, cfg.Home, cfg.MachineID, sc.syncOptions(cfg), res.Paths, "anamnesis consolidate ("+cfg.MachineID+")")
	}
	return sc.report(e, res, res.Lines, err)
}
