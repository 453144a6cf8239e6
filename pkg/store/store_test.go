package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

const refStore = "../../testdata/fixtures/reference"

// locomo is a temp home holding the LoCoMo dev corpus (2,760 notes). The
// tests on it check rankings and index contents, platform-independent
// logic; indexing it takes over a minute under Wine, so the Windows run
// (-short) leaves them out.
func locomo(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("indexes the LoCoMo corpus (-short)")
	}
	return copyTree(t, "../../testdata/eval/locomo-dev")
}

// copyTree copies a fixture store into a fresh temp home.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func open(t testing.TB, home string) *Store {
	t.Helper()
	s, err := Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func snapshot(t testing.TB, home string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(home, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			info, _ := d.Info()
			out[p] = fmt.Sprintf("%x %v", data, info.ModTime())
		}
		return nil
	})
	return out
}

func TestReferenceStoreIndexedUnchanged(t *testing.T) {
	home := copyTree(t, refStore+"/store")
	before := snapshot(t, home)
	s := open(t, home)
	ctx := context.Background()
	all, err := s.List(ctx, Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(before) {
		t.Fatalf("listed %d of %d files", len(all), len(before))
	}
	if !reflect.DeepEqual(before, snapshot(t, home)) {
		t.Fatal("opening the store rewrote a note file")
	}
	local, _ := s.List(ctx, Filter{Scope: note.MachineLocal})
	if len(local) != 1 || local[0].ID != "01JZYZ0123456789ABCDEFGHJK" {
		t.Fatalf("machine-local: %v", local)
	}
	// List is newest first.
	for i := 1; i < len(all); i++ {
		if all[i-1].UpdatedAt < all[i].UpdatedAt {
			t.Fatalf("list out of order at %d", i)
		}
	}
}

// The seed's ranking, as the reference produced it on the fixture store: the
// reference-compatible mode with the seed's column weights reproduces it
// exactly; with our ranking the best hit never changes.
func TestSearchMatchesReference(t *testing.T) {
	t.Run("seed weights", func(t *testing.T) { checkReferenceRanking(t, true) })
	t.Run("our ranking", func(t *testing.T) { checkReferenceRanking(t, false) })
}

func checkReferenceRanking(t *testing.T, exact bool) {
	home := copyTree(t, refStore+"/store")
	s := open(t, home)
	if exact {
		s.seedMode(true, 1)
	}
	f, err := os.Open(refStore + "/search.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	cases := 0
	for sc.Scan() {
		var c struct {
			Query   string
			Project *string
			K       int
			IDs     []string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		fl := Filter{}
		if c.Project != nil {
			fl.Project = *c.Project
		}
		hits, err := searchNotes(s, context.Background(), c.Query, fl, c.K)
		if err != nil {
			t.Fatalf("%q: %v", c.Query, err)
		}
		got := []string{}
		for _, h := range hits {
			got = append(got, h.ID)
		}
		if !exact {
			// Stop words no longer match, so notes found only through "with"
			// or "the" drop out; every other hit is one the seed found too.
			extra := slices.ContainsFunc(got, func(id string) bool { return !slices.Contains(c.IDs, id) })
			if extra || len(got) > 0 && got[0] != c.IDs[0] {
				t.Errorf("%q project=%v: best hit changed:\n got %v\nwant %v", c.Query, c.Project, got, c.IDs)
			}
		} else if !slices.Equal(got, c.IDs) {
			t.Errorf("%q project=%v:\n got %v\nwant %v", c.Query, c.Project, got, c.IDs)
		}
		cases++
	}
	if cases < 5 {
		t.Fatalf("only %d cases", cases)
	}
}

func TestPragmasApplied(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	// Several connections: the DSN must apply the pragmas to each.
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			conn, err := s.db.Conn(ctx)
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			var mode string
			var timeout int
			conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode)
			conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&timeout)
			if mode != "wal" || timeout != 5000 {
				t.Errorf("journal_mode=%q busy_timeout=%d", mode, timeout)
			}
		}()
	}
	wg.Wait()
}

func TestRebuildOnVersionMismatchAndMissingIndex(t *testing.T) {
	ctx := context.Background()
	for _, v := range []int{1, SchemaVersion + 1} {
		home := copyTree(t, refStore+"/store")
		s := open(t, home)
		if _, err := s.db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v)); err != nil {
			t.Fatal(err)
		}
		s.db.ExecContext(ctx, "DELETE FROM memories")
		s.Close()
		s = open(t, home)
		if n, _ := s.Count(ctx, Filter{}); n != 22 {
			t.Errorf("version %d: %d notes after reopen", v, n)
		}
	}
	home := copyTree(t, refStore+"/store")
	s := open(t, home)
	s.Close()
	for _, f := range []string{"index.db", "index.db-wal", "index.db-shm"} {
		os.Remove(filepath.Join(home, f))
	}
	os.WriteFile(filepath.Join(home, "index.db"), nil, 0o644) // an empty file, as a crash might leave
	s = open(t, home)
	if n, _ := s.Count(ctx, Filter{}); n != 22 {
		t.Errorf("missing index: %d notes after reopen", n)
	}
}

