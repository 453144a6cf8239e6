// Package redacttest loads the shared secret corpus (testdata/redact) so
// every write path's tests run the same shapes through their own surface.
package redacttest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Secret is one secret shape: Text holds it the way it reaches a note,
// Secret is the part that must not survive.
type Secret struct {
	Shape  string `json:"shape"`
	Text   string `json:"text"`
	Secret string `json:"secret"`
}

// Benign is a look-alike that must be stored byte for byte.
type Benign struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

// Secrets returns the corpus's secret shapes.
func Secrets(t testing.TB) []Secret { return read[Secret](t, "secrets.jsonl") }

// BenignTexts returns the corpus's benign look-alikes.
func BenignTexts(t testing.TB) []Benign { return read[Benign](t, "benign.jsonl") }

func read[T any](t testing.TB, name string) []T {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "redact", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
