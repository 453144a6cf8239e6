package dashboard

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// browserForm is what a browser sends for the edit form of n: the title
// field as shown, the textarea's text with CRLF line ends (HTML forms
// normalise them so), and the tags field as shown.
func browserForm(n *note.Note) (title, body, tags string) {
	lf := strings.ReplaceAll(n.Body, "\r\n", "\n")
	return n.Title, strings.ReplaceAll(lf, "\n", "\r\n"), strings.Join(n.Tags, ", ")
}

// An edit changes what the user changed and nothing else: editing only the
// tags of a note written by the reference (an imported note whose body
// starts with a blank line, a title with two spaces, a CRLF body, tags with
// spaces) leaves its title and body bytes as they were; editing a CRLF
// body keeps its CRLF line ends.
func TestEditKeepsWhatTheFormDidNotChange(t *testing.T) {
	f := newFixture(t, 4)
	c := newClient(t, f, nil)
	ctx := context.Background()
	var notes []*note.Note
	for _, p := range []string{
		"../../testdata/fixtures/interop/native/procedural/0Z34SFYF6CFA9N5JYX0S822QZC.md",
		"../../testdata/fixtures/interop/notes/crlf-body.md",
		"../../testdata/fixtures/interop/notes/spaced-tags.md",
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n, err := note.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(n.ID, "01JZTAGS") {
			n.Title = "Spaced  tags " // two inner spaces and a trailing one, as a hand edit may leave
		}
		if err := f.st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		notes = append(notes, n)
	}
	for _, n := range notes {
		path := filepath.Join(f.st.MemoryDir(), n.Type, n.ID+".md")
		before, _ := os.ReadFile(path)
		title, body, tags := browserForm(n)
		w := c.post("/notes/"+n.ID+"/edit", c.form("title", title, "type", n.Type, "scope", n.Scope, "project", n.Project,
			"tags", tags+", reviewed", "body", body, "base", fileHash(before)), nil)
		if w.Code != http.StatusSeeOther {
			t.Fatalf("%s: edit %d\n%s", n.ID, w.Code, w.Body)
		}
		after, _ := os.ReadFile(path)
		got, err := note.Parse(after)
		if err != nil {
			t.Fatal(err)
		}
		want := *n
		want.Tags = append(append([]string{}, n.Tags...), "reviewed")
		want.UpdatedAt = got.UpdatedAt
		if exp := want.Marshal(); !bytes.Equal(after, exp) {
			t.Errorf("%s: a tags-only edit changed more:\n got %q\nwant %q", n.ID, after, exp)
		}
	}
	// A real edit of a CRLF body keeps CRLF line ends.
	crlf := notes[1]
	path := filepath.Join(f.st.MemoryDir(), crlf.Type, crlf.ID+".md")
	before, _ := os.ReadFile(path)
	cur, _ := note.Parse(before)
	title, _, tags := browserForm(cur)
	w := c.post("/notes/"+crlf.ID+"/edit", c.form("title", title, "type", cur.Type, "scope", cur.Scope, "project", cur.Project,
		"tags", tags, "body", "line one\r\nline 2\r\nline three\r\n", "base", fileHash(before)), nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("edit %d", w.Code)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Contains(after, []byte("---\nline one\r\nline 2\r\nline three\n")) {
		t.Errorf("CRLF body after an edit: %q", after)
	}
}
