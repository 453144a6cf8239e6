package lifecycle

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/eval"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestConsolidateGate(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	pg := add(t, s, note.Semantic, "demo", "Postgres listens on port 5433", "The dev Postgres listens on port 5433, not 5432.", "2026-01-01T00:00:00+00:00")
	redis := add(t, s, note.Semantic, "demo", "Redis cache eviction uses allkeys-lru", "Redis runs with maxmemory-policy allkeys-lru and a 2gb cap.", "2026-01-02T00:00:00+00:00")
	fmtA := add(t, s, note.Procedural, "demo", "Format Go code with gofumpt", "Run gofumpt -w . before committing.", "2026-01-03T00:00:00+00:00")
	fmtB := add(t, s, note.Procedural, "demo", "Use gofumpt before commits", "Always gofumpt -w . before a commit.", "2026-01-04T00:00:00+00:00")
	add(t, s, note.Semantic, "demo", "Deploys go through staging", "Every deploy goes to staging first, then production.", "2026-01-05T00:00:00+00:00")
	srv := newStandIn(t)
	reply := fmt.Sprintf(`[
 {"action": "synthesize", "type": "semantic", "title": "Database settings", "body": "The dev Postgres listens on port 5433.", "superseded_ids": [%q, %q]},
 {"action": "keep", "keeper_id": %q, "superseded_ids": [%q]}
]`, pg.ID, redis.ID, fmtA.ID, fmtB.ID)
	srv.answer(reply)
	snap := tree(t, s)
	res, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, nil, Options{MachineID: "box"})
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, snap, tree(t, s))
	p := res.Projects[0]
	if len(p.Groups) != 2 || p.GateSet != "self-made" || p.GateCases < 8 {
		t.Fatalf("plan %+v", p)
	}
	syn, keep := p.Groups[0], p.Groups[1]
	// The synthesis drops the Redis fact: a self-made case asks for it.
	if syn.Accepted || syn.RecallAfter >= syn.RecallBefore {
		t.Errorf("lossy synthesize accepted: %+v", syn)
	}
	if !keep.Accepted || keep.RecallAfter < keep.RecallBefore {
		t.Errorf("harmless keep rejected: %+v", keep)
	}
	var out strings.Builder
	res.Print(&out)
	for _, want := range []string{"REJECTED recall 1.000 -> 0.", "accepted recall 1.000 -> 1.000  keep " + fmtA.ID} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}

	srv.answer(reply)
	res, err = Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 5, nil, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written || len(res.Paths) != 1 {
		t.Fatalf("apply %+v %v", res, err)
	}
	k, _ := s.Get(ctx, fmtA.ID)
	if strings.Join(k.Supersedes, ",") != fmtB.ID || !k.HasTag(TagMerged) {
		t.Errorf("keeper %+v", k)
	}
	sup, _ := s.SupersededIDs(ctx)
	if !sup[fmtB.ID] || sup[pg.ID] || sup[redis.ID] {
		t.Errorf("superseded %v", sup)
	}
	hits, _ := s.Search(ctx, store.Query{Text: "gofumpt", K: 8})
	for _, h := range hits {
		if h.ID == fmtB.ID {
			t.Error("superseded note still found")
		}
	}
}

func TestConsolidateSynthesizeWritesMergeNote(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	a := add(t, s, note.Semantic, "demo", "API base URL is api.example.test", "The API base URL is https://api.example.test/v2.", "2026-01-01T00:00:00+00:00")
	b := add(t, s, note.Semantic, "demo", "API version is v2", "We call version v2 of the API at api.example.test.", "2026-01-02T00:00:00+00:00")
	srv := newStandIn(t)
	srv.answer(fmt.Sprintf(`[{"action": "synthesize", "type": "semantic", "title": "API base URL is api.example.test (v2)", "body": "The API base URL is https://api.example.test/v2; we call version v2 of the API.", "superseded_ids": [%q, %q]}]`, a.ID, b.ID))
	cases := []eval.Case{{Query: "API base URL", RelevantIDs: []string{a.ID}, Project: "demo"}, {Query: "version v2", RelevantIDs: []string{b.ID}, Project: "demo"}}
	res, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, cases, Options{Apply: true, MachineID: "box"})
	if err != nil || !res.Written {
		t.Fatalf("%+v %v", res, err)
	}
	g := res.Projects[0].Groups[0]
	if !g.Accepted || g.ID == "" || res.Projects[0].GateSet != "eval set" || res.Projects[0].GateCases != 2 {
		t.Fatalf("group %+v", g)
	}
	n, _ := s.Get(ctx, g.ID)
	if n.ProvSource != note.ProvMerge || n.Confidence != 0.6 || n.ProvModel != "local/m" || strings.Join(n.Supersedes, ",") != a.ID+","+b.ID || n.Project != "demo" {
		t.Errorf("merge note %+v", n)
	}
	p, _ := s.Path(ctx, g.ID)
	raw, _ := os.ReadFile(p)
	if !strings.Contains(string(raw), "prov_source: merge\nconfidence: 0.6\nprov_model: local/m\nsupersedes:\n- "+a.ID+"\n- "+b.ID+"\ncreated_at:") {
		t.Errorf("file:\n%s", raw)
	}
}

