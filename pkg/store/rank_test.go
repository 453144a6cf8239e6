package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

func putNote(t *testing.T, s *Store, id, title, body, session string, tags []string, minute int) {
	t.Helper()
	n := note.New(note.Episodic, title, body)
	n.ID = id
	n.Project = "p"
	n.ProvSession = session
	n.Tags = tags
	n.CreatedAt = fmt.Sprintf("2026-01-01T00:%02d:00+00:00", minute)
	n.UpdatedAt = n.CreatedAt
	if err := s.Put(context.Background(), n); err != nil {
		t.Fatal(err)
	}
}

func searchIDs(t *testing.T, s *Store, q string) []string {
	t.Helper()
	hits, err := searchNotes(s, context.Background(), q, Filter{Project: "p"}, 8)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

// Notes of one conversation lift each other: "the river was cold" ranks above
// an equally good lone match because its session also holds "camped". Both
// ways of sharing a session count: prov_session and a session tag.
func TestSessionContextLiftsNotesOfOneSession(t *testing.T) {
	for _, kind := range []string{"prov_session", "tag"} {
		t.Run(kind, func(t *testing.T) {
			s := open(t, t.TempDir())
			session, tags := "", []string{"session_1"}
			if kind == "prov_session" {
				session, tags = "abc-123", nil
			}
			putNote(t, s, "01SESS0000000000000000000A", "chat", "we camped by the river", session, tags, 1)
			putNote(t, s, "01SESS0000000000000000000B", "chat", "the river was cold", session, tags, 2)
			// Newest, so without the session term it would win the tie.
			putNote(t, s, "01SESS0000000000000000000C", "chat", "we camped in the hills", "", nil, 3)
			for i := range 6 {
				putNote(t, s, fmt.Sprintf("01SESSFILLER%014d", i), "other", "nothing to see here", "", nil, 4)
			}
			want := []string{"01SESS0000000000000000000A", "01SESS0000000000000000000B", "01SESS0000000000000000000C"}
			if got := searchIDs(t, s, "camped river"); !slices.Equal(got, want) {
				t.Fatalf("with sessions: %v, want %v", got, want)
			}
			s.rank.session = 0
			want[1], want[2] = want[2], want[1]
			if got := searchIDs(t, s, "camped river"); !slices.Equal(got, want) {
				t.Fatalf("without the session term: %v, want %v", got, want)
			}
		})
	}
}

// Where no notes share a session, the session term changes nothing: every
// query ranks exactly as BM25 alone ranks it.
func TestSessionContextInertWithoutSharedSessions(t *testing.T) {
	s := open(t, locomo(t))
	// Give every note a session of its own.
	if _, err := s.db.Exec(`UPDATE memories_fts SET tags = 'locomo'`); err != nil {
		t.Fatal(err)
	}
	hits := 0
	queries := []string{"When did Caroline go to the LGBTQ support group?", "What did Melanie paint?",
		"camping with the kids", "adoption agencies", "pottery class", "what books does she read"}
	for _, q := range queries {
		for _, project := range []string{"locomo-26", "locomo-42", ""} {
			f := Filter{Project: project}
			s.rank.session = sessionWeight
			with, err := searchNotes(s, context.Background(), q, f, 8)
			if err != nil {
				t.Fatal(err)
			}
			s.rank.session = 0
			without, _ := searchNotes(s, context.Background(), q, f, 8)
			hits += len(with)
			if !slices.EqualFunc(with, without, func(a, b *note.Note) bool { return a.ID == b.ID }) {
				t.Fatalf("%q in %q: session term changed the order (%d vs %d hits)", q, project, len(with), len(without))
			}
		}
	}
	if hits < 50 {
		t.Fatalf("only %d hits in all", hits)
	}
}

// Search looks document frequencies up with Go's stems: it creates no
// temporary table (it used to tokenize each query through a scratch FTS5
// table and a vocabulary table).
func TestSearchCreatesNoTempTables(t *testing.T) {
	s := open(t, locomo(t))
	s.db.SetMaxOpenConns(1) // the queries below see the search's connection
	temps := func() (n int) {
		if err := s.db.QueryRow("SELECT count(*) FROM sqlite_temp_master").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := temps()
	for _, q := range []string{"When did Caroline go to the LGBTQ support group?", "the of and"} {
		if _, err := searchNotes(s, context.Background(), q, Filter{}, 8); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Search(context.Background(), Query{Text: q, K: 8, Marks: true}); err != nil {
			t.Fatal(err)
		}
	}
	if after := temps(); after != before {
		t.Fatalf("%d temporary tables before searching, %d after", before, after)
	}
}

// A note that asks about something ranks below one that states it: words
// inside a question count questionWeight in a note's own score.
func TestQuestionsCountLessThanStatements(t *testing.T) {
	s := open(t, t.TempDir())
	putNote(t, s, "01QUES0000000000000000000A", "chat", "we camped by the river last week", "", nil, 1)
	// Newest, so it would win the tie if questions counted fully.
	putNote(t, s, "01QUES0000000000000000000B", "chat", "great! where did you camp? by the river?", "", nil, 2)
	want := []string{"01QUES0000000000000000000A", "01QUES0000000000000000000B"}
	if got := searchIDs(t, s, "camped river"); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	s.rank.question = 1
	want[0], want[1] = want[1], want[0]
	if got := searchIDs(t, s, "camped river"); !slices.Equal(got, want) {
		t.Fatalf("questions counted fully: got %v, want %v", got, want)
	}
}

// Of two notes scoring alike and updated at the same time, the longer one
// comes first.
func TestTiesGoToTheLongerNote(t *testing.T) {
	s := open(t, t.TempDir())
	putNote(t, s, "01TIES0000000000000000000A", "chat", "the river, nice", "", nil, 1)
	putNote(t, s, "01TIES0000000000000000000B", "chat", "we spent the day by the river and swam until dark", "", nil, 1)
	want := []string{"01TIES0000000000000000000B", "01TIES0000000000000000000A"}
	if got := searchIDs(t, s, "river"); !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// TestNoBoundLimit keeps LIMIT and OFFSET out of the bound parameters: SQLite
// reads a bound LIMIT's value to plan the query, so binding one makes the
// statement recompile at its first step (see limitClause).
func TestNoBoundLimit(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	bound := regexp.MustCompile(`(?i)\b(LIMIT|OFFSET)\s+\?`)
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if bound.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				t.Errorf("%s:%d binds a LIMIT or OFFSET (use limitClause): %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
	if checked < 10 {
		t.Fatalf("checked %d files; expected the package's sources", checked)
	}
}
