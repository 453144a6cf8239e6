package main

import (
	"context"
	"encoding/json"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/status"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const testMachine = "m-test"

// harness is one server on a fresh home, reached by an in-process client.
type harness struct {
	t    *testing.T
	home string
	app  *app
	c    *client.Client
	ctx  context.Context
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessAt(t, t.TempDir())
}

func newHarnessAt(t *testing.T, home string) *harness {
	t.Helper()
	return newHarnessEnv(t, home, nil)
}

// newHarnessEnv runs the server with env as its whole environment.
func newHarnessEnv(t *testing.T, home string, env map[string]string) *harness {
	t.Helper()
	getenv := func(k string) string { return env[k] }
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cfg := config.Resolve(home, getenv)
	cfg.MachineID = testMachine
	if m := env["ANAMNESIS_MACHINE_ID"]; m != "" {
		cfg.MachineID = m
	}
	a := newApp(cfg, getenv, log.New(io.Discard, "", 0))
	t.Cleanup(func() { a.close() })
	c, err := client.NewInProcessClient(newServer(a, serverOptions{validateOutput: true}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "anamnesis-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, home: home, app: a, c: c, ctx: ctx}
}

// call runs a tool and returns its result; a protocol error fails the test.
func (h *harness) call(tool string, args any) *mcp.CallToolResult {
	h.t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := h.c.CallTool(h.ctx, req)
	if err != nil {
		h.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	checkShape(h.t, tool, res)
	return res
}

// ok calls a tool that must succeed and decodes its structured content into v.
func (h *harness) ok(tool string, args any, v any) {
	h.t.Helper()
	res := h.call(tool, args)
	if res.IsError {
		h.t.Fatalf("%s(%v): unexpected tool error: %s", tool, args, text(res))
	}
	if v != nil {
		if err := json.Unmarshal([]byte(text(res)), v); err != nil {
			h.t.Fatalf("%s: decode: %v", tool, err)
		}
	}
}

// fail calls a tool that must return a tool error and returns its message.
func (h *harness) fail(tool string, args any) string {
	h.t.Helper()
	res := h.call(tool, args)
	if !res.IsError {
		h.t.Fatalf("%s(%v): want a tool error, got %s", tool, args, text(res))
	}
	return text(res)
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// checkShape holds for every result: one text block within the 40,000
// character cap, and for a success, structured content equal to that text.
func checkShape(t *testing.T, tool string, res *mcp.CallToolResult) {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	txt := text(res)
	if len(txt) > maxResult {
		t.Fatalf("%s: result text is %d bytes, over the %d cap", tool, len(txt), maxResult)
	}
	if res.IsError {
		return
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s: no structured content", tool)
	}
	var fromText, fromStruct any
	if err := json.Unmarshal([]byte(txt), &fromText); err != nil {
		t.Fatalf("%s: text is not JSON: %v", tool, err)
	}
	sb, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(sb, &fromStruct)
	a, _ := json.Marshal(fromText)
	b, _ := json.Marshal(fromStruct)
	if string(a) != string(b) {
		t.Fatalf("%s: structured content and JSON text differ:\n%s\n%s", tool, a, b)
	}
}

// files lists every note file under the home (memory/ and local/).
func files(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	for _, d := range []string{"memory", "local"} {
		filepath.WalkDir(filepath.Join(home, d), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() && strings.HasSuffix(p, ".md") {
				rel, _ := filepath.Rel(home, p)
				out = append(out, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	slices.Sort(out)
	return out
}

// seed writes notes straight into the store, bypassing the server.
func seed(t *testing.T, home string, notes ...*note.Note) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, n := range notes {
		if note.CheckLimits(n) != nil {
			// What only a hand edit makes (the store refuses to write it):
			// the file itself, then an index update.
			if n.Scope == "" {
				n.Scope = note.Portable
			}
			if n.MachineID == "" {
				n.MachineID = "test"
			}
			if n.ProvSource == "" {
				n.ProvSource = note.ProvHuman
			}
			if n.CreatedAt == "" {
				n.CreatedAt, n.UpdatedAt = note.Now(), note.Now()
			}
			if n.Project == "" {
				n.Project = note.Global
			}
			if err := os.MkdirAll(filepath.Join(home, "memory", n.Type), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "memory", n.Type, n.ID+".md"), n.Marshal(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
}

func mustExist(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
}

// statusOut decodes memory_status.
type statusOut = status.Report
