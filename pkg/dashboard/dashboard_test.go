package dashboard

import (
	"context"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/team"
)

const testAddr = "127.0.0.1:7077"

type client struct {
	t   *testing.T
	srv *Server
	h   http.Handler
}

func newClient(t *testing.T, f *fixture, mod func(*Options)) *client {
	t.Helper()
	opt := Options{Store: f.st, Addr: testAddr, MachineID: "laptop", Version: "test"}
	if mod != nil {
		mod(&opt)
	}
	srv, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Wait) // before the fixture's store closes and its home goes
	return &client{t: t, srv: srv, h: srv.Handler()}
}

func (c *client) do(req *http.Request) *httptest.ResponseRecorder {
	if req.Host == "" || req.Host == "example.com" {
		req.Host = testAddr
	}
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, req)
	return w
}

func (c *client) get(path string) *httptest.ResponseRecorder {
	return c.do(httptest.NewRequest(http.MethodGet, path, nil))
}

// post sends form as a same-origin browser would; hdr overrides or adds headers
// (an empty value deletes one).
func (c *client) post(path string, form url.Values, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Host = testAddr
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+testAddr)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	return c.do(req)
}

func (c *client) form(kv ...string) url.Values {
	v := url.Values{"csrf": {c.srv.csrf}}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

func want(t *testing.T, w *httptest.ResponseRecorder, status int, contains ...string) string {
	t.Helper()
	body := w.Body.String()
	if w.Code != status {
		t.Fatalf("status %d, want %d; body:\n%.2000s", w.Code, status, body)
	}
	for _, s := range contains {
		if !strings.Contains(body, s) {
			t.Errorf("body lacks %q:\n%.3000s", s, body)
		}
	}
	return body
}

// snapshot maps every file under home (but .git and the index) to its contents.
func snapshot(t *testing.T, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || p == filepath.Join(home, "state", "plans") {
				return filepath.SkipDir // a dry run saves its plan there: not a write
			}
			return nil
		}
		if strings.HasPrefix(d.Name(), "index.db") {
			return nil
		}
		b, _ := os.ReadFile(p)
		out[p] = string(b)
		return nil
	})
	return out
}

func sameTree(t *testing.T, before map[string]string, home string) {
	t.Helper()
	after := snapshot(t, home)
	if len(before) != len(after) {
		t.Errorf("file count changed: %d -> %d", len(before), len(after))
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s changed", p)
		}
	}
}

func TestPagesRender(t *testing.T) {
	f := newFixture(t, 40)
	c := newClient(t, f, nil)
	head := gitIn(t, f.st.MemoryDir(), "rev-parse", "HEAD")
	for _, tc := range []struct {
		path string
		has  []string
	}{
		{"/", []string{`id="stat-total"><span class="num">43</span>`, "Recent activity", "Last sync", "desktop", "Unreadable files"}},
		{"/notes", []string{"43 notes", "Deploy checklist for the quotes API", `class="badge local"`}},
		{"/notes?type=semantic&machine=laptop", []string{"matching the filters", "Billing worker runs on the new queue"}},
		{"/notes/" + f.extra, []string{"Deploy checklist for the quotes API", "<p>Run the migrations first", "user_id", "workspace_id", "memory/semantic/" + f.extra + ".md"}},
		{"/notes/" + f.extra + "/edit", []string{`name="csrf" value="` + c.srv.csrf, "Run the migrations first", `<option selected>semantic</option>`}},
		{"/notes/" + f.extra + "/delete", []string{"Delete this note?", "confirm-delete"}},
		{"/notes/" + f.extra + "/history", []string{"2 commits", "laptop", "desktop", `&#43;Check the dashboards after the deploy.`}},
		{"/notes/" + f.extra + "/raw", []string{"user_id: u-42\n"}},
		{"/notes/new", []string{"New note", "Create note"}},
		{"/commits/" + head, []string{"anamnesis: sync from desktop", "semantic/" + f.moved + ".md"}},
		{"/fleet", []string{"laptop", "desktop", "this machine", "anamnesis: sync from desktop"}},
		{"/static/style.css", []string{"prefers-color-scheme: dark", ":focus-visible"}},
		{"/static/app.js", []string{"/api/changes"}},
		{"/api/notes/" + f.extra, []string{`"title": "Deploy checklist for the quotes API"`, `"prov_source": "human"`, `"supersedes": []`}},
		{"/api/notes?limit=2", []string{`"machine_id"`}},
		{"/api/search?q=deploy+migrations", []string{f.extra}},
		{"/api/stats", []string{`"total": 43`}},
		{"/api/changes", []string{`"token"`}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			want(t, c.get(tc.path), http.StatusOK, tc.has...)
		})
	}
	want(t, c.get("/notes/01ZZZZZZZZZZZZZZZZZZZZZZZZ"), http.StatusNotFound, "No note has the id")
	want(t, c.get("/nope"), http.StatusNotFound)
}

