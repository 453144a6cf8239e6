package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// TestCorruptIndexRebuilt breaks index.db in the ways an attack (or a bad
// disk, or a user) did and checks that every opener moves it aside and
// rebuilds it from the markdown: searches find the notes again and the bad
// file is kept beside it, never deleted.
func TestCorruptIndexRebuilt(t *testing.T) {
	ctx := context.Background()
	breakers := map[string]func(t *testing.T, db string){
		"garbage header": func(t *testing.T, db string) {
			data, _ := os.ReadFile(db)
			copy(data, []byte("this is not sqlite at all, just garbage bytes"))
			os.WriteFile(db, data, 0o644)
		},
		"truncated half": func(t *testing.T, db string) {
			info, _ := os.Stat(db)
			if err := os.Truncate(db, info.Size()/2); err != nil {
				t.Fatal(err)
			}
		},
		"directory in its place": func(t *testing.T, db string) {
			os.Remove(db)
			os.MkdirAll(filepath.Join(db, "sub"), 0o755)
		},
		"short garbage": func(t *testing.T, db string) {
			os.WriteFile(db, []byte("x"), 0o644)
		},
		"garbage pages": func(t *testing.T, db string) {
			// Header intact, every page after the first overwritten: only
			// reading the tables shows it.
			data, _ := os.ReadFile(db)
			for i := pageSizeOf(t, db); i < len(data); i++ {
				data[i] = byte(i * 7)
			}
			os.WriteFile(db, data, 0o644)
		},
		"garbage full-text pages": func(t *testing.T, db string) {
			// Only the pages of the full-text index's term index: Open
			// reads none of them, so only quick_check or a rebuild
			// (reindex --full) finds it.
			garbleTablePages(t, db, "memories_fts_idx")
		},
		"garbage full-text data": func(t *testing.T, db string) {
			// The postings and FTS5's structure record, which a writer's
			// Open reads (the large segment's level).
			garbleTablePages(t, db, "memories_fts_data")
		},
	}
	// Damage that Open cannot see (without quick_check) and search may not.
	deep := map[string]bool{"garbage pages": true, "garbage full-text pages": true}
	for name, breakIt := range breakers {
		for _, mode := range []string{"open", "checked", "full"} {
			checked := mode == "checked"
			t.Run(name+"/"+mode, func(t *testing.T) {
				home := t.TempDir()
				s := open(t, home)
				var ids []string
				for i := range 30 {
					n, err := s.Write(ctx, note.New(note.Semantic, "title "+strings.Repeat("x", i), "body zebracorn"+strings.Repeat(" filler words", 40)))
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, n.ID)
				}
				s.Close()
				db := filepath.Join(home, "index.db")
				breakIt(t, db)

				openFn := Open
				if checked {
					openFn = OpenChecked
				}
				s2, err := openFn(ctx, home)
				if err == nil && mode == "full" {
					if m, _ := s2.SetAside(); name == "garbage full-text pages" && m != "" {
						t.Fatalf("Open moved the index aside (%s): the test no longer reaches Reindex's repair", m)
					}
					// reindex --full, the repair doctor prints, opens
					// without quick_check: its rebuild must find the damage.
					_, err = s2.Rebuild(ctx)
				}
				if err != nil {
					if deep[name] && mode == "open" {
						t.Skip("damage past the header is found by quick_check (OpenChecked), not by every open")
					}
					t.Fatalf("open after %s: %v", name, err)
				}
				defer s2.Close()
				hits, err := searchNotes(s2, ctx, "zebracorn", Filter{}, 100)
				if err != nil {
					if deep[name] && mode == "open" {
						t.Skip("damage past the header is found by quick_check (OpenChecked), not by every open")
					}
					t.Fatal(err)
				}
				if len(hits) != len(ids) && deep[name] && mode == "open" {
					t.Skip("damage past the header is found by quick_check (OpenChecked), not by every open")
				}
				if len(hits) != len(ids) {
					t.Fatalf("after %s: search finds %d notes, want %d", name, len(hits), len(ids))
				}
				moved, why := s2.SetAside()
				if moved == "" || why == "" {
					t.Fatalf("after %s: SetAside() = %q, %q; want the old file's new name and a reason", name, moved, why)
				}
				if _, err := os.Lstat(moved); err != nil {
					t.Errorf("the unusable index was not kept at %s: %v", moved, err)
				}
				// A second open finds a good index and moves nothing.
				s2.Close()
				s3 := open(t, home)
				if m, _ := s3.SetAside(); m != "" {
					t.Errorf("a good index was moved aside again: %s", m)
				}
			})
		}
	}
}

