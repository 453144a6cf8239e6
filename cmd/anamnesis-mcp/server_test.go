package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"
	_ "modernc.org/sqlite" // only to hold the index's write lock the way another process would

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

func TestToolsListedWithAnnotations(t *testing.T) {
	h := newHarness(t)
	res, err := h.c.ListTools(h.ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	type want struct{ readOnly, destructive, idempotent, openWorld bool }
	wants := map[string]want{
		"memory_search": {true, false, true, false},
		"memory_list":   {true, false, true, false},
		"memory_status": {true, false, true, false},
		"memory_get":    {true, false, true, false},
		"memory_write":  {false, false, false, false},
		"memory_sync":   {false, false, true, true},
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		w, ok := wants[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: not all four hints set: %+v", tool.Name, a)
			continue
		}
		got := want{*a.ReadOnlyHint, *a.DestructiveHint, *a.IdempotentHint, *a.OpenWorldHint}
		if got != w {
			t.Errorf("%s: hints %+v, want %+v", tool.Name, got, w)
		}
		if tool.Title == "" || a.Title != tool.Title {
			t.Errorf("%s: title %q, annotation title %q", tool.Name, tool.Title, a.Title)
		}
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		if tool.OutputSchema.Type != "object" || len(tool.OutputSchema.Properties) == 0 {
			t.Errorf("%s: no output schema", tool.Name)
		}
		if _, ok := tool.InputSchema.Properties["machine_id"]; ok {
			t.Errorf("%s: machine_id must not be a parameter", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"memory_get", "memory_list", "memory_search", "memory_status", "memory_sync", "memory_write"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
}

func TestInitializeNamesServerAndInstructions(t *testing.T) {
	h := newHarness(t)
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = "2025-06-18"
	res, err := h.c.Initialize(h.ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "anamnesis" {
		t.Errorf("server name %q", res.ServerInfo.Name)
	}
	for _, w := range []string{"memory_search", "When to search", "When to write", "procedural", "semantic", "episodic"} {
		if !strings.Contains(res.Instructions, w) {
			t.Errorf("instructions lack %q", w)
		}
	}
}

func TestWriteSearchGetListRoundTrip(t *testing.T) {
	h := newHarness(t)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "procedural", "title": "WAL mode",
		"body": "set busy_timeout to 5000 <ms> & enable WAL", "project": "anamnesis", "tags": []any{"sqlite", "sqlite", " wal "}}, &w)
	if w.MachineID != testMachine || w.Project != "anamnesis" || w.Scope != note.Portable || w.ProvSource != note.ProvHuman {
		t.Fatalf("written note %+v", w)
	}
	if !slices.Equal(w.Tags, []string{"sqlite", "wal"}) || !note.ValidID(w.ID) || w.CreatedAt == "" || w.CreatedAt != w.UpdatedAt {
		t.Fatalf("written note %+v", w)
	}
	mustExist(t, filepath.Join(h.home, "memory", "procedural", w.ID+".md"))

	var s searchResult
	h.ok("memory_search", map[string]any{"query": "busy timeout"}, &s)
	if len(s.Result) != 1 || s.Result[0].ID != w.ID || s.Result[0].Body == nil || *s.Result[0].Body != *w.Body {
		t.Fatalf("search: %+v", s)
	}
	h.ok("memory_search", map[string]any{"query": "busy", "project": "other"}, &s)
	if len(s.Result) != 0 {
		t.Fatalf("project filter ignored: %+v", s)
	}
	h.ok("memory_search", map[string]any{"query": "busy", "type": "semantic"}, &s)
	if len(s.Result) != 0 {
		t.Fatalf("type filter ignored: %+v", s)
	}
	h.ok("memory_search", map[string]any{"query": "?!"}, &s)
	if len(s.Result) != 0 {
		t.Fatalf("no-token query: %+v", s)
	}

	var g getResult
	h.ok("memory_get", map[string]any{"id": w.ID}, &g)
	if *g.Body != *w.Body || g.Page.NextOffset != nil || g.Page.TotalChars != utf8.RuneCountInString(*w.Body) {
		t.Fatalf("get: %+v", g)
	}

	var l listPage
	h.ok("memory_list", nil, &l)
	if len(l.Result) != 1 || l.Result[0].ID != w.ID || l.Result[0].Body != nil || l.Total != 1 || l.NextOffset != nil {
		t.Fatalf("list: %+v", l)
	}
}

func TestWriteMachineLocalStaysOutOfMemory(t *testing.T) {
	h := newHarness(t)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "local path", "body": "/opt/x", "scope": "machine-local"}, &w)
	if got := files(t, h.home); !slices.Equal(got, []string{"local/semantic/" + w.ID + ".md"}) {
		t.Fatalf("files %v", got)
	}
	var l listPage
	h.ok("memory_list", map[string]any{"scope": "machine-local"}, &l)
	if len(l.Result) != 1 || l.Result[0].Scope != note.MachineLocal {
		t.Fatalf("list: %+v", l)
	}
	h.ok("memory_list", map[string]any{"scope": "portable"}, &l)
	if len(l.Result) != 0 {
		t.Fatalf("list: %+v", l)
	}
}

// A project given with spaces around it (a model's " quotes-api") is the
// project: the note is in its list and search, not under a key no session
// resolves to.
func TestWriteProjectWithSpacesAroundIt(t *testing.T) {
	h := newHarness(t)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "rates cache", "body": "The quotes service caches rates.", "project": " quotes-api "}, &w)
	if w.Project != "quotes-api" {
		t.Errorf("written with project %q", w.Project)
	}
	var l listPage
	h.ok("memory_list", map[string]any{"project": "quotes-api"}, &l)
	if len(l.Result) != 1 {
		t.Fatalf("the project's list: %+v", l)
	}
}

