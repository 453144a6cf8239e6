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
	rep := Report{Cases: len(cases), Recall: map[int]float64{}}
	if len(cases) == 0 {
		return rep, nil
	}
	kmax := slices.Max(Ks)
	for _, c := range cases {
		hits, err := s.Search(ctx, c.Query, store.Filter{Project: c.Project}, kmax)
		if err != nil {
			return rep, fmt.Errorf("%q: %w", c.Query, err)
		}
		first := 0
		for i, h := range hits {
			if slices.Contains(c.RelevantIDs, h.ID) {
				first = i + 1
				break
			}
		}
		if first > 0 {
			rep.MRR += 1 / float64(first)
			for _, k := range Ks {
				if first <= k {
					rep.Recall[k]++
				}
			}
		}
	}
	n := float64(len(cases))
	rep.MRR /= n
	for _, k := range Ks {
		rep.Recall[k] /= n
	}
	return rep, nil
}