// garbleTablePages overwrites every page of one table in the index file at db.
func garbleTablePages(t *testing.T, db, table string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var pages []int64
	var pageSize int64
	rows, err := conn.Query("SELECT pageno FROM dbstat WHERE name = ?", table)
	if err == nil {
		for rows.Next() {
			var p int64
			rows.Scan(&p)
			pages = append(pages, p)
		}
		rows.Close()
		err = conn.QueryRow("PRAGMA page_size").Scan(&pageSize)
	}
	conn.Close()
	if err != nil || len(pages) == 0 {
		t.Fatalf("finding the pages of %s: %v (%d pages)", table, err, len(pages))
	}
	data, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		for i := (p - 1) * pageSize; i < p*pageSize; i++ {
			data[i] = byte(i * 7)
		}
	}
	if err := os.WriteFile(db, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBadIndexHeaderCheck: a healthy index, an empty file and a missing one
// pass the header check.
func TestBadIndexHeaderCheck(t *testing.T) {
	home := t.TempDir()
	s := open(t, home)
	s.Write(context.Background(), note.New(note.Semantic, "t", "b"))
	s.Close()
	db := filepath.Join(home, "index.db")
	if why := badIndex(db); why != "" {
		t.Errorf("healthy index judged bad: %s", why)
	}
	if why := badIndex(filepath.Join(home, "missing.db")); why != "" {
		t.Errorf("missing index judged bad: %s", why)
	}
	empty := filepath.Join(home, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	if why := badIndex(empty); why != "" {
		t.Errorf("empty file judged bad: %s", why)
	}
}

// A hand-written note whose file is not <id>.md is the note: an edit
// (the dashboard's and CLI's Put) rewrites that file instead of adding
// <id>.md beside it, and delete removes it (issue 12, item 5).
func TestHandNamedNoteEditedInPlace(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	n := note.New(note.Semantic, "Deploy notes", "first text")
	n.ID = note.NewID()
	n.CreatedAt, n.UpdatedAt = note.Now(), note.Now()
	hand := filepath.Join(home, "memory", "semantic", "deploy notes.md")
	os.MkdirAll(filepath.Dir(hand), 0o755)
	if err := os.WriteFile(hand, n.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	s := open(t, home)
	got, err := s.Get(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	got.Body = "second text"
	if err := s.Put(ctx, got); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md"))
	if len(files) != 1 || files[0] != hand {
		t.Fatalf("after an edit: %v, want only %s", files, hand)
	}
	if p, _ := s.Path(ctx, n.ID); p != hand {
		t.Errorf("the index points at %s", p)
	}
	if hits, _ := searchNotes(s, ctx, "second", Filter{}, 5); len(hits) != 1 {
		t.Errorf("search for the new text: %d hits", len(hits))
	}
	if err := s.Delete(ctx, n.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(hand); err == nil {
		t.Error("delete left the hand-named file")
	}
	if c, _ := s.Count(ctx, Filter{}); c != 0 {
		t.Errorf("index holds %d notes after delete", c)
	}
}

// Many openers meeting the same corrupt index at once (hooks of parallel
// sessions) all succeed, and only the bad file is moved aside: no opener
// moves another's fresh rebuild.
func TestCorruptIndexConcurrentOpeners(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home)
	for i := range 20 {
		if _, err := s.Write(ctx, note.New(note.Semantic, "t", fmt.Sprintf("zebracorn %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db := filepath.Join(home, "index.db")
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	os.WriteFile(db, []byte(strings.Repeat("garbage ", 64)), 0o644)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			st, err := Open(ctx, home)
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			if c, err := st.Count(ctx, Filter{}); err != nil || c != 20 {
				errs <- fmt.Errorf("count %d, %v", c, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	aside, _ := filepath.Glob(db + ".corrupt-*")
	main := 0
	for _, p := range aside {
		if !strings.HasSuffix(p, "-wal") && !strings.HasSuffix(p, "-shm") {
			main++
		}
	}
	if main != 1 {
		t.Errorf("%d files moved aside, want 1: %v", main, aside)
	}
}

// The same across processes (hooks of parallel sessions are processes): on
// Windows an opener cannot rename the bad file while another has it open,
// even for a moment to read its header, which made all but one fail with a
// sharing violation.
func TestCorruptIndexConcurrentProcesses(t *testing.T) {
	ctx := context.Background()
	if home := os.Getenv("ANAMNESIS_TEST_CORRUPT_HOME"); home != "" {
		st, err := Open(ctx, home)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if c, err := st.Count(ctx, Filter{}); err != nil || c != 20 {
			fmt.Fprintf(os.Stderr, "count %d, %v\n", c, err)
			os.Exit(1)
		}
		st.Close()
		os.Exit(0)
	}
	home := t.TempDir()
	s := open(t, home)
	for i := range 20 {
		if _, err := s.Write(ctx, note.New(note.Semantic, "t", fmt.Sprintf("zebracorn %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	db := filepath.Join(home, "index.db")
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	os.WriteFile(db, []byte(strings.Repeat("garbage ", 64)), 0o644)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCorruptIndexConcurrentProcesses$")
			cmd.Env = append(os.Environ(), "ANAMNESIS_TEST_CORRUPT_HOME="+home)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("process %d: %v\n%s", w, err, out)
			}
		})
	}
	wg.Wait()
	aside, _ := filepath.Glob(db + ".corrupt-*")
	if len(aside) != 1 {
		t.Errorf("%d files moved aside, want 1: %v", len(aside), aside)
	}
}

// pageSizeOf reads the page size from the header of the index file at db.
func pageSizeOf(t *testing.T, db string) int {
	t.Helper()
	data, err := os.ReadFile(db)
	if err != nil || len(data) < 100 {
		t.Fatalf("reading the header of %s: %v", db, err)
	}
	return int(data[16])<<8 | int(data[17])
}
