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
	"github.com/anamnesis-dev/anamnesis/pkg/layout"
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
			if err := layout.MkdirAll(filepath.Dir(out)); err != nil {
				return err
			}
			return os.WriteFile(out, data, layout.FileMode)
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
		values := ValueCases(p.Project, ns, []Group{*g})
		had, err := findable(ctx, sb, values)
		if err != nil {
			return err
		}
		t := sb.Begin(nil)
		if err := applyGroup(ctx, sb, t, p.Project, p.Model, "sandbox", g); err != nil {
			return err
		}
		g.ID = ""
		after, err := Recall(ctx, sb, cases)
		if err != nil {
			return err
		}
		has, err := findable(ctx, sb, values)
		if err != nil {
			return err
		}
		g.Lost = nil
		for j, c := range values {
			if had[j] && !has[j] && !slices.Contains(g.Lost, c.Query) {
				g.Lost = append(g.Lost, c.Query)
			}
		}
		g.RecallBefore, g.RecallAfter = before, after
		if after >= before-1e-9 && len(g.Lost) == 0 {
			g.Accepted = true
			before = after
		} else if err := t.Rollback(ctx); err != nil {
			return err
		}
	}
	return nil
}

// findable reports, per case, whether a relevant note (or one superseding
// it) is among the top GateK hits.
func findable(ctx context.Context, s *store.Store, cases []eval.Case) ([]bool, error) {
	out := make([]bool, len(cases))
	for i, c := range cases {
		rep, err := Measure(ctx, s, []eval.Case{c})
		if err != nil {
			return nil, err
		}
		out[i] = rep.Recall[GateK] > 0
	}
	return out, nil
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
// relevant to that note, and the values of each note the group supersedes
// (ValueCases).
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
	return append(out, ValueCases(project, ns, groups)...)
}

// maxValueDF is how many of the project's notes a value may appear in and
// still name one fact: a word in most notes is no value of this one.
const maxValueDF = 3

var valueRes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`\b[vV]?\d+(?:[.:]\d+)+\b|\b\d{2,}\b`),                             // versions, ports, numbers
		regexp.MustCompile(`(?:~|\.{1,2})?(?:/[\w.-]+)+/?|\b[\w.-]+(?:/[\w.-]+)+`),            // paths
		regexp.MustCompile(`\b\w+(?:\.\w+)+\b`),                                               // dotted names, files
		regexp.MustCompile(`\b[A-Za-z]\w*(?:[_-]\w+)+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z]{2,}\w*\b`), // identifiers
		regexp.MustCompile(`\b[A-Za-z]+\d\w*\b`),                                              // letters with digits
	}
})

// sentenceStart reports whether the word at i opens a sentence (so its
// capital says nothing).
func sentenceStart(text string, i int) bool {
	j := strings.LastIndexFunc(text[:i], func(r rune) bool { return r != ' ' && r != '\t' })
	return j < 0 || strings.ContainsRune(".!?:\n#*-", rune(text[j]))
}

var nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Z][a-z]+\b`) })

// Values are the distinctive values a note states: numbers, versions,
// ports, paths, identifiers and names, each as written.
func Values(text string) []string {
	var out []string
	seen := map[string]bool{}
	addv := func(v string) {
		v = strings.TrimRight(v, ".-/:")
		if len(store.Tokens(v)) == 0 || seen[v] {
			return
		}
		seen[v] = true
		out = append(out, v)
	}
	for _, re := range valueRes() {
		for _, v := range re.FindAllString(text, -1) {
			addv(v)
		}
	}
	for _, m := range nameRe().FindAllStringIndex(text, -1) {
		if !sentenceStart(text, m[0]) {
			addv(text[m[0]:m[1]])
		}
	}
	return out
}

// ValueCases are the gate cases for the values of every note a group
// supersedes (SPEC 17: the gate sees values): each distinctive value (in at
// most maxValueDF of the project's notes) as a query, relevant to that note.
// A group after which such a value is no longer found is rejected.
func ValueCases(project string, ns []*note.Note, groups []Group) []eval.Case {
	byID := map[string]*note.Note{}
	for _, n := range ns {
		byID[n.ID] = n
	}
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
	var out []eval.Case
	for _, g := range groups {
		for _, id := range g.Superseded {
			n := byID[id]
			if n == nil {
				continue
			}
			for _, v := range Values(n.Title + "\n" + n.Body) {
				rare := false
				for _, tok := range store.Tokens(strings.ToLower(v)) {
					if df[tok] <= maxValueDF {
						rare = true
					}
				}
				if rare {
					out = append(out, eval.Case{Query: v, RelevantIDs: []string{id}, Project: project, Source: "self:value"})
				}
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
