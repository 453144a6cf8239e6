//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/e2e/standin"
	"github.com/anamnesis-dev/anamnesis/pkg/bin"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/setup"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// userSettings is a settings.json as Claude Code writes it (two-space
// JSON), full of the user's own keys and hooks, which init must keep and
// uninstall must give back byte for byte.
const userSettings = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": [
      "Bash(npm run test:*)"
    ],
    "deny": []
  },
  "env": {
    "MY_TOOL_FLAGS": "--fast && --quiet"
  },
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [
          {
            "type": "command",
            "command": "echo user-hook-ran >/dev/null"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "true"
          }
        ]
      }
    ]
  },
  "includeCoAuthoredBy": false,
  "cleanupPeriodDays": 30
}
`

const (
	memoryHeader = "# Anamnesis memory (auto-injected)"
	markerTitle  = "Deploy keys for quotes-api live in vault path secret/e2e-zephyr"
)

func TestClaudeCode(t *testing.T) {
	h := newHarness(t)
	settingsPath := filepath.Join(h.claudeDir, "settings.json")
	if err := os.WriteFile(settingsPath, []byte(userSettings), 0o644); err != nil {
		t.Fatal(err)
	}

	step := func(name string, f func(t *testing.T)) {
		// Later steps build on earlier ones: stop at the first failure.
		if !t.Run(name, f) {
			t.FailNow()
		}
	}

	step("install", func(t *testing.T) {
		h.t = t
		r := h.run(20*time.Minute, h.repo, []string{"PREFIX=" + h.prefix}, filepath.Join(h.repo, "scripts", "install.sh"), "--machine-id", "e2e-box")
		if r.err != nil {
			t.Fatalf("install.sh: %v\nstdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
		}
		t.Logf("install.sh took %s\n%s", r.dur.Round(time.Second), r.stdout)
		for _, b := range setup.AllBinaries {
			if _, err := os.Stat(bin.Path(h.bin, b)); err != nil {
				t.Errorf("%s not installed: %v", b, err)
			}
		}
		settings, err := os.ReadFile(settingsPath)
		if err != nil {
			t.Fatal(err)
		}
		hooks, err := setup.FindHooks(settings)
		if err != nil || len(hooks) != 4 {
			t.Fatalf("hooks after install: %v %+v\n%s", err, hooks, settings)
		}
		for _, hk := range hooks {
			if !strings.HasPrefix(hk.Command, "'"+h.bin+"/anamnesis-") {
				t.Errorf("hook command is not the quoted absolute binary path: %s", hk.Command)
			}
		}
		for _, s := range []string{`"command": "echo user-hook-ran >/dev/null"`, `"MY_TOOL_FLAGS": "--fast && --quiet"`, `"cleanupPeriodDays": 30`} {
			if !strings.Contains(string(settings), s) {
				t.Errorf("init lost %s:\n%s", s, settings)
			}
		}
		if bak, _ := os.ReadFile(settingsPath + ".bak"); string(bak) != userSettings {
			t.Errorf("settings.json.bak is not the user's file:\n%s", bak)
		}

		// Running init again changes nothing.
		r2 := h.anamnesis("init", "--yes")
		again, _ := os.ReadFile(settingsPath)
		if !bytes.Equal(again, settings) {
			t.Errorf("second init changed settings.json")
		}
		for _, s := range []string{"unchanged", "already registered"} {
			if !strings.Contains(r2.stdout, s) {
				t.Errorf("second init output lacks %q:\n%s", s, r2.stdout)
			}
		}
	})

	step("doctor", func(t *testing.T) {
		h.t = t
		r := h.run(2*time.Minute, h.proj, nil, filepath.Join(h.bin, "anamnesis"), "doctor")
		if r.err != nil {
			t.Fatalf("doctor on a fresh install: %v\n%s%s", r.err, r.stdout, r.stderr)
		}
		t.Logf("anamnesis doctor:\n%s", r.stdout)
		for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if !strings.HasPrefix(line, "ok ") {
				t.Errorf("doctor line not ok: %s", line)
			}
		}
	})

	var first session
	written := filepath.Join(h.proj, "src", "health.ts")
	prompt := "Add a health check endpoint to the quotes API"
	step("inject and capture", func(t *testing.T) {
		h.t = t
		h.anamnesis("write", "--type", "semantic", "--title", markerTitle, "--body", "Rotate them with `make rotate-keys`; never paste them into chat.")
		first = h.claudeP([]standin.Turn{
			{Text: "I'll add the endpoint.", ToolUse: &standin.ToolUse{Name: "Write", Input: mustJSON(map[string]string{
				"file_path": written, "content": "export const health = () => ({ ok: true });\n"})}},
			{Text: "Added GET /health in src/health.ts; it returns {ok: true} for the load balancer."},
		}, prompt)
		if _, err := os.Stat(written); err != nil {
			t.Fatalf("the scripted Write did not happen: %v", err)
		}
		turns := first.turns()
		if len(turns) < 2 {
			t.Fatalf("%d conversation requests", len(turns))
		}
		text := standin.AllText(turns[0].Body)
		if !strings.Contains(text, "SessionStart:startup hook success: "+memoryHeader) || !strings.Contains(text, "## [semantic] "+markerTitle) {
			t.Errorf("the first request does not carry the injected memory block")
		}

		var n []*note.Note
		waitFor(t, time.Minute, "the session-end note", func() bool {
			n = h.notesOf(first.ID)
			return len(n) > 0
		})
		if len(n) != 1 {
			t.Fatalf("%d notes for session %s", len(n), first.ID)
		}
		got := n[0]
		if got.Type != "episodic" || got.ProvSource != "session-end" || !slices.Contains(got.Tags, "session-end") {
			t.Errorf("note %s: type %s, prov %s, tags %v", got.ID, got.Type, got.ProvSource, got.Tags)
		}
		if got.Title != prompt || !strings.Contains(got.Body, "**Ask:**") || !strings.Contains(got.Body, prompt) {
			t.Errorf("note's title/Ask is not the prompt:\n%s\n%s", got.Title, got.Body)
		}
		if !strings.Contains(got.Body, "**Files touched (1):**") || !strings.Contains(got.Body, "health.ts") {
			t.Errorf("note does not list the written file:\n%s", got.Body)
		}
		waitFor(t, time.Minute, "the note committed in memory/", func() bool {
			return h.committed(got.ID)
		})
	})

	step("compact", func(t *testing.T) {
		h.t = t
		before := h.notesOf(first.ID)
		h.claudeP(nil, "--resume", first.ID, "/compact")
		var after []*note.Note
		waitFor(t, time.Minute, "the pre-compact capture", func() bool {
			after = h.notesOf(first.ID)
			return len(after) == 1 && slices.Contains(after[0].Tags, "precompact")
		})
		if after[0].ID != before[0].ID {
			t.Errorf("compaction wrote a second note: %s then %s", before[0].ID, after[0].ID)
		}
		s := h.claudeP([]standin.Turn{{Text: "We added a health check endpoint in src/health.ts."}}, "--resume", first.ID, "What did we change so far?")
		turns := s.turns()
		if len(turns) == 0 {
			t.Fatal("no request after compaction")
		}
		text := standin.AllText(turns[0].Body)
		if !strings.Contains(text, "SessionStart:compact hook success: "+memoryHeader) || !strings.Contains(text, markerTitle) {
			t.Errorf("the compacted context lacks the memory block (SessionStart compact)")
		}
		if !strings.Contains(text, "This session is being continued from a previous conversation") {
			t.Errorf("the request is not from the compacted session")
		}
		// claude -p returns after its SessionEnd hook, so the resumed
		// session's capture is done by now.
		if n := h.notesOf(first.ID); len(n) != 1 || n[0].ID != before[0].ID {
			t.Errorf("%d notes for one session after compaction and resume", len(n))
		}
	})

	step("mcp search", func(t *testing.T) {
		h.t = t
		s := h.claudeP([]standin.Turn{
			{ToolUse: &standin.ToolUse{Name: "mcp__anamnesis__memory_search", Input: mustJSON(map[string]any{"query": "vault deploy keys zephyr"})}},
			{Match: "zephyr", Text: "Your notes say the deploy keys are in vault under secret/e2e-zephyr."},
		}, "Where do the deploy keys live?")
		if len(s.Denials) > 0 {
			t.Errorf("permission denials: %s", s.Denials)
		}
		var res string
		for _, r := range s.turns() {
			if r.Turn == 1 {
				res = standin.LastUserText(r.Body)
			}
		}
		if !strings.Contains(res, markerTitle) {
			t.Errorf("the request after the tool call does not carry the search result; last user message:\n%s", res)
		}
	})

	step("mcp list", func(t *testing.T) {
		h.t = t
		r := h.mustRun(2*time.Minute, h.proj, h.claude, "mcp", "list")
		ok := false
		for _, line := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(line, "anamnesis:") && strings.Contains(line, "Connected") && !strings.Contains(line, "Failed") {
				ok = true
			}
		}
		if !ok {
			t.Errorf("claude mcp list does not show anamnesis connected:\n%s%s", r.stdout, r.stderr)
		}
	})

	step("session end does not wait on the network", func(t *testing.T) {
		h.t = t
		script := func(file string) []standin.Turn {
			return []standin.Turn{
				{ToolUse: &standin.ToolUse{Name: "Write", Input: mustJSON(map[string]string{"file_path": filepath.Join(h.proj, file), "content": "x\n"})}},
				{Text: "Wrote " + file + " as asked; nothing else changed in the project."},
			}
		}
		base := h.claudeP(script("a.txt"), "Write a.txt")
		remote := newHangingRemote(t)
		h.anamnesis("init", "--yes", "--no-sync", "--remote", remote.url())
		slow := h.claudeP(script("b.txt"), "Write b.txt")
		t.Logf("session without a remote: %s; with an unreachable one: %s", base.Dur.Round(time.Millisecond), slow.Dur.Round(time.Millisecond))
		// The sync deadline is 60 s: an exit that waited on the remote
		// would take at least that long.
		if slow.Dur > base.Dur+20*time.Second {
			t.Errorf("claude -p took %s with an unreachable remote, %s without", slow.Dur, base.Dur)
		}
		var n []*note.Note
		waitFor(t, 30*time.Second, "the note of the offline session", func() bool {
			n = h.notesOf(slow.ID)
			return len(n) == 1
		})
		waitFor(t, 30*time.Second, "the offline note committed locally", func() bool { return h.committed(n[0].ID) })
		// And a sync did try the remote, in the background.
		waitFor(t, time.Minute, "a background sync to reach the remote", func() bool { return remote.accepted() > 0 })
		h.anamnesis("init", "--yes", "--no-sync", "--local-only")
	})

	step("a big store leaves room for the project", func(t *testing.T) {
		h.t = t
		// 300 global notes far over the 9,500-character block, and the
		// project's own durable notes, newest last written.
		ctx := context.Background()
		st, err := store.Open(ctx, h.store)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		var added []string
		put := func(project, title, body string, at time.Time) {
			n := note.New(note.Semantic, title, body)
			n.ID, n.Project, n.MachineID = note.NewID(), project, "e2e-box"
			n.CreatedAt, n.UpdatedAt = note.FormatTime(at), note.FormatTime(at)
			if err := st.Put(ctx, n); err != nil {
				t.Fatal(err)
			}
			added = append(added, n.ID)
		}
		for i := range 300 {
			put(note.Global, fmt.Sprintf("Global convention %03d", i),
				strings.Repeat(fmt.Sprintf("Convention %03d: keep changes small and reversible. ", i), 4), now.Add(time.Duration(i)*time.Second))
		}
		for i := range 8 {
			put("quotes-api", fmt.Sprintf("Quotes API fact %d", i), fmt.Sprintf("Fact %d about the quotes API.", i), now.Add(time.Hour+time.Duration(i)*time.Second))
		}
		st.Close()
		s := h.claudeP([]standin.Turn{{Text: "Noted."}}, "What do you remember about this project?")
		turns := s.turns()
		if len(turns) == 0 {
			t.Fatal("no conversation request")
		}
		text := standin.AllText(turns[0].Body)
		if !strings.Contains(text, "## [semantic] Global convention 299") {
			t.Errorf("the newest global note is not in the first request")
		}
		// k = 8 with two episodics of this project reserved: the six newest durable notes.
		for i := 7; i >= 2; i-- {
			if !strings.Contains(text, fmt.Sprintf("## [semantic] Quotes API fact %d\n", i)) {
				t.Errorf("the project's durable note %d is not in the first request", i)
			}
		}
		if !strings.Contains(text, "more notes left out to keep this block under 9,500 characters") {
			t.Errorf("the block does not say what it left out")
		}
		// Leave the store as the later steps expect it.
		for _, id := range added {
			for _, typ := range note.Types {
				os.Remove(filepath.Join(h.store, "memory", typ, id+".md"))
			}
		}
		h.anamnesis("reindex")
	})

	step("doctor names each problem with its fix", func(t *testing.T) {
		h.t = t
		healthy, err := os.ReadFile(settingsPath)
		if err != nil {
			t.Fatal(err)
		}
		// A hook removed: the install minus its SessionEnd group.
		var partial setup.EventGroups
		for _, eg := range setup.BuildHooks(h.bin, h.store, true) {
			if eg.Event != "SessionEnd" {
				partial = append(partial, eg)
			}
		}
		broken, err := setup.MergeHooks([]byte(userSettings), partial)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(settingsPath, broken, 0o644); err != nil {
			t.Fatal(err)
		}
		// The MCP server unregistered, a bad note, an unreachable remote.
		h.mustRun(2*time.Minute, h.proj, h.claude, "mcp", "remove", "--scope", "user", "anamnesis")
		bad := filepath.Join(h.store, "memory", "semantic", "01HZZZZZZZZZZZZZZZZZZZZZZZ.md")
		if err := os.WriteFile(bad, []byte("---\ntitle: [unclosed\n---\nbody\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		refused := "http://127.0.0.1:1/notes.git"
		h.anamnesis("config", "set", "remote", refused)

		r := h.run(2*time.Minute, h.proj, nil, filepath.Join(h.bin, "anamnesis"), "doctor")
		if r.err == nil {
			t.Fatalf("doctor exited 0 on a broken install:\n%s", r.stdout)
		}
		for _, want := range []string{
			"FAIL hooks: SessionEnd capture hook missing from " + settingsPath + "; fix: anamnesis init",
			`FAIL mcp: "anamnesis" is not registered with Claude Code; fix: claude mcp add --scope user anamnesis -- '` + bin.Path(h.bin, setup.BinMCP) + "'",
			"FAIL notes: " + bad + " cannot be read as a note: ",
			"FAIL remote: " + refused + " is not reachable",
		} {
			found := false
			for _, line := range strings.Split(r.stdout, "\n") {
				if strings.HasPrefix(line, want) && strings.Contains(line, "; fix: ") {
					found = true
				}
			}
			if !found {
				t.Errorf("doctor does not report %q:\n%s", want, r.stdout)
			}
		}
		if n := strings.Count(r.stdout, "FAIL "); n != 4 {
			t.Errorf("%d failures reported, want 4:\n%s", n, r.stdout)
		}

		// Following the fixes gives a healthy install again.
		if err := os.Remove(bad); err != nil {
			t.Fatal(err)
		}
		h.anamnesis("init", "--yes", "--no-sync", "--local-only")
		// The SessionEnd group comes back (at the end of "hooks", since
		// nothing says where it was); the other hooks are untouched.
		got, _ := os.ReadFile(settingsPath)
		want, _ := setup.FindHooks(healthy)
		if have, err := setup.FindHooks(got); err != nil || !sameHooks(have, want) {
			t.Errorf("init did not restore the hooks:\n%s", got)
		}
		r = h.run(2*time.Minute, h.proj, nil, filepath.Join(h.bin, "anamnesis"), "doctor")
		if r.err != nil || strings.Contains(r.stdout, "FAIL") {
			t.Errorf("doctor after the fixes: %v\n%s", r.err, r.stdout)
		}
	})

	step("uninstall", func(t *testing.T) {
		h.t = t
		h.anamnesis("uninstall")
		got, err := os.ReadFile(settingsPath)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != userSettings {
			t.Errorf("settings.json after uninstall differs from before init:\n%s", got)
		}
		r := h.mustRun(2*time.Minute, h.proj, h.claude, "mcp", "list")
		if strings.Contains(r.stdout, "anamnesis:") {
			t.Errorf("anamnesis still registered:\n%s", r.stdout)
		}
		if _, err := os.Stat(filepath.Join(h.store, "memory")); err != nil {
			t.Errorf("uninstall removed the store: %v", err)
		}
	})
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// committed reports whether a note's file is in memory/'s git history.
func (h *harness) committed(id string) bool {
	r := h.run(time.Minute, filepath.Join(h.store, "memory"), nil, "git", "log", "--format=%H", "--", "*"+id+".md")
	return r.err == nil && strings.TrimSpace(r.stdout) != ""
}

func sameHooks(a, b []setup.InstalledHook) bool {
	key := func(hs []setup.InstalledHook) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Event+"|"+h.Matcher+"|"+h.Command)
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}