// Every bad argument is a tool error that names what is allowed, and
// nothing is written.
func TestBadArgumentsAreToolErrors(t *testing.T) {
	h := newHarness(t)
	good := map[string]any{"type": "semantic", "title": "t", "body": "b"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		tool string
		args any
		want []string
	}{
		{"memory_write", with("type", "fact"), []string{"type must be one of procedural, semantic, episodic", `"fact"`}},
		{"memory_write", with("type", nil), []string{"type is required", "procedural, semantic, episodic"}},
		{"memory_write", with("scope", "global"), []string{"scope must be one of portable, machine-local"}},
		{"memory_write", with("title", ""), []string{"title must not be empty"}},
		{"memory_write", with("title", "   "), []string{"title must not be empty"}},
		{"memory_write", with("title", nil), []string{"title is required"}},
		{"memory_write", with("title", strings.Repeat("t", maxTitle+1)), []string{"at most 500"}},
		{"memory_write", with("body", nil), []string{"body is required"}},
		{"memory_write", with("body", 42), []string{"body must be a string"}},
		{"memory_write", with("body", strings.Repeat("x", maxBody+1)), []string{"at most 1048576 (1 MiB)"}},
		{"memory_write", with("project", " "), []string{"project must not be empty"}},
		{"memory_write", with("tags", []any{"a", 3}), []string{"tags[1] must be a string"}},
		{"memory_write", with("tags", map[string]any{}), []string{"tags must be a list of strings"}},
		{"memory_write", with("machine_id", "spoof"), []string{`unknown argument "machine_id"`, "allowed: type, title, body, project, tags, scope"}},
		{"memory_write", "not an object", []string{"arguments must be a JSON object"}},
		{"memory_write", with("type", strings.Repeat("q", 100000)), []string{"type must be one of", "qqq…"}},
		{"memory_write", with(strings.Repeat("k", 100000), 1), []string{"unknown argument"}},
		{"memory_search", map[string]any{}, []string{"query is required"}},
		{"memory_search", map[string]any{"query": "x", "k": 0}, []string{"k must be an integer from 1 to 50 (got 0)"}},
		{"memory_search", map[string]any{"query": "x", "k": 51}, []string{"k must be an integer from 1 to 50 (got 51)"}},
		{"memory_search", map[string]any{"query": "x", "k": 2.5}, []string{"k must be an integer from 1 to 50"}},
		{"memory_search", map[string]any{"query": "x", "k": "many"}, []string{"k must be an integer from 1 to 50"}},
		{"memory_search", map[string]any{"query": "x", "type": "Semantic"}, []string{"type must be one of procedural, semantic, episodic"}},
		{"memory_search", map[string]any{"query": "x", "scope": "local"}, []string{"scope must be one of portable, machine-local"}},
		{"memory_search", map[string]any{"query": []any{"x"}}, []string{"query must be a string"}},
		{"memory_list", map[string]any{"limit": 0}, []string{"limit must be an integer from 1 to 1000 (got 0)"}},
		{"memory_list", map[string]any{"limit": 1001}, []string{"limit must be an integer from 1 to 1000"}},
		{"memory_list", map[string]any{"offset": -1}, []string{"offset must be an integer >= 0 (got -1)"}},
		{"memory_list", map[string]any{"type": "x", "limt": 3}, []string{`unknown argument "limt"`, "type must be one of"}},
		{"memory_get", map[string]any{}, []string{"id is required"}},
		{"memory_get", map[string]any{"id": "../../etc/passwd"}, []string{"is not a note id", "letters, digits"}},
		{"memory_get", map[string]any{"id": "01HZZZZZZZZZZZZZZZZZZZZZZZ"}, []string{`no note with id "01HZZZZZZZZZZZZZZZZZZZZZZZ"`}},
		{"memory_get", map[string]any{"id": "x", "max_chars": 0}, []string{"max_chars must be an integer from 1 to 40000"}},
		{"memory_get", map[string]any{"id": "x", "offset": -5}, []string{"offset must be an integer >= 0"}},
		// Past the largest int: no wrap-around to a negative offset (memory_list
		// served the first page, labelled with it; see TestGetOffsetPastEnd).
		{"memory_list", map[string]any{"offset": 1e19}, []string{"offset must be an integer >= 0, at most "}},
		{"memory_status", map[string]any{"verbose": true}, []string{`unknown argument "verbose" (allowed: none)`}},
		{"memory_sync", map[string]any{"force": "maybe"}, []string{"force must be true or false"}},
	}
	for _, c := range cases {
		msg := h.fail(c.tool, c.args)
		if !strings.HasPrefix(msg, c.tool+": ") {
			t.Errorf("%s: error does not name the tool: %s", c.tool, msg)
		}
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s(%.80v): error %q lacks %q", c.tool, c.args, msg, w)
			}
		}
	}
	if got := files(t, h.home); len(got) != 0 {
		t.Fatalf("bad writes left files: %v", got)
	}
	// Still serving.
	h.ok("memory_write", good, nil)
	if got := files(t, h.home); len(got) != 1 {
		t.Fatalf("files %v", got)
	}
}

