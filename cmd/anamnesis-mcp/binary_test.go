package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// binPath is the real anamnesis-mcp, built once by TestMain.
var binPath string

// hookEnv makes the test binary act as a hook process: it writes notes into
// a home through pkg/store, opening the store anew for each, as
// anamnesis-capture does, while MCP servers write to the same home.
const hookEnv = "ANAMNESIS_MCP_TEST_HOOK"

func TestMain(m *testing.M) {
	if spec := os.Getenv(hookEnv); spec != "" {
		os.Exit(hookWriter(spec))
	}
	dir, err := os.MkdirTemp("", "anamnesis-mcp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binPath = filepath.Join(dir, "anamnesis-mcp")
	if runtime.GOOS == "windows" {
		binPath += ".exe"
	}
	if out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build anamnesis-mcp: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// hookWriter: spec is "home|prefix|count".
func hookWriter(spec string) int {
	parts := strings.Split(spec, "|")
	n, _ := strconv.Atoi(parts[2])
	ctx := context.Background()
	for i := range n {
		st, err := store.Open(ctx, parts[0])
		if err != nil {
			fmt.Fprintln(os.Stderr, "hook open:", err)
			return 1
		}
		nt := note.New(note.Episodic, fmt.Sprintf("%s session %d", parts[1], i), fmt.Sprintf("%s%d captured", parts[1], i))
		nt.ProvSource = note.ProvSessionEnd
		if _, err := st.Write(ctx, nt); err != nil {
			fmt.Fprintln(os.Stderr, "hook write:", err)
			st.Close()
			return 1
		}
		st.Close()
	}
	return 0
}

// startBinary connects an mcp-go stdio client to a fresh anamnesis-mcp process.
func startBinary(t *testing.T, ctx context.Context, home, machine string) (*client.Client, *lockedBuffer) {
	t.Helper()
	var stderr lockedBuffer
	c, err := client.NewStdioMCPClientWithOptions(binPath,
		[]string{"ANAMNESIS_HOME=" + home, "ANAMNESIS_MACHINE_ID=" + machine, "ANAMNESIS_GIT_REMOTE="}, nil,
		transport.WithCommandStderrWriter(&stderr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = "2025-06-18"
	init.Params.ClientInfo = mcp.Implementation{Name: "binary-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v (stderr: %s)", err, stderr.String())
	}
	return c, &stderr
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func callTool(ctx context.Context, c *client.Client, tool string, args map[string]any, v any) error {
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s: tool error: %s", tool, text(res))
	}
	if v != nil {
		return json.Unmarshal([]byte(text(res)), v)
	}
	return nil
}

func TestBinaryOverStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	home := t.TempDir()
	c, _ := startBinary(t, ctx, home, "m-bin")
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("tools/list: %v %d", err, len(tools.Tools))
	}
	var w noteOut
	if err := callTool(ctx, c, "memory_write", map[string]any{"type": "semantic", "title": "Editor", "body": "The user prefers helix."}, &w); err != nil {
		t.Fatal(err)
	}
	if w.MachineID != "m-bin" {
		t.Fatalf("machine id %q", w.MachineID)
	}
	var s searchResult
	if err := callTool(ctx, c, "memory_search", map[string]any{"query": "helix"}, &s); err != nil || len(s.Result) != 1 {
		t.Fatalf("search: %v %+v", err, s)
	}
	var g getResult
	if err := callTool(ctx, c, "memory_get", map[string]any{"id": w.ID}, &g); err != nil || *g.Body != "The user prefers helix." {
		t.Fatalf("get: %v %+v", err, g)
	}
	var l listPage
	if err := callTool(ctx, c, "memory_list", map[string]any{"limit": 10}, &l); err != nil || l.Total != 1 {
		t.Fatalf("list: %v %+v", err, l)
	}
	var st statusOut
	if err := callTool(ctx, c, "memory_status", nil, &st); err != nil || st.Total != 1 || st.MachineID != "m-bin" {
		t.Fatalf("status: %v %+v", err, st)
	}
	var sy syncResult
	if err := callTool(ctx, c, "memory_sync", nil, &sy); err != nil || sy.Head == "" {
		t.Fatalf("sync: %v %+v", err, sy)
	}
	// A bad argument is an error result and the process keeps serving.
	if err := callTool(ctx, c, "memory_search", map[string]any{"query": "x", "k": 99}, nil); err == nil || !strings.Contains(err.Error(), "1 to 50") {
		t.Fatalf("k=99: %v", err)
	}
	if err := callTool(ctx, c, "memory_search", map[string]any{"query": "helix"}, &s); err != nil || len(s.Result) != 1 {
		t.Fatalf("search after error: %v", err)
	}
}

// runRaw pipes raw lines into the binary and returns stdout, stderr and the error.
func runRaw(t *testing.T, home string, input string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=m-raw", "ANAMNESIS_GIT_REMOTE=")
	cmd.Stdin = strings.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

const initLines = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// A client that sends its calls and closes stdin at once (a script, a pipe)
// still gets every call carried out and answered, and stdout carries only
// JSON-RPC messages.
func TestBinaryAnswersEverythingBeforeExitingOnEOF(t *testing.T) {
	home := t.TempDir()
	var in strings.Builder
	in.WriteString(initLines)
	const n = 20
	for i := range n {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"memory_write","arguments":{"type":"semantic","title":"t%d","body":"piped%d"}}}`+"\n", 10+i, i, i)
	}
	in.WriteString(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"piped0"}}}`) // no final newline
	stdout, stderr, err := runRaw(t, home, in.String())
	if err != nil {
		t.Fatalf("%v: %s", err, stderr)
	}
	ids := map[int]bool{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var m struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      int             `json:"id"`
			Result  json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.JSONRPC != "2.0" || m.Result == nil {
			t.Fatalf("stdout line is not a JSON-RPC result: %q", line)
		}
		ids[m.ID] = true
	}
	if len(ids) != n+2 {
		t.Fatalf("%d responses, want %d; stdout:\n%s", len(ids), n+2, stdout)
	}
	if got := files(t, home); len(got) != n {
		t.Fatalf("%d notes on disk, want %d", len(got), n)
	}
}

