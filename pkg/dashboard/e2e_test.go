//go:build e2e

// The dashboard in a real browser: headless Debian Chromium driven over the
// DevTools protocol. Run with scripts/e2e/dashboard.sh (it installs chromium
// when missing); `make test` does not build this file.
package dashboard

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func chromium(t *testing.T) string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Fatal("no chromium on PATH: run scripts/e2e/dashboard.sh, which installs it")
	return ""
}

// realistic notes, newest of all, so the screenshots show what a user's store looks like.
var showcase = []struct{ typ, title, project, machine, tags, body string }{
	{"episodic", "Session: moved the billing worker to queue v2", "github.com/acme/billing", "desktop", "session,session-end",
		"**Ask:** move the billing worker off the legacy queue.\n\n**Files:** `worker/billing.go`, `deploy/queue.yaml`\n\n**Outcome:** the worker consumes `billing-v2`; the legacy queue drains by Friday."},
	{"procedural", "Run migrations before rolling the workers", "github.com/acme/quotes-api", "laptop", "deploy,postgres",
		"1. `make migrate` against the primary.\n2. Wait for replicas to catch up (`SELECT pg_last_wal_replay_lsn()`).\n3. Roll the workers one zone at a time.\n\nRolling first leaves old workers reading new columns."},
	{"semantic", "Quotes API rounds currency with banker's rounding", "github.com/acme/quotes-api", "laptop", "currency",
		"Totals use `round-half-even` at two decimals, matching the ledger. Never round line items before summing."},
	{"semantic", "SQLite busy_timeout is 5 s in every process", "global", "desktop", "sqlite,wal",
		"All writers open the index with `_pragma=busy_timeout(5000)` and WAL, so captures and the dashboard never fail with *database is locked*."},
	{"procedural", "Tailscale remote for the memory repo", "global", "laptop", "git,tailscale",
		"The bare repo lives on `nas.tail1234.ts.net:anamnesis-memory.git`. New machines run `anamnesis init --remote …` and sync once."},
}

