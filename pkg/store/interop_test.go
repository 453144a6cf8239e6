package store

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Rewriting a note the reference wrote changes nothing it did not mean to:
// confidence 0.0 stays 0.0 (no default over a present zero), tags keep
// their spaces, a CRLF inside a body stays. Each file is read, put back
// unchanged, and must be byte-identical.
func TestPutKeepsReferenceBytes(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	for _, f := range []string{"confidence-zero.md", "spaced-tags.md", "crlf-body.md", "anchor-alias.md", "newest-reference.md"} {
		want, err := os.ReadFile(filepath.Join("../../testdata/fixtures/interop/notes", f))
		if err != nil {
			t.Fatal(err)
		}
		n, err := note.Parse(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Put(ctx, n); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := os.ReadFile(filepath.Join(home, "memory", n.Type, n.ID+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: rewritten as\n%q\nwant\n%q", f, got, want)
		}
		back, err := s.Get(ctx, n.ID)
		if err != nil || back.Body != n.Body || back.Confidence != n.Confidence {
			t.Errorf("%s: read back %+v, %v", f, back, err)
		}
	}
	// The index holds both spellings of the tag.
	var c int
	s.db.QueryRowContext(ctx, "SELECT count(*) FROM memory_tags WHERE memory_id = '01JZTAGS0000000000000000ZZ'").Scan(&c)
	if c != 3 {
		t.Errorf("%d tags indexed, want 3", c)
	}
}
