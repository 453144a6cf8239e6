// Package eval measures retrieval quality: recall@k and MRR of the store's
// search over a set of queries with known relevant notes.
package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Ks are the cut-offs reported, as the reference reports them.
var Ks = []int{1, 3, 5, 8}

// Case is one line of an eval set (the reference's shape plus project).
type Case struct {
	Query       string   `json:"query"`
	RelevantIDs []string `json:"relevant_ids"`
	Project     string   `json:"project,omitempty"`
	Category    any      `json:"category,omitempty"`
	Approved    *bool    `json:"approved,omitempty"`
	Source      string   `json:"source,omitempty"`
}

// Report is the result of a run.
type Report struct {
	Cases  int             `json:"cases"`
	Recall map[int]float64 `json:"recall"`
	MRR    float64         `json:"mrr"`
	// MedianSearchMS is the median wall time of one Search, in milliseconds.
	MedianSearchMS float64 `json:"median_search_ms"`
	// Categories holds the same figures per case category, by label (see
	// CategoryLabel), when the set has categories.
	Categories map[string]*Report `json:"categories,omitempty"`
}

// locomoCategories names LoCoMo's numbered question categories.
var locomoCategories = map[string]string{"1": "multi-hop", "2": "temporal", "3": "open-domain", "4": "single-hop", "5": "adversarial"}

// CategoryLabel is how a case's category is reported: as written, with
// LoCoMo's name for its numbered categories ("4 single-hop"), or "" for none.
func CategoryLabel(c Case) string {
	if c.Category == nil {
		return ""
	}
	l := fmt.Sprint(c.Category)
	if name, ok := locomoCategories[l]; ok && c.Source == "locomo" {
		l += " " + name
	}
	return l
}

// Read parses a JSONL eval set; cases explicitly not approved are skipped.
func Read(r io.Reader) ([]Case, error) { return read(r, false) }

// ReadAll parses a JSONL eval set, unreviewed cases included.
func ReadAll(r io.Reader) ([]Case, error) { return read(r, true) }

func read(r io.Reader, all bool) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if c.Query == "" || len(c.RelevantIDs) == 0 {
			return nil, fmt.Errorf("line %d: a case needs query and relevant_ids", line)
		}
		if !all && c.Approved != nil && !*c.Approved {
			continue
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// Run searches each case (within its project when it names one). A case
// counts as recalled at k when any relevant note is among the first k hits;
// MRR is the mean reciprocal rank of the first relevant hit.
func Run(ctx context.Context, s *store.Store, cases []Case) (Report, error) {
	all := newReport()
	if len(cases) == 0 {
		return *all, nil
	}
	kmax := slices.Max(Ks)
	var times []time.Duration
	catTimes := map[string][]time.Duration{}
	for _, c := range cases {
		t0 := time.Now()
		hits, err := s.Search(ctx, store.Query{Text: c.Query, Filter: store.Filter{Project: c.Project}, K: kmax})
		d := time.Since(t0)
		if err != nil {
			return *all, fmt.Errorf("%q: %w", c.Query, err)
		}
		first := 0
		for i, h := range hits {
			if slices.Contains(c.RelevantIDs, h.ID) {
				first = i + 1
				break
			}
		}
		times = append(times, d)
		all.add(first)
		if l := CategoryLabel(c); l != "" {
			if all.Categories == nil {
				all.Categories = map[string]*Report{}
			}
			if all.Categories[l] == nil {
				all.Categories[l] = newReport()
			}
			all.Categories[l].add(first)
			catTimes[l] = append(catTimes[l], d)
		}
	}
	all.finish(times)
	for l, r := range all.Categories {
		r.finish(catTimes[l])
	}
	return *all, nil
}

func newReport() *Report { return &Report{Recall: map[int]float64{}} }

// add counts one case whose first relevant hit is at rank first (0: none).
func (r *Report) add(first int) {
	r.Cases++
	if first > 0 {
		r.MRR += 1 / float64(first)
		for _, k := range Ks {
			if first <= k {
				r.Recall[k]++
			}
		}
	}
}

// finish turns the counts into means and records the median search time.
func (r *Report) finish(times []time.Duration) {
	if r.Cases == 0 {
		return
	}
	n := float64(r.Cases)
	r.MRR /= n
	for _, k := range Ks {
		r.Recall[k] /= n
	}
	slices.Sort(times)
	if len(times) > 0 {
		r.MedianSearchMS = float64(times[len(times)/2].Microseconds()) / 1000
	}
}
