package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
)

// runProject shows the project key of a directory and what became of its
// .anamnesis/project marker, or trusts that marker (SPEC 17: a marker the
// repository's git tracks is used only once a person trusts it).
func runProject(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "project")
	var c common
	c.register(fs, true)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || len(pos) > 2 || pos[0] != "show" && pos[0] != "trust" {
		return cli.Usagef("usage: anamnesis project show|trust [DIR]")
	}
	dir := "."
	if len(pos) == 2 {
		dir = pos[1]
	}
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return cli.Usagef("%s is not a directory", dir)
	}
	cfg := c.config(e)
	r := project.Here(dir, cfg)
	if pos[0] == "show" {
		if c.json {
			return printJSON(e.stdout, map[string]string{"key": r.Key, "marker": r.Marker, "ignored": r.Ignored})
		}
		fmt.Fprintf(e.stdout, "project: %s\n", r.Key)
		if r.Marker != "" {
			if r.Ignored != "" {
				fmt.Fprintf(e.stdout, "marker:  %s ignored: %s\n", r.Marker, r.Ignored)
			} else {
				fmt.Fprintf(e.stdout, "marker:  %s (used)\n", r.Marker)
			}
		}
		return nil
	}
	if r.Marker == "" {
		return errors.New("no .anamnesis/project marker in " + dir + " or above it; nothing to trust")
	}
	trusted := project.Resolve(dir, cfg.UserHome, project.Trusted{r.Marker: r.Hash})
	if trusted.Ignored != "" {
		return fmt.Errorf("%s cannot be trusted: %s", r.Marker, trusted.Ignored)
	}
	f, err := config.Load(cfg.Home)
	if err != nil {
		return fmt.Errorf("%v; fix or remove it first (nothing changed)", err)
	}
	f.TrustMarker(r.Marker, r.Hash)
	if err := f.Save(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "trusted %s: sessions here file notes under %s (until the file changes)\n", r.Marker, trusted.Key)
	return nil
}
