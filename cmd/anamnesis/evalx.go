package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/lifecycle"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func runEvalBuild(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "eval build")
	var u upkeep
	u.common.register(fs, true)
	fs.BoolVar(&u.apply, "apply", false, "append the cases to the eval set (default: print them)")
	set := fs.String("eval-set", "", "JSONL file the cases are appended to")
	n := fs.Int("n", 30, "notes to sample")
	types := fs.String("types", "semantic,procedural", "note types to sample")
	project := fs.String("project", "", "sample only this project")
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("eval build takes no arguments")
	}
	if *set == "" {
		return cli.Usagef("--eval-set is required")
	}
	var ts []string
	for _, t := range strings.Split(*types, ",") {
		if t = strings.TrimSpace(t); t != note.Semantic && t != note.Procedural && t != note.Episodic {
			return cli.Usagef("--types: %q is not a note type", t)
		}
		ts = append(ts, strings.TrimSpace(t))
	}
	s, cfg, err := u.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	client, err := modelClient(cfg)
	if err != nil {
		return err
	}
	cases, err := lifecycle.Build(ctx, s, client, max(*n, 1), ts, *project)
	if err != nil {
		return fmt.Errorf("eval build failed, nothing written: %w", err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, c := range cases {
		enc.Encode(c)
	}
	if u.apply && len(cases) > 0 {
		f, err := os.OpenFile(*set, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		_, werr := f.Write(buf.Bytes())
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return werr
		}
	}
	if u.json {
		return printJSON(e.stdout, map[string]any{"apply": u.apply, "eval_set": *set, "cases": cases})
	}
	io.Copy(e.stdout, &buf)
	verb := "would append"
	if u.apply {
		verb = "appended"
	}
	fmt.Fprintf(e.stdout, "eval build: %s %d unreviewed case(s) to %s (approved: false; review, then set approved: true)\n", verb, len(cases), *set)
	if !u.apply {
		fmt.Fprintln(e.stdout, "dry run: nothing written; add --apply to write")
	}
	return nil
}

func runEvalExperiment(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "eval experiment")
	var c common
	c.register(fs, true)
	set := fs.String("eval-set", "", "JSONL eval set")
	cons := fs.Bool("consolidate", false, "run consolidate instead of reflect")
	min := fs.Int("min", lifecycle.DefaultMin, "notes a project needs before the model is asked")
	unreviewed := fs.Bool("include-unreviewed", false, "count cases with approved: false too")
	if pos, err := parseArgs(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return cli.Usagef("eval experiment takes no arguments")
	}
	if *set == "" {
		return cli.Usagef("--eval-set is required")
	}
	cases, err := readEvalSet(*set, *unreviewed)
	if err != nil {
		return err
	}
	s, cfg, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	client, err := modelClient(cfg)
	if err != nil {
		return err
	}
	x, err := lifecycle.RunExperiment(ctx, s, client, cases, *cons, *min, cfg.InjectMaxChars)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, x)
	}
	x.Print(e.stdout)
	return nil
}
