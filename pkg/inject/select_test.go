package inject

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/screen"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

type fixture struct {
	st   *store.Store
	ids  map[string]string // name -> id
	base time.Time
}

// put stores a note named name, updated minute minutes after the fixture's
// base time.
func (f *fixture) put(t *testing.T, name, project, typ string, minute int, edit func(*note.Note)) {
	t.Helper()
	n := note.New(typ, "Note "+name, "Body of "+name+". "+strings.Repeat("word ", 40))
	n.ID = note.NewID()
	n.Project = project
	at := note.FormatTime(f.base.Add(time.Duration(minute) * time.Minute))
	n.CreatedAt, n.UpdatedAt = at, at
	if edit != nil {
		edit(n)
	}
	if err := f.st.Put(context.Background(), n); err != nil {
		t.Fatal(err)
	}
	f.ids[name] = n.ID
}

func (f *fixture) names(ids []string) []string {
	var out []string
	for _, id := range ids {
		for name, v := range f.ids {
			if v == id {
				out = append(out, name)
			}
		}
	}
	return out
}

// newFixture: two global notes; in project p four durable notes, three
// episodics, and one of each rule's exclusions: a superseded note, a
// reflected episodic, a held note, the newest of all.
func newFixture(t *testing.T) *fixture {
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{st: st, ids: map[string]string{}, base: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	f.put(t, "g-old", note.Global, note.Semantic, 1, nil)
	f.put(t, "g-new", note.Global, note.Procedural, 2, nil)
	f.put(t, "d1", "p", note.Semantic, 10, nil)
	f.put(t, "d2", "p", note.Procedural, 11, nil)
	f.put(t, "d3", "p", note.Semantic, 12, nil)
	f.put(t, "d-old", "p", note.Semantic, 13, nil)
	f.put(t, "d4", "p", note.Semantic, 14, func(n *note.Note) { n.Supersedes = []string{f.ids["d-old"]} })
	f.put(t, "e1", "p", note.Episodic, 20, nil)
	f.put(t, "e2", "p", note.Episodic, 21, func(n *note.Note) { n.ProvSession = "sess-2" })
	f.put(t, "e3", "p", note.Episodic, 22, nil)
	f.put(t, "e-reflected", "p", note.Episodic, 23, func(n *note.Note) { n.Tags = []string{"reflected"} })
	f.put(t, "held", "p", note.Semantic, 30, func(n *note.Note) { n.Tags = []string{screen.Tag, screen.ReasonPrefix + "override"} })
	f.put(t, "other", "q", note.Semantic, 40, nil)
	return f
}

// TestSelection is seed 001's selection: every global note newest first,
// then k project notes of which up to two are the newest episodics, the
// rest the newest durable notes; superseded notes, reflected episodics,
// held notes and other projects' notes never.
func TestSelection(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	for _, c := range []struct {
		k    int
		want []string
	}{
		{3, []string{"g-new", "g-old", "d4", "e3", "e2"}},
		{4, []string{"g-new", "g-old", "d4", "d3", "e3", "e2"}},
		{1, []string{"g-new", "g-old", "e3"}},
		{0, []string{"g-new", "g-old"}},
		{20, []string{"g-new", "g-old", "d4", "d3", "d2", "d1", "e3", "e2"}},
	} {
		res, err := Block(ctx, f.st, "p", c.k, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.names(res.IDs); !slices.Equal(got, c.want) {
			t.Errorf("k=%d: block shows %v, want %v", c.k, got, c.want)
		}
		if res.Selected != len(c.want) || res.Cut != 0 || res.Left != 0 {
			t.Errorf("k=%d: selected %d cut %d left %d, want %d 0 0", c.k, res.Selected, res.Cut, res.Left, len(c.want))
		}
		if !strings.HasPrefix(res.Block, Lead) {
			t.Errorf("k=%d: block does not open with the lead:\n%s", c.k, res.Block)
		}
		for _, name := range []string{"held", "d-old", "e-reflected", "other", "e1"} {
			if strings.Contains(res.Block, "Note "+name+"\n") || strings.Contains(res.Block, "Body of "+name+".") {
				t.Errorf("k=%d: block shows %s:\n%s", c.k, name, res.Block)
			}
		}
	}
	// The session's own note is left out after its compaction; the next
	// episodic takes its place.
	res, err := BlockWithout(ctx, f.st, "p", 3, 0, "sess-2", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.names(res.IDs), []string{"g-new", "g-old", "d4", "e3", "e1"}; !slices.Equal(got, want) {
		t.Errorf("without sess-2: %v, want %v", got, want)
	}
}

// TestBudget: a block never exceeds its budget (UTF-16 units, as Claude
// Code counts), says what it cut or left out, and keeps the selection's
// order; 0 means unlimited.
func TestBudget(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	full, err := Block(ctx, f.st, "p", 3, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{hook.Width(full.Block) - 1, hook.Width(full.Block) / 2, 900, 400} {
		res, err := Block(ctx, f.st, "p", 3, budget, nil)
		if err != nil {
			t.Fatal(err)
		}
		if w := hook.Width(res.Block); w > budget {
			t.Errorf("budget %d: block is %d wide", budget, w)
		}
		if res.Cut+res.Left == 0 {
			t.Errorf("budget %d (full block %d): nothing cut or left out", budget, hook.Width(full.Block))
		}
		if res.Selected != full.Selected {
			t.Errorf("budget %d: selected %d, want %d", budget, res.Selected, full.Selected)
		}
		// What is shown keeps the selection's order.
		if !subsequence(res.IDs, full.IDs) || len(res.IDs) == 0 {
			t.Errorf("budget %d: shows %v, not in the order of %v", budget, f.names(res.IDs), f.names(full.IDs))
		}
	}
	if res, _ := Block(ctx, f.st, "p", 3, hook.Width(full.Block), nil); res.Block != full.Block {
		t.Errorf("a budget of exactly the block's width changed it")
	}
}

func subsequence(sub, of []string) bool {
	i := 0
	for _, s := range of {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}
