// Package coding is the coding-memory benchmark (SPEC 11): Claude Code
// transcripts of several projects, questions about them with their
// evidence sessions, a store built by running the transcripts through
// capture, and the figures: recall@k and MRR of the evidence notes for
// search, and right / wrong / silent for what per-prompt recall injects.
package coding

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/recall"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Splits of the questions: every third question of a project is held out
// (no rule is tuned on it).
const (
	Dev     = "dev"
	Heldout = "heldout"
	All     = "all"
)

// Question is one line of questions.tsv.
type Question struct {
	Project  string
	Category string
	Evidence []int // session numbers within the project
	Query    string
	Split    string
}

// ReadQuestions reads dir/questions.tsv: project, category, evidence
// session numbers (space-separated) and the question, tab-separated;
// lines starting with # are comments.
func ReadQuestions(dir string) ([]Question, error) {
	f, err := os.Open(filepath.Join(dir, "questions.tsv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Question
	perProject := map[string]int{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("questions.tsv:%d: want 4 tab-separated fields, have %d", n, len(f))
		}
		q := Question{Project: f[0], Category: f[1], Query: f[3], Split: Dev}
		for _, e := range strings.Fields(f[2]) {
			i, err := strconv.Atoi(e)
			if err != nil {
				return nil, fmt.Errorf("questions.tsv:%d: evidence %q", n, e)
			}
			q.Evidence = append(q.Evidence, i)
		}
		perProject[q.Project]++
		if perProject[q.Project]%3 == 0 {
			q.Split = Heldout
		}
		out = append(out, q)
	}
	return out, sc.Err()
}

// Transcript is one session of the benchmark.
type Transcript struct {
	Project, Path, SessionID string
	Number                   int // the session's number within its project
}

// Transcripts lists dir/transcripts/<project>/<session id>.jsonl in
// session order; a session's number is the last group of its id.
func Transcripts(dir string) ([]Transcript, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "transcripts", "*", "*.jsonl"))
	if err != nil {
		return nil, err
	}
	slices.Sort(paths)
	var out []Transcript
	for _, p := range paths {
		id := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		i := strings.LastIndexByte(id, '-')
		n, err := strconv.Atoi(id[i+1:])
		if err != nil {
			return nil, fmt.Errorf("%s: the session id does not end in its number", p)
		}
		out = append(out, Transcript{Project: filepath.Base(filepath.Dir(p)), Path: p, SessionID: id, Number: n})
	}
	return out, nil
}

// RecallCount is what per-prompt recall did over a set of questions.
type RecallCount struct {
	Questions int `json:"questions"`
	Right     int `json:"right"`  // an injected note is an evidence note
	Wrong     int `json:"wrong"`  // notes injected, none of them evidence
	Silent    int `json:"silent"` // nothing injected
}

// Report holds one split's figures.
type Report struct {
	Split  string                  `json:"split"`
	Search eval.Report             `json:"search"`
	Recall map[string]*RecallCount `json:"recall"` // by category, and "all"
}

// Score asks the split's questions of the store built from the
// transcripts: search within the question's project, and per-prompt recall
// with the default floor (at most recall.MaxNotes notes, as the hook shows).
func Score(ctx context.Context, st *store.Store, qs []Question, ts []Transcript, split string) (Report, error) {
	// The evidence notes: the note capture wrote for each session.
	bySession := map[string]string{}
	notes, err := st.List(ctx, store.Filter{})
	if err != nil {
		return Report{}, err
	}
	for _, n := range notes {
		if n.Type == note.Episodic && n.ProvSession != "" {
			bySession[n.ProvSession] = n.ID
		}
	}
	number := map[string]map[int]string{}
	for _, t := range ts {
		if number[t.Project] == nil {
			number[t.Project] = map[int]string{}
		}
		number[t.Project][t.Number] = bySession[t.SessionID]
	}
	rep := Report{Split: split, Recall: map[string]*RecallCount{"all": {}}}
	var cases []eval.Case
	for _, q := range qs {
		if split != All && q.Split != split {
			continue
		}
		var ids []string
		for _, e := range q.Evidence {
			id := number[q.Project][e]
			if id == "" {
				return Report{}, fmt.Errorf("question %q: session %d of %s has no note", q.Query, e, q.Project)
			}
			ids = append(ids, id)
		}
		cases = append(cases, eval.Case{Query: q.Query, RelevantIDs: ids, Project: q.Project, Category: q.Category})
		cands, err := recall.Find(ctx, st, q.Query, q.Project, recall.DefaultFloor, nil)
		if err != nil {
			return Report{}, err
		}
		rc := rep.Recall[q.Category]
		if rc == nil {
			rc = &RecallCount{}
			rep.Recall[q.Category] = rc
		}
		for _, c := range []*RecallCount{rc, rep.Recall["all"]} {
			c.Questions++
			switch {
			case len(cands) == 0:
				c.Silent++
			case slices.ContainsFunc(cands[:min(len(cands), recall.MaxNotes)], func(c recall.Candidate) bool { return slices.Contains(ids, c.Note.ID) }):
				c.Right++
			default:
				c.Wrong++
			}
		}
	}
	rep.Search, err = eval.Run(ctx, st, cases)
	return rep, err
}

// Write prints the report as a table: per category, search recall@1/3/5/8
// and MRR, then the shares of questions recall answered right, wrong, or
// not at all.
func (r Report) Write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "split %s\t\t\t\t\t\t\t\t\t\t\n", r.Split)
	fmt.Fprintf(tw, "category\tquestions\tr@1\tr@3\tr@5\tr@8\tMRR\trecall right\twrong\tsilent\t\n")
	row := func(name string, s *eval.Report, rc *RecallCount) {
		if s == nil || rc == nil {
			return
		}
		n := float64(max(rc.Questions, 1))
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", name, rc.Questions, s.Recall[1], s.Recall[3], s.Recall[5], s.Recall[8], s.MRR,
			float64(rc.Right)/n, float64(rc.Wrong)/n, float64(rc.Silent)/n)
	}
	for _, c := range slices.Sorted(maps.Keys(r.Recall)) {
		if c != "all" {
			row(c, r.Search.Categories[c], r.Recall[c])
		}
	}
	row("all", &r.Search, r.Recall["all"])
	return tw.Flush()
}