func TestBadFilesSkippedAndReported(t *testing.T) {
	home := copyTree(t, refStore+"/store")
	sem := filepath.Join(home, "memory", "semantic")
	bad := map[string]string{
		"nofm.md":    "just some text\n",
		"broken.md":  "---\nid: [oops\ntype: semantic\n---\nbody\n",
		"badtype.md": "---\nid: 01BADTYPE0000000000000000\ntype: opinion\ntitle: x\n---\nbody\n",
		"empty.md":   "",
		"dupTags.md": "---\nid: 01DUPTAGS000000000000000000\ntype: semantic\ntitle: dup tags\ntags:\n- a\n- a\n---\nfine\n",
	}
	for name, body := range bad {
		os.WriteFile(filepath.Join(sem, name), []byte(body), 0o644)
	}
	big := bytes.Repeat([]byte("x"), 20<<20)
	os.WriteFile(filepath.Join(sem, "huge.md"), append([]byte("---\nid: HUGE\ntype: semantic\ntitle: h\n---\n"), big...), 0o644)
	s := open(t, home)
	ctx := context.Background()
	if n, _ := s.Count(ctx, Filter{}); n != 23 {
		t.Errorf("indexed %d notes, want 22 good + 1 with duplicate tags", n)
	}
	probs, err := s.Problems(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range probs {
		got[filepath.Base(p.Path)] = p.Reason
	}
	for _, name := range []string{"nofm.md", "broken.md", "badtype.md", "empty.md", "huge.md"} {
		if got[name] == "" {
			t.Errorf("%s not reported; problems: %v", name, got)
		}
	}
	if !strings.Contains(got["huge.md"], "too large") || !strings.Contains(got["badtype.md"], "opinion") {
		t.Errorf("reasons: %v", got)
	}
	// Fixing a file makes it indexed on the next incremental reindex.
	os.WriteFile(filepath.Join(sem, "badtype.md"), []byte("---\nid: 01BADTYPE0000000000000000\ntype: semantic\ntitle: x\n---\nbody\n"), 0o644)
	r, err := s.Reindex(ctx, false)
	if err != nil || r.Indexed != 1 {
		t.Fatalf("reindex %+v %v", r, err)
	}
	if _, err := s.Get(ctx, "01BADTYPE0000000000000000"); err != nil {
		t.Fatal(err)
	}
}

func dump(t *testing.T, s *Store) string {
	t.Helper()
	return strings.Join(queryRows(t, s,
		"SELECT id, type, title, body_path, project, machine_id, scope, created_at, updated_at, prov_source, coalesce(prov_model,''), coalesce(prov_session,''), confidence, coalesce(supersedes,'') FROM memories ORDER BY id",
		"SELECT memory_id, tag FROM memory_tags ORDER BY 1, 2",
		"SELECT id, title, body, tags FROM memories_fts ORDER BY id",
		"SELECT path, coalesce(id,''), coalesce(error,'') FROM files ORDER BY path",
		"SELECT memory_id, target FROM superseded ORDER BY 1, 2",
	), "")
}

// queryRows runs each query and returns every row it gives as one line of
// its values (fmt.Sprintln).
func queryRows(t *testing.T, s *Store, queries ...string) []string {
	t.Helper()
	var out []string
	for _, q := range queries {
		rows, err := s.db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintln(vals...))
		}
		rows.Close()
	}
	return out
}

func TestIncrementalEqualsFull(t *testing.T) {
	home := copyTree(t, refStore+"/store")
	s := open(t, home)
	ctx := context.Background()
	mem := filepath.Join(home, "memory")
	// Edit, delete, add, and move one note between scope trees behind the store's back.
	p := filepath.Join(mem, "semantic", "01JZ789ABCDEFGHJKMNPQRSTVW.md")
	data, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte("Never add"), []byte("Do not ever add"), 1), 0o644)
	os.Remove(filepath.Join(mem, "procedural", "01JZ3456789ABCDEFGHJKMNPQR.md"))
	os.WriteFile(filepath.Join(mem, "episodic", "01NEWNOTE00000000000000000.md"), []byte("---\nid: 01NEWNOTE00000000000000000\ntype: episodic\ntitle: new one\n---\nfresh words\n"), 0o644)
	os.MkdirAll(filepath.Join(home, "local", "procedural"), 0o755)
	os.Rename(filepath.Join(mem, "procedural", "01JZNPQRSTVWXYZ0123456789A.md"), filepath.Join(home, "local", "procedural", "01JZNPQRSTVWXYZ0123456789A.md"))
	r, err := s.Reindex(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.Indexed != 3 || r.Removed != 2 {
		t.Errorf("incremental: %+v", r)
	}
	inc := dump(t, s)
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	if full := dump(t, s); full != inc {
		t.Errorf("incremental and full indexes differ:\n%s\n---\n%s", inc, full)
	}
	n, err := s.Get(ctx, "01JZNPQRSTVWXYZ0123456789A")
	if err != nil || n.Scope != note.MachineLocal {
		t.Errorf("moved note: %v %v", n, err)
	}
	if hits, _ := searchNotes(s, ctx, "Do not ever add", Filter{}, 3); len(hits) == 0 || hits[0].ID != "01JZ789ABCDEFGHJKMNPQRSTVW" {
		t.Errorf("edited note not found by its new words: %v", hits)
	}
}

