package transcript

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const fixtures = "../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api"

func fixture(t testing.TB, prefix string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(fixtures, prefix+"*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("fixture %s: found %v", prefix, m)
	}
	return m[0]
}

func TestFixtureSessions(t *testing.T) {
	tests := []struct {
		prefix      string
		sessionID   string
		firstPrompt string
		prompts     int
		slash       []string
		outcome     string
		files       []string
	}{
		{prefix: "82bbae79", sessionID: "82bbae79-5e52-46b7-ad51-8df6a1dfb533",
			firstPrompt: "Add a health check endpoint to the quotes API", prompts: 2,
			slash:   []string{"/compact"},
			outcome: "The health endpoint returns {ok:true} with status 200; there are no other checks yet.",
			files:   []string{"/home/dev/src/quotes-api/src/health.ts"}},
		{prefix: "7643d7a9", sessionID: "7643d7a9-5033-4dfb-984a-0844f04b0266",
			firstPrompt: "Wire the health endpoint into app.ts. My deploy token is ghp_abcdefghijklmnopqrstuvwxyz0123456789 and the db password=hunter2-secret",
			prompts:     1,
			outcome:     "Wired /health into app.ts. Note: use the zod schema for request validation, per the project convention. The deploy token you pasted should be rotated.",
			files:       []string{"/home/dev/src/quotes-api/src/app.ts"}},
		{prefix: "239322a7", sessionID: "239322a7-fdb7-41ad-813c-4cd5ee56adbd",
			slash: []string{"/usage"}},
		{prefix: "7c0371b3", sessionID: "7c0371b3-03ce-4f59-a539-b8e1177dfb20",
			firstPrompt: "hello", prompts: 1,
			outcome: "Hi! How can I help you with the quotes API today?"},
		// The task-notification turn is the harness's, not the user's.
		{prefix: "5d18d0a2", sessionID: "5d18d0a2-866b-4082-b1fb-3600f40c13f8",
			firstPrompt: "Use a subagent to list the routes", prompts: 1, outcome: "All done."},
		{prefix: "5b24d0e4", sessionID: "5b24d0e4-97a4-41f7-a27c-7486e442c2cb",
			firstPrompt: "Remember: always validate request bodies with zod. Also note the project layout.", prompts: 1,
			outcome: "Saved two memories.",
			files: []string{
				"/home/dev/.claude/projects/-home-dev-src-quotes-api/memory/use-zod-for-validation.md",
				"/home/dev/.claude/projects/-home-dev-src-quotes-api/memory/quotes-api-layout.md",
				"/home/dev/.claude/projects/-home-dev-src-quotes-api/memory/MEMORY.md",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			s, err := ParseFileContext(context.Background(), fixture(t, tt.prefix))
			if err != nil {
				t.Fatal(err)
			}
			if s.SessionID != tt.sessionID {
				t.Errorf("SessionID = %q, want %q", s.SessionID, tt.sessionID)
			}
			if s.Cwd != "/home/dev/src/quotes-api" || s.GitBranch != "main" {
				t.Errorf("Cwd, GitBranch = %q, %q", s.Cwd, s.GitBranch)
			}
			if s.FirstPrompt != tt.firstPrompt {
				t.Errorf("FirstPrompt = %q, want %q", s.FirstPrompt, tt.firstPrompt)
			}
			if s.PromptCount != tt.prompts || len(s.Prompts) != tt.prompts {
				t.Errorf("PromptCount = %d, Prompts = %q, want %d", s.PromptCount, s.Prompts, tt.prompts)
			}
			if !slices.Equal(s.SlashCommands, tt.slash) {
				t.Errorf("SlashCommands = %q, want %q", s.SlashCommands, tt.slash)
			}
			if s.LastOutcome != tt.outcome {
				t.Errorf("LastOutcome = %q, want %q", s.LastOutcome, tt.outcome)
			}
			if !slices.Equal(s.Files, tt.files) || s.FilesTotal != len(tt.files) {
				t.Errorf("Files = %q (total %d), want %q", s.Files, s.FilesTotal, tt.files)
			}
			if !strings.HasPrefix(s.Started, "2026-11-22T05:") {
				t.Errorf("Started = %q", s.Started)
			}
			if s.BadLines != 0 || s.SkippedLines != 0 {
				t.Errorf("BadLines = %d, SkippedLines = %d", s.BadLines, s.SkippedLines)
			}
			if got, want := s.SlashOnly(), tt.prompts == 0 && len(tt.slash) > 0; got != want {
				t.Errorf("SlashOnly = %v, want %v", got, want)
			}
		})
	}
}

