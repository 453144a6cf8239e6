package model

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// The chat provider over an OpenAI-compatible stand-in: the reply, the
// redacted request, the key, an error status, an oversized reply and the
// timeout.
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
			w.Write(bytes.Repeat([]byte("x"), MaxReply+10))
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
	c, err := New(Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1/", APIKey: "sk-local-key", Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if c.Label() != "local/m" {
		t.Errorf("label %q", c.Label())
	}
	out, err := c.Complete(context.Background(), "sys", "token "+secret)
	if err != nil || JSON(out) != "[]" {
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
	short, err := New(Config{Provider: "local", Model: "m", BaseURL: srv.URL + "/v1/", Timeout: 500 * time.Millisecond})
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
}

// An endpoint that refuses the connection, or a base URL that is not
// http(s): an error, nothing sent.
func TestUnreachable(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:1/v1", "file:///etc", "ftp://example.com/x"} {
		c, err := New(Config{Provider: "local", Model: "m", BaseURL: u, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Complete(context.Background(), "sys", "x"); err == nil {
			t.Errorf("%s: no error", u)
		}
	}
}

// A provider (or a proxy before it) that echoes the credentials it was given
// in its error reply: the error, printed by config test and reflect, shows
// neither the API key, whatever its shape, nor the base URL's password.
func TestChatErrorHidesTheKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		user, pass, _ := r.BasicAuth()
		w.WriteHeader(http.StatusUnauthorized)
		json.NewEncoder(w).Encode(map[string]any{"error": map[string]string{"message": "rejected", "key": key, "user": user, "pass": pass}})
	}))
	defer srv.Close()
	for _, key := range []string{"hunter2hunter2hunter2", "XyZ-plainkeyvalue-0987654321abcdef"} {
		base := strings.Replace(srv.URL, "http://", "http://bob:Pr0xyPassw0rd@", 1) + "/v1"
		c, err := New(Config{Provider: "local", Model: "m", BaseURL: base, APIKey: key, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Complete(context.Background(), "sys", "hello")
		if err == nil || !strings.Contains(err.Error(), "401") {
			t.Fatalf("want the 401: %v", err)
		}
		for _, s := range []string{key, "Pr0xyPassw0rd"} {
			if strings.Contains(err.Error(), s) {
				t.Errorf("error shows %q: %v", s, err)
			}
		}
	}
}

// A base URL with a query (a gateway's ?api-version=…) gets the path before
// the query, which is sent as given; one without is joined as before.
func TestEndpointKeepsTheBaseURLsQuery(t *testing.T) {
	for base, want := range map[string]string{
		"https://gw.example.com/openai/v1?api-version=2024-06-01": "https://gw.example.com/openai/v1/chat/completions?api-version=2024-06-01",
		"https://gw.example.com/v1/?key=abc":                      "https://gw.example.com/v1/chat/completions?key=abc",
		"http://127.0.0.1:8080/v1":                                "http://127.0.0.1:8080/v1/chat/completions",
		"https://api.openai.com/v1":                               "https://api.openai.com/v1/chat/completions",
	} {
		if got := endpoint(base); got != want {
			t.Errorf("%s: %s, want %s", base, got, want)
		}
	}
}
