package recall

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// vocabStore is a small project store of coding notes.
func vocabStore(t *testing.T) *store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	for _, n := range [][2]string{
		{"Set up the database access", "We went with pgx v5 instead of GORM: plain SQL, COPY for bulk imports, and GORM's reflection cost 30% on inserts."},
		{"Pool exhaustion under load", "Raised DB_POOL_MAX_CONNS to 50 and set MaxConnIdleTime; throughput went from 310 to 1840 req/s."},
		{"Bank client retries", "429 and 5xx are retried with backoff; a golang.org/x/time/rate limiter keeps us at 10 req/s. The retry policy lives in bank/retry.go."},
		{"Upgrade the dev database", "docker compose now runs PostgreSQL 16.4; the old 14.9 volume was dropped."},
		{"Logging", "We log with log/slog and the JSON handler; keys are snake_case."},
		{"Release 1.2.0", "Tagged v1.2.0 with goreleaser after adding dist/ to .gitignore."},
		{"Listener settings", "newHTTPServer sets ReadHeaderTimeout to 5s and MaxHeaderBytes to 64 KiB."},
	} {
		x := note.New(note.Episodic, n[0], n[1])
		x.Project = "ledger"
		if _, err := st.Write(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func titles(cs []Candidate) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Note.Title)
	}
	return out
}

// The example: "layer" is in no note, and must not cost the note
// the question is about its place above the floor.
func TestUnknownWordDoesNotCountAgainstTheFloor(t *testing.T) {
	st := vocabStore(t)
	for _, prompt := range []string{
		"Why did we pick pgx over GORM for the database?",
		"Why did we pick pgx over GORM for the database layer?",
		"Why did we pick pgx over GORM for the database layer, the persistence tier thingy?",
	} {
		cs, err := Find(context.Background(), st, prompt, "ledger", DefaultFloor, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || cs[0].Note.Title != "Set up the database access" {
			t.Errorf("%q: %v", prompt, titles(cs))
		}
	}
	// Words no note holds do not make an unrelated prompt clear the floor.
	cs, err := Find(context.Background(), st, "frobnicate the quuxification widgetry", "ledger", DefaultFloor, nil)
	if err != nil || len(cs) != 0 {
		t.Errorf("unknown words only: %v %v", titles(cs), err)
	}
}

// Identifiers are split into their words (and prose finds the identifiers
// a note holds), and long words match the stored words they extend or that
// extend them.
func TestCodingVocabulary(t *testing.T) {
	st := vocabStore(t)
	for prompt, want := range map[string]string{
		"what is the db pool max conns setting now?":        "Pool exhaustion under load",
		"where is the retryPolicy configured?":              "Bank client retries",
		"what does DB_POOL do?":                             "Pool exhaustion under load",
		"which version of the time rate package do we use?": "Bank client retries",
		"when did we move to postgres 16?":                  "Upgrade the dev database",
		"what changed in the postgresql upgrade?":           "Upgrade the dev database",
		"what went into the v1.2.0 release?":                "Release 1.2.0",
		// Prose for identifiers only the note holds.
		"what read header timeout does our http server have?": "Listener settings",
	} {
		cs, err := Find(context.Background(), st, prompt, "ledger", DefaultFloor, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 || cs[0].Note.Title != want {
			t.Errorf("%q: got %v, want %q first", prompt, titles(cs), want)
		}
	}
}

// A prompt whose informative words are too few and none rare cannot bring
// any note over the floor, which needs two of them or one rare one, so it
// is answered without a search: here a search fails (its superseded
// table is gone) and only the prompts that need one meet the failure.
func TestNoSearchWhenNoNoteCouldPass(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 200 {
		body := fmt.Sprintf("Routine entry %d about the build.", i)
		switch {
		case i%40 == 0: // in 2.5% of the notes: informative, not rare
			body += " The zebra cache was warmed."
		case i%40 == 1:
			body += " The quokka queue was drained."
		case i == 7: // in one note: rare
			body += " The narwhal index was rebuilt."
		}
		x := note.New(note.Semantic, fmt.Sprintf("Entry %d", i), body)
		x.Project = "ledger"
		if _, err := st.Write(ctx, x); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := st.Reindex(ctx, true); err != nil { // the document frequencies
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(home, "index.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("DROP TABLE superseded"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prompt string
		search bool
	}{
		{"how did we fix the zebra again?", false},
		{"what about the weather today?", false},
		{"how did we fix the zebra and the quokka?", true},
		{"how did we fix the narwhal again?", true},
	} {
		cs, err := Find(ctx, st, c.prompt, "ledger", DefaultFloor, nil)
		if searched := err != nil; searched != c.search || len(cs) != 0 {
			t.Errorf("%q: searched %v (%v), want %v; %v", c.prompt, searched, err, c.search, titles(cs))
		}
	}
}
