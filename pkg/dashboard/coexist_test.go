package dashboard

import (
	"context"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/reftest"
)

// The dashboard keeps its store open for its life; the reference
// implementation run on the same home meanwhile (SPEC 3.2) rebuilds
// index.db with its own schema. Every page that lists or searches then
// failed ("no such index: idx_tags_tag") until the dashboard was
// restarted; the next request now rebuilds the index and finds the
// reference's note.
func TestDashboardOutlivesReferenceRebuild(t *testing.T) {
	reftest.Dir(t, "head")
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	want(t, c.get("/notes"), http.StatusOK)
	out, err := reftest.Python(t, "head", `import sys
from anamnesis.store import MemoryStore
print(MemoryStore(root=sys.argv[1]).write(type="semantic", title="Wombat cache note", body="The wombat cache listens on 6380.").id)`, []string{f.home})
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	id := string(out[:len(out)-1])
	want(t, c.get("/notes?q=wombat"), http.StatusOK, `href="/notes/`+id+`"`)
	want(t, c.get("/api/search?q=wombat"), http.StatusOK, id)
	want(t, c.get("/"), http.StatusOK)
}

// A tag holding a comma (the reference and MCP memory_write take any
// string as a tag; "deploy, prod" is one) is shown in the edit form's
// comma-separated field like two tags. An edit that left the field as
// shown split it into "deploy" and "prod"; the note keeps its tags as
// they were unless the field changed.
func TestEditKeepsTagsHoldingCommas(t *testing.T) {
	f := newFixture(t, 2)
	c := newClient(t, f, nil)
	ctx := context.Background()
	n := note.New(note.Semantic, "Release train", "We ship on Tuesdays.")
	n.Tags = []string{"deploy, prod", "x"}
	w, err := f.st.Write(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := f.st.Path(ctx, w.ID)
	before, _ := os.ReadFile(path)
	page := want(t, c.get("/notes/"+w.ID+"/edit"), http.StatusOK)
	if !strings.Contains(page, "deploy, prod, x") {
		t.Fatalf("the form does not show the tags as expected:\n%s", page)
	}
	r := c.post("/notes/"+w.ID+"/edit", c.form("title", "Release train (weekly)", "type", "semantic",
		"scope", "portable", "project", "global", "tags", "deploy, prod, x",
		"body", "We ship on Tuesdays.", "base", fileHash(before)), nil)
	if r.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d\n%s", r.Code, r.Body)
	}
	got, err := f.st.Get(ctx, w.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "Release train (weekly)" || strings.Join(got.Tags, "|") != "deploy, prod|x" {
		t.Errorf("after a title edit: title %q tags %q", got.Title, got.Tags)
	}
}
