package main

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/eval/coding"
	"github.com/anamnesis-dev/anamnesis/pkg/eval/coding/standin"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const codingDir = "../../testdata/eval/coding"

// buildCoding runs every benchmark transcript through capture (this
// package's run, as the hook runs it) into a new home; with llm, through
// the scripted model stand-in, inline.
func buildCoding(t *testing.T, llm bool) (*store.Store, []coding.Transcript) {
	t.Helper()
	env(t)
	ts, err := coding.Transcripts(codingDir)
	if err != nil {
		t.Fatal(err)
	}
	if llm {
		si, err := standin.New()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { si.Close() })
		t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
		t.Setenv("ANAMNESIS_REFLECTION_MODEL", "scripted")
		t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", si.URL)
	}
	home := t.TempDir()
	for _, tr := range ts {
		args := []string{"--transcript", tr.Path, "--project", tr.Project, "--no-sync"}
		if llm {
			args = append(args, "--wait")
		}
		r := runCapture(t, home, nil, args...)
		if !strings.Contains(r.stdout, "capture: wrote episodic note") || r.stderr != "" {
			t.Fatalf("%s: %q %q", tr.Path, r.stdout, r.stderr)
		}
	}
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, ts
}

// The coding-memory benchmark (SPEC 11) on the held-out third of the
// questions, over the store capture builds from the transcripts: per-prompt
// recall brings an evidence note for at least 80% of the questions and only
// wrong notes for at most 5%; search has an evidence note in its top 5 for
// at least 85%. The dev split and the LLM path are reported alongside.
func TestCodingBenchmark(t *testing.T) {
	qs, err := coding.ReadQuestions(codingDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 90 {
		t.Fatalf("%d questions, want at least 90", len(qs))
	}
	for _, llm := range []bool{false, true} {
		st, ts := buildCoding(t, llm)
		for _, split := range []string{coding.Dev, coding.Heldout} {
			rep, err := coding.Score(context.Background(), st, qs, ts, split)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rep.Write(&b)
			t.Logf("llm=%v\n%s", llm, b.String())
			if split != coding.Heldout {
				continue
			}
			all := rep.Recall["all"]
			n := float64(all.Questions)
			if r := float64(all.Right) / n; r < 0.80 {
				t.Errorf("llm=%v held-out: recall brings an evidence note for %.3f of questions, want >= 0.80", llm, r)
			}
			if w := float64(all.Wrong) / n; w > 0.05 {
				t.Errorf("llm=%v held-out: wrong-only injections %.3f, want <= 0.05", llm, w)
			}
			if r5 := rep.Search.Recall[5]; r5 < 0.85 {
				t.Errorf("llm=%v held-out: search recall@5 %.3f, want >= 0.85", llm, r5)
			}
		}
	}
}
