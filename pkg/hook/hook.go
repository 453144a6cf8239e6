// Package hook holds what the Claude Code hook binaries share: reading
// the hook payload from stdin without ever blocking or failing, and the
// size-capped log that records why a hook did nothing.
//
// Hooks fail open (SPEC 4): Claude Code treats exit 2 as "block" and shows
// stderr to the model, so a hook that hits trouble logs it and exits 0.
package hook

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/anamnesis-dev/anamnesis/pkg/term"
)

// MaxPayload is the most read from stdin; real payloads are under 1 KB.
const MaxPayload = 1 << 20

// PayloadTimeout bounds the wait for stdin: a hook run by hand from a script
// that never closes stdin must still finish.
const PayloadTimeout = 2 * time.Second

// Payload is the JSON Claude Code writes to a hook's stdin. Unknown fields
// are ignored; fields of the wrong type read as empty.
type Payload struct {
	SessionID      string
	TranscriptPath string
	Cwd            string
	HookEventName  string
	Source         string // SessionStart: startup|resume|clear|compact
	Trigger        string // PreCompact: manual|auto
	Reason         string // SessionEnd
	Prompt         string // UserPromptSubmit
}

// ReadPayload reads and decodes the payload. It returns the zero Payload and
// an error saying why when stdin is absent, a terminal, empty, too large, not
// JSON, or not an object; callers log the error and carry on with defaults.
func ReadPayload(stdin io.Reader) (Payload, error) {
	data, err := readStdin(stdin, PayloadTimeout)
	if err != nil {
		return Payload{}, err
	}
	return DecodePayload(data)
}

// DecodePayload decodes payload bytes tolerantly (see ReadPayload).
func DecodePayload(data []byte) (Payload, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return Payload{}, errors.New("empty hook payload on stdin")
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			return Payload{}, fmt.Errorf("hook payload is a JSON %s, not an object", ute.Value)
		}
		return Payload{}, fmt.Errorf("hook payload is not JSON: %v", err)
	}
	if m == nil {
		return Payload{}, errors.New("hook payload is null, not an object")
	}
	str := func(k string) string {
		s, _ := m[k].(string)
		return s
	}
	return Payload{
		SessionID:      str("session_id"),
		TranscriptPath: str("transcript_path"),
		Cwd:            str("cwd"),
		HookEventName:  str("hook_event_name"),
		Source:         str("source"),
		Trigger:        str("trigger"),
		Reason:         str("reason"),
		Prompt:         str("prompt"),
	}, nil
}

// readStdin reads at most MaxPayload bytes, refusing terminals (a person at
// a prompt would otherwise have to press Ctrl-D) and giving up after timeout.
func readStdin(r io.Reader, timeout time.Duration) ([]byte, error) {
	if r == nil {
		return nil, errors.New("no stdin")
	}
	if term.IsTerminal(r) {
		return nil, errors.New("stdin is a terminal, not a hook payload")
	}
	type result struct {
		data []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
		ch <- result{data, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil {
			return nil, fmt.Errorf("reading stdin: %v", res.err)
		}
		if len(res.data) > MaxPayload {
			return nil, fmt.Errorf("hook payload over %d bytes", MaxPayload)
		}
		return res.data, nil
	case <-time.After(timeout):
		// The reader goroutine stays blocked; the hook process exits soon.
		return nil, fmt.Errorf("no hook payload on stdin within %s", timeout)
	}
}

// Width counts characters the way Claude Code (JavaScript) measures hook
// output: UTF-16 code units, so a budget in characters is never overrun.
func Width(s string) int {
	n := 0
	for _, r := range s { // ranging yields only valid runes (bad bytes become U+FFFD)
		n += utf16.RuneLen(r)
	}
	return n
}