func TestGetOffsetPastEnd(t *testing.T) {
	h := newHarness(t)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "episodic", "title": "short", "body": "hello"}, &w)
	msg := h.fail("memory_get", map[string]any{"id": w.ID, "offset": 6})
	if !strings.Contains(msg, "offset must be from 0 to 5") {
		t.Fatal(msg)
	}
	// An offset no int holds did not wrap around to a negative one, with
	// which the body was sliced (a panic, a JSON-RPC internal error).
	for _, off := range []any{1e19, "9223372036854775807"} {
		if msg := h.fail("memory_get", map[string]any{"id": w.ID, "offset": off}); !strings.Contains(msg, "offset must be an integer >= 0, at most ") {
			t.Fatalf("offset %v: %s", off, msg)
		}
	}
	var g getResult
	h.ok("memory_get", map[string]any{"id": w.ID, "offset": 5}, &g)
	if *g.Body != "" || g.Page.NextOffset != nil {
		t.Fatalf("%+v", g)
	}
}

func TestNullArgumentsMeanDefaults(t *testing.T) {
	h := newHarness(t)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "t", "body": "b", "project": nil, "tags": nil, "scope": nil}, &w)
	if w.Project != "global" || w.Scope != "portable" || len(w.Tags) != 0 {
		t.Fatalf("%+v", w)
	}
	var s searchResult
	h.ok("memory_search", map[string]any{"query": "b", "k": nil, "type": nil}, &s)
	h.ok("memory_search", map[string]any{"query": "b", "k": "3"}, &s) // a quoted number is fine
}

