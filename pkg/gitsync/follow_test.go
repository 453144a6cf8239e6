package gitsync

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// After its first cycle, a sync's index step reads only the note files git
// reports changed since the commit the index last followed (a pull's new,
// edited and deleted notes, the commit of an edit made by hand), not every
// file of the store: touching every file without changing one makes no
// re-read, where a walk re-read them all.
func TestSyncIndexesWhatGitChanged(t *testing.T) {
	needGit(t)
	isolateGit(t)
	ctx := context.Background()
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	var ns []*note.Note
	for i := range 5 {
		ns = append(ns, a.write(note.Semantic, "Note "+string(rune('a'+i)), "kept text walrus"+string(rune('a'+i))))
	}
	a.sync()
	if r := b.sync(); r.Pulled == 0 || r.Indexed != 5 {
		t.Fatalf("beta's first sync: %s", r.Line())
	}

	// Every file touched, none changed: git reports nothing.
	later := time.Now().Add(time.Hour)
	for _, n := range ns {
		if err := os.Chtimes(filepath.Join(b.dir, "memory", note.Semantic, n.ID+".md"), later, later); err != nil {
			t.Fatal(err)
		}
	}
	if r := b.sync(); r.Reindexed != 0 || r.Indexed != 5 {
		t.Errorf("a sync after touching every file re-read %d (indexed %d): %s", r.Reindexed, r.Indexed, r.Line())
	}

	// A new note, an edit and a deletion on alpha; an edit by hand on beta.
	added := a.write(note.Procedural, "Release steps", "tag then push narwhal")
	a.edit(ns[1].ID, "edited text on alpha", time.Now())
	st := a.store()
	if err := st.Delete(ctx, ns[2].ID); err != nil {
		t.Fatal(err)
	}
	st.Close()
	a.sync()
	hand := filepath.Join(b.dir, "memory", note.Semantic, ns[3].ID+".md")
	data, err := os.ReadFile(hand)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hand, append(data, []byte("\nAdded by hand: okapi.\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	r := b.sync()
	if r.Pulled == 0 || r.Reindexed != 3 || r.Indexed != 5 {
		t.Errorf("beta's sync of a pull and a hand edit: re-read %d, indexed %d, want 3 and 5: %s", r.Reindexed, r.Indexed, r.Line())
	}
	bs := b.store()
	defer bs.Close()
	for _, c := range []struct {
		q    string
		want string
	}{{"narwhal", added.ID}, {"edited", ns[1].ID}, {"okapi", ns[3].ID}, {"walrusc", ""}, {"walrusa", ns[0].ID}} {
		hits, err := bs.Search(ctx, store.Query{Text: c.q, K: 5})
		if err != nil || (c.want == "") != (len(hits) == 0) || (c.want != "" && (len(hits) != 1 || hits[0].ID != c.want)) {
			t.Errorf("search %q on beta: %v %v, want %q", c.q, hits, err, c.want)
		}
	}
	b.assertClean()
}

// A sync merges the small full-text segments the writes since the last
// one left (each write makes one, and FTS5's own merging waits for 64
// pages of them), off any hook's path.
func TestSyncMergesSmallSegments(t *testing.T) {
	needGit(t)
	isolateGit(t)
	a := newHome(t, "alpha", newRemote(t))
	for i := range 6 {
		a.write(note.Semantic, "Note "+string(rune('a'+i)), "kept text walrus"+string(rune('a'+i)))
	}
	segments := func() int {
		t.Helper()
		db, err := sql.Open("sqlite", "file:"+filepath.Join(a.dir, "index.db")+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var n int
		if err := db.QueryRow("SELECT count(DISTINCT segid) FROM memories_fts_idx").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := segments()
	a.sync()
	if after := segments(); before < 6 || after > 2 {
		t.Errorf("full-text segments %d before the sync, %d after; want at least 6, then at most 2", before, after)
	}
}