// The subagent's own transcript: every line is a sidechain, so it has no
// prompt of the user's and no outcome for the session.
func TestSubagentTranscriptIsSidechain(t *testing.T) {
	m, _ := filepath.Glob(filepath.Join(fixtures, "5d18d0a2-*", "subagents", "*.jsonl"))
	if len(m) != 1 {
		t.Fatalf("subagent fixture: %v", m)
	}
	s, err := ParseFileContext(context.Background(), m[0])
	if err != nil {
		t.Fatal(err)
	}
	if s.FirstPrompt != "" || s.PromptCount != 0 || s.LastOutcome != "" {
		t.Errorf("sidechain leaked: prompt %q outcome %q", s.FirstPrompt, s.LastOutcome)
	}
	if s.SessionID != "5d18d0a2-866b-4082-b1fb-3600f40c13f8" {
		t.Errorf("SessionID = %q", s.SessionID)
	}
}

func TestShapes(t *testing.T) {
	in := strings.Join([]string{
		``, `not json`, `[]`, `{`, `null`, `{"type":"user"}`,
		`{"type":"user","message":{"content":42}}`,
		`{"type":"user","message":{"content":[{"type":"text","text":"  "}]}}`,
		`{"type":"user","isMeta":true,"message":{"content":"meta"}}`,
		`{"type":"user","isCompactSummary":true,"message":{"content":"This session is being continued"}}`,
		`{"type":"user","isSidechain":true,"message":{"content":"sub ask"}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","content":"x"}]}}`,
		`{"type":"user","message":{"content":"<local-command-stdout>out</local-command-stdout>"}}`,
		`{"type":"user","message":{"content":"[Request interrupted by user]"}}`,
		`{"type":"api-request-blob","message":{"role":"user","content":"blob prompt"}}`,
		`{"type":"user","message":{"content":"/clear"}}`,
		`{"type":"user","message":{"content":[{"type":"image"},{"type":"text","text":"first"},{"type":"text","text":"second"}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"hmm"},{"type":"text","text":"answer"}]}}`,
		`{"type":"assistant","message":{"model":"<synthetic>","content":[{"type":"text","text":"No response requested."}]}}`,
		`{"type":"assistant","isApiErrorMessage":true,"message":{"content":[{"type":"text","text":"API Error: 500"}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"NotebookEdit","input":{"notebook_path":"/n.ipynb"}},` +
			`{"type":"tool_use","name":"MultiEdit","input":{"file_path":"/m.go"}},{"type":"tool_use","name":"Read","input":{"file_path":"/r.go"}},` +
			`{"type":"tool_use","name":"Edit","input":{"file_path":"/m.go"}},{"type":"tool_use","name":"Write","input":"oops"},"junk"]}}`,
		`{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"text","text":"sub answer"},{"type":"tool_use","name":"Write","input":{"file_path":"/sub.go"}}]}}`,
	}, "\r\n")
	s, err := ParseContext(context.Background(), strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if s.FirstPrompt != "first\nsecond" || s.PromptCount != 1 {
		t.Errorf("FirstPrompt = %q (%d prompts)", s.FirstPrompt, s.PromptCount)
	}
	if !slices.Equal(s.SlashCommands, []string{"/clear"}) {
		t.Errorf("SlashCommands = %q", s.SlashCommands)
	}
	if s.LastOutcome != "answer" {
		t.Errorf("LastOutcome = %q", s.LastOutcome)
	}
	if !slices.Equal(s.Files, []string{"/n.ipynb", "/m.go"}) {
		t.Errorf("Files = %q", s.Files)
	}
	if s.BadLines != 4 { // "not json", "[]", "{", "null"
		t.Errorf("BadLines = %d", s.BadLines)
	}
}

func TestLongLineSkippedNotFatal(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`{"type":"user","message":{"content":"before"}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"`)
	b.Write(bytes.Repeat([]byte("x"), MaxLine+10))
	b.WriteString(`"}]}}` + "\n")
	b.WriteString(`{"type":"assistant","message":{"content":[{"type":"text","text":"after"}]}}`) // no final newline
	s, err := ParseContext(context.Background(), &b)
	if err != nil {
		t.Fatal(err)
	}
	if s.SkippedLines != 1 || s.Lines != 3 {
		t.Errorf("SkippedLines = %d, Lines = %d", s.SkippedLines, s.Lines)
	}
	if s.FirstPrompt != "before" || s.LastOutcome != "after" {
		t.Errorf("prompt %q outcome %q", s.FirstPrompt, s.LastOutcome)
	}
}

// A line just under the limit is decoded and its text clipped to MaxText.
func TestLargeTextClipped(t *testing.T) {
	big := strings.Repeat("é", MaxText) // 2 bytes per rune: forces a rune-boundary cut
	in := `{"type":"user","message":{"content":"` + big + `"}}`
	s, err := ParseContext(context.Background(), strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.FirstPrompt) > MaxText || !strings.HasPrefix(big, s.FirstPrompt) || len(s.FirstPrompt) < MaxText-1 {
		t.Errorf("clipped to %d bytes", len(s.FirstPrompt))
	}
}