func TestSearchHighlightsWords(t *testing.T) {
	f := newFixture(t, 20)
	c := newClient(t, f, nil)
	want(t, c.get("/notes?q=migrations+workers"), http.StatusOK, "best match",
		`href="/notes/`+f.extra+`"`, "<mark>migrations</mark>", "<mark>workers</mark>")
	// The title is highlighted too, and filters narrow the search.
	want(t, c.get("/notes?q=billing"), http.StatusOK, "<mark>Billing</mark> worker")
	want(t, c.get("/notes?q=billing&machine=nobody"), http.StatusOK, "Nothing matches")
	// A snippet of a markdown body reads as text, not as markdown source.
	md := note.New(note.Episodic, "Session", "**Ask:** rotate the `zephyr` keys\n\n**Outcome:** see [the runbook](https://x/y)")
	if _, err := f.st.Write(context.Background(), md); err != nil {
		t.Fatal(err)
	}
	body := want(t, c.get("/notes?q=zephyr"), http.StatusOK, "Ask: rotate the <mark>zephyr</mark> keys Outcome: see the runbook")
	if strings.Contains(body, "**Ask") || strings.Contains(body, "`") || strings.Contains(body, "](") {
		t.Errorf("raw markdown in the search page")
	}
	// No tokens, no results: the header box with only punctuation shows browse, never an error.
	want(t, c.get("/notes?q=%21%21"), http.StatusOK, "Nothing matches")
}

func TestBrowsePaginates(t *testing.T) {
	f := newFixture(t, 117)
	c := newClient(t, f, nil)
	all, err := f.st.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	rowRE := regexp.MustCompile(`<li class="note-row">\s*<a class="title" href="/notes/([^"]+)"`)
	next := regexp.MustCompile(`href="([^"]+)" rel="next"`)
	prev := regexp.MustCompile(`href="([^"]+)" rel="prev"`)
	ids := func(b string) (out []string) {
		for _, m := range rowRE.FindAllStringSubmatch(b, -1) {
			out = append(out, m[1])
		}
		return out
	}
	b := want(t, c.get("/notes"), http.StatusOK, "120 notes", "showing 1–50", `rel="next"`)
	var seen []string
	var pages []string
	for page := 1; ; page++ {
		got := ids(b)
		seen = append(seen, got...)
		pages = append(pages, b)
		m := next.FindStringSubmatch(b)
		if m == nil {
			break
		}
		if len(got) != pageSize {
			t.Fatalf("page %d has %d rows", page, len(got))
		}
		b = want(t, c.get(html.UnescapeString(m[1])), http.StatusOK)
	}
	if len(pages) != 3 || !strings.Contains(pages[2], "showing 101–120") {
		t.Fatalf("%d pages; last says %q", len(pages), regexp.MustCompile(`showing [^,]*`).FindString(pages[len(pages)-1]))
	}
	var order []string
	for _, n := range all {
		order = append(order, n.ID)
	}
	if strings.Join(seen, ",") != strings.Join(order, ",") {
		t.Errorf("pages do not walk the list in order")
	}
	// Newer goes back one page.
	m := prev.FindStringSubmatch(pages[2])
	if m == nil {
		t.Fatal("no newer link on the last page")
	}
	b = c.get(html.UnescapeString(m[1])).Body.String()
	if strings.Join(ids(b), ",") != strings.Join(ids(pages[1]), ",") || !strings.Contains(b, "showing 51–100") {
		t.Errorf("newer page differs from page 2")
	}
	// A cursor that names nothing real is just the first page, never an error.
	want(t, c.get("/notes?from=garbage&pos=9999"), http.StatusOK, "showing 1–50")
	want(t, c.get("/notes?from=2999-01-01|"+all[0].ID+"&pos=50"), http.StatusOK)
	want(t, c.get("/notes?type=bogus"), http.StatusOK, `unknown type &#34;bogus&#34;`)
}

