// Package standin is the coding benchmark's scripted model for the LLM
// path: a loopback OpenAI-compatible server that condenses the session
// digest it is sent, as a model would. Tests use it; the dispatcher does not
// link it (it would bring the HTTP stack into every anamnesis command).
package standin

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/anamnesis-dev/anamnesis/pkg/summary"
)

// StandIn is a scripted model for the LLM path: a loopback
// OpenAI-compatible /chat/completions that answers every summary request
// with a note made from the session digest it was sent (the title from
// the first request, the body from the requests, answers, commands and
// errors), the way a model would condense it. Close stops it.
type StandIn struct {
	URL string
	ln  net.Listener
}

// New starts the stand-in on a loopback port.
func New() (*StandIn, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &StandIn{URL: "http://" + ln.Addr().String() + "/v1", ln: ln}
	go http.Serve(ln, http.HandlerFunc(reply))
	return s, nil
}

// Close stops the stand-in.
func (s *StandIn) Close() error { return s.ln.Close() }

func reply(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	data, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if json.Unmarshal(data, &req) != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	title, body := condense(req.Messages[len(req.Messages)-1].Content)
	content, _ := json.Marshal(map[string]any{"skip": false, "title": title, "body": body})
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": string(content)}}}})
}

// condense keeps the digest's requests, answers, commands and errors.
func condense(digest string) (title, body string) {
	var keep []string
	for _, l := range strings.Split(digest, "\n") {
		t := strings.TrimSpace(l)
		if title == "" && len(t) > 3 && t[0] >= '1' && t[0] <= '9' && strings.Contains(t[:3], ". ") {
			_, title, _ = strings.Cut(t, ". ")
		}
		if t != "" && !strings.HasPrefix(t, "Working directory:") && !strings.HasPrefix(t, "Git branch:") {
			keep = append(keep, t)
		}
	}
	if title == "" {
		title = "Session summary"
	}
	return summary.Clip(title, summary.MaxTitle), summary.Clip(strings.Join(keep, "\n"), 3000)
}
