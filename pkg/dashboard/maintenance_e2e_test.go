//go:build e2e

package dashboard

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// The maintenance page in Chromium: a reflect dry run, then Apply, against a
// loopback OpenAI-compatible stand-in; dedup's Apply.
func TestE2EMaintenanceInChromium(t *testing.T) {
	exe := chromium(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed")
	}
	st := maintStore(t)
	answer := `[{"type": "procedural", "title": "Run the steps in order", "body": "Step 0 to 4, each ends done."}]`
	var mu sync.Mutex
	calls := new(int)
	llm := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		mu.Lock()
		*calls++
		content := answer
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": content}}}})
	}))
	t.Cleanup(llm.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Options{Store: st, Addr: ln.Addr().String(), MachineID: "laptop", Version: "e2e",
		Model: model.Config{Provider: "local", Model: "m", BaseURL: llm.URL + "/v1", Timeout: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
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

	do("overview", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(`a[href="/maintenance"]`)))
	do("maintenance", follow(`a[href="/maintenance"]`, "#maint-reflect")...)
	do("dedup dry run", follow("#dedup-dry", "#dedup-report")...)
	if r := text("#dedup-report"); !strings.Contains(r, "would change 1 note(s)") {
		t.Errorf("dedup report %q", r)
	}
	do("reflect dry run", follow("#reflect-dry", "#reflect-report")...)
	if r := text("#reflect-report"); !strings.Contains(r, "would write 1 note(s)") || !strings.Contains(r, "Run the steps in order") {
		t.Errorf("reflect report %q", r)
	}
	if n, _ := st.Count(ctx, store.Filter{Prov: note.ProvReflection}); n != 0 || *calls != 1 {
		t.Fatalf("the dry run wrote %d note(s) (%d model calls)", n, *calls)
	}
	// The model would now answer something else: Apply writes the plan the
	// page showed (its button names it), not a second, unseen answer.
	mu.Lock()
	answer = `[{"type": "semantic", "title": "Unseen answer", "body": "Nobody previewed this."}]`
	mu.Unlock()
	if b := text("#reflect-apply"); !strings.HasPrefix(b, "Apply plan ") {
		t.Errorf("the Apply button does not name the previewed plan: %q", b)
	}
	do("reflect apply", follow("#reflect-apply", ".flash")...)
	if f := text(".flash"); !strings.Contains(f, "wrote (saved plan, no new model call) 1 note(s)") || !strings.Contains(f, "committed") {
		t.Errorf("apply flash %q", f)
	}
	written, _ := st.List(ctx, store.Filter{Prov: note.ProvReflection})
	if len(written) != 1 || written[0].Title != "Run the steps in order" || *calls != 1 {
		t.Errorf("after Apply: %d reflection notes %v, %d model calls; want the previewed note and no new call", len(written), written, *calls)
	}
	// A fresh page (the flash is shown once), so the next .flash is dedup's.
	do("maintenance again", chromedp.Navigate(base+"/maintenance?project=demo"), chromedp.WaitVisible(chromedp.CSS("#dedup-apply")))
	do("dedup apply", follow("#dedup-apply", ".flash")...)
	if f := text(".flash"); !strings.Contains(f, "did change 1 note(s)") {
		t.Errorf("dedup flash %q", f)
	}
	do("dedup dry run again", follow("#dedup-dry", "#dedup-report")...)
	if r := text("#dedup-report"); !strings.Contains(r, "would change 0 note(s)") {
		t.Errorf("dedup report after apply %q", r)
	}
	do("phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile), chromedp.Navigate(base+"/maintenance"), chromedp.WaitReady(chromedp.CSS("body")))
	if value(t, bctx, "overflow", chromedp.Evaluate[bool](`document.documentElement.scrollWidth > window.innerWidth + 1`)) {
		t.Error("/maintenance scrolls sideways at 390 px")
	}
}
