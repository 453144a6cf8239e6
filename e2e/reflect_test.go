//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// The claude provider (SPEC 14.1): anamnesis reflect runs the real Claude
// Code CLI headless, which talks to the Messages API stand-in; the stand-in
// answers with the JSON array of notes, and reflect --apply writes them.
func TestClaudeProviderReflect(t *testing.T) {
	h := newHarness(t)
	if err := os.MkdirAll(h.bin, 0o755); err != nil {
		t.Fatal(err)
	}
	h.mustRun(10*time.Minute, h.repo, "go", "build", "-o", filepath.Join(h.bin, "anamnesis"), "./cmd/anamnesis")
	const planted = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	for i := range 5 {
		body := fmt.Sprintf("**Ask:** deploy step %d\n\n**Outcome:** ran make deploy", i)
		if i == 3 {
			body += " with GITHUB_TOKEN=" + planted
		}
		h.anamnesis("write", "--type", "episodic", "--project", "demo", "--title", fmt.Sprintf("Deploy session %d", i), "--tags", "session", "--body", body)
	}
	// The user's hooks (here: ones that leave a marker) must not run inside
	// reflect's headless call: a capture of it would be a note about reflect.
	marker := filepath.Join(h.root, "hook-ran")
	hooks := fmt.Sprintf(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "touch '%s'"}]}], "SessionEnd": [{"hooks": [{"type": "command", "command": "touch '%s'"}]}]}}`, marker, marker)
	if err := os.WriteFile(filepath.Join(h.claudeDir, "settings.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	// With --tools "" the one turn carries no tools: the stand-in answers it
	// with its default text, which is the scripted answer here.
	h.api.DefaultText = "```json\n" + `[{"type": "procedural", "title": "Deploy with make deploy", "body": "Run make deploy from the repo root; it is safe to repeat."}]` + "\n```"
	before := len(h.api.Requests())
	env := []string{"ANAMNESIS_REFLECTION_PROVIDER=claude", "ANAMNESIS_REFLECTION_MODEL=claude-sonnet-4-5", "ANAMNESIS_REFLECTION_TIMEOUT=120"}

	r := h.run(5*time.Minute, h.proj, env, filepath.Join(h.bin, "anamnesis"), "config", "test", "--json")
	if r.err != nil || !strings.Contains(r.stdout, `"model": "claude/claude-sonnet-4-5"`) {
		t.Fatalf("config test: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	t.Logf("config test:\n%s", r.stdout)

	r = h.run(5*time.Minute, h.proj, env, filepath.Join(h.bin, "anamnesis"), "reflect", "--project", "demo", "--apply", "--no-sync", "--json")
	if r.err != nil {
		t.Fatalf("reflect: %v\nstdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
	}
	t.Logf("reflect --apply:\n%s", r.stdout)
	var res struct {
		Written  bool
		Projects []struct {
			Model     string
			Episodics []string
			Notes     []struct{ ID, Type, Title string }
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || !res.Written || len(res.Projects) != 1 || len(res.Projects[0].Notes) != 1 {
		t.Fatalf("reflect result: %v\n%s", err, r.stdout)
	}
	p := res.Projects[0]
	if p.Model != "claude/claude-sonnet-4-5" || len(p.Episodics) != 5 {
		t.Errorf("plan %+v", p)
	}
	data, err := os.ReadFile(filepath.Join(h.store, "memory", "procedural", p.Notes[0].ID+".md"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := note.Parse(data)
	if err != nil || n.ProvSource != note.ProvReflection || n.ProvModel != "claude/claude-sonnet-4-5" || n.Confidence != 0.6 ||
		n.Project != "demo" || n.Title != "Deploy with make deploy" {
		t.Errorf("note %v:\n%s", err, data)
	}
	out := h.anamnesis("list", "--project", "demo", "--type", "episodic", "--json").stdout
	if strings.Count(out, `"reflected"`) != 5 {
		t.Errorf("episodics not all tagged reflected:\n%s", out)
	}
	// What Claude Code sent to the API: our prompt, our model, no tools, no secret.
	var sawPrompt bool
	for _, req := range h.api.Requests()[before:] {
		body := string(req.Body)
		if strings.Contains(body, planted) {
			t.Errorf("request %d carries the planted secret", req.Seq)
		}
		if strings.Contains(body, "Deploy session 0") {
			sawPrompt = true
			var m struct {
				Model string            `json:"model"`
				Tools []json.RawMessage `json:"tools"`
			}
			json.Unmarshal(req.Body, &m)
			if m.Model != "claude-sonnet-4-5" || len(m.Tools) != 0 {
				t.Errorf("request %d: model %q, %d tools", req.Seq, m.Model, len(m.Tools))
			}
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the user's Claude Code hooks ran inside reflect's headless call")
	}
	if !sawPrompt {
		t.Error("no request carried the episodics")
	}
}
