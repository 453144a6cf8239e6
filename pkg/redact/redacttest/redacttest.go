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

// shortEvery is the sample a write path's test takes with -short: every
// shortEvery-th entry.
const shortEvery = 10

// Sample is what a write path's test runs through its surface: all of it,
// or with -short (the race detector's run, the Windows tests under Wine)
// every tenth entry. Such a test checks that the path calls the redactor
// and handles its result, which a sample shows as well as the corpus; what
// the redactor catches does not depend on the platform, pkg/redact judges
// it on the whole corpus, and `make test` runs every shape through every
// path.
func Sample[T any](all []T) []T {
	if !testing.Short() {
		return all
	}
	var out []T
	for i := 0; i < len(all); i += shortEvery {
		out = append(out, all[i])
	}
	return out
}

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
