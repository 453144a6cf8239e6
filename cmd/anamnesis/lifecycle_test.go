package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// modelStandIn answers /v1/chat/completions with the scripted contents in turn.
func modelStandIn(t *testing.T, replies ...string) (*httptest.Server, *bytes.Buffer) {
	var got bytes.Buffer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.Write(b)
		if len(replies) == 0 {
			http.Error(w, "no more scripted replies", 500)
			return
		}
		c := replies[0]
		replies = replies[1:]
		json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": c}}}})
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func anamnesis(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestReflectCLI(t *testing.T) {
	// Built before HOME moves, so the build uses the warm Go cache.
	bin := filepath.Join(t.TempDir(), "anamnesis-inject")
	if b, err := exec.Command("go", "build", "-o", bin, "../anamnesis-inject").CombinedOutput(); err != nil {
		t.Fatalf("build inject: %v\n%s", err, b)
	}
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	t.Setenv("ANAMNESIS_MACHINE_ID", "box")
	t.Setenv("HOME", t.TempDir())
	for i := range 5 {
		body := fmt.Sprintf("**Ask:** episode %d\n\n**Outcome:** done", i)
		if i == 1 {
			body += " token=ghp_abcdefghijklmnopqrstuvwxyz0123456789"
		}
		if _, _, err := anamnesis(t, "write", "--type", "episodic", "--project", "demo", "--title", fmt.Sprintf("Episode %d", i), "--tags", "session", "--body", body); err != nil {
			t.Fatal(err)
		}
	}
	// Heuristic: a provider is needed, exit 1.
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "heuristic")
	if _, _, err := anamnesis(t, "reflect", "--project", "demo"); cli.Code(err) != 1 || !strings.Contains(err.Error(), "provider") {
		t.Fatalf("heuristic: %v", err)
	}
	srv, sent := modelStandIn(t, "not json at all", `[{"type":"semantic","title":"Episodes end done","body":"Every episode ends done."}]`)
	t.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "local")
	t.Setenv("ANAMNESIS_REFLECTION_MODEL", "m")
	t.Setenv("ANAMNESIS_REFLECTION_BASE_URL", srv.URL+"/v1")
	out, _, err := anamnesis(t, "reflect", "--project", "demo", "--apply", "--no-sync")
	if cli.Code(err) != 1 || !strings.Contains(err.Error(), "not a JSON array") || !strings.Contains(out, "FAILED") {
		t.Fatalf("invalid JSON: %v\n%s", err, out)
	}
	out, _, err = anamnesis(t, "reflect", "--project", "demo", "--apply", "--no-sync")
	if err != nil || !strings.Contains(out, "wrote 1 note(s)") || !strings.Contains(out, "committed ") {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if strings.Contains(sent.String(), "ghp_abcdefghijklmnopqrstuvwxyz0123456789") {
		t.Error("secret sent")
	}
	// The commit holds the new note and the five tagged episodics.
	log, err := exec.Command("git", "-C", filepath.Join(home, "memory"), "show", "--stat", "--format=%s", "HEAD").Output()
	if err != nil || !strings.Contains(string(log), "anamnesis reflect") || !strings.Contains(string(log), "6 files changed") {
		t.Errorf("commit: %v\n%s", err, log)
	}
	// Inject no longer shows the episodics, and shows the new note.
	cmd := exec.Command(bin, "--project", "demo")
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home)
	cmd.Stdin = strings.NewReader("{}")
	block, err := cmd.Output()
	if err != nil || strings.Contains(string(block), "Episode 3") || !strings.Contains(string(block), "Episodes end done") {
		t.Errorf("inject: %v\n%s", err, block)
	}
}
