package standin

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

type sseEvent struct {
	name string
	data map[string]any
}

func post(t *testing.T, url, body string) []sseEvent {
	t.Helper()
	resp, err := http.Post(url+"/v1/messages?beta=true", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	var events []sseEvent
	sc := bufio.NewScanner(resp.Body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("bad data line %q", line)
			}
			if d["type"] != name {
				t.Fatalf("event %q carries type %v", name, d["type"])
			}
			events = append(events, sseEvent{name, d})
		}
	}
	return events
}

// assemble rebuilds the content blocks from the deltas, as a client does.
func assemble(t *testing.T, events []sseEvent) (blocks []map[string]any, stop string) {
	t.Helper()
	var names []string
	partial := map[int]*strings.Builder{}
	for _, e := range events {
		names = append(names, e.name)
		switch e.name {
		case "content_block_start":
			blocks = append(blocks, e.data["content_block"].(map[string]any))
			partial[len(blocks)-1] = &strings.Builder{}
		case "content_block_delta":
			i := int(e.data["index"].(float64))
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				partial[i].WriteString(d["text"].(string))
			case "input_json_delta":
				partial[i].WriteString(d["partial_json"].(string))
			}
		case "content_block_stop":
			i := int(e.data["index"].(float64))
			if blocks[i]["type"] == "text" {
				blocks[i]["text"] = partial[i].String()
			} else {
				var in any
				if err := json.Unmarshal([]byte(partial[i].String()), &in); err != nil {
					t.Fatalf("tool input %q: %v", partial[i].String(), err)
				}
				blocks[i]["input"] = in
			}
		case "message_delta":
			stop = e.data["delta"].(map[string]any)["stop_reason"].(string)
		}
	}
	if names[0] != "message_start" || names[len(names)-1] != "message_stop" || names[len(names)-2] != "message_delta" {
		t.Errorf("event order %v", names)
	}
	return blocks, stop
}

const withTools = `{"model":"m","stream":true,"tools":[{"name":"Write"}],"messages":[{"role":"user","content":[{"type":"text","text":"PROMPT"}]}]}`

func TestScriptSideRequestsAndCompaction(t *testing.T) {
	var rec bytes.Buffer
	s := New(&rec)
	s.SetScript([]Turn{
		{Text: "Writing héllo.", ToolUse: &ToolUse{Name: "Write", Input: json.RawMessage(`{"file_path":"/tmp/x","content":"hi\n"}`)}},
		{Match: "SECOND", Text: "Done."},
	})
	srv := httptest.NewServer(s)
	defer srv.Close()

	// A side request (no tools) does not consume the script.
	blocks, stop := assemble(t, post(t, srv.URL, `{"stream":true,"messages":[{"role":"user","content":"title?"}]}`))
	if blocks[0]["text"] != "OK." || stop != "end_turn" || s.Remaining() != 2 {
		t.Fatalf("side request: %v %s remaining=%d", blocks, stop, s.Remaining())
	}
	blocks, stop = assemble(t, post(t, srv.URL, withTools))
	if len(blocks) != 2 || blocks[0]["text"] != "Writing héllo." || blocks[1]["name"] != "Write" || stop != "tool_use" {
		t.Fatalf("turn 1: %v %s", blocks, stop)
	}
	if in := blocks[1]["input"].(map[string]any); in["content"] != "hi\n" {
		t.Errorf("tool input %v", in)
	}
	// The next turn waits for a request that contains its Match.
	blocks, _ = assemble(t, post(t, srv.URL, withTools))
	if blocks[0]["text"] != "OK." || s.Remaining() != 1 {
		t.Errorf("unmatched request consumed the turn: %v", blocks)
	}
	compact := `{"stream":true,"tools":[{"name":"Write"}],"messages":[{"role":"user","content":[{"type":"text","text":"Your task is to create a detailed summary of the conversation so far. SECOND"}]}]}`
	blocks, _ = assemble(t, post(t, srv.URL, compact))
	if !strings.Contains(blocks[0]["text"].(string), "<summary>") || s.Remaining() != 1 {
		t.Errorf("compaction: %v remaining %d", blocks, s.Remaining())
	}
	blocks, _ = assemble(t, post(t, srv.URL, strings.Replace(withTools, "PROMPT", "SECOND prompt", 1)))
	if blocks[0]["text"] != "Done." || s.Remaining() != 0 {
		t.Errorf("turn 2: %v", blocks)
	}

	reqs := s.Requests()
	var kinds []string
	for _, r := range reqs {
		kinds = append(kinds, r.Kind)
	}
	if strings.Join(kinds, ",") != "side,turn,turn,compact,turn" {
		t.Errorf("kinds %v", kinds)
	}
	if lines := strings.Count(rec.String(), "\n"); lines != 5 {
		t.Errorf("recorded %d lines", lines)
	}
	if got := LastUserText(reqs[4].Body); got != "SECOND prompt\n" {
		t.Errorf("LastUserText %q", got)
	}
	if !strings.Contains(AllText(reqs[1].Body), "PROMPT") {
		t.Error("AllText misses the prompt")
	}
}

func TestNonStreamingAndUnknownPaths(t *testing.T) {
	s := New(nil)
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/v1/messages", "application/json", strings.NewReader(`{"model":"m","messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	var msg struct {
		Type    string `json:"type"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.NewDecoder(resp.Body).Decode(&msg)
	resp.Body.Close()
	if msg.Type != "message" || len(msg.Content) != 1 || msg.Content[0].Text != "OK." {
		t.Errorf("non-streaming reply %+v", msg)
	}
	resp, err = http.Get(srv.URL + "/v1/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(s.Requests()) != 2 {
		t.Errorf("status %d, %d recorded", resp.StatusCode, len(s.Requests()))
	}
}