func TestBinaryFlags(t *testing.T) {
	home := t.TempDir()
	stdout, stderr, err := runRaw(t, home, "", "--version")
	if err != nil || stdout != "" || !strings.HasPrefix(stderr, "anamnesis-mcp ") {
		t.Fatalf("--version: %v stdout %q stderr %q", err, stdout, stderr)
	}
	stdout, stderr, err = runRaw(t, home, "", "--bogus")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || stdout != "" || strings.Count(stderr, "-bogus") != 1 || !strings.Contains(stderr, "(see 'anamnesis-mcp --help')") {
		t.Fatalf("--bogus: %v stdout %q stderr %q", err, stdout, stderr)
	}
	_, _, err = runRaw(t, home, "", "extra")
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("positional argument: %v", err)
	}
	// --machine-id wins over the environment.
	stdout, _, err = runRaw(t, home, initLines+`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_status"}}`+"\n", "--machine-id", "flagged")
	if err != nil || !strings.Contains(stdout, `\"machine_id\":\"flagged\"`) {
		t.Fatalf("--machine-id: %v %s", err, stdout)
	}
}

// Ten server processes (ten Claude Code sessions) and two hook processes
// write to one home at once while searching: every note lands, on disk and
// in the index, and no call fails.
func TestTenServersOneHome(t *testing.T) {
	if testing.Short() {
		t.Skip("starts twelve processes")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	home := t.TempDir()
	const servers, writers, perWriter, hooks, perHook = 10, 3, 10, 2, 15

	clients := make([]*client.Client, servers)
	stderrs := make([]*lockedBuffer, servers)
	for i := range servers {
		clients[i], stderrs[i] = startBinary(t, ctx, home, fmt.Sprintf("m%d", i))
	}
	var wg sync.WaitGroup
	errs := make(chan error, servers*writers*perWriter*2+hooks)
	start := time.Now()
	for h := range hooks {
		wg.Go(func() {
			cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|hook%d|%d", hookEnv, home, h, perHook))
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Errorf("hook %d: %v: %s", h, err, out)
			}
		})
	}
	for i, c := range clients {
		for w := range writers {
			wg.Go(func() {
				for j := range perWriter {
					tok := fmt.Sprintf("s%dw%dn%d", i, w, j)
					if err := callTool(ctx, c, "memory_write", map[string]any{"type": "semantic", "title": "note " + tok, "body": tok + " written concurrently"}, nil); err != nil {
						errs <- err
					}
					if w == 0 && j == perWriter/2 {
						// Syncs in the middle of the writes: they queue on the
						// home's lock or report skipped; none fails.
						var sr syncResult
						if err := callTool(ctx, c, "memory_sync", nil, &sr); err != nil {
							errs <- err
						}
					}
					var s searchResult
					if err := callTool(ctx, c, "memory_search", map[string]any{"query": tok}, &s); err != nil {
						errs <- err
					} else if len(s.Result) != 1 {
						errs <- fmt.Errorf("%s: read-your-write search found %d", tok, len(s.Result))
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d writes and %d searches through %d servers plus %d hook writes in %v",
		servers*writers*perWriter, servers*writers*perWriter, servers, hooks*perHook, time.Since(start))
	for i, e := range stderrs {
		if strings.Contains(e.String(), "locked") {
			t.Errorf("server %d stderr: %s", i, e.String())
		}
	}

	want := servers*writers*perWriter + hooks*perHook
	if got := files(t, home); len(got) != want {
		t.Fatalf("%d note files, want %d", len(got), want)
	}
	var l listPage
	if err := callTool(ctx, clients[0], "memory_list", map[string]any{"limit": 1}, &l); err != nil || l.Total != want {
		t.Fatalf("index holds %d notes, want %d (%v)", l.Total, want, err)
	}
	// A last sync commits everything: git holds every note too.
	var sr syncResult
	if err := callTool(ctx, clients[0], "memory_sync", nil, &sr); err != nil || sr.Skipped || sr.Indexed != want {
		t.Fatalf("final sync: %v %+v", err, sr)
	}
	out, err := exec.Command("git", "-C", filepath.Join(home, "memory"), "ls-files", "*.md").Output()
	if n := len(strings.Fields(string(out))); err != nil || n != want {
		t.Fatalf("git holds %d notes, want %d (%v)", n, want, err)
	}
	for h := range hooks {
		var s searchResult
		tok := fmt.Sprintf("hook%d%d", h, perHook-1)
		if err := callTool(ctx, clients[h], "memory_search", map[string]any{"query": tok}, &s); err != nil || len(s.Result) != 1 {
			t.Errorf("hook note %s: %v %d hits", tok, err, len(s.Result))
		}
	}
}

// SIGTERM (how clients stop a server) ends the session cleanly: exit 0, and a
// write already answered is on disk and in the index.
func TestBinarySIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	home := t.TempDir()
	cmd := exec.Command(binPath)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=m-term", "ANAMNESIS_GIT_REMOTE=")
	in, _ := cmd.StdinPipe()
	outPipe, _ := cmd.StdoutPipe()
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	out := bufio.NewReader(outPipe)
	io.WriteString(in, initLines)
	io.WriteString(in, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"memory_write","arguments":{"type":"semantic","title":"t","body":"before the signal"}}}`+"\n")
	for range 2 {
		if _, err := out.ReadString('\n'); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v (stderr: %s)", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if hits, err := st.Search(ctx, store.Query{Text: "signal", K: 5}); err != nil || len(hits) != 1 {
		t.Fatalf("the answered write is not indexed: %v %d", err, len(hits))
	}
}

// A malformed message carrying a method, an id and a result is taken by
// mcp-go for a response to the server and gets no answer: the server must
// not wait for one when stdin closes (the drain's patience is two minutes),
// and what came before and after it is answered.
func TestBinaryExitsOnEOFAfterAMessageWithAResult(t *testing.T) {
	home := t.TempDir()
	in := initLines +
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binPath)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=m-raw", "ANAMNESIS_GIT_REMOTE=")
	cmd.Stdin = strings.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the server was still running 15 s after stdin closed; stdout:\n%s", out.String())
	}
	if err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if !strings.Contains(out.String(), `{"jsonrpc":"2.0","id":3,"result":{}}`) {
		t.Errorf("the ping after it was not answered; stdout:\n%s", out.String())
	}
}
