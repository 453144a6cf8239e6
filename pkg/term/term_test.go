package term

import (
	"os"
	"strings"
	"testing"
)

func TestDevNullAndPipesAreNotTerminals(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("/dev/null taken for a terminal")
	}
	r, w, _ := os.Pipe()
	defer r.Close()
	defer w.Close()
	if IsTerminal(r) || IsTerminal(strings.NewReader("x")) || IsTerminal(nil) {
		t.Error("a pipe or a reader taken for a terminal")
	}
}
