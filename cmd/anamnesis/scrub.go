package main

import (
	"context"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/scrub"
)

// runScrub is `anamnesis scrub [--apply]`: secrets already in notes and in
// git history (pkg/scrub). A dry run by default.
func runScrub(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "scrub")
	var c common
	c.register(fs, true)
	apply := fs.Bool("apply", false, "redact the files (default: only report)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return cli.Usagef("scrub takes no arguments (got %q)", pos)
	}
	s, cfg, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	res, err := scrub.Run(ctx, s, cfg.Home, cfg.MachineID, *apply)
	if err != nil {
		return err
	}
	if c.json {
		err = printJSON(e.stdout, res)
	} else {
		res.Text(e.stdout)
	}
	if err == nil && res.Remaining() {
		return cli.ExitError{Code: 1} // documented in its --help; the report says where
	}
	return err
}
