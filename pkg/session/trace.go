package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/layout"
)

// Entry is one line of the injection trace: what a hook put into a session's
// context, and for recall why (the prompt words each note matched).
type Entry struct {
	Time    time.Time `json:"time"`
	Hook    string    `json:"hook"` // "inject" or "recall"
	Session string    `json:"session,omitempty"`
	Project string    `json:"project"`
	IDs     []string  `json:"ids"`
	Chars   int       `json:"chars"`
	// Terms maps a recalled note's id to the prompt words it matched.
	Terms map[string][]string `json:"terms,omitempty"`
	// Arrived lists ids shown because a pull indexed them after the
	// session's SessionStart block (first prompt only).
	Arrived []string `json:"arrived,omitempty"`
}

// MaxTrace is the size at which the trace rotates to injections.jsonl.1.
const MaxTrace = 256 << 10

// TracePath is <home>/logs/injections.jsonl.
func TracePath(home string) string { return layout.Home(home).Logs("injections.jsonl") }

// Trace appends e as one line (best effort is the caller's choice: hooks
// log the error and carry on).
func Trace(home string, e Entry) error {
	line, err := json.Marshal(e)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	p := TracePath(home)
	if err := layout.MkdirAll(filepath.Dir(p)); err != nil {
		return err
	}
	if fi, err := os.Stat(p); err == nil && fi.Size()+int64(len(line)) > MaxTrace {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, layout.FileMode)
	if err != nil {
		return err
	}
	// One write per line: O_APPEND keeps concurrent hooks' lines whole.
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// LastTrace returns the trace's newest n entries, oldest first: only those
// lines are parsed (status shows them; the trace holds thousands).
func LastTrace(home string, n int) []Entry {
	var out []Entry
	for _, p := range []string{TracePath(home), TracePath(home) + ".1"} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		lines := bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n"))
		for i := len(lines) - 1; i >= 0 && len(out) < n; i-- {
			var e Entry
			if json.Unmarshal(lines[i], &e) == nil {
				out = append(out, e)
			}
		}
		if len(out) == n {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// ReadTrace returns the trace's entries, oldest first, both generations;
// lines that do not parse are skipped.
func ReadTrace(home string) ([]Entry, error) {
	var out []Entry
	for _, p := range []string{TracePath(home) + ".1", TracePath(home)} {
		f, err := os.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return out, err
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 64<<10), MaxTrace)
		for sc.Scan() {
			var e Entry
			if json.Unmarshal(sc.Bytes(), &e) == nil {
				out = append(out, e)
			}
		}
		f.Close()
	}
	return out, nil
}