func TestEditWritesFileKeepsUnknownKeysAndReindexes(t *testing.T) {
	f := newFixture(t, 10)
	c := newClient(t, f, nil)
	mem := f.st.MemoryDir()
	head := gitIn(t, mem, "rev-parse", "HEAD")
	path := filepath.Join(mem, "semantic", f.extra+".md")
	// Age the note so the bump of updated_at is visible within one test second.
	before, _ := os.ReadFile(path)
	before = []byte(regexp.MustCompile(`updated_at: '[^']*'`).ReplaceAllString(string(before), "updated_at: '2025-05-05T05:05:05+00:00'"))
	if err := os.WriteFile(path, before, 0o644); err != nil {
		t.Fatal(err)
	}
	old, _ := note.Parse(before)
	w := c.post("/notes/"+f.extra+"/edit", c.form("title", "Deploy checklist for the quotes API", "type", "semantic",
		"scope", "portable", "project", "github.com/acme/quotes-api", "tags", "deploy, release",
		"body", "Roll the workers first.\r\nThen purge the zanzibar cache.\r\n", "base", fileHash(before)), nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/notes/"+f.extra {
		t.Fatalf("edit: %d %s\n%s", w.Code, w.Header().Get("Location"), w.Body)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(after)
	if err != nil {
		t.Fatal(err)
	}
	if n.Body != "Roll the workers first.\nThen purge the zanzibar cache." {
		t.Errorf("body = %q", n.Body)
	}
	if !strings.Contains(string(after), "user_id: u-42\nworkspace_id: ws-7\n") {
		t.Errorf("unknown keys lost:\n%s", after)
	}
	if n.UpdatedAt == old.UpdatedAt || n.CreatedAt != old.CreatedAt || n.MachineID != "laptop" {
		t.Errorf("timestamps/origin: created %s updated %s (was %s) machine %s", n.CreatedAt, n.UpdatedAt, old.UpdatedAt, n.MachineID)
	}
	if strings.Join(n.Tags, ",") != "deploy,release" {
		t.Errorf("tags = %v", n.Tags)
	}
	hits, err := f.st.Search(context.Background(), store.Query{Text: "zanzibar", K: 5})
	if err != nil || len(hits) != 1 || hits[0].ID != f.extra {
		t.Errorf("index not updated: %v %v", hits, err)
	}
	if h := gitIn(t, mem, "rev-parse", "HEAD"); h != head {
		t.Errorf("edit committed to git")
	}
	// The flash message shows once on the page the browser lands on.
	req := httptest.NewRequest(http.MethodGet, "/notes/"+f.extra, nil)
	for _, ck := range w.Result().Cookies() {
		req.AddCookie(ck)
	}
	want(t, c.do(req), http.StatusOK, "Saved.", "zanzibar")
}

func TestEditMovesBetweenTypesAndScopes(t *testing.T) {
	f := newFixture(t, 6)
	c := newClient(t, f, nil)
	p := filepath.Join(f.st.MemoryDir(), "semantic", f.extra+".md")
	data, _ := os.ReadFile(p)
	w := c.post("/notes/"+f.extra+"/edit", c.form("title", "Deploy checklist", "type", "procedural", "scope", "machine-local",
		"project", "global", "tags", "", "body", "steps", "base", fileHash(data)), nil)
	want(t, w, http.StatusSeeOther)
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("old file still there: %v", err)
	}
	moved, err := os.ReadFile(filepath.Join(f.st.LocalDir(), "procedural", f.extra+".md"))
	if err != nil || !strings.Contains(string(moved), "user_id: u-42") {
		t.Fatalf("moved file: %v\n%s", err, moved)
	}
	// Its history from the portable tree stays readable after the move out of git.
	want(t, c.get("/notes/"+f.extra+"/history"), http.StatusOK, "machine-local", "2 commits", "Check the dashboards")
}

