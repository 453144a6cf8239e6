package gitsync

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// TestStormRandomSeeds is the three-machine fault storm of issue 12: each
// round every machine writes notes (some as hand-named files), edits them,
// changes their type, moves them to machine-local and back, and deletes
// them, often the same note on two machines before either syncs, and
// leaves crash debris (a garbage index.db, a stale index.lock); then the
// machines sync one after another, all at once, or twice on one home at
// once. At the end every version no later edit or delete built on is in
// some note on every machine (on its own machine for a machine-local one),
// no id is held by two files on any machine, and every index agrees with
// the files.
//
// ANAMNESIS_STORM_SEEDS=N runs N seeds (default 3); ANAMNESIS_STORM_SEED=S
// runs only seed S; ANAMNESIS_STORM_ROUNDS=R sets the rounds per seed (default 5).
func TestStormRandomSeeds(t *testing.T) {
	needGit(t)
	isolateGit(t)
	seeds := 3
	if v, err := strconv.Atoi(os.Getenv("ANAMNESIS_STORM_SEEDS")); err == nil && v > 0 {
		seeds = v
	}
	rounds := 5
	if v, err := strconv.Atoi(os.Getenv("ANAMNESIS_STORM_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	first := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("ANAMNESIS_STORM_SEED"), 10, 64); err == nil {
		first, seeds = v, 1
	}
	for i := range seeds {
		seed := first + uint64(i)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Logf("ANAMNESIS_STORM_SEED=%d reproduces", seed)
			storm(t, seed, rounds)
		})
	}
}

// version is one text a note held: "v <token>".
type version struct {
	id     string
	parent string // the token this version replaced ("" for a new note)
	// localOn is the machine holding it machine-local ("" when portable).
	localOn string
}