// Long bodies: search trims the longest first, keeps the result under the
// cap, and names the id; get pages the whole body back.
func TestSearchTrimsLongestBodiesFirst(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("alpha beta gamma\n", 3000) // 51,000 characters, newlines escape to two
	mid := strings.Repeat("alpha δέλτα ", 2000)        // 24,000 characters, multibyte
	short := "alpha short note"
	var ids []string
	for i, b := range []string{long, mid, short} {
		var w noteOut
		h.ok("memory_write", map[string]any{"type": "semantic", "title": fmt.Sprintf("alpha %d", i), "body": b}, &w)
		ids = append(ids, w.ID)
	}
	var s searchResult
	res := h.call("memory_search", map[string]any{"query": "alpha", "k": 10})
	h.ok("memory_search", map[string]any{"query": "alpha", "k": 10}, &s)
	if n := len(text(res)); n > maxResult || n < maxResult-2000 {
		t.Fatalf("result is %d bytes; want just under %d", n, maxResult)
	}
	if len(s.Result) != 3 {
		t.Fatalf("%d results", len(s.Result))
	}
	bodies := map[string]string{}
	for _, n := range s.Result {
		bodies[n.ID] = *n.Body
	}
	if bodies[ids[2]] != short {
		t.Fatalf("short body was cut: %q", bodies[ids[2]])
	}
	for _, id := range ids[:2] {
		if !strings.Contains(bodies[id], fmt.Sprintf("Call memory_get with id %q", id)) {
			t.Fatalf("cut body of %s has no marker: ...%s", id, bodies[id][max(0, len(bodies[id])-200):])
		}
	}
	// The longest lost the most.
	if strings.Index(bodies[ids[0]], "[… trimmed") > len(long) || !strings.HasPrefix(long, bodies[ids[0]][:strings.Index(bodies[ids[0]], "\n\n[… trimmed")]) {
		t.Fatal("trimmed body is not a prefix of the note")
	}

	// Page the long note back whole.
	var got strings.Builder
	offset, pages := 0, 0
	for {
		var g getResult
		h.ok("memory_get", map[string]any{"id": ids[0], "offset": offset}, &g)
		got.WriteString(*g.Body)
		pages++
		if g.Page.NextOffset == nil {
			break
		}
		if !strings.Contains(g.Page.Hint, fmt.Sprintf("offset %d", *g.Page.NextOffset)) {
			t.Fatalf("hint %q", g.Page.Hint)
		}
		offset = *g.Page.NextOffset
	}
	if got.String() != long || pages < 2 {
		t.Fatalf("paged body differs (%d pages, %d vs %d chars)", pages, got.Len(), len(long))
	}
	var g getResult
	h.ok("memory_get", map[string]any{"id": ids[1], "offset": 10, "max_chars": 7}, &g)
	if *g.Body != string([]rune(mid)[10:17]) || *g.Page.NextOffset != 17 || g.Page.TotalChars != utf8.RuneCountInString(mid) {
		t.Fatalf("%+v", g.Page)
	}
}

func TestWriteResultTrimsHugeBody(t *testing.T) {
	h := newHarness(t)
	body := strings.Repeat("0123456789", maxBody/10)
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "big", "body": body}, &w)
	if !strings.Contains(*w.Body, fmt.Sprintf("Call memory_get with id %q", w.ID)) {
		t.Fatal("no marker")
	}
	data, err := os.ReadFile(filepath.Join(h.home, "memory", "semantic", w.ID+".md"))
	if err != nil || !strings.Contains(string(data), body) {
		t.Fatalf("stored note lost its body: %v", err)
	}
}

func TestSearchDropsHitsWhenMetadataAloneIsTooBig(t *testing.T) {
	h := newHarness(t)
	var ns []*note.Note
	for i := range 50 {
		n := note.New(note.Semantic, fmt.Sprintf("zeta %d %s", i, strings.Repeat("t", 990)), "zeta")
		n.ID = fmt.Sprintf("N%02d", i)
		ns = append(ns, n)
	}
	seed(t, h.home, ns...)
	var s searchResult
	h.ok("memory_search", map[string]any{"query": "zeta", "k": 50}, &s)
	if len(s.Result) == 0 || len(s.Result) == 50 || !strings.Contains(s.Hint, "were left out") {
		t.Fatalf("%d results, hint %q", len(s.Result), s.Hint)
	}
}