// Opening a note's edit form never recomputes the filter menus (it lists
// the projects it knows); a list page after the edit does, in the background.
func TestEditFormKeepsKnownFacets(t *testing.T) {
	f := newFixture(t, 10)
	c := newClient(t, f, nil)
	want(t, c.get("/notes"), http.StatusOK)
	first := c.srv.facets
	if first == nil {
		t.Fatal("the list page computed no facets")
	}
	n := note.New(note.Semantic, "Facets lag", "A note written behind the dashboard's back.")
	n.Project = "github.com/acme/elsewhere"
	if _, err := f.st.Write(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	want(t, c.get("/notes/"+f.extra+"/edit"), http.StatusOK)
	c.srv.bg.Wait()
	if c.srv.facets != first {
		t.Fatal("the edit form recomputed the facets")
	}
	want(t, c.get("/notes"), http.StatusOK)
	c.srv.bg.Wait()
	if c.srv.facets == first || c.srv.facets.stats.ByProject["github.com/acme/elsewhere"] != 1 {
		t.Fatalf("the list page after the write did not refresh the facets: %+v", c.srv.facets.stats.ByProject)
	}
}

func TestEditRefusesBadInputAndStaleForms(t *testing.T) {
	f := newFixture(t, 6)
	c := newClient(t, f, nil)
	before := snapshot(t, f.home)
	p := filepath.Join(f.st.MemoryDir(), "semantic", f.extra+".md")
	data, _ := os.ReadFile(p)
	base := fileHash(data)
	want(t, c.post("/notes/"+f.extra+"/edit", c.form("title", " ", "type", "semantic", "scope", "portable", "project", "x", "base", base), nil),
		http.StatusUnprocessableEntity, "Title must not be empty.")
	want(t, c.post("/notes/"+f.extra+"/edit", c.form("title", "t", "type", "opinion", "scope", "everywhere", "project", "x", "base", base), nil),
		http.StatusUnprocessableEntity, "Type must be one of", "Scope must be one of")
	// A form opened before the file changed on disk does not overwrite silently.
	want(t, c.post("/notes/"+f.extra+"/edit", c.form("title", "t", "type", "semantic", "scope", "portable", "project", "x",
		"body", "my text", "base", "0000"), nil), http.StatusConflict, "changed on disk", "my text", `value="`+base+`"`)
	sameTree(t, before, f.home)
}

func TestCreateNote(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	w := c.post("/notes/new", c.form("title", "Use WAL mode", "type", "procedural", "scope", "portable",
		"project", "github.com/acme/web", "tags", "sqlite,sqlite, wal", "body", "Always open with WAL."), nil)
	want(t, w, http.StatusSeeOther)
	id := strings.TrimPrefix(w.Header().Get("Location"), "/notes/")
	n, err := f.st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if n.Title != "Use WAL mode" || n.MachineID != "laptop" || n.ProvSource != note.ProvHuman || strings.Join(n.Tags, ",") != "sqlite,wal" {
		t.Errorf("created %+v", n)
	}
	if _, err := os.Stat(filepath.Join(f.st.MemoryDir(), "procedural", id+".md")); err != nil {
		t.Error(err)
	}
	want(t, c.post("/notes/new", c.form("title", "x", "type", "bogus", "scope", "portable", "project", "p"), nil),
		http.StatusUnprocessableEntity, "Type must be one of")
	// The body's limit is the store's (note.MaxBody), said with the form's
	// other problems; the dashboard had its own, four times larger.
	big := strings.Repeat("x", note.MaxBody+1)
	want(t, c.post("/notes/new", c.form("title", "x", "type", "bogus", "scope", "portable", "project", "p", "body", big), nil),
		http.StatusUnprocessableEntity, "Type must be one of", fmt.Sprintf("body is %d bytes; at most %d (1 MiB) are allowed", len(big), note.MaxBody))
}

func TestDeleteAsksFirstThenRemovesFile(t *testing.T) {
	f := newFixture(t, 6)
	c := newClient(t, f, nil)
	p := filepath.Join(f.st.MemoryDir(), "semantic", f.extra+".md")
	want(t, c.get("/notes/"+f.extra+"/delete"), http.StatusOK, "Delete this note?")
	if _, err := os.Stat(p); err != nil {
		t.Fatal("the confirmation page deleted the note")
	}
	w := c.post("/notes/"+f.extra+"/delete", c.form(), nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/notes" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Errorf("file still there: %v", err)
	}
	want(t, c.get("/notes/"+f.extra), http.StatusNotFound)
	// A deleted note's history stays reachable.
	want(t, c.get("/notes/"+f.extra+"/history"), http.StatusOK, "(deleted)", "Check the dashboards")
	want(t, c.post("/notes/"+f.extra+"/delete", c.form(), nil), http.StatusNotFound)
}

func TestHistoryFollowsMoveBetweenTypes(t *testing.T) {
	f := newFixture(t, 6)
	c := newClient(t, f, nil)
	b := want(t, c.get("/notes/"+f.moved+"/history"), http.StatusOK, "2 commits",
		"episodic/"+f.moved+".md", "semantic/"+f.moved+".md", "&#43;The billing worker consumes the v2 queue", "-Moved the billing worker")
	if !strings.Contains(b, `class="machine">desktop`) || !strings.Contains(b, `class="machine">laptop`) {
		t.Error("history does not name both machines")
	}
	want(t, c.get("/notes/"+f.local+"/history"), http.StatusOK, "machine-local")
}

func TestMarkdownRawHTMLOff(t *testing.T) {
	f := newFixture(t, 2)
	c := newClient(t, f, nil)
	n := note.New(note.Semantic, `<img src=x onerror=alert(1)>`, "# Head\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <b onclick=x>b</b>\n\n| a | b |\n|---|---|\n| 1 | 2 |")
	w, err := f.st.Write(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	b := want(t, c.get("/notes/"+w.ID), http.StatusOK, "<h1", "<table>", "&lt;img src=x onerror=alert(1)&gt;")
	for _, bad := range []string{"<script>alert", "javascript:", "<b onclick", "<img src=x"} {
		if strings.Contains(b, bad) {
			t.Errorf("rendered page contains %q", bad)
		}
	}
}

func TestLiveRefreshSeesHandEdits(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	token := func() string {
		b := want(t, c.get("/api/changes"), http.StatusOK)
		return regexp.MustCompile(`"token": "([^"]+)"`).FindStringSubmatch(b)[1]
	}
	t1 := token()
	if t2 := token(); t1 != t2 {
		t.Fatalf("token changes without changes: %s %s", t1, t2)
	}
	if b := want(t, c.get("/"), http.StatusOK); !strings.Contains(b, `data-change="`+t1+`"`) {
		t.Errorf("page does not carry the change token %s", t1)
	}
	// A note copied in by hand: the token moves and the note is indexed.
	id := note.NewID()
	nt := note.New(note.Procedural, "Hand written quokka note", "quokka")
	nt.ID, nt.CreatedAt, nt.UpdatedAt = id, note.Now(), note.Now()
	if err := os.WriteFile(filepath.Join(f.st.MemoryDir(), "procedural", id+".md"), nt.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if t3 := token(); t3 == t1 {
		t.Fatal("token did not change after a file was added")
	}
	want(t, c.get("/notes?q=quokka"), http.StatusOK, `href="/notes/`+id+`"`)
}

func TestReindexAndSyncButtons(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	w := c.post("/reindex", c.form("full", "1"), map[string]string{"Referer": "http://" + testAddr + "/fleet"})
	want(t, w, http.StatusSeeOther)
	if w.Header().Get("Location") != "/fleet" {
		t.Errorf("reindex redirected to %q", w.Header().Get("Location"))
	}
	if !strings.Contains(w.Header().Get("Set-Cookie"), "Reindex") {
		t.Errorf("no flash: %q", w.Header().Get("Set-Cookie"))
	}
	want(t, c.get("/"), http.StatusOK, "Sync now</button>", "disabled", "not configured")
	w = c.post("/sync", c.form(), nil)
	if !strings.Contains(w.Header().Get("Set-Cookie"), "not+configured") {
		t.Errorf("sync without sync options: %q", w.Header().Get("Set-Cookie"))
	}

	// With a real bare remote: the button commits and pushes, and says so.
	remote := filepath.Join(t.TempDir(), "remote.git")
	gitIn(t, t.TempDir(), "init", "-q", "--bare", "-b", "main", remote)
	c = newClient(t, f, func(o *Options) {
		o.Sync = &gitsync.Options{Home: f.home, MachineID: "laptop", Remote: remote, Timeout: 30 * time.Second}
	})
	b := want(t, c.get("/"), http.StatusOK, "Sync now</button>")
	if strings.Contains(b, `disabled aria-describedby="sync-note"`) {
		t.Error("sync button disabled although sync is configured")
	}
	w = c.post("/sync", c.form(), nil)
	want(t, w, http.StatusSeeOther)
	if ck := w.Header().Get("Set-Cookie"); !strings.Contains(ck, "sync%3A+pushed%3Dtrue") {
		t.Errorf("sync result not shown: %q", ck)
	}
	if got, want := gitIn(t, remote, "rev-parse", "main"), gitIn(t, f.st.MemoryDir(), "rev-parse", "HEAD"); got != want {
		t.Errorf("remote main %s, local HEAD %s", got, want)
	}
	// The machine-local note stays out of git whatever the sync did.
	if out := gitIn(t, f.st.MemoryDir(), "ls-files"); strings.Contains(out, f.local) {
		t.Error("machine-local note committed")
	}
	want(t, c.get("/"), http.StatusOK, "Last sync here", "pushed=true")
	// Each joined team's line is said too: a team whose repository is
	// gone is not hidden behind the personal store's pushed=true.
	gone := filepath.Join(t.TempDir(), "gone.git")
	if err := team.Add(f.home, config.Team{Name: "lost", URL: gone}); err != nil {
		t.Fatal(err)
	}
	c = newClient(t, f, func(o *Options) {
		o.Sync = &gitsync.Options{Home: f.home, MachineID: "laptop", Remote: remote, Timeout: 30 * time.Second,
			Teams: []gitsync.TeamSpec{{Name: "lost", URL: gone}}}
	})
	w = c.post("/sync", c.form(), nil)
	if msg := c.flash(w); !strings.Contains(msg, "sync: pushed=") || !strings.Contains(msg, "team lost: pushed=false") || !strings.Contains(msg, "gone.git") {
		t.Errorf("the sync's flash does not say how the team went: %q", msg)
	}
}

// ---- security ----

func TestForeignHostRefused(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	before := snapshot(t, f.home)
	for _, host := range []string{"evil.example", "evil.example:7077", "127.0.0.1:7078", "localhost.evil.example:7077", "10.0.0.1:7077", "127.0.0.1"} {
		req := httptest.NewRequest(http.MethodGet, "/api/notes/"+f.extra, nil)
		req.Host = host
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, req)
		if w.Code != http.StatusMisdirectedRequest || strings.Contains(w.Body.String(), "Deploy") {
			t.Errorf("Host %q: %d %s", host, w.Code, w.Body)
		}
		w = c.post("/notes/"+f.extra+"/delete", c.form(), map[string]string{"Host": host, "Origin": "http://" + host})
		if w.Code != http.StatusMisdirectedRequest {
			t.Errorf("POST with Host %q: %d", host, w.Code)
		}
	}
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Host = ""
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, req)
	if w.Code != http.StatusMisdirectedRequest {
		t.Errorf("no Host: %d", w.Code)
	}
	sameTree(t, before, f.home)
	for _, host := range []string{"127.0.0.1:7077", "localhost:7077", "LOCALHOST:7077", "[::1]:7077"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = host
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Errorf("Host %q refused: %d", host, w.Code)
		}
	}
}

