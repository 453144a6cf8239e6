package main

import (
	"context"
	"fmt"
	"os"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/eval"
)

func runEval(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "build" {
		return runEvalBuild(ctx, e, args[1:])
	}
	if len(args) > 0 && args[0] == "experiment" {
		return runEvalExperiment(ctx, e, args[1:])
	}
	if len(args) == 0 || args[0] != "run" {
		return cli.Usagef("usage: anamnesis eval run --eval-set FILE [--json]")
	}
	fs := cli.FlagSet("eval run", e.stderr)
	var c common
	c.register(fs, true)
	set := fs.String("eval-set", "", "JSONL file of cases {query, relevant_ids, project}")
	unreviewed := fs.Bool("include-unreviewed", false, "count cases with approved: false too")
	if _, err := parseArgs(fs, args[1:]); err != nil {
		return err
	}
	if *set == "" {
		return cli.Usagef("--eval-set is required")
	}
	f, err := os.Open(*set)
	if err != nil {
		return err
	}
	defer f.Close()
	read := eval.Read
	if *unreviewed {
		read = eval.ReadAll
	}
	cases, err := read(f)
	if err != nil {
		return fmt.Errorf("%s: %w", *set, err)
	}
	s, _, err := c.open(ctx, e)
	if err != nil {
		return err
	}
	defer s.Close()
	rep, err := eval.Run(ctx, s, cases)
	if err != nil {
		return err
	}
	if c.json {
		return printJSON(e.stdout, rep)
	}
	fmt.Fprintf(e.stdout, "cases: %d\n", rep.Cases)
	for _, k := range eval.Ks {
		fmt.Fprintf(e.stdout, "recall@%d: %.3f\n", k, rep.Recall[k])
	}
	fmt.Fprintf(e.stdout, "MRR: %.3f\n", rep.MRR)
	return nil
}
