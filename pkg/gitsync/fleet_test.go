package gitsync

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// TestFleetRandomRounds is three machines sharing one bare remote: every
// round each writes and edits notes (sometimes the same note on two
// machines, sometimes changing a note's type), then they sync in a random
// order, sometimes all at once, sometimes twice on one home at the same
// time. Every version of a note that no later edit built on (a "leaf") must
// survive on every machine, in place or as a conflict note naming the
// original; every note must be found by every index; no repository may be
// left mid-merge.
//
// ANAMNESIS_FLEET_ROUNDS and ANAMNESIS_FLEET_SEED reproduce or lengthen a run.
func TestFleetRandomRounds(t *testing.T) {
	needGit(t)
	isolateGit(t)
	rounds := 12
	if v, err := strconv.Atoi(os.Getenv("ANAMNESIS_FLEET_ROUNDS")); err == nil && v > 0 {
		rounds = v
	}
	seed := uint64(time.Now().UnixNano())
	if v, err := strconv.ParseUint(os.Getenv("ANAMNESIS_FLEET_SEED"), 10, 64); err == nil {
		seed = v
	}
	t.Logf("seed %d, %d rounds (ANAMNESIS_FLEET_SEED=%d reproduces)", seed, rounds, seed)
	rng := rand.New(rand.NewPCG(seed, 1))

	remote := newRemote(t)
	homes := []*home{newHome(t, "alpha", remote), newHome(t, "beta", remote), newHome(t, "gamma", remote)}

	// Version bookkeeping: every body is "v <token>"; an edit records the
	// token it replaced as its parent.
	parent := map[string]string{}
	noteOf := map[string]string{}
	var originals []string
	counter := 0
	newTok := func() string { counter++; return fmt.Sprintf("qz%05dk", counter) }
	tokenOf := func(body string) string {
		f := strings.Fields(body)
		return f[len(f)-1]
	}
	// Timestamps jitter so that either side of a conflict may win.
	stamp := func() time.Time { return time.Now().Add(time.Duration(rng.IntN(20)-10) * time.Second) }

	edit := func(h *home, id string) {
		cur := h.get(id)
		tok := newTok()
		parent[tok] = tokenOf(cur.Body)
		noteOf[tok] = id
		cur.Body = "v " + tok
		cur.MachineID = h.machine
		cur.UpdatedAt = note.FormatTime(stamp())
		if rng.IntN(7) == 0 { // a type change moves the file
			cur.Type = note.Types[rng.IntN(len(note.Types))]
		}
		st := h.store()
		if err := st.Put(context.Background(), cur); err != nil {
			t.Fatal(err)
		}
		st.Close()
	}
	known := func(h *home) []string {
		ns := h.notes()
		var ids []string
		for _, id := range originals {
			if ns[id] != nil {
				ids = append(ids, id)
			}
		}
		return ids
	}

	var conflicts, skipped int
	var mu sync.Mutex
	syncOne := func(h *home, lockWait time.Duration) {
		o := h.opts()
		o.LockWait = lockWait
		r, err := Sync(context.Background(), o)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.Errorf("%s: sync: %v (%s)", h.machine, err, r.Line())
			return
		}
		if r.Skipped {
			skipped++
		}
		conflicts += len(r.ConflictIDs)
	}

	for round := range rounds {
		for _, h := range homes {
			for range rng.IntN(3) {
				tok := newTok()
				n := h.write(note.Types[rng.IntN(3)], "title "+tok, "v "+tok)
				parent[tok], noteOf[tok] = "", n.ID
				originals = append(originals, n.ID)
			}
			ids := known(h)
			for range rng.IntN(3) {
				if len(ids) > 0 {
					edit(h, ids[rng.IntN(len(ids))])
				}
			}
		}
		// The same note edited on two machines before either syncs.
		if rng.IntN(2) == 0 {
			a, b := homes[rng.IntN(3)], homes[rng.IntN(3)]
			if a != b {
				if shared := intersect(known(a), known(b)); len(shared) > 0 {
					id := shared[rng.IntN(len(shared))]
					edit(a, id)
					edit(b, id)
				}
			}
		}
		order := slices.Clone(homes)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		switch mode := rng.IntN(3); mode {
		case 0: // one after another
			for _, h := range order {
				syncOne(h, 10*time.Second)
			}
		case 1: // all at once: pushes race and lose, and retry
			var wg sync.WaitGroup
			for _, h := range order {
				wg.Go(func() { syncOne(h, 10*time.Second) })
			}
			wg.Wait()
		case 2: // two syncs of one home at the same time, then the rest
			var wg sync.WaitGroup
			wait := []time.Duration{10 * time.Second, 50 * time.Millisecond}[rng.IntN(2)]
			for range 2 {
				wg.Go(func() { syncOne(order[0], wait) })
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
	// Settle: two quiet passes bring every machine to the same state.
	for range 2 {
		for _, h := range homes {
			syncOne(h, 10*time.Second)
		}
	}
	t.Logf("%d notes, %d versions, %d conflict copies, %d skipped syncs", len(originals), len(parent), conflicts, skipped)

	want := homes[0].files()
	for _, h := range homes {
		h.assertClean()
		if h.head() != homes[0].head() {
			t.Errorf("%s: head differs from %s", h.machine, homes[0].machine)
		}
		if got := h.files(); !mapsEqual(got, want) {
			t.Errorf("%s: files differ from %s (%d vs %d)", h.machine, homes[0].machine, len(got), len(want))
		}
	}
	isParent := map[string]bool{}
	for _, p := range parent {
		isParent[p] = true
	}
	for _, h := range homes {
		ns := h.notes()
		holder := map[string]*note.Note{}
		for _, n := range ns {
			holder[tokenOf(n.Body)] = n
		}
		for _, id := range originals {
			if ns[id] == nil {
				t.Errorf("%s: note %s lost", h.machine, id)
			}
		}
		for tok, id := range noteOf {
			if isParent[tok] {
				continue // a later edit built on it: replacing it was the user's intent
			}
			n := holder[tok]
			switch {
			case n == nil:
				t.Errorf("%s: version %s of note %s lost", h.machine, tok, id)
			case n.ID != id && (!n.HasTag("conflict") || !strings.Contains(firstLine(n.Body), id)):
				t.Errorf("%s: version %s of %s is in %s, which is not a conflict note naming it", h.machine, tok, id, n.ID)
			}
		}
		st := h.store()
		for _, n := range ns {
			hits, err := st.Search(context.Background(), store.Query{Text: tokenOf(n.Body), K: 10})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(hits, func(x store.Hit) bool { return x.ID == n.ID }) {
				t.Errorf("%s: the index does not find note %s by %q", h.machine, n.ID, tokenOf(n.Body))
			}
		}
		if c, _ := st.Count(context.Background(), store.Filter{}); c != len(ns) {
			t.Errorf("%s: index holds %d notes, files %d", h.machine, c, len(ns))
		}
		st.Close()
	}
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestWritesDuringSync writes and rewrites notes on a home while it syncs
// over and over against a second machine that is pushing too, the way
// captures and MCP writes land during a background sync. Nothing written
// may be lost and every sync must succeed.
func TestWritesDuringSync(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	a, b := newHome(t, "alpha", remote), newHome(t, "beta", remote)
	a.write(note.Semantic, "seed", "seed")
	a.sync()
	b.sync()
	var wg sync.WaitGroup
	done := make(chan struct{})
	var mu sync.Mutex
	written := map[string]string{} // id -> last body written
	wg.Go(func() {
		defer close(done)
		st, err := store.Open(context.Background(), a.dir)
		if err != nil {
			t.Error(err)
			return
		}
		defer st.Close()
		var mine []string
		for i := range 40 {
			if i%3 == 2 && len(mine) > 0 {
				id := mine[i%len(mine)]
				n, err := st.Get(context.Background(), id)
				if err != nil {
					t.Error(err)
					return
				}
				n.Body = fmt.Sprintf("rewritten %d", i)
				n.UpdatedAt = note.Now()
				if err := st.Put(context.Background(), n); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				written[id] = n.Body
				mu.Unlock()
			} else {
				n, err := st.Write(context.Background(), note.New(note.Episodic, fmt.Sprintf("w%d", i), fmt.Sprintf("written %d", i)))
				if err != nil {
					t.Error(err)
					return
				}
				mine = append(mine, n.ID)
				mu.Lock()
				written[n.ID] = n.Body
				mu.Unlock()
			}
			time.Sleep(15 * time.Millisecond)
		}
	})
	loop := func(h *home, write bool) {
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			if write {
				n := h.write(note.Semantic, fmt.Sprintf("%s %d", h.machine, i), "from "+h.machine)
				mu.Lock()
				written[n.ID] = n.Body
				mu.Unlock()
			}
			if r, err := Sync(context.Background(), h.opts()); err != nil {
				t.Errorf("%s: %v (%s)", h.machine, err, r.Line())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	wg.Go(func() { loop(a, false) })
	wg.Go(func() { loop(b, true) })
	wg.Wait()
	for range 2 {
		a.sync()
		b.sync()
	}
	for _, h := range []*home{a, b} {
		ns := h.notes()
		for id, body := range written {
			if ns[id] == nil {
				t.Errorf("%s: note %s lost", h.machine, id)
			} else if ns[id].Body != body {
				t.Errorf("%s: note %s has %q, want the last write %q", h.machine, id, ns[id].Body, body)
			}
		}
		h.assertClean()
	}
}