func TestPostWithoutCSRFRefused(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	before := snapshot(t, f.home)
	data, _ := os.ReadFile(filepath.Join(f.st.MemoryDir(), "semantic", f.extra+".md"))
	edit := url.Values{"title": {"pwned"}, "type": {"semantic"}, "scope": {"portable"}, "project": {"x"}, "body": {"pwned"}, "base": {fileHash(data)}}
	for _, tc := range []struct {
		name string
		form url.Values
		hdr  map[string]string
	}{
		{"no token", edit, nil},
		{"wrong token", merge(edit, "csrf", "deadbeef"), nil},
		{"token of another process", merge(edit, "csrf", NewToken()), nil},
		{"no token, no origin", edit, map[string]string{"Origin": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/notes/" + f.extra + "/edit", "/notes/" + f.extra + "/delete", "/notes/new", "/reindex", "/sync"} {
				w := c.post(path, tc.form, tc.hdr)
				if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "CSRF") {
					t.Errorf("%s: %d %s", path, w.Code, w.Body)
				}
			}
		})
	}
	sameTree(t, before, f.home)
}

func merge(v url.Values, k, val string) url.Values {
	out := url.Values{}
	for kk, vv := range v {
		out[kk] = vv
	}
	out.Set(k, val)
	return out
}