func TestWritePutGetDelete(t *testing.T) {
	home := t.TempDir()
	s := open(t, home)
	ctx := context.Background()
	n := note.New(note.Semantic, "Use WAL mode for SQLite", "Set busy_timeout on every connection to avoid lock errors.")
	n.Project = "demo"
	n.Tags = []string{"sqlite", "sqlite", " db "}
	w, err := s.Write(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	if !note.ValidID(w.ID) || len(w.ID) != 26 || !slices.Equal(w.Tags, []string{"sqlite", "db"}) {
		t.Fatalf("written %+v", w)
	}
	data, _ := os.ReadFile(filepath.Join(home, "memory", "semantic", w.ID+".md"))
	want := "---\nid: " + w.ID + "\ntype: semantic\ntitle: Use WAL mode for SQLite\nproject: demo\nmachine_id: unknown\nscope: portable\nprov_source: human\nconfidence: 1.0\ncreated_at: '" + w.CreatedAt + "'\nupdated_at: '" + w.UpdatedAt + "'\ntags:\n- sqlite\n- db\n---\nSet busy_timeout on every connection to avoid lock errors.\n"
	if string(data) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", data, want)
	}
	hits, _ := searchNotes(s, ctx, "how to configure a SQLite connection to avoid lock errors on concurrent writes", Filter{Project: "demo"}, 8)
	if len(hits) != 1 || hits[0].ID != w.ID {
		t.Fatalf("search: %v", hits)
	}
	// Put with a type change moves the file; the id is never duplicated.
	g, _ := s.Get(ctx, w.ID)
	g.Type = note.Procedural
	g.Scope = note.MachineLocal
	if err := s.Put(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, "memory", "semantic", w.ID+".md")); !os.IsNotExist(err) {
		t.Fatal("old file left behind")
	}
	if l, _ := s.List(ctx, Filter{}); len(l) != 1 || l[0].Type != note.Procedural || l[0].Scope != note.MachineLocal {
		t.Fatalf("after move: %+v", l)
	}
	// Bad input touches nothing.
	bad := note.New("opinion", "x", "y")
	if _, err := s.Write(ctx, bad); err == nil {
		t.Fatal("bad type accepted")
	}
	if _, err := os.Stat(filepath.Join(home, "memory", "opinion")); !os.IsNotExist(err) {
		t.Fatal("bad type left a directory behind")
	}
	huge := note.New(note.Semantic, "t", "b")
	for i := range 5000 {
		huge.Tags = append(huge.Tags, fmt.Sprintf("tag-number-%d", i))
	}
	// The tag limit stops it long before the front-matter cap would.
	if _, err := s.Write(ctx, huge); err == nil || !strings.Contains(err.Error(), "at most 50 are allowed") {
		t.Fatalf("5000 tags: %v", err)
	}
	for _, id := range []string{"../../etc/passwd", "a/b", "", "..", "x.md/../y"} {
		if _, err := s.Get(ctx, id); err == nil {
			t.Errorf("Get(%q) accepted", id)
		}
		if err := s.Delete(ctx, id); err == nil {
			t.Errorf("Delete(%q) accepted", id)
		}
	}
	if err := s.Delete(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := s.Count(ctx, Filter{}); n != 0 {
		t.Fatal("delete left rows")
	}
	if _, err := s.Get(ctx, w.ID); err == nil {
		t.Fatal("deleted note still readable")
	}
}

func TestSupersededHiddenFromSearchNotList(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	old, _ := s.Write(ctx, note.New(note.Procedural, "deploy steps", "run make deploy"))
	other, _ := s.Write(ctx, note.New(note.Procedural, "deploy extra", "deploy also needs a tag"))
	nn := note.New(note.Procedural, "deploy steps v2", "run make release then deploy")
	nn.Supersedes = []string{old.ID, other.ID}
	if _, err := s.Write(ctx, nn); err != nil {
		t.Fatal(err)
	}
	hits, _ := searchNotes(s, ctx, "deploy", Filter{}, 8)
	if len(hits) != 1 {
		t.Fatalf("superseded notes returned: %d hits", len(hits))
	}
	ids, _ := s.SupersededIDs(ctx)
	if !ids[old.ID] || !ids[other.ID] || len(ids) != 2 {
		t.Fatalf("superseded ids %v", ids)
	}
	if l, _ := s.List(ctx, Filter{}); len(l) != 3 {
		t.Fatalf("list hides superseded notes")
	}
}

func TestUnicodeTokens(t *testing.T) {
	got := Tokens(`naïve café: 日本語 "quoted" state-of-the-art 16:9 under_score Ωmega`)
	want := []string{"naïve", "café", "日本語", "quoted", "state", "of", "the", "art", "16", "9", "under_score", "Ωmega"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q", got)
	}
	if Tokens(`-- "" ** ()`) != nil {
		t.Fatal("no-word query produced tokens")
	}
}

