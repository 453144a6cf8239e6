package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	neturl "net/url"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// reflectStandIn is a loopback OpenAI-compatible endpoint answering every
// request with content; it counts the requests.
func reflectStandIn(t *testing.T, content string) (*httptest.Server, *int) {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		n++
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": content}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// maintStore is a store with five episodics in project demo and two notes
// with the same body.
func maintStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for i := range 5 {
		n := note.New(note.Episodic, fmt.Sprintf("Session %d", i), fmt.Sprintf("**Ask:** step %d\n\n**Outcome:** done", i))
		n.Project, n.ProvSource, n.Tags = "demo", note.ProvSessionEnd, []string{"session"}
		if _, err := st.Write(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	for _, title := range []string{"First copy", "Second copy"} {
		n := note.New(note.Semantic, title, "The same body.")
		n.Project = "demo"
		if _, err := st.Write(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func TestMaintenancePage(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	st := maintStore(t)
	srv, calls := reflectStandIn(t, `[{"type": "procedural", "title": "Run the steps in order", "body": "Step 0 to 4, each ends done."}]`)
	opt := Options{Store: st, Addr: testAddr, MachineID: "laptop", Version: "test",
		Model: model.Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1", Timeout: 5 * time.Second}}
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, srv: s, h: s.Handler()}
	home := st.Home()
	before := snapshot(t, home)

	// The page: the buttons, no model call, no report until asked.
	body := want(t, c.get("/maintenance?project=demo"), 200, `id="maint-reflect"`, `id="dedup-apply"`, `id="reflect-dry"`, "Model: <code>local/m</code>")
	if strings.Contains(body, `class="report"`) {
		t.Error("a GET ran a dry run")
	}
	want(t, c.post("/maintenance/dedup", c.form("project", "demo"), nil), 200, "would change 1 note(s)", `id="dedup-report"`)
	if *calls != 0 {
		t.Errorf("GET called the model %d time(s)", *calls)
	}
	// No CSRF token, or another origin: refused, nothing written, no model call.
	if w := c.post("/maintenance/reflect", maintForm("project", "demo", "apply", "1"), nil); w.Code != http.StatusForbidden {
		t.Errorf("no CSRF: %d", w.Code)
	}
	if w := c.post("/maintenance/reflect", c.form("project", "demo", "apply", "1"), map[string]string{"Origin": "http://evil.example"}); w.Code != http.StatusForbidden {
		t.Errorf("cross-origin: %d", w.Code)
	}
	if *calls != 0 {
		t.Error("a refused POST reached the model")
	}
	// Dry run: the report, nothing written.
	want(t, c.post("/maintenance/reflect", c.form("project", "demo"), nil), 200, "reflect demo: 5 episodic note(s) -&gt; would write 1 note(s) (local/m)", "Run the steps in order")
	assertSame(t, before, snapshot(t, home))

	// Apply: written, tagged, committed; back to the page with a message.
	w := c.post("/maintenance/reflect", c.form("project", "demo", "apply", "1"), nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/maintenance?project=demo" {
		t.Fatalf("apply: %d %s", w.Code, w.Header().Get("Location"))
	}
	ctx := context.Background()
	if n, _ := st.Count(ctx, store.Filter{Project: "demo", Prov: note.ProvReflection}); n != 1 {
		t.Errorf("%d reflection notes", n)
	}
	if n, _ := st.Count(ctx, store.Filter{Project: "demo", Tag: "reflected"}); n != 5 {
		t.Errorf("%d reflected episodics", n)
	}
	out, err := exec.Command("git", "-C", filepath.Join(home, "memory"), "log", "--format=%s").Output()
	if err != nil || !strings.Contains(string(out), "anamnesis reflect (laptop, dashboard)") {
		t.Errorf("commit: %v %s", err, out)
	}
	// Dedup's Apply deletes the later copy.
	w = c.post("/maintenance/dedup", c.form("project", "demo", "apply", "1"), nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("dedup: %d", w.Code)
	}
	if n, _ := st.Count(ctx, store.Filter{Project: "demo", Type: note.Semantic}); n != 1 {
		t.Errorf("%d semantic notes after dedup, want the keeper only", n)
	}
	want(t, c.post("/maintenance/dedup", c.form("project", "demo"), nil), 200, "would change 0 note(s)")
}

func maintForm(kv ...string) neturl.Values {
	v := neturl.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = []string{kv[i+1]}
	}
	return v
}

func assertSame(t *testing.T, a, b map[string]string) {
	t.Helper()
	if len(a) != len(b) {
		t.Errorf("%d files before, %d after", len(a), len(b))
	}
	for k, v := range a {
		if b[k] != v {
			t.Errorf("%s changed", k)
		}
	}
}

// A model failure on Apply writes nothing and says why.
func TestMaintenanceApplyFailureWritesNothing(t *testing.T) {
	st := maintStore(t)
	srv, _ := reflectStandIn(t, "Here are your notes: none.")
	s, err := New(Options{Store: st, Addr: testAddr, MachineID: "laptop", Version: "test",
		Model: model.Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1", Timeout: 5 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, srv: s, h: s.Handler()}
	before := snapshot(t, st.Home())
	w := c.post("/maintenance/reflect", c.form("project", "demo", "apply", "1"), nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("status %d", w.Code)
	}
	flash := ""
	for _, ck := range w.Result().Cookies() {
		if ck.Name == flashCookie {
			flash, _ = neturl.QueryUnescape(ck.Value)
		}
	}
	if !strings.HasPrefix(flash, "err:") || !strings.Contains(flash, "not a JSON array") || !strings.Contains(flash, "nothing written") {
		t.Errorf("flash %q", flash)
	}
	assertSame(t, before, snapshot(t, st.Home()))
	// Without a provider the buttons are disabled and a POST says a provider is needed.
	s2, _ := New(Options{Store: st, Addr: testAddr, MachineID: "laptop", Version: "test"})
	c2 := &client{t: t, srv: s2, h: s2.Handler()}
	want(t, c2.get("/maintenance"), 200, `id="reflect-apply" disabled`, "no model provider is configured")
	if w := c2.post("/maintenance/consolidate", c2.form("project", "demo", "apply", "1"), nil); w.Code != http.StatusSeeOther {
		t.Errorf("no provider: %d", w.Code)
	}
	assertSame(t, before, snapshot(t, st.Home()))
}