func TestCrossOriginPostRefused(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	before := snapshot(t, f.home)
	for _, hdr := range []map[string]string{
		{"Origin": "http://evil.example"},
		{"Origin": "null"},
		{"Origin": "http://127.0.0.1:8080"},
		{"Origin": "https://127.0.0.1:7077"},
		{"Origin": "", "Referer": "http://evil.example/attack.html"},
		{"Origin": "", "Referer": "http://127.0.0.1:9999/"},
		{"Origin": "", "Sec-Fetch-Site": "cross-site"},
		{"Origin": "", "Sec-Fetch-Site": "same-site"},
	} {
		// The CSRF token is right: only the origin gives the attack away.
		w := c.post("/notes/"+f.extra+"/delete", c.form(), hdr)
		if w.Code != http.StatusForbidden || !strings.Contains(w.Body.String(), "cross-") {
			t.Errorf("%v: %d %s", hdr, w.Code, w.Body)
		}
	}
	sameTree(t, before, f.home)
	// Same origin through the localhost name, and a browser that sends no Origin, are fine.
	w := c.post("/reindex", c.form(), map[string]string{"Host": "localhost:7077", "Origin": "http://localhost:7077"})
	want(t, w, http.StatusSeeOther)
	w = c.post("/reindex", c.form(), map[string]string{"Origin": "", "Referer": "http://127.0.0.1:7077/notes", "Sec-Fetch-Site": "same-origin"})
	want(t, w, http.StatusSeeOther)
}

func TestPathIDsRefused(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	before := snapshot(t, f.home)
	for _, id := range []string{"..%2F..%2Fetc%2Fpasswd", "..", "%2E%2E", "a%2Fb", "-rf", "_x", "a%00b", strings.Repeat("a", 129), "x.md"} {
		for _, path := range []string{"/notes/" + id, "/notes/" + id + "/edit", "/notes/" + id + "/raw", "/notes/" + id + "/history", "/notes/" + id + "/delete"} {
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req.URL.Path, _ = url.PathUnescape(path)
			req.URL.RawPath = path
			w := c.do(req)
			if !refused(w) || strings.Contains(w.Body.String(), "root:") {
				t.Errorf("GET %s: %d", path, w.Code)
			}
		}
		for _, path := range []string{"/notes/" + id + "/edit", "/notes/" + id + "/delete"} {
			req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.form("title", "t", "type", "semantic", "scope", "portable", "project", "p").Encode()))
			req.URL.Path, _ = url.PathUnescape(path)
			req.URL.RawPath = path
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Origin", "http://"+testAddr)
			if w := c.do(req); !refused(w) {
				t.Errorf("POST %s: %d", path, w.Code)
			}
		}
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path, _ = url.PathUnescape("/api/notes/" + id)
		req.URL.RawPath = "/api/notes/" + id
		if w := c.do(req); !refused(w) {
			t.Errorf("API %s: %d", id, w.Code)
		}
	}
	// An unencoded ../ never reaches a handler: the mux cleans the path first.
	if w := c.get("/notes/../../etc/passwd"); w.Code == http.StatusOK {
		t.Errorf("cleaned path served: %d", w.Code)
	}
	sameTree(t, before, f.home)
}

