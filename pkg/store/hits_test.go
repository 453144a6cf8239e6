package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// Marks change nothing in the ranking: the dashboard promises the CLI's search.
func TestMarksKeepTheRanking(t *testing.T) {
	home := copyTree(t, refStore+"/store")
	s := open(t, home)
	ctx := context.Background()
	for _, q := range []string{"how do we deploy", "validate with zod", "rounding currency", "grid", "the", "", "!!"} {
		for _, fl := range []Filter{{}, {Project: "github.com/acme/quotes-api"}, {Type: note.Semantic}} {
			want, err := searchNotes(s, ctx, q, fl, 8)
			if err != nil {
				t.Fatal(err)
			}
			hits, err := s.Search(ctx, Query{Text: q, Filter: fl, K: 8, Marks: true})
			if err != nil {
				t.Fatal(err)
			}
			var a, b []string
			for _, n := range want {
				a = append(a, n.ID)
			}
			for _, h := range hits {
				b = append(b, h.ID)
				if n, err := h.Note(); err != nil || n.Body == "" {
					t.Errorf("%q: hit %s's file: %v", q, h.ID, err)
				}
			}
			if !slices.Equal(a, b) {
				t.Errorf("%q %+v: with marks %v, without %v", q, fl, b, a)
			}
		}
	}
}

func TestMarksStemmedMatches(t *testing.T) {
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
	hits, err := s.Search(ctx, Query{Text: "index migration", K: 5, Marks: true})
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

// Browse's pages, forwards and backwards, are List's order cut in pieces,
// with many notes sharing one updated_at (the id breaks the ties).
func TestBrowseWalksListOrder(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	for i := range 53 {
		n := note.New(note.Types[i%3], fmt.Sprintf("note %d", i), "b")
		n.Tags = []string{[]string{"x", "y"}[i%2]}
		if _, err := s.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []Filter{{}, {Type: note.Semantic}, {Tag: "y"}, {Project: "nowhere"}} {
		all, err := s.List(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		ids := func(ns []*note.Note) (out []string) {
			for _, n := range ns {
				out = append(out, n.ID)
			}
			return out
		}
		var fwd []string
		var pages [][]*note.Note
		cur := Cursor{}
		for {
			p, err := s.Browse(ctx, f, cur, false, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(p) == 0 {
				break
			}
			pages = append(pages, p)
			fwd = append(fwd, ids(p)...)
			cur = CursorOf(p[len(p)-1])
		}
		if !slices.Equal(fwd, ids(all)) {
			t.Fatalf("%+v: forward pages %v\nList %v", f, fwd, ids(all))
		}
		// Walking back from each page's first note gives the page before it.
		for i := 1; i < len(pages); i++ {
			p, err := s.Browse(ctx, f, CursorOf(pages[i][0]), true, 10)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(p), ids(pages[i-1])) {
				t.Errorf("%+v: page before %d = %v, want %v", f, i, ids(p), ids(pages[i-1]))
			}
		}
	}
}
