package transcript

import (
	"bytes"
	"context"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// skimParity parses data with and without skim and fails on any difference.
func skimParity(t *testing.T, name string, data []byte) {
	t.Helper()
	fast, err1 := parse(context.Background(), bytes.NewReader(data), false)
	whole, err2 := parse(context.Background(), bytes.NewReader(data), true)
	if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(fast, whole) {
		t.Fatalf("%s: skimmed parse differs from whole:\n%+v\n%+v", name, fast, whole)
	}
}

// TestSkimParity: on every transcript of the repository's fixtures (real
// Claude Code sessions, the coding eval's) and the bench's, a parse that
// drops unread values gives exactly what decoding every line whole gives.
func TestSkimParity(t *testing.T) {
	var paths []string
	filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
			paths = append(paths, p)
		}
		return nil
	})
	paths = append(paths, "/tmp/anamnesis-bench/transcript-200-lines.jsonl")
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		skimParity(t, p, data)
		n++
	}
	if n < 20 {
		t.Fatalf("only %d transcripts read", n)
	}
}

// TestSkimDrops: the values Parse does not read are dropped, a failed
// command's output is kept for its error line, and lines skim cannot vouch
// for are decoded whole.
func TestSkimDrops(t *testing.T) {
	big := strings.Repeat("x", 400)
	line := `{"type":"user","toolUseResult":{"stdout":"` + big + `"},"message":{"content":[{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"Exit code 1\nFAIL: ` + big + `"}]}}`
	sk, ok := skim([]byte(line))
	if !ok || sk.line == nil || bytes.Contains(sk.line, []byte(big)) || len(sk.results) != 1 {
		t.Fatalf("skim: ok %v line %s results %d", ok, sk.line, len(sk.results))
	}
	for _, bad := range []string{
		`{"type":"user","x":"` + big + `\q"}`,               // bad escape in a dropped value
		`{"type":"user","x":"` + big + "\x01" + `"}`,        // raw control byte
		`{"type":"user","x":[` + big[:300] + `]}`,           // not JSON
		`{"type":"user","x":"` + big + `"} trailing`,        // data after the value
		`{"type":"user","ty\u0070e":"a","x":"` + big + `"}`, // escaped name
		`{"type":"x","TYPE":"user","message":{"content":"` + big + `"}}`,
	} {
		if _, ok := skim([]byte(bad)); ok {
			t.Errorf("skim vouched for %.60q", bad)
		}
		skimParity(t, bad, []byte(bad))
	}
	skimParity(t, "line", []byte(line))
}

func FuzzSkim(f *testing.F) {
	big := strings.Repeat("y", 300)
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","is_error":true,"content":"` + big + `"}]}}`))
	f.Add([]byte(`{"type":"assistant","message":{"model":"m","content":[{"type":"tool_use","id":"a","name":"Bash","input":{"command":"go test","description":"` + big + `"}}]}}`))
	f.Add([]byte(`{"type":"api-request-blob","timestamp":"t","message":{"content":[{"type":"text","text":"` + big + `"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		skimParity(t, "fuzz", data)
	})
}

// plainWord says what the byte table says of each of a word's bytes: every
// byte value at every position among plain bytes, and random words.
func TestPlainWord(t *testing.T) {
	want := func(w []byte) bool {
		for _, c := range w {
			if !plain[c] {
				return false
			}
		}
		return true
	}
	check := func(w []byte) {
		if got := plainWord(binary.LittleEndian.Uint64(w)); got != want(w) {
			t.Fatalf("plainWord(%q) = %v", w, got)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			w := []byte("abcdéfgh"[:8])
			w[pos] = byte(c)
			check(w)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	w := make([]byte, 8)
	for range 200000 {
		for i := range w {
			w[i] = byte(r.IntN(256))
			if r.IntN(4) > 0 {
				w[i] = byte(0x20 + r.IntN(0x60)) // mostly printable, so words of plain bytes occur
			}
		}
		check(w)
	}
}