func FuzzMatchExpr(f *testing.F) {
	s := open(f, f.TempDir())
	s.Write(context.Background(), note.New(note.Semantic, "seed note", "some words here"))
	for _, q := range []string{`a OR b`, `"unbalanced`, `NEAR(a b)`, `col:term`, `*`, `^x`, `日本`, `a AND NOT b`} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if _, err := searchNotes(s, context.Background(), q, Filter{}, 8); err != nil {
			t.Fatalf("%q: %v", q, err)
		}
	})
}

// Several processes opening a home whose index must be rebuilt all succeed:
// one rebuilds, the others wait for it instead of failing as "locked".
func TestConcurrentOpenDuringRebuild(t *testing.T) {
	if home := os.Getenv("ANAMNESIS_TEST_OPEN_HOME"); home != "" {
		s, err := Open(context.Background(), home)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if _, err := s.Write(context.Background(), note.New(note.Semantic, "opened", "while rebuilding")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	home := t.TempDir()
	dir := filepath.Join(home, "memory", "semantic")
	os.MkdirAll(dir, 0o755)
	notes := 3000
	if testing.Short() {
		notes = 800 // a rebuild under Wine is slow enough that the openers meet it
	}
	for i := range notes {
		n := note.New(note.Semantic, fmt.Sprintf("note %d", i), strings.Repeat(fmt.Sprintf("word%d filler text ", i%97), 40))
		n.ID = fmt.Sprintf("01TEST%020d", i)
		n.CreatedAt, n.UpdatedAt = "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"
		os.WriteFile(filepath.Join(dir, n.ID+".md"), n.Marshal(), 0o644)
	}
	var wg sync.WaitGroup
	for w := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentOpenDuringRebuild$")
			cmd.Env = append(os.Environ(), "ANAMNESIS_TEST_OPEN_HOME="+home)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("process %d: %v\n%s", w, err, out)
			}
		}()
	}
	wg.Wait()
	s := open(t, home)
	if n, _ := s.Count(context.Background(), Filter{}); n != notes+5 {
		t.Fatalf("indexed %d, want %d", n, notes+5)
	}
}

// Several processes writing to one home at once lose nothing.
func TestConcurrentProcesses(t *testing.T) {
	if home := os.Getenv("ANAMNESIS_TEST_WRITER_HOME"); home != "" {
		s, err := Open(context.Background(), home)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := range 25 {
			n := note.New(note.Semantic, "writer "+os.Getenv("ANAMNESIS_TEST_WRITER")+" note "+strconv.Itoa(i), "zebra body")
			if _, err := s.Write(context.Background(), n); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			if i%10 == 0 {
				if _, err := s.Reindex(context.Background(), i%20 == 0); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
			}
		}
		os.Exit(0)
	}
	home := t.TempDir()
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestConcurrentProcesses$")
			cmd.Env = append(os.Environ(), "ANAMNESIS_TEST_WRITER_HOME="+home, "ANAMNESIS_TEST_WRITER="+strconv.Itoa(w))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("writer %d: %v\n%s", w, err, out)
			}
		}()
	}
	wg.Wait()
	s := open(t, home)
	files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md"))
	n, _ := s.Count(context.Background(), Filter{})
	if len(files) != 150 || n != 150 {
		t.Fatalf("files=%d indexed=%d, want 150", len(files), n)
	}
	hits, _ := searchNotes(s, context.Background(), "zebra", Filter{}, 100)
	if len(hits) != 100 {
		t.Fatalf("search found %d", len(hits))
	}
}