func TestConsolidateRefusals(t *testing.T) {
	cases := map[string]func(a, b, c string) string{
		"group of one": func(a, b, c string) string {
			return fmt.Sprintf(`[{"action":"keep","keeper_id":%q,"superseded_ids":[]}]`, a)
		},
		"synthesize of one": func(a, b, c string) string {
			return fmt.Sprintf(`[{"action":"synthesize","type":"semantic","title":"t","body":"b","superseded_ids":[%q]}]`, a)
		},
		"hallucinated id": func(a, b, c string) string {
			return fmt.Sprintf(`[{"action":"keep","keeper_id":%q,"superseded_ids":["01HALLUCINATED0000000000000"]}]`, a)
		},
		"id in two groups": func(a, b, c string) string {
			return fmt.Sprintf(`[{"action":"keep","keeper_id":%q,"superseded_ids":[%q]},{"action":"keep","keeper_id":%q,"superseded_ids":[%q]}]`, a, b, c, b)
		},
		"invalid JSON": func(a, b, c string) string { return "I would merge the first two." },
		"bad action": func(a, b, c string) string {
			return fmt.Sprintf(`[{"action":"delete","superseded_ids":[%q,%q]}]`, a, b)
		},
	}
	wants := map[string]string{"group of one": "fewer than two", "synthesize of one": "fewer than two", "hallucinated id": "not one of the notes given",
		"id in two groups": "group 1 and group 2", "invalid JSON": "not a JSON array", "bad action": "not keep or synthesize"}
	for name, reply := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := openStore(t)
			a := add(t, s, note.Semantic, "demo", "A fact", "alpha", "2026-01-01T00:00:00+00:00")
			b := add(t, s, note.Semantic, "demo", "B fact", "beta", "2026-01-02T00:00:00+00:00")
			c := add(t, s, note.Semantic, "demo", "C fact", "gamma", "2026-01-03T00:00:00+00:00")
			srv := newStandIn(t)
			srv.answer(reply(a.ID, b.ID, c.ID))
			snap := tree(t, s)
			_, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{"demo"}, 2, nil, Options{Apply: true, MachineID: "box"})
			if err == nil || !strings.Contains(err.Error(), wants[name]) || !strings.Contains(err.Error(), "nothing written") {
				t.Fatalf("err %v, want %q", err, wants[name])
			}
			sameTree(t, snap, tree(t, s))
		})
	}
}

func TestBuildAndExperiment(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	a := add(t, s, note.Semantic, "demo", "Postgres listens on port 5433", "The dev Postgres listens on port 5433.", "2026-01-01T00:00:00+00:00")
	add(t, s, note.Procedural, "demo", "Format with gofumpt", "Run gofumpt -w .", "2026-01-02T00:00:00+00:00")
	eps := episodics(t, s, "demo", 5)
	srv := newStandIn(t)
	srv.answer(fmt.Sprintf(`[{"id": %q, "query": "which port does the dev database use"}]`, a.ID))
	cases, err := Build(ctx, s, srv.client(t, 5*time.Second), 1, []string{note.Semantic}, "")
	if err != nil || len(cases) != 1 || cases[0].Approved == nil || *cases[0].Approved || cases[0].RelevantIDs[0] != a.ID || cases[0].Project != "demo" {
		t.Fatalf("build %+v %v", cases, err)
	}
	srv.answer(`[{"id": "01HALLUCINATED0000000000000", "query": "q"}]`)
	if _, err := Build(ctx, s, srv.client(t, 5*time.Second), 1, []string{note.Semantic}, ""); err == nil {
		t.Error("hallucinated id accepted")
	}

	snap := tree(t, s)
	srv.answer(`[{"type": "procedural", "title": "Deploy with make deploy", "body": "Every deploy step runs make deploy."}]`)
	evalSet := []eval.Case{{Query: "deploy step", RelevantIDs: []string{eps[0].ID}, Project: "demo"}, {Query: "postgres port", RelevantIDs: []string{a.ID}, Project: "demo"}}
	x, err := RunExperiment(ctx, s, srv.client(t, 5*time.Second), evalSet, false, 5, 0)
	if err != nil || x.NotesWritten != 1 || x.Before.Cases != 2 || len(x.Failures) != 0 {
		t.Fatalf("experiment %+v %v", x, err)
	}
	// Reflect tags 5 episodics (dropped by inject) and adds one note.
	if x.InjectableAfter != x.InjectableBefore-4 {
		t.Errorf("injectable %d -> %d", x.InjectableBefore, x.InjectableAfter)
	}
	// The block is rendered by pkg/inject: it shows the new note and no longer the episodics.
	after, err := inject.Block(ctx, s, "demo", 8, 0, nil)
	if err != nil || x.InjectCharsBefore != hook.Width(after.Block) || x.InjectCharsAfter == x.InjectCharsBefore || x.InjectCharsAfter == 0 {
		t.Errorf("inject chars %d -> %d (live block %d): %v", x.InjectCharsBefore, x.InjectCharsAfter, hook.Width(after.Block), err)
	}
	sameTree(t, snap, tree(t, s))
}