func TestListPagesAndFitsTheCap(t *testing.T) {
	h := newHarness(t)
	var ns []*note.Note
	for i := range 300 {
		n := note.New(note.Episodic, fmt.Sprintf("note %03d %s", i, strings.Repeat("x", 200)), "body")
		n.ID = fmt.Sprintf("L%03d", i)
		n.UpdatedAt = fmt.Sprintf("2026-01-01T00:%02d:%02d+00:00", i/60, i%60)
		n.CreatedAt = n.UpdatedAt
		ns = append(ns, n)
	}
	seed(t, h.home, ns...)
	var l listPage
	h.ok("memory_list", map[string]any{"limit": 3, "offset": 1}, &l)
	if len(l.Result) != 3 || l.Result[0].ID != "L298" || l.Total != 300 || l.NextOffset == nil || *l.NextOffset != 4 {
		t.Fatalf("%+v", l)
	}
	// 1000 asked, fewer fit: the page says where to go on.
	seen := map[string]bool{}
	offset := 0
	for {
		var p listPage
		h.ok("memory_list", map[string]any{"limit": 1000, "offset": offset}, &p)
		for _, n := range p.Result {
			seen[n.ID] = true
		}
		if p.NextOffset == nil {
			break
		}
		if *p.NextOffset != offset+len(p.Result) || len(p.Result) == 0 {
			t.Fatalf("next_offset %d after %d from %d", *p.NextOffset, len(p.Result), offset)
		}
		offset = *p.NextOffset
	}
	if len(seen) != 300 {
		t.Fatalf("paged through %d notes, want 300", len(seen))
	}
}

func TestStatusAndLocalSync(t *testing.T) {
	h := newHarness(t)
	var st statusOut
	h.ok("memory_status", nil, &st)
	if st.Sync.Initialized || st.Sync.Remote != nil || st.Sync.Head != nil || st.Total != 0 || st.MachineID != testMachine || st.Root != h.home {
		t.Fatalf("%+v", st)
	}
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "t", "body": "b", "project": "p"}, &w)
	// A hand-dropped broken file is reported, not fatal.
	os.WriteFile(filepath.Join(h.home, "memory", "semantic", "BAD.md"), []byte("no front matter"), 0o644)

	var s syncResult
	h.ok("memory_sync", map[string]any{"force": true}, &s)
	if s.Pushed || s.Conflicted || s.Head == "" || !strings.Contains(s.Detail, "remote") || !s.Committed || s.Indexed != 1 || s.Skipped {
		t.Fatalf("%+v", s)
	}
	out, err := exec.Command("git", "-C", filepath.Join(h.home, "memory"), "ls-files").Output()
	if err != nil || !strings.Contains(string(out), w.ID+".md") {
		t.Fatalf("not committed: %s %v", out, err)
	}
	h.ok("memory_status", nil, &st)
	if !st.Sync.Initialized || st.Sync.Head == nil || *st.Sync.Head != s.Head || st.Sync.Dirty || st.Total != 1 ||
		st.ByProject["p"] != 1 || st.ByMachine[testMachine] != 1 || st.Unreadable != 1 || len(st.Problems) != 1 {
		t.Fatalf("%+v", st)
	}
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "t2", "body": "b"}, nil)
	h.ok("memory_status", nil, &st)
	if !st.Sync.Dirty {
		t.Fatal("new note not seen as dirty")
	}
}

func TestStoreThatCannotOpenKeepsServing(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	os.WriteFile(home, []byte("a file, not a directory"), 0o644)
	h := newHarnessAt(t, home)
	msg := h.fail("memory_search", map[string]any{"query": "x"})
	if !strings.Contains(msg, "cannot open the store") {
		t.Fatal(msg)
	}
	os.Remove(home)
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "t", "body": "b"}, nil)
}

