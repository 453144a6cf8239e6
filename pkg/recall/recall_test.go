package recall

import (
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
)

func TestRenderBudget(t *testing.T) {
	long := func(title string) *note.Note {
		n := note.New(note.Semantic, title, strings.Repeat("word ", 400)+"\nlast line")
		n.ID = "ID" + title
		return n
	}
	a, b, c, d := long("a"), long("b"), long("c"), long("d")
	out, ids := Render([]*note.Note{a}, []*note.Note{b, c, d}, 2000)
	if hook.Width(out) > 2000 || len(ids) != MaxNotes || ids[0] != a.ID {
		t.Fatalf("%d chars, ids %v:\n%s", hook.Width(out), ids, out)
	}
	if !strings.HasPrefix(out, ArrivedHeading+"\n"+screen.Notice+"\n\n## [semantic] a\n") || !strings.Contains(out, "\n\n"+Heading+"\n\n## [semantic] b\n") {
		t.Errorf("layout:\n%s", out)
	}
	if strings.Count(out, "… (cut; full note: memory_get or `anamnesis get ID") != 3 {
		t.Errorf("cut markers:\n%s", out)
	}
	if out, ids := Render(nil, []*note.Note{b}, 100); out != "" || ids != nil {
		t.Errorf("a budget too small for one note printed %q", out)
	}
	short := note.New(note.Semantic, "s", "short body")
	short.ID = "S"
	if out, _ := Render(nil, []*note.Note{short}, 2000); !strings.HasSuffix(out, "short body\n") {
		t.Errorf("%q", out)
	}
}
