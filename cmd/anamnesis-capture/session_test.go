package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/transcript/transcripttest"
)

// threeRequests is a session of three requests (a failing test fixed, a
// decision, a question), each with its own answer.
func threeRequests() *transcripttest.Builder {
	b := transcripttest.New("5f0c2a8e-1111-4a4a-9b9b-000000000001", "/home/dev/src/ledger", "main", time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC))
	b.Prompt(0, "The payments test is failing on CI, can you fix it?").
		Bash("go test ./payments/...", "--- FAIL: TestRefund (0.00s)\n    refund_test.go:41: amount = 999, want 1000: rounding error in cents", true).
		Edit("/home/dev/src/ledger/payments/refund.go", "int(amount*100)", "int(math.Round(amount*100))").
		Bash("go test ./payments/...", "ok  \tledger/payments\t0.012s", false).
		Say("Fixed: refunds converted floats to cents by truncation; refund.go now rounds with math.Round. TestRefund passes.")
	b.Prompt(5*time.Minute, "Should we keep amounts as float64 at all?").
		Say("No: store amounts as int64 cents everywhere; floats only at the JSON edge. I noted it in docs/money.md.").
		Write("/home/dev/src/ledger/docs/money.md", "Amounts are int64 cents.\n")
	b.Prompt(3*time.Minute, "Which command regenerates the mocks?").
		Bash("go generate ./...", "", false).
		Say("Run `go generate ./...`; mockgen writes the mocks under internal/mocks.")
	return b
}

// A session of three requests, captured at its end, then resumed with a
// fourth: one note holds all four requests, each with its own outcome, and
// the commands that ran, including the test that failed and was fixed.
// The resume is tried both ways Claude Code can write it: appended to the
// same transcript, and as a new file holding only the resumed part.
func TestWholeSessionAndResume(t *testing.T) {
	env(t)
	for _, sameFile := range []bool{true, false} {
		home, dir := t.TempDir(), t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		b := threeRequests()
		if err := os.WriteFile(path, []byte(b.JSONL()), 0o600); err != nil {
			t.Fatal(err)
		}
		runCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync")
		first := only(t, home)
		for _, w := range []string{
			"title: The payments test is failing on CI, can you fix it?\n",
			"**1. Ask:** The payments test is failing on CI, can you fix it?\n**Outcome:** Fixed: refunds converted floats",
			"**2. Ask:** Should we keep amounts as float64 at all?\n**Outcome:** No: store amounts as int64 cents",
			"**3. Ask:** Which command regenerates the mocks?\n**Outcome:** Run `go generate ./...`",
			"- `go test ./payments/...`\n- `go generate ./...`",
			"**Errors hit:**\n- `go test ./payments/...`: --- FAIL: TestRefund (0.00s) / refund_test.go:41: amount = 999, want 1000: rounding error in cents (fixed: a later run passed)",
			"- /home/dev/src/ledger/payments/refund.go\n- /home/dev/src/ledger/docs/money.md",
		} {
			if !strings.Contains(first, w) {
				t.Fatalf("first capture lacks %q:\n%s", w, first)
			}
		}
		mark := b.Lines()
		b.Pause(20*time.Hour).Prompt(0, "Is the rounding fix documented anywhere?").Say("Still documented.")
		data := b.JSONL()
		if !sameFile {
			data = b.From(mark)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		runCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync")
		n := only(t, home)
		for _, w := range []string{
			"**Requests (4):**",
			"Fixed: refunds converted floats to cents by truncation",
			"No: store amounts as int64 cents",
			"mockgen writes the mocks under internal/mocks",
			"**4. Ask:** Is the rounding fix documented anywhere?\n**Outcome:** Still documented.",
			"- `go test ./payments/...`",
			"- `go generate ./...`",
			"(fixed: a later run passed)",
			"title: The payments test is failing on CI, can you fix it?\n",
		} {
			if !strings.Contains(n, w) {
				t.Errorf("same file %v: resumed note lacks %q:\n%s", sameFile, w, n)
			}
		}
		if strings.Count(n, "Still documented.") != 1 {
			t.Errorf("same file %v: the resume's answer belongs to its own request only:\n%s", sameFile, n)
		}
	}
}

// A summary model that takes 6 s does not hold capture (and so Claude
// Code's exit): the heuristic note is written at once, and a detached child
// replaces it with the model's summary later.
func TestSlowModelDoesNotDelayCapture(t *testing.T) {
	env(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		time.Sleep(6 * time.Second)
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{
			"content": `{"skip": false, "title": "Rounding fix in refunds", "body": "Refunds now round cents with math.Round."}`}}}})
	}))
	defer srv.Close()
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "slow")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	t.Setenv("ANAMNESIS_REFLECTION_TIMEOUT", "20")
	// The detached child is this test binary under capture's name (see
	// TestMain), found on PATH like an installed one.
	binDir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(binDir, "anamnesis-capture")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))

	home, dir := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, []byte(threeRequests().JSONL()), 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := startCapture(t, home, nil, "--transcript", path, "--project", "ledger", "--no-sync")
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("capture took %s with a 6 s model", took)
	}
	if n := only(t, home); !strings.Contains(n, "**Requests (3):**") || strings.Contains(n, "prov_model") {
		t.Errorf("the heuristic note is not there at once:\n%s", n)
	}
	m := regexp.MustCompile(`capture: the local summary will replace the note in the background \(pid (\d+)\)`).FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("stdout %q", r.stdout)
	}
	// Reap the child when done, so it is not writing into home as the
	// test removes it.
	defer func() {
		pid, _ := strconv.Atoi(m[1])
		if p, err := os.FindProcess(pid); err == nil {
			p.Wait()
		}
	}()
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := only(t, home)
		if strings.Contains(n, "prov_model: local/slow\n") {
			if !strings.Contains(n, "title: Rounding fix in refunds\n") || !strings.Contains(n, "Refunds now round cents") {
				t.Errorf("summary note:\n%s", n)
			}
			break
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
			t.Fatalf("the summary never replaced the note:\n%s\nlog:\n%s", n, data)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