// Many tool calls at once against one store: nothing lost, no errors.
func TestConcurrentToolCalls(t *testing.T) {
	h := newHarness(t)
	const n = 40
	var wg sync.WaitGroup
	errs := make(chan string, 2*n)
	for i := range n {
		wg.Go(func() {
			var req mcp.CallToolRequest
			req.Params.Name = "memory_write"
			req.Params.Arguments = map[string]any{"type": "episodic", "title": fmt.Sprintf("event %d", i), "body": fmt.Sprintf("token%d happened", i)}
			if res, err := h.c.CallTool(h.ctx, req); err != nil || res.IsError {
				errs <- fmt.Sprintf("write %d: %v %s", i, err, text(res))
			}
			req.Params.Name = "memory_search"
			req.Params.Arguments = map[string]any{"query": "happened"}
			if res, err := h.c.CallTool(h.ctx, req); err != nil || res.IsError {
				errs <- fmt.Sprintf("search %d: %v %s", i, err, text(res))
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	for i := range n {
		var s searchResult
		h.ok("memory_search", map[string]any{"query": fmt.Sprintf("token%d", i)}, &s)
		if len(s.Result) != 1 {
			t.Errorf("token%d: %d hits", i, len(s.Result))
		}
	}
}

// Two machines sharing a bare remote: a note written on one is searchable on
// the other after a memory_sync on each, with no manual reindex.
func TestSyncThroughBareRemote(t *testing.T) {
	remote := filepath.Join(t.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	env := func(machine string) map[string]string {
		return map[string]string{"ANAMNESIS_GIT_REMOTE": remote, "ANAMNESIS_MACHINE_ID": machine, "ANAMNESIS_IMPORT_NATIVE": "0"}
	}
	a := newHarnessEnv(t, t.TempDir(), env("desk"))
	b := newHarnessEnv(t, t.TempDir(), env("lap"))

	var w noteOut
	a.ok("memory_write", map[string]any{"type": "procedural", "title": "Release", "body": "tag then push the zebrafish branch"}, &w)
	var s syncResult
	a.ok("memory_sync", nil, &s)
	if !s.Pushed || s.Conflicted || s.Indexed != 1 {
		t.Fatalf("desk sync: %+v", s)
	}
	var st statusOut
	a.ok("memory_status", nil, &st)
	if st.Sync.Remote == nil || *st.Sync.Remote != remote || st.Sync.Unpushed != 0 || st.Sync.Dirty {
		t.Fatalf("desk status: %+v", st.Sync)
	}

	b.ok("memory_sync", nil, &s)
	if s.Pulled == 0 || s.Indexed != 1 {
		t.Fatalf("lap sync: %+v", s)
	}
	var found searchResult
	b.ok("memory_search", map[string]any{"query": "zebrafish"}, &found)
	if len(found.Result) != 1 || found.Result[0].ID != w.ID || found.Result[0].MachineID != "desk" {
		t.Fatalf("pulled note not found: %+v", found)
	}
}

func TestSyncUnreachableRemoteIsAToolError(t *testing.T) {
	env := map[string]string{"ANAMNESIS_GIT_REMOTE": filepath.Join(t.TempDir(), "missing.git"), "ANAMNESIS_IMPORT_NATIVE": "0"}
	h := newHarnessEnv(t, t.TempDir(), env)
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "t", "body": "kept"}, nil)
	msg := h.fail("memory_sync", nil)
	if !strings.Contains(msg, "sync failed") || !strings.Contains(msg, "next sync") {
		t.Fatal(msg)
	}
	var s searchResult
	h.ok("memory_search", map[string]any{"query": "kept"}, &s)
	if len(s.Result) != 1 {
		t.Fatal("note lost after a failed sync")
	}
}

// Another process holding the index's write lock past SQLite's 5 s busy
// wait (a full rebuild, say) delays a write; it does not fail it.
func TestWriteOutlastsALongLock(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a lock for 6.5 s")
	}
	h := newHarness(t)
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "first", "body": "opens the store"}, nil)
	other, err := store.Open(context.Background(), h.home)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// Another process's long write transaction, as SQLite sees it.
	holder, err := sql.Open("sqlite", "file:"+filepath.Join(h.home, "index.db")+"?_pragma=busy_timeout(5000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	tx, err := holder.BeginTx(context.Background(), nil) // _txlock=immediate: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('held', '1')"); err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(6500 * time.Millisecond)
		tx.Rollback()
		close(released)
	}()
	start := time.Now()
	var w noteOut
	h.ok("memory_write", map[string]any{"type": "semantic", "title": "second", "body": "waited for the lock"}, &w)
	<-released
	if d := time.Since(start); d < 6*time.Second {
		t.Fatalf("write finished after %v, before the lock was released", d)
	}
	if got := files(t, h.home); len(got) != 2 {
		t.Fatalf("files %v", got)
	}
}

// Tags arrive by one rule whatever the surface (note.ParseTags): "a,b" is
// two tags, as anamnesis write --tags a,b makes them, given as one string or
// as one element of the list; memory_write stored the tag "a,b".
func TestWriteTagsSplitAsTheCLIDoes(t *testing.T) {
	h := newHarness(t)
	for _, tags := range []any{"deploy, staging", []any{"deploy,staging"}, []any{"deploy", " staging ,deploy"}} {
		var w noteOut
		h.ok("memory_write", map[string]any{"type": "semantic", "title": "Staging first", "body": "Deploys go to staging first.", "tags": tags}, &w)
		if !slices.Equal(w.Tags, []string{"deploy", "staging"}) {
			t.Errorf("tags %q stored as %q, want [deploy staging]", tags, w.Tags)
		}
	}
}