// refused: 400 from the id check, or the mux's redirect of a path with a
// ".." segment to its cleaned form (no handler ran).
func refused(w *httptest.ResponseRecorder) bool {
	return w.Code == http.StatusBadRequest || w.Code == http.StatusTemporaryRedirect || w.Code == http.StatusMovedPermanently
}

func TestRefsRefused(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	out := filepath.Join(f.st.MemoryDir(), "pwned")
	before := snapshot(t, f.home)
	for _, ref := range []string{"--output=pwned", "--output=..%2Fpwned", "--all", "-p", "HEAD", "HEAD~1", "main", "abc", "ABCDEF1234", "1234567..89abcdef", "1234567%20--output=x", "deadbeef:semantic"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path = "/commits/" + ref
		w := c.do(req)
		if w.Code != http.StatusBadRequest {
			t.Errorf("ref %q: %d", ref, w.Code)
		}
	}
	// A well-formed hash that is not a commit (a blob) is still no commit page.
	blob := gitIn(t, f.st.MemoryDir(), "rev-parse", "HEAD:semantic/"+f.extra+".md")
	want(t, c.get("/commits/"+blob), http.StatusNotFound)
	want(t, c.get("/commits/0000000000"), http.StatusNotFound)
	if _, err := os.Stat(out); err == nil {
		t.Error("git wrote --output")
	}
	if _, err := g(f).show(context.Background(), "--output="+out); err == nil {
		t.Error("show accepted an option as ref")
	}
	sameTree(t, before, f.home)
}

func g(f *fixture) git { return git{dir: f.st.MemoryDir()} }

func TestSecurityHeaders(t *testing.T) {
	f := newFixture(t, 2)
	c := newClient(t, f, nil)
	for _, p := range []string{"/", "/static/app.js", "/api/changes", "/nope"} {
		h := c.get(p).Header()
		csp := h.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, d) {
				t.Errorf("%s: CSP %q lacks %q", p, csp, d)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: CSP allows inline code: %q", p, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", p, h)
		}
	}
	// No inline script or style anywhere in the pages (the CSP would block it anyway).
	for _, p := range []string{"/", "/notes", "/notes/" + f.extra, "/notes/" + f.extra + "/edit", "/notes/" + f.extra + "/history", "/fleet"} {
		b := c.get(p).Body.String()
		if regexp.MustCompile(`<script>|<script [^>]*>[^<]|\sstyle=|\son[a-z]+=`).MatchString(b) {
			t.Errorf("%s has inline script or style", p)
		}
	}
	if w := c.do(httptest.NewRequest(http.MethodPut, "/notes/"+f.extra, nil)); w.Code != http.StatusMethodNotAllowed {
		t.Errorf("PUT: %d", w.Code)
	}
}

func TestNonLoopbackNeedsToken(t *testing.T) {
	f := newFixture(t, 2)
	if _, err := New(Options{Store: f.st, Addr: "0.0.0.0:7077"}); err == nil {
		t.Fatal("non-loopback address without a token accepted")
	}
	if _, err := New(Options{Store: f.st, Addr: "192.168.1.10:7077"}); err == nil {
		t.Fatal("LAN address without a token accepted")
	}
	tok := NewToken()
	c := newClient(t, f, func(o *Options) { o.Addr = "0.0.0.0:7077"; o.Token = tok })
	get := func(path, host string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Host = host
		for _, ck := range cookies {
			req.AddCookie(ck)
		}
		w := httptest.NewRecorder()
		c.h.ServeHTTP(w, req)
		return w
	}
	if w := get("/", "192.168.1.10:7077"); w.Code != http.StatusUnauthorized {
		t.Errorf("no token: %d", w.Code)
	}
	if w := get("/?token=wrong", "192.168.1.10:7077"); w.Code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", w.Code)
	}
	if w := get("/", "192.168.1.10:7077", &http.Cookie{Name: tokenCookie, Value: "wrong"}); w.Code != http.StatusUnauthorized {
		t.Errorf("wrong cookie: %d", w.Code)
	}
	w := get("/notes?token="+tok+"&type=semantic", "192.168.1.10:7077")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/notes?type=semantic" {
		t.Fatalf("token visit: %d %q", w.Code, w.Header().Get("Location"))
	}
	ck := w.Result().Cookies()
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("cookie %+v", ck)
	}
	if w := get("/notes?type=semantic", "192.168.1.10:7077", ck[0]); w.Code != http.StatusOK {
		t.Errorf("with cookie: %d", w.Code)
	}
	// Still no DNS names other than the machine's own.
	if w := get("/", "evil.example:7077", ck[0]); w.Code != http.StatusMisdirectedRequest {
		t.Errorf("foreign host with token: %d", w.Code)
	}
}

