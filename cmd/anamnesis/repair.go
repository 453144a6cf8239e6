package main

import (
	"context"
	"flag"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/lifecycle"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// repairCmd runs dedup, migrate or backfill-provenance with the shared flags.
func repairCmd(ctx context.Context, e *env, args []string, name string, extra func(fs *flag.FlagSet), do func(ctx context.Context, s *store.Store, apply bool) (*lifecycle.RepairResult, error)) error {
	fs := commandFlags(e, name)
	var u upkeep
	u.register(fs)
	if extra != nil {
		extra(fs)
	}
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("%s takes no arguments", name)
	}
	s, cfg, err := u.openUpkeep(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := do(ctx, s, u.apply)
	if err != nil {
		return err
	}
	if res.Written {
		res.Lines, err = lifecycle.Finish(ctx, cfg.Home, cfg.MachineID, u.syncOptions(cfg), res.Paths, "anamnesis "+name+" ("+cfg.MachineID+")")
	}
	return u.report(e, res, res.Lines, err)
}

func runDedup(ctx context.Context, e *env, args []string) error {
	return repairCmd(ctx, e, args, "dedup", nil, lifecycle.Dedup)
}

func runBackfill(ctx context.Context, e *env, args []string) error {
	return repairCmd(ctx, e, args, "backfill-provenance", nil, lifecycle.Backfill)
}

func runMigrate(ctx context.Context, e *env, args []string) error {
	var mapFile *string
	return repairCmd(ctx, e, args, "migrate", func(fs *flag.FlagSet) {
		mapFile = fs.String("map", "", `JSON file {"old": "new", ..., "ids": {"ID": "new"}}`)
	}, func(ctx context.Context, s *store.Store, apply bool) (*lifecycle.RepairResult, error) {
		if *mapFile == "" {
			return nil, cli.Usagef("--map FILE is required")
		}
		data, err := os.ReadFile(*mapFile)
		if err != nil {
			return nil, err
		}
		m, err := lifecycle.ParseMap(data)
		if err != nil {
			return nil, cli.Usagef("%s: %v", *mapFile, err)
		}
		return lifecycle.Migrate(ctx, s, m, apply)
	})
}