func TestBinaryAndErrors(t *testing.T) {
	bin := make([]byte, 1<<20)
	for i := range bin {
		bin[i] = byte(i * 7919)
	}
	s, err := ParseContext(context.Background(), bytes.NewReader(bin))
	if err != nil || s.FirstPrompt != "" || s.LastOutcome != "" {
		t.Errorf("binary: %v %+v", err, s)
	}
	if _, err := ParseFileContext(context.Background(), filepath.Join(t.TempDir(), "missing.jsonl")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := ParseFileContext(context.Background(), t.TempDir()); err == nil {
		t.Error("directory: no error")
	}
	s, err = ParseContext(context.Background(), io.MultiReader(strings.NewReader(`{"type":"user","message":{"content":"hi"}}`+"\n"), errReader{}))
	if err == nil || s.FirstPrompt != "hi" {
		t.Errorf("read error: %v, prompt %q", err, s.FirstPrompt)
	}
}

func TestParseContextAndDevices(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseContext(ctx, &genReader{left: 1 << 20}); err != context.Canceled {
		t.Errorf("cancelled parse: %v", err)
	}
	// /dev/zero never ends and has no lines: refused, not read forever.
	if _, err := ParseFileContext(context.Background(), "/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func TestMergeFiles(t *testing.T) {
	a := &Session{Files: []string{"/a", "/b"}, FilesTotal: 2}
	a.MergeFiles(&Session{Files: []string{"/b", "/c"}})
	if !slices.Equal(a.Files, []string{"/a", "/b", "/c"}) || a.FilesTotal != 3 {
		t.Errorf("Files = %q total %d", a.Files, a.FilesTotal)
	}
}

// genReader produces n bytes of realistic transcript lines without holding
// them in memory.
type genReader struct {
	left int
	buf  []byte
	i    int
}

func (g *genReader) Read(p []byte) (int, error) {
	if g.left <= 0 {
		return 0, io.EOF
	}
	if len(g.buf) == 0 {
		g.i++
		g.buf = sampleLine(g.i)
	}
	n := copy(p, g.buf)
	if n > g.left {
		n = g.left
	}
	g.buf = g.buf[n:]
	g.left -= n
	return n, nil
}

func sampleLine(i int) []byte {
	switch i % 3 {
	case 0:
		return []byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"` +
			strings.Repeat("log output line ", 200) + `"}]},"toolUseResult":{"stdout":"` + strings.Repeat("y", 2000) + `"}}` + "\n")
	case 1:
		return []byte(`{"type":"assistant","message":{"content":[{"type":"text","text":"Working on step ` +
			strings.Repeat("z", 300) + `"},{"type":"tool_use","name":"Edit","input":{"file_path":"/f/` +
			string(rune('a'+i%26)) + `.go","old_string":"a","new_string":"b"}}]}}` + "\n")
	default:
		return []byte(`{"type":"user","message":{"content":"prompt number ` + strings.Repeat("q", 100) + `"},"cwd":"/w","sessionId":"s"}` + "\n")
	}
}

// Memory stays bounded on a large input: heap growth is a small multiple of
// MaxLine however much is read.
func TestBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 32 MB")
	}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	s, err := ParseContext(context.Background(), &genReader{left: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if s.PromptCount == 0 || s.FilesTotal != 26 {
		t.Errorf("prompts %d files %d", s.PromptCount, s.FilesTotal)
	}
	if len(s.Prompts) != MaxPrompts {
		t.Errorf("kept %d prompts", len(s.Prompts))
	}
	if grew := int64(after.HeapInuse) - int64(before.HeapInuse); grew > 16<<20 {
		t.Errorf("heap in use grew by %d MB", grew>>20)
	}
}

func BenchmarkParse(b *testing.B) {
	const size = 32 << 20
	b.SetBytes(size)
	for b.Loop() {
		if _, err := ParseContext(context.Background(), &genReader{left: size}); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{"82bbae79", "239322a7", "5d18d0a2"} {
		data, err := os.ReadFile(fixture(f, p))
		if err != nil {
			f.Fatal(err)
		}
		// Seed with a few lines from each, not whole files, so the fuzzer mutates messages.
		lines := bytes.Split(data, []byte("\n"))
		for _, l := range lines {
			if len(l) < 4096 {
				f.Add(l)
			}
		}
	}
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseContext(context.Background(), bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.FirstPrompt) > MaxText || len(s.LastOutcome) > MaxText || len(s.Prompts) > MaxPrompts || len(s.Files) > MaxFiles {
			t.Fatalf("limits exceeded: %+v", s)
		}
		if s.FirstPrompt != "" && (len(s.Prompts) == 0 || s.Prompts[0] != s.FirstPrompt) {
			t.Fatalf("FirstPrompt %q not Prompts[0] %q", s.FirstPrompt, s.Prompts)
		}
		if s.SkippedLines+s.BadLines > s.Lines {
			t.Fatalf("counts: %+v", s)
		}
	})
}
