package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/model"
	"github.com/anamnesis-dev/anamnesis/pkg/model/web"
)

// TestMain doubles as the anamnesis-model helper: tests link the test
// binary under that name (helperLink) and model.Helper runs it.
func TestMain(m *testing.M) {
	if strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe") == model.HelperName {
		err := web.Serve(context.Background(), web.Poster{}, os.Stdin, os.Stdout)
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperLink is the test binary linked (or copied) as anamnesis-model.
func helperLink(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), model.HelperName)
	if runtime.GOOS == "windows" {
		link += ".exe"
		b, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(link, b, 0o755); err != nil {
			t.Fatal(err)
		}
		return link
	}
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	return link
}

const secret = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"

// The chat provider over an OpenAI-compatible stand-in, posting in-process
// and through the helper: the same replies, errors and timeout either way.
func TestChat(t *testing.T) {
	var got []byte
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, _ = io.ReadAll(r.Body)
		auth = r.Header.Get("Authorization")
		switch {
		case r.URL.Path != "/v1/chat/completions":
			http.NotFound(w, r)
		case strings.Contains(string(got), "boom"):
			http.Error(w, "upstream exploded", 500)
		case strings.Contains(string(got), "huge"):
			w.Write(bytes.Repeat([]byte("x"), model.MaxReply+10))
		case strings.Contains(string(got), "slow"):
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		default:
			json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": "```json\n[]\n```"}}}})
		}
	}))
	defer srv.Close()
	for name, post := range map[string]model.Poster{"in-process": web.Poster{}, "helper": model.Helper{Bin: helperLink(t)}} {
		t.Run(name, func(t *testing.T) {
			// Generous: the helper is a process start (slow under -race).
			c, err := model.New(model.Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1/", APIKey: "sk-local-key", Timeout: 20 * time.Second, Post: post})
			if err != nil {
				t.Fatal(err)
			}
			if c.Label() != "local/m" {
				t.Errorf("label %q", c.Label())
			}
			out, err := c.Complete(context.Background(), "sys", "token "+secret)
			if err != nil || model.JSON(out) != "[]" {
				t.Fatalf("%q %v", out, err)
			}
			if strings.Contains(string(got), secret) || !strings.Contains(string(got), "[REDACTED") {
				t.Errorf("request not redacted: %s", got)
			}
			if auth != "Bearer sk-local-key" {
				t.Errorf("Authorization %q", auth)
			}
			if _, err := c.Complete(context.Background(), "sys", "boom"); err == nil || !strings.Contains(err.Error(), "local answered 500 Internal Server Error: upstream exploded") {
				t.Errorf("500: %v", err)
			}
			if _, err := c.Complete(context.Background(), "sys", "huge"); err == nil || err.Error() != "reply over 1 MiB" {
				t.Errorf("huge: %v", err)
			}
			short, err := model.New(model.Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1/", Timeout: 500 * time.Millisecond, Post: post})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			if _, err := short.Complete(context.Background(), "sys", "slow"); err == nil || !strings.Contains(err.Error(), "did not answer within 500ms") {
				t.Errorf("timeout: %v", err)
			}
			if time.Since(start) > 4*time.Second {
				t.Error("timeout not honoured")
			}
		})
	}
}

// An endpoint that refuses the connection: the same error through the helper.
func TestUnreachable(t *testing.T) {
	r := model.Request{URL: "http://127.0.0.1:1/v1/chat/completions", Body: "{}"}
	_, direct := web.Poster{}.Post(context.Background(), r)
	_, viaHelper := model.Helper{Bin: helperLink(t)}.Post(context.Background(), r)
	if direct == nil || viaHelper == nil || direct.Error() != viaHelper.Error() {
		t.Errorf("in-process %v, helper %v", direct, viaHelper)
	}
}

// The helper's input: one request, or a usage error that posts nothing.
func TestServe(t *testing.T) {
	posted := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { posted++ }))
	defer srv.Close()
	for _, in := range []string{"", "not json", `{"body": "no url"}`, `[1]`, `{"url": "` + strings.Repeat("x", 9<<20) + `"}`} {
		var out bytes.Buffer
		if err := web.Serve(context.Background(), web.Poster{}, strings.NewReader(in), &out); !errors.Is(err, web.ErrBadRequest) || out.Len() != 0 {
			t.Errorf("%.40q: %v, printed %q", in, err, out.String())
		}
	}
	for _, u := range []string{"file:///etc/passwd", "ftp://example.com/x", "http://", "/v1/chat"} {
		var out bytes.Buffer
		if err := web.Serve(context.Background(), web.Poster{}, strings.NewReader(`{"url": "`+u+`"}`), &out); err != nil || !strings.Contains(out.String(), `"error":"not an http(s) URL`) {
			t.Errorf("%s: %v %s", u, err, out.String())
		}
	}
	var out bytes.Buffer
	if err := web.Serve(context.Background(), web.Poster{}, strings.NewReader(`{"url": "`+srv.URL+`/x", "body": "{}"}`), &out); err != nil || posted != 1 {
		t.Fatalf("%v, posted %d", err, posted)
	}
	var o model.HelperOutput
	if err := json.Unmarshal(out.Bytes(), &o); err != nil || o.Code != 200 || o.Error != "" {
		t.Errorf("%s: %+v %v", out.String(), o, err)
	}
}

// No helper installed: a clear error, nothing run.
func TestHelperMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := model.Helper{}.Post(context.Background(), model.Request{URL: "http://127.0.0.1:1/"})
	if err == nil || !strings.Contains(err.Error(), "anamnesis-model was not found") {
		t.Errorf("%v", err)
	}
	_, err = model.Helper{Bin: filepath.Join(t.TempDir(), "nope")}.Post(context.Background(), model.Request{URL: "http://127.0.0.1:1/"})
	if err == nil || !strings.Contains(err.Error(), "anamnesis-model failed") {
		t.Errorf("%v", err)
	}
}
