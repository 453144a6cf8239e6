package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A model's summary of an earlier part of a session never replaces what a
// later capture of it wrote. /compact starts the PreCompact capture's summary
// child; when the user ends the session before that (slow) model answers,
// the SessionEnd capture writes the whole session's note first, and the
// PreCompact child, answering last, used to overwrite it with the summary of
// the part before the compaction: the note lost every later request.
func TestStaleSummaryKeepsTheLaterCapture(t *testing.T) {
	env(t)
	asked, release := make(chan struct{}, 1), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reply := `{"skip": false, "title": "Whole session summary", "body": "Rounding fixed, int64 cents, and the rounding fix is documented."}`
		if !strings.Contains(string(body), "Is the rounding fix documented anywhere?") {
			asked <- struct{}{}
			<-release // the earlier part's summary is the slow one
			reply = `{"skip": false, "title": "Earlier part summary", "body": "Rounding fixed."}`
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"content": reply}}}})
	}))
	defer srv.Close()
	defer close(release)

	home, dir := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	b := threeRequests()
	if err := os.WriteFile(path, []byte(b.JSONL()), 0o600); err != nil {
		t.Fatal(err)
	}
	// PreCompact: the heuristic note (what the hook's child writes before
	// starting the summary child).
	runCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync", "--source", "precompact")

	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "m")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	t.Setenv("ANAMNESIS_REFLECTION_TIMEOUT", "20")
	done := make(chan result, 1)
	go func() {
		var out, errb strings.Builder
		run(context.Background(), []string{"--home", home, "--summarize", "--transcript", path, "--project", "ledger", "--no-sync", "--source", "precompact"}, strings.NewReader(""), &out, &errb)
		done <- result{stdout: out.String(), stderr: errb.String()}
	}()
	select {
	case <-asked:
	case <-time.After(20 * time.Second):
		t.Fatal("the PreCompact summary child never asked the model")
	}

	// The session goes on after the compaction and ends.
	b.Pause(time.Minute).Prompt(0, "Is the rounding fix documented anywhere?").Say("Yes, in docs/money.md.")
	if err := os.WriteFile(path, []byte(b.JSONL()), 0o600); err != nil {
		t.Fatal(err)
	}
	runCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync", "--wait", "--source", "session-end")
	if n := only(t, home); !strings.Contains(n, "title: Whole session summary\n") {
		t.Fatalf("the SessionEnd capture did not write the whole session's summary:\n%s", n)
	}
	release <- struct{}{}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the PreCompact summary child never finished")
	}
	if n := only(t, home); !strings.Contains(n, "title: Whole session summary\n") {
		t.Errorf("the earlier part's summary replaced the whole session's note:\n%s", n)
	}
}
