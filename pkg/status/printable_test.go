package status

import (
	"bytes"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// Project keys, machine ids and the names of unreadable files come from the
// notes' files, which a pulled repository (a teammate's, another machine's)
// names and fills freely: status prints each as one printable line, so an
// escape sequence there (a terminal title, OSC 52 writing the clipboard)
// or a line break does not reach the terminal as such.
func TestTextPrintsNamesAsOneLine(t *testing.T) {
	rep := Report{
		ByProject: map[string]int{"proj\x1b]0;PWNED\x07\nforged: 9": 1},
		ByMachine: map[string]int{"m\x1b[2J": 1},
		Problems:  []store.Problem{{Path: "memory/semantic/x\x1b]52;c;ZXZpbA==\x07y.md", Reason: "front-matter has no closing ---"}},
	}
	var out bytes.Buffer
	rep.Text(&out)
	if s := out.String(); strings.ContainsAny(s, "\x1b\x07") || strings.Contains(s, "\nforged") {
		t.Errorf("status printed:\n%q", s)
	}
}
