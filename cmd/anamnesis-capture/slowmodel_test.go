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

// The summary child runs detached (nobody waits for it), so the configured
// model timeout is what bounds its request, not the 55 s the hooks keep
// inside Claude Code's timeouts: a local model given 90 s
// (ANAMNESIS_REFLECTION_TIMEOUT) that answers in 57 s writes the summary.
// Before, every such summary was cut at 55 s and the heuristic note stayed.
func TestSummaryChildWaitsForTheConfiguredTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits a minute for a slow model")
	}
	env(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		select {
		case <-time.After(57 * time.Second):
		case <-r.Context().Done():
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
			"content": `{"skip": false, "title": "Rounding fix in refunds", "body": "Refunds now round cents with math.Round."}`}}}})
	}))
	defer srv.Close()
	home, dir := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(threeRequests().JSONL()), 0o600); err != nil {
		t.Fatal(err)
	}
	runCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync")
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "slow")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	t.Setenv("ANAMNESIS_REFLECTION_TIMEOUT", "90")
	var out, errb strings.Builder
	run(context.Background(), []string{"--home", home, "--summarize", "--transcript", path, "--project", "ledger", "--no-sync"}, strings.NewReader(""), &out, &errb)
	if n := only(t, home); !strings.Contains(n, "prov_model: local/slow\n") {
		t.Errorf("the summary was not written (stderr %q):\n%s", errb.String(), n)
	}
}
