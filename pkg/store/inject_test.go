package store

import (
	"context"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestCountInjectable(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	put := func(typ, project string, tags []string, supersedes ...string) string {
		n := note.New(typ, "t", "b")
		n.ID = note.NewID()
		n.Project = project
		n.Tags = tags
		n.Supersedes = supersedes
		if err := st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	old := put(note.Semantic, "p", nil)
	put(note.Semantic, "p", nil, old)                         // supersedes old: counts, old does not
	put(note.Episodic, "p", []string{"session", "reflected"}) // reflected episodic: excluded
	put(note.Procedural, "p", []string{"reflected"})          // reflected durable: counts
	sup := put(note.Episodic, "p", []string{"reflected"})     // superseded and reflected: excluded once
	put(note.Procedural, "other", nil, sup)                   // another project
	put(note.Episodic, "p", []string{"session"})              // counts
	for project, want := range map[string]int{"p": 3, "other": 1, "none": 0} {
		if got, err := st.CountInjectable(ctx, project); err != nil || got != want {
			t.Errorf("CountInjectable(%q) = %d, %v; want %d", project, got, err, want)
		}
	}
}
