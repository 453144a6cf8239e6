package store

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
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

func TestIdentifiers(t *testing.T) {
	var got []string
	identifiers("Use retryPolicy, HTTPServer and dbPool (not DB_POOL, iPhone-ready, ID, plain, Größe, naïveCase, x509Cert).", func(w string) { got = append(got, w) })
	want := []string{"retryPolicy", "HTTPServer", "dbPool", "DB", "POOL", "iPhone", "ID", "x509Cert"}
	if !slices.Equal(got, want) {
		t.Errorf("identifiers = %q, want %q", got, want)
	}
}

// Prose finds a note that holds only the identifier ("retry policy":
// retryPolicy), through the words the index records of each identifier
// (term_parts), from a write and from a full rebuild alike; one word of an
// identifier alone does not; the reference-compatible ranking is untouched.
func TestProseMatchesIdentifiers(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, b := range [][2]string{
		{"Bank client", "The client wraps calls in retryPolicy{Max: 5} and shares the dbPool."},
		{"Listener", "cmd/ledger starts an HTTPServer with ReadHeaderTimeout 5s."},
		{"Unrelated", "We talked about the weather and a good book."},
	} {
		if _, err := s.Write(ctx, note.New(note.Semantic, b[0], b[1])); err != nil {
			t.Fatal(err)
		}
	}
	check := func(stage string) {
		t.Helper()
		for q, want := range map[string]string{
			"what is our retry policy":          "Bank client",
			"the db pool":                       "Bank client",
			"which http server do we run":       "Listener",
			"read header timeout of the server": "Listener",
			"policy":                            "", // one word of an identifier: no match
			"retry the weather":                 "Unrelated",
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
				t.Errorf("%s: %q: got %q, want %q", stage, q, got, want)
			}
		}
		terms, _, err := s.QueryTerms(ctx, "our retry policy")
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range terms {
			if (x.Word == "retry" || x.Word == "policy") && (x.Absent || !slices.Equal(x.Also, []string{"retrypolicy"}) || x.DF != 1) {
				t.Errorf("%s: %+v", stage, x)
			}
		}
		notes, err := searchNotes(s, ctx, "retry policy", Filter{}, 1)
		if err != nil || len(notes) != 1 {
			t.Fatal(notes, err)
		}
		if h := Holds(notes, []string{"retry", "policy", "weather"}, map[string][]string{"retry": {"retrypolicy"}, "policy": {"retrypolicy"}}); !slices.Equal(h[notes[0].ID], []string{"retry", "policy"}) {
			t.Errorf("%s: Holds = %v", stage, h)
		}
	}
	check("written")
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	check("rebuilt")
	s.seedMode(true, 1)
	if hits, err := searchNotes(s, ctx, "retry policy", Filter{}, 3); err != nil || len(hits) != 0 {
		t.Errorf("the reference-compatible ranking matched an identifier's words: %v %v", hits, err)
	}
}

// A reader answers the identifiers of a query whose words are a subset of
// an earlier query's from that earlier answer (recall's search after the
// prompt's own lookup), as a query would, unless maxIdentifiers cut it.
func TestReaderIdentifiersFromAnEarlierAnswer(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	w, err := Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	body := "retryPolicy retryPolicyTimeout policyTimeout timeoutRetry dbPool poolTimeout retryPool"
	if _, err := w.Write(ctx, note.New(note.Semantic, "Identifiers", body)); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ask := func(s *Store, words ...string) map[string][]string {
		t.Helper()
		terms := make([][]string, len(words))
		for i, x := range words {
			terms[i] = ftsTerms(x)
		}
		m, err := s.identifiersOf(ctx, words, terms)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	ask(r, "retry", "policy", "timeout", "pool")
	for _, q := range [][]string{{"retry", "policy"}, {"timeout", "retry", "pool"}, {"pool", "policy"}, {"retry", "policy", "timeout", "pool"}} {
		if got, want := ask(r, q...), ask(w, q...); !reflect.DeepEqual(got, want) {
			t.Errorf("%v: the reader answered %v, a query %v", q, got, want)
		}
	}
	if len(r.known.idents) != 1 {
		t.Errorf("the reader asked term_parts %d times, want once", len(r.known.idents))
	}
	// An answer maxIdentifiers cut does not answer a subset.
	var many []string
	for i := range maxIdentifiers + 2 {
		many = append(many, fmt.Sprintf("alphaBeta%cGamma", 'a'+i))
	}
	if _, err := w.Write(ctx, note.New(note.Semantic, "Many", strings.Join(many, " "))); err != nil {
		t.Fatal(err)
	}
	r2, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	ask(r2, "alpha", "beta", "gamma")
	if got, want := ask(r2, "alpha", "gamma"), ask(w, "alpha", "gamma"); !reflect.DeepEqual(got, want) || len(r2.known.idents) != 2 {
		t.Errorf("after a cut answer: the reader answered %v (%d lookups), a query %v", got, len(r2.known.idents), want)
	}
}
