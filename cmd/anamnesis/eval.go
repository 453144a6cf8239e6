package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/eval"
)

func runEval(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "build" {
		return runEvalBuild(ctx, e, args[1:])
	}
	if len(args) > 0 && args[0] == "coding" {
		return runEvalCoding(ctx, e, args[1:])
	}
	if len(args) > 0 && args[0] == "experiment" {
		return runEvalExperiment(ctx, e, args[1:])
	}
	if len(args) == 0 || args[0] != "run" {
		fs := commandFlags(e, "eval")
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fs.Usage()
			return flag.ErrHelp
		}
		return cli.Usagef("usage: anamnesis eval run|build|experiment|coding ... (see 'anamnesis help eval')")
	}
	fs := commandFlags(e, "eval run")
	var c common
	c.register(fs, true)
	set := fs.String("eval-set", "", "JSONL file of cases {query, relevant_ids, project}")
	perCat := fs.Bool("per-category", false, "also report each case category (LoCoMo's by name)")
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
	if !*perCat {
		rep.Categories = nil
	}
	if c.json {
		return printJSON(e.stdout, rep)
	}
	fmt.Fprintf(e.stdout, "cases: %d\n", rep.Cases)
	for _, k := range eval.Ks {
		fmt.Fprintf(e.stdout, "recall@%d: %.3f\n", k, rep.Recall[k])
	}
	fmt.Fprintf(e.stdout, "MRR: %.3f\n", rep.MRR)
	fmt.Fprintf(e.stdout, "median search: %.2f ms\n", rep.MedianSearchMS)
	if len(rep.Categories) > 0 {
		labels := slices.Sorted(maps.Keys(rep.Categories))
		w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintf(w, "\ncategory\tcases\tr@1\tr@3\tr@5\tr@8\tMRR\tmedian ms\n")
		for _, l := range labels {
			r := rep.Categories[l]
			fmt.Fprintf(w, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.2f\n", l, r.Cases, r.Recall[1], r.Recall[3], r.Recall[5], r.Recall[8], r.MRR, r.MedianSearchMS)
		}
		return w.Flush()
	}
	return nil
}
