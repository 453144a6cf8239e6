package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/eval/coding"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// runEvalCoding is `anamnesis eval coding`: the coding-memory benchmark
// (SPEC 11). It builds a new store by running every transcript of the
// benchmark through anamnesis-capture (the hook's own binary), with the
// heuristic summary or, with --llm, through the configured model provider, then
// reports search and per-prompt recall per question category.
func runEvalCoding(ctx context.Context, e *env, args []string) error {
	fs := commandFlags(e, "eval coding")
	dir := fs.String("dir", "testdata/eval/coding", "the benchmark: questions.tsv and transcripts/<project>/*.jsonl")
	split := fs.String("split", "all", "questions to ask: dev, heldout, or all (reported per split)")
	llm := fs.Bool("llm", false, "summarize sessions with the configured model provider (reflection.provider) instead of the heuristic")
	keep := fs.String("keep", "", "build the store in this (new) directory and keep it, instead of a temporary one")
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	if _, err := parseArgs(fs, args); err != nil {
		return err
	}
	splits := map[string][]string{"all": {coding.Dev, coding.Heldout}, coding.Dev: {coding.Dev}, coding.Heldout: {coding.Heldout}}[*split]
	if splits == nil {
		return cli.Usagef("--split %q: want dev, heldout or all", *split)
	}
	qs, err := coding.ReadQuestions(*dir)
	if err != nil {
		return err
	}
	ts, err := coding.Transcripts(*dir)
	if err != nil {
		return err
	}
	if len(ts) == 0 {
		return fmt.Errorf("%s: no transcripts", *dir)
	}
	capture := bin.Find("anamnesis-capture")
	if capture == "" {
		return errors.New("anamnesis-capture is not installed beside anamnesis or on PATH")
	}
	home := *keep
	if home == "" {
		if home, err = os.MkdirTemp("", "anamnesis-coding-"); err != nil {
			return err
		}
		defer os.RemoveAll(home)
	} else if _, err := os.Stat(home); err == nil {
		return fmt.Errorf("--keep %s: exists; name a new directory", home)
	}
	envv := append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench", "ANAMNESIS_REFLECTION_PROVIDER=heuristic")
	if *llm {
		// The user's own model provider (reflection.provider and its settings), as capture uses it.
		envv = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench")
	}
	for _, t := range ts {
		// --wait: the note is written before the next capture and the
		// scoring (the hook would hand it to a detached child).
		args := []string{"--home", home, "--transcript", t.Path, "--project", t.Project, "--no-sync", "--wait"}
		cmd := exec.CommandContext(ctx, capture, args...)
		cmd.Env = envv
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "capture: wrote episodic note") {
			return fmt.Errorf("capturing %s: %v: %s", t.Path, err, out)
		}
	}
	st, err := store.Open(ctx, home)
	if err != nil {
		return err
	}
	defer st.Close()
	var reps []coding.Report
	for _, sp := range splits {
		rep, err := coding.Score(ctx, st, qs, ts, sp)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	if *asJSON {
		return printJSON(e.stdout, reps)
	}
	fmt.Fprintf(e.stdout, "coding-memory benchmark: %d sessions, %d questions, %s summaries\n", len(ts), len(qs), map[bool]string{false: "heuristic", true: "model"}[*llm])
	for _, r := range reps {
		fmt.Fprintln(e.stdout)
		if err := r.Write(e.stdout); err != nil {
			return err
		}
	}
	return nil
}
