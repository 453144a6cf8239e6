package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// refReader loads note files the way the reference's reader does
// (yaml.safe_load of the front-matter, the defaults of seed 000, supersedes
// as a scalar or a list) and prints each as JSON.
const refReader = `
import json, sys, yaml
out = []
for p in sys.argv[1:]:
    text = open(p, encoding="utf-8").read()
    assert text.startswith("---\n"), p
    front, _, body = text[4:].partition("\n---\n")
    meta = yaml.safe_load(front) or {}
    if body.endswith("\n"):
        body = body[:-1]
    sup = meta.get("supersedes")
    sup = [] if sup is None else ([sup] if isinstance(sup, str) else [str(s) for s in sup])
    out.append({"id": meta["id"], "type": meta["type"], "title": meta["title"], "body": body,
        "project": meta.get("project", "global"), "machine_id": meta.get("machine_id", "unknown"),
        "scope": meta.get("scope", "portable"), "tags": list(meta.get("tags") or []),
        "created_at": meta.get("created_at", ""), "updated_at": meta.get("updated_at", ""),
        "prov_source": meta.get("prov_source", "human"), "prov_model": meta.get("prov_model", ""),
        "confidence": float(meta.get("confidence", 1.0)), "supersedes": sup})
print(json.dumps(out))
`

// Every file reflect and consolidate write loads in the reference's reader
// with the values we meant.
func TestWrittenFilesLoadInReferenceReader(t *testing.T) {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference reader cannot run")
	}
	ctx := context.Background()
	s := openStore(t)
	eps := episodics(t, s, "demo: it's \"quoted\"", 5)
	a := add(t, s, note.Semantic, "demo: it's \"quoted\"", "API base URL", "The API base URL is https://api.example.test/v2.", "2026-01-01T00:00:00+00:00")
	b := add(t, s, note.Semantic, "demo: it's \"quoted\"", "API version", "We call v2 of the API.", "2026-01-02T00:00:00+00:00")
	c := add(t, s, note.Semantic, "demo: it's \"quoted\"", "Timeouts: 30s", "Requests time out after 30s.", "2026-01-03T00:00:00+00:00")
	d := add(t, s, note.Semantic, "demo: it's \"quoted\"", "Timeout is 30 seconds", "Requests time out after 30s.", "2026-01-04T00:00:00+00:00")
	srv := newStandIn(t)
	srv.answer(`[{"type": "semantic", "title": "Title: with a colon, 'quotes' and #hash", "body": "- a list\n- yes: no\n\n---\nnot front-matter"}]`)
	if _, err := Reflect(ctx, s, srv.client(t, 5*time.Second), []string{eps[0].Project}, 5, Options{Apply: true, MachineID: "box"}); err != nil {
		t.Fatal(err)
	}
	srv.answer(fmt.Sprintf(`[{"action": "synthesize", "type": "semantic", "title": "API base URL (v2)", "body": "The API base URL is https://api.example.test/v2; we call version v2 of the API.", "superseded_ids": [%q, %q]},
		{"action": "keep", "keeper_id": %q, "superseded_ids": [%q]}]`, a.ID, b.ID, c.ID, d.ID))
	if _, err := Consolidate(ctx, s, srv.client(t, 5*time.Second), []string{eps[0].Project}, 2, nil, Options{Apply: true, MachineID: "box"}); err != nil {
		t.Fatal(err)
	}
	files := tree(t, s)
	var paths []string
	want := map[string]note.Note{}
	for p, data := range files {
		n, err := note.Parse([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
		want[n.ID] = *n
	}
	out, err := exec.Command("python3", append([]string{"-c", refReader}, paths...)...).Output()
	if err != nil {
		t.Fatalf("reference reader: %v", err)
	}
	var got []struct {
		ID, Type, Title, Body, Project, Scope string
		MachineID                             string   `json:"machine_id"`
		Tags                                  []string `json:"tags"`
		CreatedAt                             string   `json:"created_at"`
		UpdatedAt                             string   `json:"updated_at"`
		ProvSource                            string   `json:"prov_source"`
		ProvModel                             string   `json:"prov_model"`
		Confidence                            float64
		Supersedes                            []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	var sawMerge, sawReflection, sawKeep bool
	for _, g := range got {
		w := want[g.ID]
		if g.Type != w.Type || g.Title != w.Title || g.Body != w.Body || g.Project != w.Project || g.MachineID != w.MachineID ||
			strings.Join(g.Tags, ",") != strings.Join(w.Tags, ",") || g.Confidence != w.Confidence || g.ProvSource != w.ProvSource ||
			g.ProvModel != w.ProvModel || g.CreatedAt != w.CreatedAt || g.UpdatedAt != w.UpdatedAt ||
			strings.Join(g.Supersedes, ",") != strings.Join(w.Supersedes, ",") {
			t.Errorf("%s: the reference reads %+v, we meant %+v", g.ID, g, w)
		}
		sawMerge = sawMerge || g.ProvSource == "merge"
		sawReflection = sawReflection || (g.ProvSource == "reflection" && g.ProvModel == "local/m" && g.Title == "Title: with a colon, 'quotes' and #hash")
		sawKeep = sawKeep || (g.ID == c.ID && len(g.Supersedes) == 1 && g.Supersedes[0] == d.ID)
	}
	if !sawMerge || !sawReflection || !sawKeep || len(got) != len(files) {
		t.Errorf("merge %v reflection %v keep %v, %d of %d files", sawMerge, sawReflection, sawKeep, len(got), len(files))
	}
}
