package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/model"
)

func runModel(stdin string, args ...string) (string, string, int) {
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	if err != nil {
		errb.WriteString(err.Error())
	}
	return out.String(), errb.String(), cli.Code(err)
}

func TestRun(t *testing.T) {
	var auth, body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		b := new(bytes.Buffer)
		b.ReadFrom(r.Body)
		body = b.String()
		w.Write([]byte(`{"choices":[]}`))
	}))
	defer srv.Close()

	req, _ := json.Marshal(model.Request{URL: srv.URL + "/v1/chat/completions", Header: map[string]string{"Authorization": "Bearer sk-secret-123456"}, Body: `{"model":"m"}`})
	out, errOut, code := runModel(string(req))
	var o model.HelperOutput
	if err := json.Unmarshal([]byte(out), &o); err != nil || code != 0 || o.Code != 200 || o.Body != `{"choices":[]}` || errOut != "" {
		t.Fatalf("code %d out %q err %q", code, out, errOut)
	}
	if auth != "Bearer sk-secret-123456" || body != `{"model":"m"}` {
		t.Errorf("sent %q %q", auth, body)
	}
	if strings.Contains(out, "sk-secret") {
		t.Error("the key was printed")
	}

	// Unreachable: exit 0, the error in the reply.
	out, _, code = runModel(`{"url": "http://127.0.0.1:1/v1/chat/completions"}`)
	if code != 0 || !strings.Contains(out, `"error":`) || !strings.Contains(out, "connect") {
		t.Errorf("unreachable: %d %q", code, out)
	}

	// Not a request, or arguments: usage, exit 2, nothing on stdout.
	for _, tc := range []struct {
		stdin string
		args  []string
	}{{"", nil}, {"hello", nil}, {`{"url": ""}`, nil}, {`{}`, []string{"extra"}}} {
		out, errOut, code := runModel(tc.stdin, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: anamnesis-model") {
			t.Errorf("%q %v: %d %q %q", tc.stdin, tc.args, code, out, errOut)
		}
	}
	out, errOut, code = runModel("", "--help")
	if code != 0 || out != "" || !strings.Contains(errOut, "usage: anamnesis-model") {
		t.Errorf("--help: %d %q %q", code, out, errOut)
	}
}