func TestE2EDashboardInChromium(t *testing.T) {
	exe := chromium(t)
	f := newFixture(t, 300)
	ctx := context.Background()
	var showIDs []string
	for _, s := range showcase {
		n := note.New(s.typ, s.title, s.body)
		n.Project, n.MachineID, n.Tags = s.project, s.machine, strings.Split(s.tags, ",")
		if s.typ == note.Episodic {
			n.ProvSource = note.ProvSessionEnd
		}
		w, err := f.st.Write(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		showIDs = append(showIDs, w.ID)
	}
	commitAs(t, f.st.MemoryDir(), "laptop")
	total, err := f.st.Count(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Store: f.st, Addr: ln.Addr().String(), MachineID: "laptop", Version: "e2e",
		Sync: &gitsync.Options{Home: f.home, MachineID: "laptop", Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	t.Cleanup(func() { stop(); <-done })
	base := "http://" + ln.Addr().String()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	defer cancelB()
	// Start the browser without a deadline (a timeout on the first run would stop the browser), then bound each step.
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	do := func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(bctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	text := func(sel string) string { return value(t, bctx, "text of "+sel, chromedp.Text(chromedp.CSS(sel))) }
	scheme := func(s string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: s}}})
			return err
		})
	}
	shots := os.Getenv("DASHBOARD_SCREENSHOTS")
	shoot := func(name string) {
		t.Helper()
		if shots == "" {
			return
		}
		for _, sc := range []string{"light", "dark"} {
			do("scheme "+sc, scheme(sc), chromedp.Sleep(200*time.Millisecond))
			png := value(t, bctx, "screenshot "+name, chromedp.CaptureScreenshot())
			if err := os.WriteFile(filepath.Join(shots, name+"-"+sc+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		do("light again", scheme("light"))
	}

	// Overview: the counts.
	do("overview", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#stat-total")))
	totalText, semText, localText := text("#stat-total .num"), text("#stat-semantic .num"), text("#stat-machine-local .num")
	st, _ := f.st.Stats(ctx)
	if totalText != strconv.Itoa(total) || semText != strconv.Itoa(st.ByType["semantic"]) || localText != "1" {
		t.Errorf("overview counts: total %s (want %d), semantic %s (want %d), local %s", totalText, total, semText, st.ByType["semantic"], localText)
	}
	shoot("overview")

	// Search from the header box: the note is found and the words are marked.
	do("search", chromedp.SendKeys(chromedp.CSS("#q"), "migrations workers\r"), chromedp.WaitVisible(chromedp.CSS(".note-row")))
	marks := value(t, bctx, "marks", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".note-row mark")].map(m => m.textContent.toLowerCase())`))
	if !slices.Contains(marks, "migrations") || !slices.Contains(marks, "workers") {
		t.Errorf("search marks %v", marks)
	}
	hrefs := value(t, bctx, "hits", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".note-row a.title")].map(a => a.getAttribute("href"))`))
	if !slices.Contains(hrefs, "/notes/"+showIDs[1]) || !slices.Contains(hrefs, "/notes/"+f.extra) {
		t.Errorf("search hits %v lack %s and %s", hrefs, showIDs[1], f.extra)
	}
	shoot("search")

	// The note page, then an edit of its body through the form.
	do("note", chromedp.Navigate(base+"/notes/"+f.extra), chromedp.WaitVisible(chromedp.CSS("#note-body")))
	if title := text("#note-title"); title != "Deploy checklist for the quotes API" {
		t.Errorf("note title %q", title)
	}
	do("note for screenshot", chromedp.Navigate(base+"/notes/"+showIDs[1]), chromedp.WaitVisible(chromedp.CSS("#note-body")))
	shoot("note")
	path := filepath.Join(f.st.MemoryDir(), "semantic", f.extra+".md")
	do("note page", chromedp.Navigate(base+"/notes/"+f.extra), chromedp.WaitVisible(chromedp.CSS("#edit")))
	do("edit form", follow("#edit", "#body")...)
	shoot("edit")
	// The edit carries a pasted password: the store redacts it and the flash says so.
	do("edit", chromedp.SetValue(chromedp.CSS("#body"), "Roll the workers one zone at a time.\n\nThen purge the zanzibar cache.\nstaging password=Hunt3r2-Prod"))
	do("save", follow("#save", "#note-body")...)
	if body, flash := text("#note-body"), text(".flash"); !strings.Contains(body, "zanzibar") || !strings.Contains(flash, "Saved") ||
		!strings.Contains(flash, "Secrets were redacted (secret-value)") || strings.Contains(body, "Hunt3r2-Prod") {
		t.Errorf("after edit: body %q flash %q", body, flash)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Then purge the zanzibar cache.\n") || !strings.Contains(string(data), "user_id: u-42\nworkspace_id: ws-7\n") {
		t.Errorf("file after edit:\n%s", data)
	}
	if hits, err := f.st.Search(ctx, store.Query{Text: "zanzibar", K: 3}); err != nil || len(hits) != 1 || hits[0].ID != f.extra {
		t.Errorf("index after edit: %v %v", hits, err)
	}
	if out := gitIn(t, f.st.MemoryDir(), "status", "--porcelain"); !strings.Contains(out, f.extra) {
		t.Errorf("the edit should leave git to sync; status: %q", out)
	}

	// History: the commits that touched the file, with their diffs.
	do("history", follow("#history", ".commit")...)
	commits := value(t, bctx, "commits", chromedp.Evaluate[int](`document.querySelectorAll("li.commit").length`))
	machines := value(t, bctx, "machines", chromedp.Evaluate[string](`[...document.querySelectorAll(".machine")].map(e => e.textContent).join(",")`))
	diffs := text(".commits")
	if commits != 2 || !strings.Contains(diffs, "+Check the dashboards after the deploy.") || machines != "desktop,laptop" {
		t.Errorf("history: %d commits by %s\n%.600s", commits, machines, diffs)
	}
	do("history of a moved note", chromedp.Navigate(base+"/notes/"+f.moved+"/history"), chromedp.WaitVisible(chromedp.CSS(".commit")))
	shoot("history")
	if diffs := text(".commits"); !strings.Contains(diffs, "episodic/"+f.moved+".md") || !strings.Contains(diffs, "semantic/"+f.moved+".md") {
		t.Errorf("history does not follow the move:\n%.600s", diffs)
	}

	// Sync (local only here): the edit is committed, and the note's history grows by one.
	do("overview", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#sync-now")))
	do("sync", follow("#sync-now", ".flash")...)
	if flash := text(".flash"); !strings.Contains(flash, "sync: pushed=false") {
		t.Errorf("sync flash %q", flash)
	}
	if out := gitIn(t, f.st.MemoryDir(), "status", "--porcelain"); out != "" {
		t.Errorf("after sync, git status: %q", out)
	}
	do("history after sync", chromedp.Navigate(base+"/notes/"+f.extra+"/history"), chromedp.WaitVisible(chromedp.CSS(".commit")))
	if n := value(t, bctx, "commits", chromedp.Evaluate[int](`document.querySelectorAll("li.commit").length`)); n != 3 || !strings.Contains(text(".commits"), "+Then purge the zanzibar cache.") {
		t.Errorf("history after sync: %d commits", n)
	}

	// Fleet: both machines.
	do("fleet", chromedp.Navigate(base+"/fleet"), chromedp.WaitVisible(chromedp.CSS("#fleet")))
	shoot("fleet")
	if fleet := text("#fleet tbody"); !strings.Contains(fleet, "laptop") || !strings.Contains(fleet, "desktop") {
		t.Errorf("fleet: %q", fleet)
	}

	// Delete asks first, then removes the file.
	victim := f.ids[5]
	vn, _ := f.st.Get(ctx, victim)
	vpath := filepath.Join(f.st.MemoryDir(), vn.Type, victim+".md")
	do("victim's page", chromedp.Navigate(base+"/notes/"+victim), chromedp.WaitVisible(chromedp.CSS("#delete")))
	do("delete: ask", follow("#delete", "#confirm-delete")...)
	loc := value(t, bctx, "location", chromedp.Location())
	if _, err := os.Stat(vpath); err != nil || !strings.HasSuffix(loc, "/delete") {
		t.Fatalf("asking deleted the file, or no confirmation page (%s): %v", loc, err)
	}
	do("delete: confirm", follow("#confirm-delete", ".flash")...)
	loc = value(t, bctx, "location", chromedp.Location())
	if _, err := os.Stat(vpath); !os.IsNotExist(err) || !strings.HasSuffix(loc, "/notes") {
		t.Errorf("after confirming: %v at %s", err, loc)
	}

	// Live refresh: a note added on disk shows up without touching the browser.
	do("open list", chromedp.Navigate(base+"/notes"), chromedp.WaitVisible(chromedp.CSS(".note-row")))
	hand := note.New(note.Semantic, "Written by hand in another editor", "kept in the store")
	hand.ID, hand.CreatedAt, hand.UpdatedAt, hand.MachineID = note.NewID(), "2099-01-01T00:00:00+00:00", "2099-01-01T00:00:00+00:00", "laptop"
	if err := os.WriteFile(filepath.Join(f.st.MemoryDir(), "semantic", hand.ID+".md"), hand.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	// The page reloads itself, so each look may land mid-navigation: retry.
	deadline := time.Now().Add(20 * time.Second)
	for {
		lctx, cancel := context.WithTimeout(bctx, 2*time.Second)
		ok, err := chromedp.Run(lctx, chromedp.Evaluate[bool](`!!document.querySelector(".note-row a.title") && document.querySelector(".note-row a.title").textContent.includes("Written by hand")`))
		cancel()
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the list did not refresh after a note was added on disk (last error %v)", err)
		}
		time.Sleep(250 * time.Millisecond)
	}

	// Keyboard focus is visible, and a phone-width page does not scroll sideways.
	do("focus", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#stat-total")), chromedp.KeyEvent("\t"), chromedp.KeyEvent("\t"))
	outline := value(t, bctx, "outline", chromedp.Evaluate[string](`getComputedStyle(document.activeElement).outlineStyle + " " + document.activeElement.tagName`))
	if strings.HasPrefix(outline, "none") || strings.HasSuffix(outline, "BODY") {
		t.Errorf("focused element has no outline: %s", outline)
	}
	for _, p := range []string{"/", "/notes", "/notes?q=deploy", "/notes/" + f.extra, "/notes/" + f.extra + "/history", "/fleet", "/notes/" + f.extra + "/edit"} {
		do("phone "+p, chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(base+p), chromedp.WaitReady(chromedp.CSS("body")))
		if value(t, bctx, "overflow", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)) {
			t.Errorf("%s scrolls sideways at 390 px", p)
		}
		if p == "/notes?q=deploy" {
			shoot("phone-search")
		}
	}
	do("laptop width", chromedp.ResetViewport())

	// Refusals, through the live server.
	before := snapshot(t, f.home)
	target := f.ids[7]
	// A cross-origin page auto-submits a delete (even knowing the CSRF token).
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><form id=f method=post action="%s/notes/%s/delete"><input name=csrf value="%s"></form>
<script>document.getElementById("f").submit()</script>`, base, target, srv.csrf)
	}))
	defer evil.Close()
	do("cross-origin post", chromedp.Navigate(evil.URL), chromedp.Sleep(time.Second), chromedp.WaitReady(chromedp.CSS("body")))
	if evilBody := text("body"); !strings.Contains(evilBody, "cross-origin") {
		t.Errorf("cross-origin form post not refused: %q", evilBody)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values, hdr map[string]string) int {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range hdr {
			if k == "Host" {
				req.Host = v
			} else {
				req.Header.Set(k, v)
			}
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	tok := url.Values{"csrf": {srv.csrf}}
	for _, c := range []struct {
		name, path string
		form       url.Values
		hdr        map[string]string
		want       int
	}{
		{"foreign Host", "/notes/" + target + "/delete", tok, map[string]string{"Host": "attacker.example:" + portOf(base)}, http.StatusMisdirectedRequest},
		{"no CSRF token", "/notes/" + target + "/delete", url.Values{}, map[string]string{"Origin": base}, http.StatusForbidden},
		{"cross-origin", "/notes/" + target + "/delete", tok, map[string]string{"Origin": "http://attacker.example"}, http.StatusForbidden},
		{"path id", "/notes/..%2F..%2Fetc%2Fpasswd/delete", tok, map[string]string{"Origin": base}, http.StatusBadRequest},
	} {
		if got := post(c.path, c.form, c.hdr); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	for _, p := range []string{"/commits/--output=pwned", "/commits/--all", "/notes/..%2F..%2Fetc%2Fpasswd", "/notes/..%2F..%2Fetc%2Fpasswd/raw"} {
		resp, err := client.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || strings.Contains(string(b), "root:") {
			t.Errorf("GET %s: %d", p, resp.StatusCode)
		}
	}
	sameTree(t, before, f.home)
	t.Logf("e2e: %d notes, overview/search/note/edit/history/fleet/delete/live refresh/refusals checked", total)
}

// value runs one action that returns something, under a per-step deadline.
func value[T any](t *testing.T, bctx context.Context, step string, a chromedp.Action[T]) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(bctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	return v
}

// follow clicks target (a link or a form's button) and waits for sel on the
// page that loads. The old page is marked first, so a sel it already shows
// does not count and the next step never starts while the navigation is in
// flight (a Navigate then aborts it: net::ERR_ABORTED).
func follow(target, sel string) []chromedp.Action[chromedp.Void] {
	return []chromedp.Action[chromedp.Void]{
		chromedp.Evaluate[chromedp.Void](`document.body.dataset.stale = "1"`),
		chromedp.Click(chromedp.CSS(target)),
		chromedp.WaitVisible(chromedp.CSS("body:not([data-stale]) " + sel)),
	}
}

func portOf(base string) string {
	u, _ := url.Parse(base)
	return u.Port()
}
