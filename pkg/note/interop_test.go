package note

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
)

const interopNotes = "../../testdata/fixtures/interop/notes/"

// Files as the reference's writer (PyYAML safe_dump, seed key order) writes
// them come back byte for byte, with the values the reference reads.
func TestInteropGoldensRoundTrip(t *testing.T) {
	for _, c := range []struct {
		file  string
		check func(*Note) string
	}{
		{"confidence-zero.md", func(n *Note) string {
			if n.Confidence != 0 {
				return "confidence 0.0 read as " + formatFloat(n.Confidence)
			}
			return ""
		}},
		{"crlf-body.md", func(n *Note) string {
			if n.Body != "line one\r\nline two\r\nline three" {
				return "body " + strings.ReplaceAll(n.Body, "\r", `\r`)
			}
			return ""
		}},
		{"spaced-tags.md", func(n *Note) string {
			if !slices.Equal(n.Tags, []string{" dup ", "dup", "x "}) {
				return "tags " + strings.Join(n.Tags, "|")
			}
			return ""
		}},
		{"newest-reference.md", func(n *Note) string {
			if n.ProvSource != ProvMerge || len(n.Supersedes) != 2 || !slices.Equal(n.ExtraKeys(), []string{"user_id", "workspace_id"}) {
				return "newest reference note read as " + n.ProvSource + " " + strings.Join(n.ExtraKeys(), ",")
			}
			return ""
		}},
		{"anchor-alias.md", func(n *Note) string {
			if !slices.Equal(n.ExtraKeys(), []string{"x_owner", "x_reviewer"}) {
				return "extra keys " + strings.Join(n.ExtraKeys(), ",")
			}
			return ""
		}},
	} {
		data, err := os.ReadFile(interopNotes + c.file)
		if err != nil {
			t.Fatal(err)
		}
		n, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if msg := c.check(n); msg != "" {
			t.Errorf("%s: %s", c.file, msg)
		}
		out := n.Marshal()
		if !bytes.Equal(out, data) {
			t.Errorf("%s: rewrite differs\n got %q\nwant %q", c.file, out, data)
		}
		// PyYAML refuses a document that defines an anchor twice.
		if c := bytes.Count(out, []byte("&owner")); c > 1 {
			t.Errorf("anchor written %d times:\n%s", c, out)
		}
	}
}

// A file with CRLF line endings throughout (front-matter included) is still
// read, as plain LF text.
func TestCRLFFileStillRead(t *testing.T) {
	data, _ := os.ReadFile(interopNotes + "spaced-tags.md")
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	n, err := Parse(crlf)
	if err != nil {
		t.Fatal(err)
	}
	if n.Body != "Tags as typed." || !bytes.Equal(n.Marshal(), data) {
		t.Errorf("CRLF file: body %q, rewrite %q", n.Body, n.Marshal())
	}
}
