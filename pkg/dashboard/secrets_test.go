package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/redact/redacttest"
)

func flashOf(w interface{ Header() http.Header }) string {
	for _, c := range (&http.Response{Header: w.Header()}).Cookies() {
		if c.Name == flashCookie {
			v, _ := url.QueryUnescape(c.Value)
			return v
		}
	}
	return ""
}

// TestNewAndEditRedactCorpus: every secret shape typed into the new-note
// form or an edit is gone from the file, and the flash says what kind; a
// benign look-alike is saved as typed, and "Keep secrets as typed" keeps one.
func TestNewAndEditRedactCorpus(t *testing.T) {
	f := newFixture(t, 2)
	c := newClient(t, f, nil)
	ctx := context.Background()
	for _, s := range redacttest.Sample(redacttest.Secrets(t)) {
		w := c.post("/notes/new", c.form("title", "about "+s.Shape, "type", "semantic", "scope", "portable", "project", "p", "body", s.Text), nil)
		want(t, w, http.StatusSeeOther)
		id := strings.TrimPrefix(w.Header().Get("Location"), "/notes/")
		path := filepath.Join(f.st.MemoryDir(), "semantic", id+".md")
		data, _ := os.ReadFile(path)
		if strings.Contains(string(data), s.Secret) || !strings.Contains(flashOf(w), "Secrets were redacted (") {
			t.Errorf("new %s: flash %q, file:\n%s", s.Shape, flashOf(w), data)
		}
		// Edit: the secret goes into the title's line and the body again.
		w = c.post("/notes/"+id+"/edit", c.form("title", "edited", "type", "semantic", "scope", "portable", "project", "p",
			"body", "again: "+s.Text, "base", fileHash(data)), nil)
		want(t, w, http.StatusSeeOther)
		data, _ = os.ReadFile(path)
		if strings.Contains(string(data), s.Secret) || !strings.Contains(flashOf(w), "Secrets were redacted (") {
			t.Errorf("edit %s: flash %q, file:\n%s", s.Shape, flashOf(w), data)
		}
	}
	for _, b := range redacttest.Sample(redacttest.BenignTexts(t)) {
		w := c.post("/notes/new", c.form("title", "benign", "type", "semantic", "scope", "portable", "project", "p", "body", b.Text), nil)
		want(t, w, http.StatusSeeOther)
		n, err := f.st.Get(ctx, strings.TrimPrefix(w.Header().Get("Location"), "/notes/"))
		if err != nil {
			t.Fatal(err)
		}
		if n.Body != strings.TrimRight(b.Text, "\n") || strings.Contains(flashOf(w), "redacted") {
			t.Errorf("benign %s: body %q flash %q", b.Name, n.Body, flashOf(w))
		}
	}
	w := c.post("/notes/new", c.form("title", "kept", "type", "semantic", "scope", "portable", "project", "p",
		"body", "password=Hunt3r2-Prod", "keep_secrets", "on"), nil)
	want(t, w, http.StatusSeeOther)
	n, _ := f.st.Get(ctx, strings.TrimPrefix(w.Header().Get("Location"), "/notes/"))
	if n.Body != "password=Hunt3r2-Prod" || strings.Contains(flashOf(w), "redacted") {
		t.Errorf("keep: body %q flash %q", n.Body, flashOf(w))
	}
	want(t, c.get("/notes/new"), http.StatusOK, `name="keep_secrets"`)
}