// A query whose every word is in most notes is answered from the recency
// order (the notes holding its rarest word), not by scoring every note.
func TestBroadQueryUsesRecency(t *testing.T) {
	if testing.Short() {
		t.Skip("a ranking rule over 600 notes, platform-independent (-short: a minute under Wine)")
	}
	s := open(t, t.TempDir())
	ctx := context.Background()
	var last *note.Note
	for i := range 600 {
		n := note.New(note.Semantic, fmt.Sprintf("common words %d", i), fmt.Sprintf("the deploy step %d uses the same words", i))
		n.CreatedAt = fmt.Sprintf("2026-01-01T00:%02d:%02d+00:00", i/60, i%60)
		n.UpdatedAt = n.CreatedAt
		n.ID = fmt.Sprintf("01BROAD%019d", i)
		if err := s.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		last = n
	}
	if _, err := s.Reindex(ctx, true); err != nil { // computes document frequencies
		t.Fatal(err)
	}
	p, err := s.prune(ctx, dedupe(Tokens("the deploy words")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.ranked) != 0 || len(p.broad) != 1 {
		t.Fatalf("plan %+v", p)
	}
	hits, err := searchNotes(s, ctx, "the deploy words", Filter{}, 3)
	if err != nil || len(hits) != 3 || hits[0].ID != last.ID {
		t.Fatalf("hits %v %v", hits, err)
	}
	// A word no note holds does not turn the query into one that finds
	// nothing (kept alone, it once did: a million-note store answered no
	// prompt holding one unknown word among common ones).
	hits, err = searchNotes(s, ctx, "how did we handle the deploy words zyzzyva", Filter{}, 3)
	if err != nil || len(hits) != 3 || hits[0].ID != last.ID {
		t.Fatalf("hits with an unknown word %v %v", hits, err)
	}
	if hits, err := searchNotes(s, ctx, "zyzzyva", Filter{}, 3); err != nil || len(hits) != 0 {
		t.Fatalf("a word no note holds found %v %v", hits, err)
	}
	// A rare word still ranks by BM25.
	hits, _ = searchNotes(s, ctx, "the deploy step 123", Filter{}, 3)
	if len(hits) == 0 || hits[0].Title != "common words 123" {
		t.Fatalf("rare word not ranked first: %v", hits)
	}
}

// A symlink inside the trees is never followed: a note file pointing outside
// the store is not indexed or read (it would expose that file through every
// reader), and one pointing at a device cannot stall a reindex.
func TestSymlinkedNoteFileNotFollowed(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	home, outside := t.TempDir(), t.TempDir()
	s := open(t, home)
	n := note.New(note.Semantic, "outside secret", "TOP SECRET")
	n.ID = "01OUTSIDE0000000000000000A"
	n.CreatedAt, n.UpdatedAt = "2026-01-01T00:00:00+00:00", "2026-01-01T00:00:00+00:00"
	target := filepath.Join(outside, "secret.md")
	os.WriteFile(target, n.Marshal(), 0o644)
	dir := filepath.Join(home, "memory", "semantic")
	os.MkdirAll(dir, 0o755)
	if err := os.Symlink(target, filepath.Join(dir, n.ID+".md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "01ZERO00000000000000000000.md")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := s.Reindex(ctx, true); err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Count(ctx, Filter{}); c != 0 {
		t.Fatalf("indexed %d notes through symlinks, want 0", c)
	}
	if got, err := s.Get(ctx, n.ID); err == nil {
		t.Fatalf("Get followed the symlink: %q", got.Body)
	}
	probs, _ := s.Problems(ctx)
	if len(probs) != 2 {
		t.Fatalf("problems %+v, want both symlinks listed", probs)
	}
}

// A type directory that is a symlink is not written through: the note would
// land outside the store and vanish from the index at the next reindex.
func TestWriteRefusesSymlinkedTypeDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	home, outside := t.TempDir(), t.TempDir()
	s := open(t, home)
	if err := os.Symlink(outside, filepath.Join(home, "memory", note.Procedural)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Write(context.Background(), note.New(note.Procedural, "t", "b")); err == nil {
		t.Fatal("Write went through a symlinked type directory")
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Fatalf("wrote %d file(s) outside the store", len(ents))
	}
}

// The newest reference's merge writes prov_source: merge with a list-valued
// supersedes; such a note must be indexed and the notes it replaces hidden.
func TestReferenceMergeNoteIndexed(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "memory", "semantic")
	os.MkdirAll(dir, 0o755)
	write := func(id, title, extra string) {
		src := "---\nid: " + id + "\ntype: semantic\ntitle: " + title + "\nproject: global\nmachine_id: m\nscope: portable\ntags: []\n" +
			"created_at: '2026-01-01T00:00:00+00:00'\nupdated_at: '2026-01-01T00:00:00+00:00'\n" + extra + "confidence: 1.0\n---\n" + title + " about zebras\n"
		if err := os.WriteFile(filepath.Join(dir, id+".md"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("01A", "zebra one", "prov_source: human\n")
	write("01B", "zebra two", "prov_source: human\n")
	write("01C", "zebra merged", "prov_source: merge\nprov_model: openai/x\nsupersedes:\n- 01A\n- 01B\n")
	s := open(t, home)
	hits, err := searchNotes(s, context.Background(), "zebras", Filter{}, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].ID != "01C" {
		t.Fatalf("want only the merged note, got %+v", hits)
	}
	if p, _ := s.Problems(context.Background()); len(p) != 0 {
		t.Fatalf("merge note reported as a problem: %v", p)
	}
}

// One set of write limits, enforced by the store for every surface.
func TestWriteLimits(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	for name, n := range map[string]*note.Note{
		"title":   note.New(note.Semantic, strings.Repeat("t", note.MaxTitle+1), "b"),
		"body":    note.New(note.Semantic, "t", strings.Repeat("b", note.MaxBody+1)),
		"tags":    {Type: note.Semantic, Title: "t", Body: "b", Tags: make([]string, note.MaxTags+1)},
		"tag":     {Type: note.Semantic, Title: "t", Body: "b", Tags: []string{strings.Repeat("x", note.MaxTag+1)}},
		"project": {Type: note.Semantic, Title: "t", Body: "b", Project: "a\nb"},
	} {
		if name == "tags" {
			for i := range n.Tags {
				n.Tags[i] = fmt.Sprint("tag", i)
			}
		}
		if _, err := s.Write(ctx, n); err == nil {
			t.Errorf("%s over the limit written", name)
		}
	}
	if c, _ := s.Count(ctx, Filter{}); c != 0 {
		t.Errorf("%d notes written", c)
	}
	entries, _ := os.ReadDir(filepath.Join(s.Home(), "memory", note.Semantic))
	if len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
}

// A body over the limit is refused as given, before the redactor and the
// screen run over it (seconds for a megabyte of key = value lines): the
// error names the size the writer gave, not the size the redaction left,
// and a body that only the redaction brought under the limit is refused
// too. WriteFileOnly (capture) refuses it the same way.
func TestBodyOverLimitRefusedBeforeCleaning(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	var b strings.Builder
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; b.Len() <= note.MaxBody+note.MaxBody/8; i++ {
		fmt.Fprintf(&b, "token_%d = ", i)
		for range 40 {
			b.WriteByte(alnum[r.IntN(len(alnum))])
		}
		b.WriteByte('\n')
	}
	body := b.String()
	want := fmt.Sprintf("body is %d bytes; at most %d (1 MiB) are allowed", len(body), note.MaxBody)
	for _, kind := range []string{"personal", "model"} {
		opts := []Option{}
		if kind == "model" {
			opts = append(opts, ByModel("mcp"))
		}
		if _, err := s.Write(ctx, note.New(note.Semantic, "keys", body), opts...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s write of a %d-byte body: %v, want %q", kind, len(body), err, want)
		}
	}
	n := note.New(note.Episodic, "session", body)
	n.ID = note.NewID()
	if _, err := WriteFileOnly(s.Home(), n); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("WriteFileOnly of a %d-byte body: %v, want %q", len(body), err, want)
	}
	if files, _ := filepath.Glob(filepath.Join(s.Home(), "memory", "*", "*.md")); len(files) != 0 {
		t.Errorf("refused writes left files: %v", files)
	}
}

// A store opened for reading searches and reads, rebuilds an index that
// needs it on open (with the write settings: WAL), and refuses other writes.
func TestOpenReader(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	w := open(t, home)
	n, err := w.Write(ctx, note.New(note.Semantic, "Reader test", "Readers search."))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	os.Remove(filepath.Join(home, "index.db"))
	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	hits, err := searchNotes(r, ctx, "readers", Filter{}, 5)
	if err != nil || len(hits) != 1 || hits[0].ID != n.ID {
		t.Fatalf("search through a reader after its rebuild: %v %v", hits, err)
	}
	var mode string
	if err := r.db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("the index a reader rebuilt is in %q mode, not wal (%v)", mode, err)
	}
	if _, err := r.Write(ctx, note.New(note.Semantic, "No", "Refused.")); !errors.Is(err, errReader) {
		t.Errorf("a write through a reader: %v", err)
	}
	if files, _ := filepath.Glob(filepath.Join(home, "memory", "semantic", "*.md")); len(files) != 1 {
		t.Errorf("a refused write left files: %v", files)
	}
	if err := r.Delete(ctx, n.ID); !errors.Is(err, errReader) {
		t.Errorf("a delete through a reader: %v", err)
	}
}

// A reader of a ready index checks it with one statement and keeps the
// pruning figures it reads; its searches, repeated or after QueryTerms (as
// recall does), return what a writer's return.
func TestReaderSearchesLikeAWriter(t *testing.T) {
	ctx := context.Background()
	home := locomo(t)
	w := open(t, home)
	r, err := OpenReader(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.known == nil {
		t.Fatal("a reader of a ready index took the full check")
	}
	var docs int
	if err := w.db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'df_docs'").Scan(&docs); err != nil || r.known.docs != docs || docs < pruneMinDocs {
		t.Fatalf("the reader kept df_docs %d, the index has %d (%v); the test needs at least %d", r.known.docs, docs, err, pruneMinDocs)
	}
	f, err := os.Open("../../testdata/eval/locomo-dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	ids := func(ns []*note.Note) []string {
		var out []string
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return out
	}
	// "zqxjv" is in no note: absent from term_df, it is remembered as such.
	for i := 0; i < 60 && sc.Scan(); i++ {
		var q struct{ Query, Project string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		query := q.Query + " zqxjv"
		want, err := searchNotes(w, ctx, query, Filter{Project: q.Project}, 8)
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if _, _, err := r.QueryTerms(ctx, query); err != nil {
				t.Fatal(err)
			}
		}
		for round := 0; round < 2; round++ {
			got, err := searchNotes(r, ctx, query, Filter{Project: q.Project}, 8)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(ids(got), ids(want)) {
				t.Fatalf("%q (round %d): the reader found %v, a writer %v", query, round, ids(got), ids(want))
			}
		}
	}
	if n, ok := r.known.df["zqxjv"]; !ok || n != -1 {
		t.Errorf("a term absent from term_df is remembered as %d, %v", n, ok)
	}
}

// term_df holds every term, so a search reads its IDFs there and not from
// FTS5's vocabulary table; pruning and recall still count a term in at most
// 1% of the notes as rare (0). An index whose term_df holds only the common
// terms, as older ones do, gets every term at its next reindex.
func TestTermDFHoldsEveryTerm(t *testing.T) {
	ctx := context.Background()
	s := open(t, locomo(t))
	count := func(q string, args ...any) (n int) {
		t.Helper()
		if err := s.db.QueryRowContext(ctx, q, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	vocab := count("SELECT count(*) FROM memories_vocab")
	if n := count("SELECT count(*) FROM term_df"); n != vocab {
		t.Fatalf("term_df holds %d terms, the index %d", n, vocab)
	}
	docs := s.dfDocs(ctx)
	// One rare and one common term that are their own stems.
	pick := func(where string) (string, int) {
		t.Helper()
		rows, err := s.db.QueryContext(ctx, "SELECT term, df FROM term_df WHERE "+where+" ORDER BY df DESC", docs/100)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		for rows.Next() {
			var term string
			var df int
			rows.Scan(&term, &df)
			if ts := ftsTerms(term); len(ts) == 1 && ts[0] == term && len(term) > 3 {
				return term, df
			}
		}
		t.Fatalf("no term where %s", where)
		return "", 0
	}
	rare, rareDF := pick("df <= ?")
	common, commonDF := pick("df > ?")
	df, dfOf, err := s.docFreqs(ctx, []string{rare, common}, docs)
	if err != nil {
		t.Fatal(err)
	}
	if df[0] != 0 || df[1] != commonDF || dfOf[rare] != rareDF || dfOf[common] != commonDF {
		t.Errorf("docFreqs(%q df %d, %q df %d) = %v %v", rare, rareDF, common, commonDF, df, dfOf)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM term_df WHERE df <= ?", docs/100); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM meta WHERE key = 'df_all'"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	if n := count("SELECT count(*) FROM term_df"); n != vocab {
		t.Errorf("after a reindex of an index with only the common terms, term_df holds %d terms of %d", n, vocab)
	}
}

// A hit holds, without its file read, the type, project and title its file
// holds, and Hit.Indexed the note Hit.Note reads: in our ranking, the
// reference-compatible one, and a query of common words only (the recency
// path).
func TestHitIsItsFile(t *testing.T) {
	ctx := context.Background()
	s := open(t, locomo(t))
	f, err := os.Open("../../testdata/eval/locomo-dev.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var queries []struct{ Query, Project string }
	sc := bufio.NewScanner(f)
	for i := 0; i < 30 && sc.Scan(); i++ {
		var q struct{ Query, Project string }
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			t.Fatal(err)
		}
		queries = append(queries, q)
	}
	common := "locomo session"
	if p, err := s.prune(ctx, dedupe(Tokens(common)), nil); err != nil || len(p.ranked) != 0 {
		t.Fatalf("%q is not a recency-path query here: %+v %v", common, p, err)
	}
	queries = append(queries, struct{ Query, Project string }{common, ""})
	for _, seed := range []bool{false, true} {
		s.seedMode(seed, 3)
		for i, q := range queries {
			filter := Filter{Project: q.Project}
			if i%3 == 0 {
				filter = Filter{}
			}
			hits, err := s.Search(ctx, Query{Text: q.Query, Filter: filter, K: 8})
			if err != nil {
				t.Fatal(err)
			}
			full := Notes(hits)
			if len(full) == 0 || len(hits) != len(full) {
				t.Fatalf("%q (seed %v): %d hits, %d files read", q.Query, seed, len(hits), len(full))
			}
			for j, n := range full {
				h := hits[j]
				if want := [5]string{n.ID, n.Type, n.Project, n.Title, n.Team}; [5]string{h.ID, h.Type, h.Project, h.Title, h.Team} != want {
					t.Fatalf("%q (seed %v) hit %d: file %+v, index %+v", q.Query, seed, j, want, h)
				}
			}
			sameNotes(t, fmt.Sprintf("%q (seed %v)", q.Query, seed), full, indexedNotes(t, hits))
		}
	}
}

// searchNotes is Search with each hit read from its file (Notes).
func searchNotes(s *Store, ctx context.Context, text string, f Filter, k int) ([]*note.Note, error) {
	hits, err := s.Search(ctx, Query{Text: text, Filter: f, K: k})
	return Notes(hits), err
}

// indexedNotes is each hit's Indexed note.
func indexedNotes(t *testing.T, hits []Hit) []*note.Note {
	t.Helper()
	out := make([]*note.Note, len(hits))
	for i, h := range hits {
		n, err := h.Indexed()
		if err != nil {
			t.Fatal(err)
		}
		out[i] = n
	}
	return out
}

// sameNotes fails unless got holds want's notes in order, field by field
// (as SPEC 2's JSON shape prints them, bodies included, and the provenance
// that shape leaves out).
func sameNotes(t *testing.T, what string, want, got []*note.Note) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d notes, want %d", what, len(got), len(want))
	}
	for j := range want {
		w, _ := json.Marshal(want[j].Out(true))
		g, _ := json.Marshal(got[j].Out(true))
		if string(w) != string(g) || want[j].ProvModel != got[j].ProvModel || want[j].ProvSession != got[j].ProvSession {
			t.Fatalf("%s, hit %d:\n got %s %q %q\nwant %s %q %q", what, j, g, got[j].ProvModel, got[j].ProvSession, w, want[j].ProvModel, want[j].ProvSession)
		}
	}
}

// Hit.Indexed gives the notes Hit.Note reads from their files, from the
// index, whatever their fields hold; a hit whose text the ranking did not
// read comes from its file.
func TestIndexedIsTheFile(t *testing.T) {
	if testing.Short() {
		t.Skip("a ranking rule over 600 notes, platform-independent (-short: over a minute under Wine)")
	}
	ctx := context.Background()
	s := open(t, t.TempDir())
	for i := range 600 { // enough notes for pruning, and "common" in every one
		n := note.New(note.Episodic, fmt.Sprintf("Filler note %d", i), "common words only")
		n.Project = "other"
		if _, err := s.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	a := note.New(note.Procedural, "Rotate the déploiement keys", "Steps:\n\n1. `make rotate` — twice.\n2. Check ☃ dashboards.\n\ncommon")
	a.Project, a.Tags, a.ProvModel, a.ProvSession, a.Confidence = "p", []string{"ops", "keys-rotation"}, "local/m", "sess-1", 0.75
	a.ProvSource = note.ProvSessionEnd
	b := note.New(note.Semantic, "Keys live in the vault", "The vault holds the déploiement keys.\ncommon")
	b.Project, b.Scope, b.MachineID = note.Global, note.MachineLocal, "box-2"
	for _, n := range []*note.Note{a, b} {
		if _, err := s.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.RefreshDF(ctx); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"déploiement keys", "rotate", "vault dashboards", "common"} {
		f := Filter{Project: "p", AndGlobal: true}
		hits, err := s.Search(ctx, Query{Text: q, Filter: f, K: 5})
		full := Notes(hits)
		if err != nil || len(full) == 0 {
			t.Fatalf("%q: %d %v", q, len(full), err)
		}
		sameNotes(t, q, full, indexedNotes(t, hits))
	}
	// "common" is in every note: the recency path, whose hits come from their files.
	if p, err := s.prune(ctx, []string{"common"}, nil); err != nil || len(p.ranked) != 0 {
		t.Fatalf("common: %+v %v", p, err)
	}
}

// TestPutLeavesDiskWhenIndexRefuses: the file is written while the index
// takes the note's rows; when the index refuses the note, before or after
// the file is in place, the disk is left as it was: no new file, the old
// text of an updated one.
func TestPutLeavesDiskWhenIndexRefuses(t *testing.T) {
	home := t.TempDir()
	s := open(t, home)
	ctx := context.Background()
	kept, err := s.Write(ctx, note.New(note.Semantic, "Kept as it was", "the first text"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, "memory", "semantic", kept.ID+".md")
	was, _ := os.ReadFile(path)
	// memories is written before the file is waited for, files after it.
	for _, table := range []string{"memories", "files"} {
		if _, err := s.db.ExecContext(ctx, "CREATE TRIGGER refuse BEFORE INSERT ON "+table+" BEGIN SELECT RAISE(ABORT, 'refused'); END"); err != nil {
			t.Fatal(err)
		}
		fresh := note.New(note.Semantic, "Never written", "text")
		if _, err := s.Write(ctx, fresh); err == nil || !strings.Contains(err.Error(), "refused") {
			t.Fatalf("%s: write of a new note: %v; want the index's refusal", table, err)
		}
		if entries, _ := os.ReadDir(filepath.Join(home, "memory", "semantic")); len(entries) != 1 {
			t.Errorf("%s: the refused new note's file exists: %v", table, entries)
		}
		upd, err := s.Get(ctx, kept.ID)
		if err != nil {
			t.Fatal(err)
		}
		upd.Body = "a second text"
		if err := s.Put(ctx, upd); err == nil {
			t.Fatalf("%s: update accepted", table)
		}
		if now, _ := os.ReadFile(path); string(now) != string(was) {
			t.Errorf("%s: the refused update changed the file:\n%s", table, now)
		}
		if _, err := s.db.ExecContext(ctx, "DROP TRIGGER refuse"); err != nil {
			t.Fatal(err)
		}
	}
}

// Text that is not UTF-8 (a --body-file in Latin-1, a stray byte in a tag)
// is refused before anything is written: the note's file would be one this
// store's reader (and the reference's) refuses, so the note it said it
// wrote would be listed as unreadable and gone from search after a reindex.
func TestWriteRefusesInvalidUTF8(t *testing.T) {
	s := open(t, t.TempDir())
	ctx := context.Background()
	for name, n := range map[string]*note.Note{
		"body":    note.New(note.Semantic, "t", "caf\xe9 au lait"),
		"tag":     {Type: note.Semantic, Title: "t", Body: "b", Tags: []string{"a\xffb"}},
		"project": {Type: note.Semantic, Title: "t", Body: "b", Project: "p\xff"},
	} {
		if _, err := s.Write(ctx, n); err == nil || !strings.Contains(err.Error(), "UTF-8") {
			t.Errorf("%s not UTF-8: err %v", name, err)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(s.Home(), "memory", note.Semantic))
	if len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
	if p, _ := s.Problems(ctx); len(p) != 0 {
		t.Errorf("problems: %v", p)
	}
}
