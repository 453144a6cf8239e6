package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// dumpRows lists the indexed rows in a form independent of rowids, except
// that each full-text row must sit at its memories row's rowid.
func dumpRows(t *testing.T, s *Store) []string {
	t.Helper()
	return queryRows(t, s,
		`SELECT 'mem', id, type, title, body_path, project, machine_id, scope, created_at, updated_at, prov_source,
			coalesce(prov_model, '-'), coalesce(prov_session, '-'), confidence, coalesce(supersedes, '-') FROM memories ORDER BY id`,
		"SELECT 'tag', memory_id, tag FROM memory_tags ORDER BY 2, 3",
		"SELECT 'sup', memory_id, target FROM superseded ORDER BY 2, 3",
		"SELECT 'file', path, coalesce(id, '-'), size, mtime, coalesce(tags, '-'), coalesce(error, '-') FROM files ORDER BY path",
		"SELECT 'fts', m.id, f.id, f.title, f.body, f.tags FROM memories_fts f JOIN memories m ON m.rowid = f.rowid ORDER BY m.id",
		"SELECT 'match', m.id FROM memories_fts f JOIN memories m ON m.rowid = f.rowid WHERE memories_fts MATCH 'zebracorn' ORDER BY m.id",
	)
}

// A full rebuild inserts its rows in batches (batch.go); the rows must be
// those the row-at-a-time path (an incremental reindex of the same files)
// leaves: tags with duplicates, supersedes lists, files that cannot be read,
// duplicate ids, more notes than one batch.
func TestFullRebuildSameRowsAsIncremental(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	s := open(t, home) // empty: the files below are indexed incrementally
	src := copyTree(t, refStore+"/store")
	if err := os.CopyFS(home, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	sem := filepath.Join(home, "memory", "semantic")
	files := map[string]string{
		"nofm.md":    "just some text\n",
		"badtype.md": "---\nid: 01BADTYPE0000000000000000\ntype: opinion\ntitle: x\n---\nbody\n",
		"dupTags.md": "---\nid: 01DUPTAGS000000000000000000\ntype: semantic\ntitle: dup tags\ntags:\n- a\n- a\n- b\n---\nzebracorn\n",
		"sup.md":     "---\nid: 01SUPERSEDES00000000000000\ntype: semantic\ntitle: newer\nsupersedes:\n- 01X\n- 01Y\n---\nzebracorn\n",
		"dupid1.md":  "---\nid: 01DUPID0000000000000000000\ntype: semantic\ntitle: one\n---\nzebracorn one\n",
		"dupid2.md":  "---\nid: 01DUPID0000000000000000000\ntype: semantic\ntitle: two\n---\nzebracorn two\n",
	}
	for i := range 3 * batchNotes {
		files[fmt.Sprintf("gen%03d.md", i)] = fmt.Sprintf("---\nid: 01GEN%021d\ntype: episodic\ntitle: generated %d\ntags:\n- t%d\n- gen\n---\nzebracorn %s\n",
			i, i, i%5, strings.Repeat("word ", i%40))
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(sem, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	want := dumpRows(t, s)
	if r, err := s.Reindex(ctx, true); err != nil || r.Skipped != 3 {
		t.Fatalf("Reindex(full) = %+v, %v; want 3 files skipped", r, err)
	}
	got := dumpRows(t, s)
	if !slices.Equal(got, want) {
		for i := range max(len(got), len(want)) {
			g, w := "<none>", "<none>"
			if i < len(got) {
				g = got[i]
			}
			if i < len(want) {
				w = want[i]
			}
			if g != w {
				t.Fatalf("row %d after a full rebuild:\n%s\nafter an incremental reindex:\n%s", i, g, w)
			}
		}
	}
	if len(want) < 3*batchNotes*4 {
		t.Fatalf("only %d rows compared", len(want))
	}
}
