package store

import (
	"context"
	"slices"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func TestWords(t *testing.T) {
	for q, want := range map[string][]string{
		"DB_POOL size":                 {"DB", "POOL", "size"},
		"the retryPolicy struct":       {"the", "retryPolicy", "retry", "Policy", "struct"},
		"HTTPServer and parseURL":      {"HTTPServer", "HTTP", "Server", "and", "parseURL", "parse", "URL"},
		"golang.org/x/time/rate":       {"golang", "org", "x", "time", "rate"},
		"pgx v5.7.1 on postgres 16.4":  {"v5.7.1", "16.4", "pgx", "on", "postgres"},
		"python 3.12, not 3":           {"3.12", "python", "not", "3"},
		"Größe_der_Tabelle":            {"Größe", "der", "Tabelle"},
		"plain words stay as they are": {"plain", "words", "stay", "as", "they", "are"},
	} {
		if got := Words(q); !slices.Equal(got, want) {
			t.Errorf("Words(%q) = %q, want %q", q, got, want)
		}
	}
}

// A long word no note holds matches the stored words it begins or that
// begin it; a short or known word is left alone; the reference-compatible
// ranking does neither.
func TestPrefixMatching(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, b := range []string{"We upgraded PostgreSQL to 16.", "Redis holds the sessions.", "Kubernetes deployment notes."} {
		n := note.New(note.Semantic, b, b)
		if _, err := s.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	for q, want := range map[string]string{
		"postgres":      "We upgraded PostgreSQL to 16.",
		"postgresqlish": "We upgraded PostgreSQL to 16.",
		"kubernetesy":   "Kubernetes deployment notes.",
		"sess":          "", // too short to be matched by prefix
	} {
		hits, err := searchNotes(s, ctx, q, Filter{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if len(hits) > 0 {
			got = hits[0].Title
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", q, got, want)
		}
	}
	s.seedMode(true, 3)
	if hits, err := searchNotes(s, ctx, "postgres", Filter{}, 3); err != nil || len(hits) != 0 {
		t.Errorf("the reference-compatible ranking matched by prefix: %v %v", hits, err)
	}
}
