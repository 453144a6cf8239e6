package screen

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVersionNamesTheVerdicts fails when the rules' verdicts on the corpora
// change and Version does not, or the other way round: an index screened
// under one version is screened again only when the version differs, so a
// rule change under the same version would never reach the notes already
// indexed. On a change of rules, give Version a new value and write the
// digest this test prints into testdata/screen/verdicts.
func TestVersionNamesTheVerdicts(t *testing.T) {
	files, err := filepath.Glob("../../testdata/screen/*.jsonl")
	if err != nil || len(files) < 2 {
		t.Fatalf("corpora: %v %v", files, err)
	}
	h := sha256.New()
	n := 0
	for _, f := range files {
		for _, c := range corpus(t, filepath.Base(f)) {
			h.Write([]byte(c.Text))
			h.Write([]byte{0})
			h.Write([]byte(Check(c.Text)))
			h.Write([]byte{0})
			n++
		}
	}
	got := Version + " " + hex.EncodeToString(h.Sum(nil))
	b, err := os.ReadFile("../../testdata/screen/verdicts")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.TrimSpace(string(b))
	if got != want {
		t.Errorf("testdata/screen/verdicts says %q; the rules give %q over %d texts.\n"+
			"If the verdicts changed, give screen.Version a new value; then write the line this run gives into testdata/screen/verdicts.", want, got, n)
	}
}