func TestMarkedIsBalancedAndEscaped(t *testing.T) {
	for in, out := range map[string]string{
		"a \x02b\x03 c":       "a <mark>b</mark> c",
		"\x02<i>\x03":         "<mark>&lt;i&gt;</mark>",
		"\x02open":            "<mark>open</mark>",
		"stray\x03 \x02\x02x": "stray <mark>x</mark>",
	} {
		if got := string(marked(in)); got != out {
			t.Errorf("marked(%q) = %q, want %q", in, got, out)
		}
	}
}

// Search snippets show the words, not the markdown around them.
func TestSnippetIsPlainText(t *testing.T) {
	for in, out := range map[string]string{
		"**Ask:** Add a \x02health\x03 check\n\n**Outcome:** done":         "Ask: Add a \x02health\x03 check Outcome: done",
		"…the `make \x02rotate\x03-keys` target":                           "…the make \x02rotate\x03-keys target",
		"## Deploy\n- step one\n- see [the \x02runbook\x03](https://x/y)…": "Deploy step one see the \x02runbook\x03…",
		"use *care* and _always_ run snake_case_name or 2 * 3":             "use care and always run snake_case_name or 2 * 3",
		"> quoted\n1. first\n![diagram](a.png) ~~old~~ __bold__":           "quoted first diagram old bold",
		"**\x02Files\x03 touched (1):**\n- /src/health.ts":                 "\x02Files\x03 touched (1): /src/health.ts",
	} {
		if got := plainText(in); got != out {
			t.Errorf("plainText(%q)\n got %q\nwant %q", in, got, out)
		}
	}
}

func TestValidRef(t *testing.T) {
	for ref, ok := range map[string]bool{"0123abc": true, strings.Repeat("a", 40): true, strings.Repeat("f", 64): true,
		"012345": false, "--all": false, "HEAD": false, "0123abcg": false, "0123ABC": false, strings.Repeat("a", 65): false} {
		if ValidRef(ref) != ok {
			t.Errorf("ValidRef(%q) = %v", ref, !ok)
		}
	}
}

func ExampleValidRef() {
	fmt.Println(ValidRef("9fceb02"), ValidRef("--output=/tmp/x"))
	// Output: true false
}

func TestBackStaysOnThisServer(t *testing.T) {
	for ref, want := range map[string]string{
		"http://" + testAddr + "/fleet":           "/fleet",
		"http://" + testAddr + "/notes?type=x":    "/notes?type=x",
		"http://evil.example/x":                   "/",
		"http://" + testAddr + "//evil.example/x": "/",
		"http://" + testAddr + `/\evil.example`:   "/",
		"":                                        "/",
		"javascript:alert(1)":                     "/",
	} {
		r := httptest.NewRequest(http.MethodPost, "/reindex", nil)
		r.Host = testAddr
		r.Header.Set("Referer", ref)
		if got := back(r); got != want {
			t.Errorf("back(%q) = %q, want %q", ref, got, want)
		}
	}
}

// SPEC 2: the API prints the same note shape as the CLI and MCP: no
// prov_model/prov_session, body on single notes and search hits even when
// empty, never on lists.
func TestAPINoteShape(t *testing.T) {
	f := newFixture(t, 3)
	c := newClient(t, f, nil)
	n := note.New(note.Episodic, "Zebra session", "")
	n.ProvSource, n.ProvModel, n.ProvSession = note.ProvSessionEnd, "openai/gpt-x", "sess-42"
	w, err := f.st.Write(context.Background(), n)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path     string
		withBody bool
	}{
		{"/api/notes/" + w.ID, true},
		{"/api/search?q=zebra", true},
		{"/api/notes?type=episodic", false},
	} {
		body := want(t, c.get(tc.path), http.StatusOK, w.ID, `"prov_source": "session-end"`, `"supersedes": []`)
		if strings.Contains(body, "prov_model") || strings.Contains(body, "prov_session") {
			t.Errorf("%s: keys outside the note shape:\n%s", tc.path, body)
		}
		if got := strings.Contains(body, `"body": ""`); got != tc.withBody {
			t.Errorf("%s: body present = %v, want %v:\n%s", tc.path, got, tc.withBody, body)
		}
	}
}

// The dashboard runs git through gitsync's hardened runner: an inherited
// GIT_DIR naming another repository once made the overview and the fleet
// show that repository's commits.
func TestInheritedGitDirIgnored(t *testing.T) {
	f := newFixture(t, 4)
	other := t.TempDir()
	gitIn(t, other, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(other, "x.txt"), []byte("x"), 0o644)
	gitIn(t, other, "add", "x.txt")
	commitAs(t, other, "intruder")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	c := newClient(t, f, nil)
	for _, path := range []string{"/", "/fleet"} {
		body := want(t, c.get(path), http.StatusOK, "desktop")
		if strings.Contains(body, "intruder") {
			t.Errorf("%s shows the inherited GIT_DIR's commits", path)
		}
	}
}