func storm(t *testing.T, seed uint64, rounds int) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 7))
	remote := newRemote(t)
	homes := []*home{newHome(t, "alpha", remote), newHome(t, "beta", remote), newHome(t, "gamma", remote)}

	versions := map[string]*version{}
	builtOn := map[string]bool{} // tokens a later edit, move or delete replaced
	var originals []string
	counter := 0
	newTok := func() string { counter++; return fmt.Sprintf("qz%05dk", counter) }
	tokenOf := func(body string) string {
		f := strings.Fields(body)
		return f[len(f)-1]
	}
	stamp := func() time.Time { return time.Now().Add(time.Duration(rng.IntN(20)-10) * time.Second) }

	// present lists the test's notes a machine holds (either tree).
	present := func(h *home) []string {
		var ids []string
		for _, tree := range []string{"memory", "local"} {
			ps := notePaths(filepath.Join(h.dir, tree))
			for _, id := range originals {
				if len(ps[id]) > 0 && !slices.Contains(ids, id) {
					ids = append(ids, id)
				}
			}
		}
		return ids
	}
	write := func(h *home) {
		tok := newTok()
		typ := note.Types[rng.IntN(3)]
		var id string
		if rng.IntN(3) == 0 { // a hand-written file, not named <id>.md
			id = h.handNamed(typ, "hand-"+tok+".md", "v "+tok).ID
		} else {
			id = h.write(typ, "title "+tok, "v "+tok).ID
		}
		versions[tok] = &version{id: id}
		originals = append(originals, id)
	}
	// change edits, retypes or moves a note on h; each is a new version.
	change := func(h *home, id string) {
		st := h.store()
		defer st.Close()
		cur, err := st.Get(ctx, id)
		if err != nil {
			t.Fatalf("%s: get %s: %v", h.machine, id, err)
		}
		old := tokenOf(cur.Body)
		tok := newTok()
		cur.Body = "v " + tok
		cur.MachineID = h.machine
		cur.UpdatedAt = note.FormatTime(stamp())
		switch r := rng.IntN(10); {
		case r < 2:
			cur.Type = note.Types[rng.IntN(3)]
		case r < 4 && cur.Scope == note.Portable:
			cur.Scope = note.MachineLocal
		case r < 5 && cur.Scope == note.MachineLocal:
			cur.Scope = note.Portable
		}
		if err := st.Put(ctx, cur); err != nil {
			t.Fatal(err)
		}
		v := &version{id: id, parent: old}
		if cur.Scope == note.MachineLocal {
			v.localOn = h.machine
		}
		versions[tok] = v
		builtOn[old] = true
	}
	remove := func(h *home, id string) {
		st := h.store()
		defer st.Close()
		cur, err := st.Get(ctx, id)
		if err != nil {
			t.Fatalf("%s: get %s: %v", h.machine, id, err)
		}
		if err := st.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
		builtOn[tokenOf(cur.Body)] = true
	}
	act := func(h *home, id string) {
		if rng.IntN(8) == 0 {
			remove(h, id)
		} else {
			change(h, id)
		}
	}

	var mu sync.Mutex
	kinds := map[string]int{} // conflicts met, by kind
	syncOne := func(h *home, lockWait time.Duration) {
		o := h.opts()
		o.LockWait = lockWait
		r, err := Sync(ctx, o)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("%s: sync: %v (%s)", h.machine, err, r.Line())
		}
		for _, c := range r.Conflicts {
			kinds[c.Kind]++
		}
	}
	for round := range rounds {
		for _, h := range homes {
			for range 1 + rng.IntN(2) {
				write(h)
			}
			ids := present(h)
			for range rng.IntN(3) {
				if len(ids) > 0 {
					act(h, ids[rng.IntN(len(ids))])
					ids = present(h)
				}
			}
		}
		// Crash debris: an index.db overwritten with garbage, an index.lock
		// a killed git left behind. The next open and sync must cope.
		for _, h := range homes {
			switch rng.IntN(12) {
			case 0:
				db := filepath.Join(h.dir, "index.db")
				os.Remove(db + "-wal")
				os.Remove(db + "-shm")
				os.WriteFile(db, []byte(strings.Repeat("garbage ", 64)), 0o644)
			case 1:
				os.WriteFile(filepath.Join(h.dir, "memory", ".git", "index.lock"), nil, 0o644)
			}
		}
		// The same note changed on two machines before either syncs.
		for range 2 + rng.IntN(2) {
			a, b := homes[rng.IntN(3)], homes[rng.IntN(3)]
			if shared := intersect(present(a), present(b)); a != b && len(shared) > 0 {
				id := shared[rng.IntN(len(shared))]
				act(a, id)
				if slices.Contains(present(b), id) {
					act(b, id)
				}
			}
		}
		order := slices.Clone(homes)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		switch rng.IntN(3) {
		case 0:
			for _, h := range order {
				syncOne(h, 10*time.Second)
			}
		case 1:
			var wg sync.WaitGroup
			for _, h := range order {
				wg.Go(func() { syncOne(h, 10*time.Second) })
			}
			wg.Wait()
		case 2:
			var wg sync.WaitGroup
			for range 2 {
				wg.Go(func() { syncOne(order[0], 10*time.Second) })
			}
			wg.Wait()
			for _, h := range order[1:] {
				syncOne(h, 10*time.Second)
			}
		}
		if t.Failed() {
			t.Fatalf("round %d failed", round)
		}
	}
	for range 2 {
		for _, h := range homes {
			syncOne(h, 10*time.Second)
		}
	}

	want := homes[0].files()
	for _, h := range homes {
		h.assertClean()
		if got := h.files(); !mapsEqual(got, want) {
			t.Errorf("%s: portable files differ from %s's (%d vs %d)", h.machine, homes[0].machine, len(got), len(want))
		}
		if dup := idsInTwoFiles(h); len(dup) > 0 {
			t.Errorf("%s: ids held by two files: %v", h.machine, dup)
		}
	}
	texts := map[string]string{} // machine -> every note's text, both trees
	for _, h := range homes {
		var b strings.Builder
		for _, tree := range []string{"memory", "local"} {
			for _, paths := range notePaths(filepath.Join(h.dir, tree)) {
				for _, p := range paths {
					data, _ := os.ReadFile(p)
					b.Write(data)
				}
			}
		}
		texts[h.machine] = b.String()
	}
	leaves := 0
	for tok, v := range versions {
		if builtOn[tok] {
			continue
		}
		leaves++
		for _, h := range homes {
			if v.localOn != "" && v.localOn != h.machine {
				continue
			}
			if !strings.Contains(texts[h.machine], "v "+tok+"\n") {
				t.Errorf("%s: version %s of note %s (machine-local on %q) is in no note", h.machine, tok, v.id, v.localOn)
			}
		}
	}
	for _, h := range homes {
		st := h.store()
		files := 0
		for _, tree := range []string{"memory", "local"} {
			for _, paths := range notePaths(filepath.Join(h.dir, tree)) {
				files += len(paths)
			}
		}
		if c, _ := st.Count(ctx, store.Filter{}); c != files {
			t.Errorf("%s: the index holds %d notes, the files %d", h.machine, c, files)
		}
		st.Close()
	}
	t.Logf("%d notes, %d versions, %d leaves; conflicts by kind: %v", len(originals), len(versions), leaves, kinds)
}
