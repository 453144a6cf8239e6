package store

import (
	"context"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Holds finds a word exactly when a search for it matches the note: the
// same splitting, folding and stemming, in any of title, body and tags.
func TestHoldsAgreesWithSearch(t *testing.T) {
	ctx := context.Background()
	s := open(t, t.TempDir())
	docs, _, err := s.QueryTerms(ctx, "anything")
	if err != nil || len(docs) != 1 {
		t.Fatalf("empty store: %v %v", docs, err)
	}
	a := note.New(note.Semantic, "Deploying the Services", "We deployed on Fridays; naïve caching broke.")
	a.Tags = []string{"release-train"}
	b := note.New(note.Semantic, "Unrelated", "Nothing to see.")
	a, err = s.Write(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if b, err = s.Write(ctx, b); err != nil {
		t.Fatal(err)
	}
	words := []string{"deploys", "service", "NAIVE", "train", "friday", "missing", "caching"}
	held := Holds([]*note.Note{a, b}, words, nil)
	for _, w := range words {
		hits, err := searchNotes(s, ctx, w, Filter{}, 5)
		if err != nil {
			t.Fatal(err)
		}
		matched := len(hits) > 0 && hits[0].ID == a.ID
		if got := strings.Contains(" "+strings.Join(held[a.ID], " ")+" ", " "+w+" "); got != matched {
			t.Errorf("%q: Holds says %v, search matched %v", w, got, matched)
		}
	}
	if len(held[b.ID]) != 0 {
		t.Errorf("unrelated note holds %v", held[b.ID])
	}
}
