//go:build e2e

package dashboard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Team memory in Chromium (SPEC 18): Bob's team note is listed with its team
// and author and the team filter narrows to it, his held note is not
// listed and its page says it is held; the teams page lists Dave's proposal
// and merges it; a personal note is shared with the team from its page, and
// a page on another origin cannot share one.
func TestE2ETeamsInChromium(t *testing.T) {
	exe := chromium(t)
	f := newTeamFixture(t)
	ctx := context.Background()
	own := note.New(note.Semantic, "Feature flags live in flagd", "Flags are read from flagd; a restart is not needed.")
	own.Project, own.MachineID, own.ProvSource = "acme/app", "laptop", note.ProvHuman
	own, err := f.st.Write(ctx, own)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Store: f.st, Addr: ln.Addr().String(), MachineID: "laptop", Version: "e2e"})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx, ln) }()
	t.Cleanup(func() { stop(); <-done })
	base := "http://" + ln.Addr().String()

	actx, cancelA := chromedp.NewExecAllocator(ctx, chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900))
	defer cancelA()
	bctx, cancelB := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	defer cancelB()
	if err := chromedp.Do(bctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	do := func(step string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, cancel := context.WithTimeout(bctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(c, actions...); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	text := func(sel string) string { return value(t, bctx, "text of "+sel, chromedp.Text(chromedp.CSS(sel))) }

	// The team filter, chosen in the form.
	do("notes", chromedp.Navigate(base+"/notes"), chromedp.WaitVisible(chromedp.CSS("#f-team")))
	if list := text(".notes"); !strings.Contains(list, "team platform") || !strings.Contains(list, "by Bob Builder") || strings.Contains(list, "Deploy cache warmup") {
		t.Errorf("notes list: %q", list)
	}
	do("team filter", chromedp.SetValue(chromedp.CSS("#f-team"), "platform"))
	do("team filter", follow(".filter-form button[type=submit]", ".note-row")...)
	titles := value(t, bctx, "titles", chromedp.Evaluate[[]string](`[...document.querySelectorAll(".note-row a.title")].map(a => a.textContent)`))
	if len(titles) != 1 || titles[0] != "Deploys use blue-green via argo" {
		t.Errorf("team platform lists %v", titles)
	}
	do("held note", chromedp.Navigate(base+"/notes/"+f.bobHeld.ID), chromedp.WaitVisible(chromedp.CSS("#held")))
	if s := text("#held"); !strings.Contains(s, "asks the agent to ignore") {
		t.Errorf("held section %q", s)
	}

	// Proposals: Dave's, merged from the page.
	do("notes again", chromedp.Navigate(base+"/notes"), chromedp.WaitVisible(chromedp.CSS(`a[href="/teams"]`)))
	do("teams", follow(`a[href="/teams"]`, "#team-platform")...)
	if s := text("#team-platform"); !strings.Contains(s, "proposals/dave-proposer") || !strings.Contains(s, f.proposed.ID) {
		t.Errorf("teams page %q", s)
	}
	do("merge", follow(".proposal button", ".flash")...)
	if s := text(".flash"); !strings.Contains(s, "team platform:") {
		t.Errorf("merge flash %q", s)
	}
	if out := gitIn(t, f.remote, "ls-tree", "-r", "--name-only", "main"); !strings.Contains(out, f.proposed.ID) {
		t.Errorf("the merged proposal is not on the team's main:\n%s", out)
	}

	// Another origin cannot share a personal note, even knowing the token.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><form id=f method=post action="%s/notes/%s/share"><input name=csrf value="%s"><input name=team value=platform></form>
<script>document.getElementById("f").submit()</script>`, base, own.ID, srv.csrf)
	}))
	defer evil.Close()
	do("cross-origin share", chromedp.Navigate(evil.URL), chromedp.Sleep(time.Second), chromedp.WaitReady(chromedp.CSS("body")))
	if body := text("body"); !strings.Contains(body, "cross-origin") {
		t.Errorf("cross-origin share not refused: %q", body)
	}
	if n, _ := f.st.Count(ctx, store.Filter{Team: "platform"}); n != 2 {
		t.Fatalf("team platform holds %d notes after a refused share, want 2", n)
	}

	// Share with team, from the note's page.
	do("note page", chromedp.Navigate(base+"/notes/"+own.ID), chromedp.WaitVisible(chromedp.CSS("#share")))
	do("share", follow("#share-button", "#note-team")...)
	if s, a := text("#note-team"), text("#note-author"); s != "team platform" || a != "by Alice Archer" || !strings.Contains(text(".flash"), "Shared a copy") {
		t.Errorf("after share: %q %q flash %q", s, a, text(".flash"))
	}
	if n, _ := f.st.Count(ctx, store.Filter{Team: "platform"}); n != 3 {
		t.Errorf("team platform holds %d notes after the share, want 3", n)
	}
	if mine, err := f.st.Get(ctx, own.ID); err != nil || mine.Team != "" {
		t.Errorf("the personal note after share: %+v %v", mine, err)
	}
}
