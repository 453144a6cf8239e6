package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
)

var update = flag.Bool("update", false, "rewrite the expected responses in testdata/transcripts/*.txtar")

// TestTranscripts replays JSON-RPC exchanges over the stdio framing and
// compares every response with the archive. An archive holds:
//
//	home/...   files copied into a fresh home before the server starts
//	session    "> " lines are sent, "< " lines are the expected responses,
//	           "#" lines are comments
//
// Ids the server makes up, timestamps of now, git heads and the home path are
// replaced by <ID1>, <NOW>, <HEAD> and $HOME; a request may use <IDn> to
// refer to an id seen earlier. Run with -update to rewrite the responses.
func TestTranscripts(t *testing.T) {
	paths, err := filepath.Glob("testdata/transcripts/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no transcripts: %v", err)
	}
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".txtar"), func(t *testing.T) { runTranscript(t, p) })
	}
}

type normalizer struct {
	home  string
	known string // text of the seeded files: ids and times in it are kept
	ids   map[string]string
	back  map[string]string
}

var (
	ulidRE = regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{26}\b`)
	timeRE = regexp.MustCompile(`\b20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00\b`)
	headRE = regexp.MustCompile(`(\\?"head\\?":\\?")[0-9a-f]{7,40}`)
)

func (n *normalizer) out(s string) string {
	s = strings.ReplaceAll(s, n.home, "$HOME")
	s = ulidRE.ReplaceAllStringFunc(s, func(id string) string {
		if strings.Contains(n.known, id) {
			return id
		}
		if p, ok := n.ids[id]; ok {
			return p
		}
		p := fmt.Sprintf("<ID%d>", len(n.ids)+1)
		n.ids[id], n.back[p] = p, id
		return p
	})
	s = timeRE.ReplaceAllStringFunc(s, func(ts string) string {
		if strings.Contains(n.known, ts) {
			return ts
		}
		return "<NOW>"
	})
	return headRE.ReplaceAllString(s, "${1}<HEAD>")
}

func (n *normalizer) in(s string) string {
	for p, id := range n.back {
		s = strings.ReplaceAll(s, p, id)
	}
	return strings.ReplaceAll(s, "$HOME", n.home)
}

func runTranscript(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	norm := &normalizer{home: home, ids: map[string]string{}, back: map[string]string{}}
	var session *txtar.File
	for i, f := range ar.Files {
		switch {
		case f.Name == "session":
			session = &ar.Files[i]
		case strings.HasPrefix(f.Name, "home/"):
			p := filepath.Join(home, filepath.FromSlash(strings.TrimPrefix(f.Name, "home/")))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			norm.known += string(f.Data)
		default:
			t.Fatalf("unexpected file %s in %s", f.Name, path)
		}
	}
	if session == nil {
		t.Fatalf("%s has no session", path)
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := config.Resolve(home, func(string) string { return "" })
	cfg.MachineID = testMachine
	a := newApp(cfg, func(string) string { return "" }, log.New(io.Discard, "", 0))
	defer a.close()
	stdio := server.NewStdioServer(newServer(a, serverOptions{validateOutput: true}))
	stdio.SetErrorLogger(log.New(io.Discard, "", 0))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- stdio.Listen(ctx, inR, outW); outW.Close() }()
	responses := bufio.NewReader(outR)

	var got []string
	var want []string
	for _, line := range strings.Split(string(session.Data), "\n") {
		switch {
		case strings.HasPrefix(line, "< "):
			want = append(want, line)
			continue
		case !strings.HasPrefix(line, "> "):
			if line != "" || len(got) > 0 {
				got = append(got, line)
			}
			continue
		}
		got = append(got, line)
		req := norm.in(strings.TrimPrefix(line, "> "))
		if _, err := io.WriteString(inW, req+"\n"); err != nil {
			t.Fatal(err)
		}
		var m message
		if json.Unmarshal([]byte(req), &m) == nil && !m.hasID() {
			continue // a notification: no response
		}
		resp, err := readLine(ctx, responses)
		if err != nil {
			t.Fatalf("no response to %s: %v", req, err)
		}
		got = append(got, "< "+norm.out(strings.TrimSuffix(resp, "\n")))
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	for len(got) > 0 && got[len(got)-1] == "" {
		got = got[:len(got)-1]
	}

	if *update {
		session.Data = []byte(strings.Join(got, "\n") + "\n")
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	var gotResp []string
	for _, l := range got {
		if strings.HasPrefix(l, "< ") {
			gotResp = append(gotResp, l)
		}
	}
	for i := range max(len(want), len(gotResp)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(gotResp) {
			g = gotResp[i]
		}
		if w != g {
			t.Fatalf("%s: response %d differs (run go test -run TestTranscripts -update to accept):\nwant %s\ngot  %s", path, i+1, w, g)
		}
	}
}

func readLine(ctx context.Context, r *bufio.Reader) (string, error) {
	ch := make(chan struct {
		s   string
		err error
	}, 1)
	go func() {
		s, err := r.ReadString('\n')
		ch <- struct {
			s   string
			err error
		}{s, err}
	}()
	select {
	case res := <-ch:
		return res.s, res.err
	case <-time.After(30 * time.Second):
		return "", fmt.Errorf("timed out")
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
