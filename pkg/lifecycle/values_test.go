package lifecycle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestValues(t *testing.T) {
	got := Values("The API listens on port 8804 since v2.3.1; config lives in /etc/anamnesis/conf.d and settings.json. Set MAX_RETRIES via retryCount, ask Priya or use node18.")
	for _, want := range []string{"8804", "v2.3.1", "/etc/anamnesis/conf.d", "settings.json", "MAX_RETRIES", "retryCount", "Priya", "node18"} {
		if !slices.Contains(got, want) {
			t.Errorf("%q not among the values %q", want, got)
		}
	}
	if slices.Contains(got, "The") || slices.Contains(got, "Set") {
		t.Errorf("a sentence's first word is no name: %q", got)
	}
}

// A keep of two notes that differ only in a value (port 8803 vs 8804)
// passes the title and sentence cases, but makes 8804 unfindable: the gate
// rejects it and names the value; a synthesis that keeps both values is
// accepted.
func TestGateSeesValues(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	a := add(t, s, note.Semantic, "demo", "Dev server port", "The dev server listens on port 8803.", "2026-01-01T00:00:00+00:00")
	b := add(t, s, note.Semantic, "demo", "Dev server port", "The dev server listens on port 8804.", "2026-01-02T00:00:00+00:00")
	for i := range 4 {
		add(t, s, note.Semantic, "demo", fmt.Sprintf("Other %d", i), fmt.Sprintf("Unrelated fact number %d about builds.", i), "2026-01-03T00:00:00+00:00")
	}
	srv := newStandIn(t)
	srv.answer(fmt.Sprintf(`[{"action": "keep", "keeper_id": %q, "superseded_ids": [%q]}]`, a.ID, b.ID))
	snap := tree(t, s)
	res, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, nil, Options{Apply: true, MachineID: "box"})
	if err != nil {
		t.Fatal(err)
	}
	g := res.Projects[0].Groups[0]
	if g.Accepted || !slices.Contains(g.Lost, "8804") {
		t.Fatalf("the keep that loses 8804: accepted %v, lost %v", g.Accepted, g.Lost)
	}
	var out strings.Builder
	res.Print(&out)
	if !strings.Contains(out.String(), "REJECTED") || !strings.Contains(out.String(), "would make unfindable: 8804") {
		t.Errorf("report:\n%s", out.String())
	}
	sameTree(t, snap, tree(t, s))

	srv.answer(fmt.Sprintf(`[{"action": "synthesize", "type": "semantic", "title": "Dev server ports", "body": "The dev server listens on port 8803, and on 8804 since the split.", "superseded_ids": [%q, %q]}]`, a.ID, b.ID))
	res, err = Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, nil, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Projects[0].Groups[0].Accepted || !res.Written {
		t.Fatalf("the synthesis keeping both values: %+v %v", res.Projects[0].Groups, err)
	}
	hits, _ := s.Search(ctx, store.Query{Text: "8804", Filter: store.Filter{Project: "demo"}, K: 8})
	if len(hits) == 0 || hits[0].ID != res.Projects[0].Groups[0].ID {
		t.Errorf("8804 after the synthesis: %v", hits)
	}
}
