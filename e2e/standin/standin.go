// Package standin is a scripted stand-in for the Anthropic Messages API, used
// by the end-to-end test to drive the real Claude Code CLI without a network.
//
// Claude Code sends two kinds of requests: conversation turns (they carry the
// `tools` array) and side requests (titles, summaries of a prompt; no tools).
// Conversation turns consume the script in order, optionally gated by a
// substring that must appear in the request; side requests get a short fixed
// answer and never consume the script, so the script stays aligned with the
// conversation whatever extra requests a Claude Code version makes.
package standin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// Turn is one scripted model reply.
type Turn struct {
	// Match, when set, makes this turn answer only a conversation request
	// whose body contains it; other requests get the default reply and leave
	// the turn in place.
	Match string `json:"match,omitempty"`
	// Text is a text block of the reply (may be combined with ToolUse).
	Text string `json:"text,omitempty"`
	// ToolUse, when set, makes the reply end with stop_reason tool_use.
	ToolUse *ToolUse `json:"tool_use,omitempty"`
}

// ToolUse is one tool call the scripted model makes.
type ToolUse struct {
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Request is what the stand-in recorded of one HTTP request.
type Request struct {
	Seq    int             `json:"seq"`
	Time   time.Time       `json:"time"`
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query,omitempty"`
	Kind   string          `json:"kind"` // "turn", "side", "compact", "other"
	Turn   int             `json:"turn"` // index of the script turn that answered, -1 if none
	Body   json.RawMessage `json:"body,omitempty"`
}

// Server is the stand-in. Its zero value is not usable; call New.
type Server struct {
	mu       sync.Mutex
	turns    []Turn
	next     int
	seq      int
	requests []Request
	record   io.Writer // JSONL of every request, may be nil
	// DefaultText answers side requests and conversation requests when
	// the script is exhausted or the next turn's Match does not apply.
	DefaultText string
	// CompactMarker identifies Claude Code's compaction request (it carries
	// tools but is not a conversation turn); it is answered with
	// CompactSummary and never consumes the script.
	CompactMarker  string
	CompactSummary string
}

// New returns a stand-in that appends every request as a JSON line to record
// (nil: keep them in memory only).
func New(record io.Writer) *Server {
	return &Server{
		record:         record,
		DefaultText:    "OK.",
		CompactMarker:  "create a detailed summary of the conversation",
		CompactSummary: "<analysis>\nThe user asked for a change and it was made.\n</analysis>\n\n<summary>\n1. Primary Request and Intent: the user asked for a change in this project; it was made.\n</summary>",
	}
}

// SetScript replaces the script and rewinds it.
func (s *Server) SetScript(turns []Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append([]Turn(nil), turns...)
	s.next = 0
}

// Remaining reports how many scripted turns have not been used yet.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// Requests returns a copy of every request recorded so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// LoadScript reads a JSON array of turns from a file.
func LoadScript(path string) ([]Turn, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var turns []Turn
	if err := json.Unmarshal(b, &turns); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return turns, nil
}

type messagesRequest struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Tools  []json.RawMessage `json:"tools"`
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	rec := Request{Time: time.Now(), Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Kind: "other", Turn: -1}
	if json.Valid(body) {
		rec.Body = body
	} else if len(body) > 0 {
		rec.Body, _ = json.Marshal(string(body))
	}

	switch {
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages":
		var req messagesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			s.log(rec)
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad json"}}`, http.StatusBadRequest)
			return
		}
		reply := Turn{Text: s.DefaultText}
		switch {
		case len(req.Tools) == 0:
			rec.Kind = "side"
		case s.CompactMarker != "" && strings.Contains(LastUserText(body), s.CompactMarker):
			rec.Kind = "compact"
			reply = Turn{Text: s.CompactSummary}
		default:
			rec.Kind = "turn"
			s.mu.Lock()
			if s.next < len(s.turns) && (s.turns[s.next].Match == "" || bytes.Contains(body, []byte(s.turns[s.next].Match))) {
				reply = s.turns[s.next]
				rec.Turn = s.next
				s.next++
			}
			s.mu.Unlock()
		}
		seq := s.log(rec)
		model := req.Model
		if model == "" {
			model = "claude-standin"
		}
		msgID := fmt.Sprintf("msg_standin_%04d", seq)
		if req.Stream {
			writeSSE(w, msgID, model, seq, reply)
		} else {
			writeJSON(w, msgID, model, seq, reply)
		}
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.log(rec)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":100}`)
	default:
		s.log(rec)
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"not found"}}`, http.StatusNotFound)
	}
}

func (s *Server) log(rec Request) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	rec.Seq = s.seq
	s.requests = append(s.requests, rec)
	if s.record != nil {
		if b, err := json.Marshal(rec); err == nil {
			s.record.Write(append(b, '\n'))
		}
	}
	return rec.Seq
}

func toolID(seq int) string { return fmt.Sprintf("toolu_standin_%04d", seq) }

// blocks returns the content blocks of a reply in final (non-streamed) form.
func blocks(seq int, t Turn) []map[string]any {
	var out []map[string]any
	if t.Text != "" {
		out = append(out, map[string]any{"type": "text", "text": t.Text})
	}
	if t.ToolUse != nil {
		in := t.ToolUse.Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		out = append(out, map[string]any{"type": "tool_use", "id": toolID(seq), "name": t.ToolUse.Name, "input": in})
	}
	if len(out) == 0 {
		out = append(out, map[string]any{"type": "text", "text": "OK."})
	}
	return out
}

func stopReason(t Turn) string {
	if t.ToolUse != nil {
		return "tool_use"
	}
	return "end_turn"
}

func usage() map[string]any {
	return map[string]any{"input_tokens": 100, "output_tokens": 20, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
}

func writeJSON(w http.ResponseWriter, id, model string, seq int, t Turn) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model,
		"content": blocks(seq, t), "stop_reason": stopReason(t), "stop_sequence": nil, "usage": usage(),
	})
}

func writeSSE(w http.ResponseWriter, id, model string, seq int, t Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	flusher, _ := w.(http.Flusher)
	event := func(name string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 100, "output_tokens": 1},
	}})
	for i, b := range blocks(seq, t) {
		switch b["type"] {
		case "text":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			// Two deltas, so the client's accumulation is exercised.
			text := b["text"].(string)
			half := len(text) / 2
			for !utf8Boundary(text, half) {
				half--
			}
			for _, part := range []string{text[:half], text[half:]} {
				if part != "" {
					event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": part}})
				}
			}
		case "tool_use":
			event("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			event("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(b["input"].(json.RawMessage))}})
		}
		event("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	event("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stopReason(t), "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	event("message_stop", map[string]any{"type": "message_stop"})
}

func utf8Boundary(s string, i int) bool {
	return i <= 0 || i >= len(s) || (s[i]&0xC0) != 0x80
}

// LastUserText returns the text of the last user message of a recorded
// Messages request body, joined across text blocks (tool results included as
// their text), for assertions.
func LastUserText(body json.RawMessage) string {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return contentText(req.Messages[i].Content)
		}
	}
	return ""
}

func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type    string          `json:"type"`
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var sb strings.Builder
	for _, b := range blocks {
		switch {
		case b.Text != "":
			sb.WriteString(b.Text)
			sb.WriteByte('\n')
		case len(b.Content) > 0:
			sb.WriteString(contentText(b.Content))
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// AllText returns every string in a request's messages and system prompt,
// joined by newlines: what the model would read, for "does the request
// contain X" assertions that must not depend on JSON escaping.
func AllText(body json.RawMessage) string {
	var req struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	var sb strings.Builder
	if len(req.System) > 0 {
		sb.WriteString(contentText(req.System))
	}
	for _, m := range req.Messages {
		sb.WriteString(contentText(m.Content))
		sb.WriteByte('\n')
	}
	return sb.String()
}
