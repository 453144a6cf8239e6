package lifecycle

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// GateK is the cut-off the recall gate watches.
const GateK = 8

// Sandbox copies the store's note files into a fresh home under a temporary
// directory and opens it; the live store is never touched. close removes it.
func Sandbox(ctx context.Context, s *store.Store) (sb *store.Store, close func(), err error) {
	dir, err := os.MkdirTemp("", "anamnesis-sandbox-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	for _, src := range []string{s.MemoryDir(), s.LocalDir()} {
		dst := filepath.Join(dir, filepath.Base(src))
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out := filepath.Join(dst, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			return os.WriteFile(out, data, 0o644)
		})
		if err != nil {
			cleanup()
			return nil, nil, err
		}
	}
	sb, err = store.Open(ctx, dir)
	if err == nil {
		_, err = sb.Reindex(ctx, false)
	}
	if err != nil {
		if sb != nil {
			sb.Close()
		}
		cleanup()
		return nil, nil, err
	}
	return sb, func() { sb.Close(); cleanup() }, nil
}

// gate tries each group on a sandbox copy, in order, keeping those after
// which recall@8 over the gate cases does not drop.
func gate(ctx context.Context, s *store.Store, p *ConsolidatePlan, ns []*note.Note, cases []eval.Case) error {
	if cases != nil {
		p.GateSet = "eval set"
		cases = forProject(cases, p.Project)
	} else {
		p.GateSet = "self-made"
		cases = SelfCases(p.Project, ns, p.Groups)
	}
	p.GateCases = len(cases)
	sb, done, err := Sandbox(ctx, s)
	if err != nil {
		return err
	}
	defer done()
	before, err := Recall(ctx, sb, cases)
	if err != nil {
		return err
	}
	for i := range p.Groups {
		g := &p.Groups[i]
		t := newTxn(sb)
		if err := applyGroup(ctx, sb, t, p.Project, p.Model, "sandbox", g); err != nil {
			return err
		}
		g.ID = ""
		after, err := Recall(ctx, sb, cases)
		if err != nil {
			return err
		}
		g.RecallBefore, g.RecallAfter = before, after
		if after >= before-1e-9 {
			g.Accepted = true
			before = after
		} else if err := t.rollback(ctx); err != nil {
			return err
		}
	}
	return nil
}

func forProject(cases []eval.Case, project string) []eval.Case {
	var out []eval.Case
	for _, c := range cases {
		if c.Project == "" || c.Project == project {
			out = append(out, c)
		}
	}
	return out
}

// Recall is recall@8 over cases (see Measure).
func Recall(ctx context.Context, s *store.Store, cases []eval.Case) (float64, error) {
	if len(cases) == 0 {
		return 1, nil
	}
	rep, err := Measure(ctx, s, cases)
	return rep.Recall[GateK], err
}

// Measure is eval.Run where a note counts as found when it or any note
// superseding it (transitively) is among the hits: a merge that keeps a fact
// reachable does not lose recall for moving it.
func Measure(ctx context.Context, s *store.Store, cases []eval.Case) (eval.Report, error) {
	exp := make([]eval.Case, len(cases))
	for i, c := range cases {
		c.RelevantIDs = slices.Clone(c.RelevantIDs)
		for j := 0; j < len(c.RelevantIDs); j++ {
			by, err := s.SupersededBy(ctx, c.RelevantIDs[j])
			if err != nil {
				return eval.Report{}, err
			}
			for _, id := range by {
				if !slices.Contains(c.RelevantIDs, id) {
					c.RelevantIDs = append(c.RelevantIDs, id)
				}
			}
		}
		exp[i] = c
	}
	return eval.Run(ctx, s, exp)
}

// sentenceEnd is compiled on first use: only consolidate needs it.
var sentenceEnd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[.!?]\s+|\n+`) })

// SelfCases are the gate cases consolidate makes when no eval set is given:
// for each note in a group, its title and its body's most distinctive
// sentence (rarest words among the project's notes) as queries, each
// relevant to that note.
func SelfCases(project string, ns []*note.Note, groups []Group) []eval.Case {
	df := map[string]int{}
	for _, n := range ns {
		seen := map[string]bool{}
		for _, tok := range store.Tokens(strings.ToLower(n.Title + " " + n.Body)) {
			if !seen[tok] {
				seen[tok] = true
				df[tok]++
			}
		}
	}
	byID := map[string]*note.Note{}
	for _, n := range ns {
		byID[n.ID] = n
	}
	var out []eval.Case
	for _, g := range groups {
		for _, id := range g.members() {
			n := byID[id]
			if n == nil {
				continue
			}
			out = append(out, eval.Case{Query: n.Title, RelevantIDs: []string{id}, Project: project, Source: "self:title"})
			if s := distinctive(n.Body, df); s != "" && s != n.Title {
				out = append(out, eval.Case{Query: s, RelevantIDs: []string{id}, Project: project, Source: "self:sentence"})
			}
		}
	}
	return out
}

func distinctive(body string, df map[string]int) string {
	best, bestScore := "", 0.0
	for _, s := range sentenceEnd().Split(body, -1) {
		s = strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*#-"))
		seen := map[string]bool{}
		score := 0.0
		for _, tok := range store.Tokens(strings.ToLower(s)) {
			if !seen[tok] && df[tok] > 0 {
				seen[tok] = true
				score += 1 / float64(df[tok])
			}
		}
		if score > bestScore {
			best, bestScore = s, score
		}
	}
	if r := []rune(best); len(r) > 300 {
		best = string(r[:300])
	}
	return best
}
