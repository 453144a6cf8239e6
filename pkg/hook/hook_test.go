package hook

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDecodePayloadFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/fixtures/claude-code/payloads/*.json")
	if len(files) < 10 {
		t.Fatalf("payload fixtures: %v", files)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := DecodePayload(data)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		base := filepath.Base(f)
		event, _, _ := strings.Cut(base, "-")
		if p.Cwd != "/home/dev/src/quotes-api" || p.HookEventName != event || p.SessionID == "" ||
			!strings.HasSuffix(p.TranscriptPath, p.SessionID+".jsonl") {
			t.Errorf("%s: %+v", base, p)
		}
		switch event {
		case "SessionStart":
			if p.Source == "" {
				t.Errorf("%s: no source", base)
			}
		case "PreCompact":
			if p.Trigger != "manual" {
				t.Errorf("%s: trigger %q", base, p.Trigger)
			}
		case "SessionEnd":
			if p.Reason != "other" {
				t.Errorf("%s: reason %q", base, p.Reason)
			}
		}
	}
}

func TestDecodePayloadBad(t *testing.T) {
	for in, want := range map[string]string{
		"":             "empty",
		"  \n":         "empty",
		"{":            "not JSON",
		"[]":           "array, not an object",
		"null":         "null",
		"42":           "number, not an object",
		"\x00\x01\xff": "not JSON",
	} {
		p, err := DecodePayload([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) || p != (Payload{}) {
			t.Errorf("%q: %+v, %v (want %q)", in, p, err, want)
		}
	}
	// Wrong field types read as empty, the rest survives.
	p, err := DecodePayload([]byte(`{"cwd": 5, "transcript_path": "/t.jsonl", "session_id": ["x"]}`))
	if err != nil || p.Cwd != "" || p.TranscriptPath != "/t.jsonl" || p.SessionID != "" {
		t.Errorf("tolerant decode: %+v, %v", p, err)
	}
}

func TestReadPayload(t *testing.T) {
	p, err := ReadPayload(strings.NewReader(`{"cwd":"/x"}`))
	if err != nil || p.Cwd != "/x" {
		t.Errorf("%+v %v", p, err)
	}
	if _, err := ReadPayload(nil); err == nil {
		t.Error("nil stdin: no error")
	}
	big := io.LimitReader(zeros{}, 200<<20)
	start := time.Now()
	if _, err := ReadPayload(big); err == nil || !strings.Contains(err.Error(), "over") {
		t.Errorf("200 MB stdin: %v", err)
	}
	if time.Since(start) > time.Second {
		t.Error("read more than the cap")
	}
	// /dev/null is a character device but not a terminal: an empty payload.
	if f, err := os.Open(os.DevNull); err == nil {
		defer f.Close()
		if _, err := ReadPayload(f); err == nil || !strings.Contains(err.Error(), "empty") {
			t.Errorf("/dev/null: %v", err)
		}
	}
}

func TestReadPayloadTimeout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	defer r.Close()
	start := time.Now()
	_, err = readStdin(r, 100*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "within") || time.Since(start) > 2*time.Second {
		t.Errorf("open pipe: %v after %s", err, time.Since(start))
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func TestLoggerRotates(t *testing.T) {
	home := t.TempDir()
	l := NewLogger(home, "anamnesis-test")
	l.max = 1000
	l.Printf("first %s\nsecond line", "event")
	data, err := os.ReadFile(LogPath(home))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "anamnesis-test[") || !strings.Contains(string(data), "first event | second line") ||
		strings.Count(string(data), "\n") != 1 {
		t.Errorf("log line %q", data)
	}
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Printf("event %d %s", i, strings.Repeat("x", 60))
		}()
	}
	wg.Wait()
	fi, err := os.Stat(LogPath(home))
	// Concurrent writers may each add a line after the size check: allow slack.
	if err != nil || fi.Size() > 2000 {
		t.Errorf("log not capped: %v %v", fi, err)
	}
	old, err := os.ReadFile(LogPath(home) + ".1")
	if err != nil || len(old) == 0 || len(old) > 2000 {
		t.Errorf("rotated log: %d bytes, %v", len(old), err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(old)), "\n") {
		if !strings.HasSuffix(l, strings.Repeat("x", 60)) && !strings.Contains(l, "second line") {
			t.Errorf("torn line %q", l)
		}
	}
}

func TestLoggerUnwritableHome(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	NewLogger(f, "x").Printf("must not panic") // home is a file: logs/ cannot exist
	var nl *Logger
	nl.Printf("nil logger")
}

// TestRunFailsOpen: whatever goes wrong in a hook's work (an error, a
// panic, a bad flag) is logged and named on stderr, and Run returns nil;
// what the work produced reaches stdout in one write, and only then.
func TestRunFailsOpen(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	hookWith := func(work Work) Hook {
		return Hook{Name: "anamnesis-test", Usage: "usage\n", Deadline: time.Second, Flags: func(fs *flag.FlagSet) Work {
			fs.Int("n", 0, "a flag")
			return work
		}}
	}
	cases := []struct {
		name, args, stdout, stderr, log string
		work                            Work
	}{
		{"ok", "", "block", "", "", func(ctx context.Context, c Call, out *strings.Builder) error {
			if _, ok := ctx.Deadline(); !ok || c.Config.Home != home {
				t.Errorf("no deadline or wrong home %q", c.Config.Home)
			}
			out.WriteString("block")
			return nil
		}},
		{"error", "", "", "anamnesis-test: it failed (see ", "it failed", func(context.Context, Call, *strings.Builder) error {
			return errors.New("it failed")
		}},
		{"quiet", "", "", "", "it failed", nil},
		{"panic", "", "", "anamnesis-test: internal error (see ", "panic: boom", func(_ context.Context, _ Call, out *strings.Builder) error {
			out.WriteString("partial")
			panic("boom")
		}},
		{"bad flag", "--n=x", "", "anamnesis-test: ", "bad arguments", func(context.Context, Call, *strings.Builder) error {
			t.Error("work ran despite a bad flag")
			return nil
		}},
		// --version is every binary's (anamnesis --version was the only
		// one): the line on stderr, nothing on stdout, no work, no log.
		{"version", "--version", "", "anamnesis-test dev (go", "", func(context.Context, Call, *strings.Builder) error {
			t.Error("work ran for --version")
			return nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(LogPath(home))
			var stdout, stderr strings.Builder
			var args []string
			if c.args != "" {
				args = []string{c.args}
			}
			h := hookWith(c.work)
			if c.work == nil {
				h = hookWith(func(context.Context, Call, *strings.Builder) error { return errors.New("it failed") })
				h.Quiet = true
			}
			if err := Run(context.Background(), h, args, strings.NewReader(""), &stdout, &stderr); err != nil {
				t.Fatalf("Run returned %v", err)
			}
			if stdout.String() != c.stdout || !strings.Contains(stderr.String(), c.stderr) || (c.stderr == "" && stderr.Len() > 0) {
				t.Errorf("stdout %q stderr %q", stdout.String(), stderr.String())
			}
			data, _ := os.ReadFile(LogPath(home))
			if !strings.Contains(string(data), c.log) || (c.log == "" && len(data) > 0) {
				t.Errorf("log %q, want %q", data, c.log)
			}
		})
	}
}

// With Exit, the work's context cannot end (so no SQL statement pays for
// watching it), and a work still running at the deadline ends the process:
// logged, nothing printed, status 0, partial output dropped.
func TestRunExitsAtDeadline(t *testing.T) {
	work := func(ctx context.Context, c Call, out *strings.Builder) error {
		if ctx.Done() != nil {
			t.Error("the work's context can end")
		}
		out.WriteString("partial")
		if os.Getenv("HOOK_TEST_BLOCK") == "" {
			return nil
		}
		select {}
	}
	h := Hook{Name: "anamnesis-test", Usage: "usage\n", Deadline: 200 * time.Millisecond, Exit: true, Quiet: true,
		Flags: func(*flag.FlagSet) Work { return work }}
	if os.Getenv("HOOK_TEST_BLOCK") != "" {
		Run(context.Background(), h, nil, strings.NewReader(""), os.Stdout, os.Stderr)
		t.Fatal("Run returned from a work that never ends")
	}
	home := t.TempDir()
	t.Setenv("ANAMNESIS_HOME", home)
	var stdout strings.Builder
	if err := Run(context.Background(), h, nil, strings.NewReader(""), &stdout, io.Discard); err != nil || stdout.String() != "partial" {
		t.Fatalf("a work done in time: %q, %v", stdout.String(), err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestRunExitsAtDeadline$")
	cmd.Env = append(os.Environ(), "HOOK_TEST_BLOCK=1")
	start := time.Now()
	out, err := cmd.Output()
	if err != nil || len(out) != 0 {
		t.Fatalf("the hook at its deadline: %v, stdout %q", err, out)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("ended after %s", d)
	}
	data, _ := os.ReadFile(LogPath(home))
	if !strings.Contains(string(data), "not done after 200ms; ended with nothing printed") {
		t.Errorf("log %q", data)
	}
}

func TestWidth(t *testing.T) {
	if Width("aé東😀") != 5 { // the emoji is two UTF-16 units
		t.Errorf("width = %d", Width("aé東😀"))
	}
}
