package store

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// SearchHits must rank exactly like Search: the dashboard promises the CLI's search.
func TestSearchHitsSameOrderAsSearch(t *testing.T) {
	home := copyTree(t, refStore+"/store")
	s := open(t, home)
	ctx := context.Background()
	for _, q := range []string{"how do we deploy", "validate with zod", "rounding currency", "grid", "the", "", "!!"} {
		for _, fl := range []Filter{{}, {Project: "github.com/acme/quotes-api"}, {Type: note.Semantic}} {
			want, err := s.Search(ctx, q, fl, 8)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.SearchHits(ctx, q, fl, 8)
			if err != nil {
				t.Fatal(err)
			}
			var a, b []string
			for _, n := range want {
				a = append(a, n.ID)
			}
			for _, h := range hits {
				b = append(b, h.ID)
				if h.Body == "" {
					t.Errorf("%q: hit %s has no body (hits are re-read from the file)", q, h.ID)
				}
			}
			if !slices.Equal(a, b) {
				t.Errorf("%q %+v: SearchHits %v, Search %v", q, fl, b, a)
			}
		}
	}
}

func TestSearchHitsMarksStemmedMatches(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	body := strings.Repeat("filler words here. ", 40) + "We rebuilt the indexes after the migration." + strings.Repeat(" more filler text.", 40)
	n, err := s.Write(ctx, note.New(note.Semantic, "Index rebuild notes", body))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(ctx, note.New(note.Semantic, "Unrelated", "nothing to see")); err != nil {
		t.Fatal(err)
	}
	hits, err := s.SearchHits(ctx, "index migration", Filter{}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != n.ID {
		t.Fatalf("hits = %+v", hits)
	}
	h := hits[0]
	if h.TitleHL != HLStart+"Index"+HLEnd+" rebuild notes" {
		t.Errorf("title = %q", h.TitleHL)
	}
	for _, w := range []string{HLStart + "indexes" + HLEnd, HLStart + "migration" + HLEnd} {
		if !strings.Contains(h.Snippet, w) {
			t.Errorf("snippet %q lacks %q", h.Snippet, w)
		}
	}
	if !strings.Contains(h.Snippet, "…") || len(strings.Fields(h.Snippet)) > SnippetTokens+2 {
		t.Errorf("snippet is not an excerpt: %q", h.Snippet)
	}
}

func TestTagCounts(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	for _, tags := range [][]string{{"a", "b"}, {"b"}, {}} {
		n := note.New(note.Procedural, "t", "b")
		n.Tags = tags
		if _, err := s.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.TagCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["a"] != 1 || got["b"] != 2 {
		t.Fatalf("TagCounts = %v", got)
	}
}
