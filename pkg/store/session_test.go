package store

import (
	"context"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestSessionNote(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.SessionNote(ctx, "s-1", ""); n != nil || err != nil {
		t.Fatalf("empty store: %v %v", n, err)
	}
	mk := func(typ, sess, created string) *note.Note {
		n := note.New(typ, "t "+created, "b")
		n.ID = note.NewID()
		n.ProvSession = sess
		n.ProvSource = note.ProvSessionEnd
		n.CreatedAt, n.UpdatedAt = created, created
		if err := st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	mk(note.Semantic, "s-1", "2026-01-01T00:00:00+00:00") // not episodic
	second := mk(note.Episodic, "s-1", "2026-01-03T00:00:00+00:00")
	first := mk(note.Episodic, "s-1", "2026-01-02T00:00:00+00:00")
	mk(note.Episodic, "s-2", "2026-01-01T00:00:00+00:00")
	n, err := st.SessionNote(ctx, "s-1", "")
	if err != nil || n == nil || n.ID != first.ID || n.Body != "b" {
		t.Fatalf("got %+v, %v; want %s", n, err, first.ID)
	}
	if err := st.Delete(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.SessionNote(ctx, "s-1", ""); n == nil || n.ID != second.ID {
		t.Fatalf("after delete: %+v", n)
	}
	if n, err := st.SessionNote(ctx, "", ""); n != nil || err != nil {
		t.Fatalf("empty id: %v %v", n, err)
	}
}
