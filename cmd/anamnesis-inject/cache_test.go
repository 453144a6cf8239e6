package main

import (
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/blockcache"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// cacheHome is a store with notes in two projects and the global one.
func cacheHome(t *testing.T) (string, *store.Store) {
	t.Helper()
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "")
	home := t.TempDir()
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	putNote(t, st, "Global rule", note.Global, note.Procedural, "Always run the tests.", "2026-01-01T00:00:00+00:00", nil)
	putNote(t, st, "Alpha fact", "alpha", note.Semantic, "Alpha uses Postgres.", "2026-01-02T00:00:00+00:00", nil)
	putNote(t, st, "Beta fact", "beta", note.Semantic, "Beta uses Redis.", "2026-01-03T00:00:00+00:00", nil)
	return home, st
}

// blocks returns what inject prints for project through the cache, then
// what it prints computed from the index with the cache removed; the two
// must be equal. The cache is left filled for the next step.
func blocks(t *testing.T, home, project string) string {
	t.Helper()
	cached, _, _ := runInject(t, home, nil, "--project", project)
	if err := blockcache.Clear(home); err != nil {
		t.Fatal(err)
	}
	computed, _, _ := runInject(t, home, nil, "--project", project)
	if cached != computed {
		t.Fatalf("cached block differs from the computed one for %s:\n--- cached\n%s\n--- computed\n%s", project, cached, computed)
	}
	return computed
}

// cacheFile is the one block file saved so far for project (after blocks).
func cacheFile(t *testing.T, home string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(home, "cache", "inject", "*"))
	var out []string
	for _, p := range m {
		if !strings.Contains(filepath.Base(p), ".tmp-") {
			out = append(out, p)
		}
	}
	if len(out) != 1 {
		t.Fatalf("want one cached block, have %v", out)
	}
	return out[0]
}

// Each kind of write changes the block; the next session must print the
// new one, byte for byte what the index gives.
func TestCachedBlockFollowsEveryWrite(t *testing.T) {
	ctx := context.Background()
	home, st := cacheHome(t)
	before := blocks(t, home, "alpha")
	step := func(name string, write func()) {
		t.Helper()
		write()
		after := blocks(t, home, "alpha")
		if after == before {
			t.Fatalf("%s: the block did not change; the step tests nothing", name)
		}
		before = after
	}
	var written *note.Note
	step("write (capture, anamnesis write, MCP memory_write, dashboard new)", func() {
		n, err := st.Write(ctx, note.New(note.Semantic, "Alpha deploys", "Alpha deploys on Fridays."))
		if err != nil {
			t.Fatal(err)
		}
		n.Project = "alpha"
		if err := st.Put(ctx, n); err != nil {
			t.Fatal(err)
		}
		written = n
	})
	step("put (dashboard edit, import, capture's reflection)", func() {
		written.Body = "Alpha deploys on Mondays."
		written.UpdatedAt = note.Now()
		if err := st.Put(ctx, written); err != nil {
			t.Fatal(err)
		}
	})
	step("a note moved to another project", func() {
		written.Project = "beta"
		if err := st.Put(ctx, written); err != nil {
			t.Fatal(err)
		}
	})
	step("global note written", func() {
		putNote(t, st, "Global style", note.Global, note.Semantic, "Tabs, not spaces.", "2026-01-05T00:00:00+00:00", nil)
	})
	var beta string
	step("a beta note supersedes an alpha one", func() {
		alpha, err := st.List(ctx, store.Filter{Project: "alpha"})
		if err != nil || len(alpha) == 0 {
			t.Fatal(err, alpha)
		}
		n := note.New(note.Semantic, "Beta replaces", "Superseding across projects.")
		n.Project = "beta"
		n.Supersedes = []string{alpha[len(alpha)-1].ID}
		w, err := st.Write(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		beta = w.ID
	})
	step("delete (anamnesis rm, dashboard delete)", func() {
		if err := st.Delete(ctx, beta); err != nil {
			t.Fatal(err)
		}
	})
	step("hand edit, then reindex", func() {
		alpha, _ := st.List(ctx, store.Filter{Project: "alpha"})
		p, err := st.Path(ctx, alpha[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(p)
		edited := strings.Replace(string(data), "title: Alpha fact", "title: Alpha fact, renamed by hand", 1)
		if edited == string(data) {
			t.Fatalf("no title line in %s", data)
		}
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := st.Reindex(ctx, false); err != nil {
			t.Fatal(err)
		}
	})
	step("hand edit of a shown note's body, no reindex", func() {
		alpha, _ := st.List(ctx, store.Filter{Project: "alpha"})
		p, _ := st.Path(ctx, alpha[0].ID)
		data, _ := os.ReadFile(p)
		// Same length, so only the modification time and content differ.
		edited := strings.Replace(string(data), "Postgres", "Postgrex", 1)
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(2 * time.Second)
		os.Chtimes(p, later, later)
	})
	step("full reindex after a hand delete", func() {
		alpha, _ := st.List(ctx, store.Filter{Project: "alpha"})
		p, _ := st.Path(ctx, alpha[0].ID)
		os.Remove(p)
		if _, err := st.Reindex(ctx, true); err != nil {
			t.Fatal(err)
		}
	})
}

// A write in one project leaves another project's cached block in place.
func TestWriteInOtherProjectKeepsBlock(t *testing.T) {
	home, st := cacheHome(t)
	blocks(t, home, "alpha")
	runInject(t, home, nil, "--project", "alpha") // saved again after blocks' check
	f := cacheFile(t, home)
	before, _ := os.Stat(f)
	putNote(t, st, "Beta more", "beta", note.Semantic, "More beta.", "2026-01-09T00:00:00+00:00", nil)
	time.Sleep(10 * time.Millisecond)
	runInject(t, home, nil, "--project", "alpha")
	after, err := os.Stat(f)
	if err != nil || !after.ModTime().Equal(before.ModTime()) {
		t.Fatalf("alpha's block was recomputed after a write in beta (%v)", err)
	}
	putNote(t, st, "Global more", note.Global, note.Semantic, "More global.", "2026-01-09T00:00:00+00:00", nil)
	out, _, _ := runInject(t, home, nil, "--project", "alpha")
	if !strings.Contains(out, "More global.") {
		t.Fatalf("a global write did not reach alpha's block:\n%s", out)
	}
}

// A sync that pulls a global note written on another machine changes the
// block on this one.
func TestCachedBlockAfterSyncPull(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	ctx := context.Background()
	remote := filepath.Join(t.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "--bare", "-q", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	homeA, stA := cacheHome(t)
	syncA := func() {
		if _, err := gitsync.Sync(ctx, gitsync.Options{Home: homeA, MachineID: "a", Remote: remote, Store: stA}); err != nil {
			t.Fatal(err)
		}
	}
	syncA()
	homeB := t.TempDir()
	stB, err := store.Open(ctx, homeB)
	if err != nil {
		t.Fatal(err)
	}
	defer stB.Close()
	syncB := func() {
		if _, err := gitsync.Sync(ctx, gitsync.Options{Home: homeB, MachineID: "b", Remote: remote, Store: stB}); err != nil {
			t.Fatal(err)
		}
	}
	syncB()
	before := blocks(t, homeB, "alpha")
	if !strings.Contains(before, "Alpha uses Postgres.") {
		t.Fatalf("B did not get A's notes:\n%s", before)
	}
	putNote(t, stA, "Pulled rule", note.Global, note.Procedural, "Pulled from A.", "2026-02-01T00:00:00+00:00", nil)
	syncA()
	runInject(t, homeB, nil, "--project", "alpha") // cache filled before the pull
	syncB()
	// The sync rendered the block again: the next session finds it current.
	if b, ok := blockcache.Open(homeB, blockcache.Key{Project: "alpha", K: 8, Budget: 9500}).Cached(); !ok || !strings.Contains(b.Text, "Pulled from A.") {
		t.Errorf("after the pull the block is not cached anew (cached: %v):\n%s", ok, b.Text)
	}
	after := blocks(t, homeB, "alpha")
	if !strings.Contains(after, "Pulled from A.") {
		t.Fatalf("the pulled global note is not in B's block:\n%s", after)
	}
}

// A cache file that is stale, corrupt, truncated or for another key is
// never printed: the block is computed instead.
func TestBadCacheNeverPrinted(t *testing.T) {
	home, _ := cacheHome(t)
	good := blocks(t, home, "alpha")
	runInject(t, home, nil, "--project", "alpha")
	f := cacheFile(t, home)
	orig, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]string{
		"body changed":       strings.Replace(string(orig), "Alpha uses Postgres.", "Alpha uses Oracle!!", 1),
		"truncated":          string(orig[:len(orig)-5]),
		"garbage":            "\x00\x01garbage",
		"empty":              "",
		"stale stamp":        restamp(t, string(orig)),
		"header only":        string(orig[:strings.Index(string(orig), "\nblock ")+1]),
		"another project":    strings.Replace(string(orig), `"alpha"`, `"beta"`, 1),
		"extra trailing ...": string(orig) + "extra",
	} {
		if err := os.WriteFile(f, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		out, _, _ := runInject(t, home, nil, "--project", "alpha")
		if out != good {
			t.Errorf("%s: inject printed\n%s\nwant\n%s", name, out, good)
		}
	}
}

// restamp keeps the block and its checksum layout but claims other stamps,
// with a checksum recomputed so only the stamp check can catch it.
func restamp(t *testing.T, s string) string {
	t.Helper()
	i := strings.Index(s, "\nstamp ")
	j := strings.Index(s[i+1:], "\n")
	s = s[:i+1] + "stamp 0 0" + s[i+1+j:]
	k := strings.Index(s, "\nblock ")
	nl := k + 1 + strings.Index(s[k+1:], "\n")
	head, block := s[:k+1], s[nl+1:]
	return fmt.Sprintf("%sblock %d %d\n%s", head, len(block), crc32.ChecksumIEEE([]byte(head+block)), block)
}

// A current block is printed by the hook alone; computing one takes the
// anamnesis command, and without it the hook prints nothing and says why.
func TestHitNeedsNoRenderer(t *testing.T) {
	home, _ := cacheHome(t)
	want := blocks(t, home, "alpha")
	t.Setenv("PATH", t.TempDir())
	got, _, _ := runInject(t, home, nil, "--project", "alpha")
	if got != want {
		t.Fatalf("cache hit printed:\n%s\nwant:\n%s", got, want)
	}
	blockcache.Clear(home)
	got, _, log := runInject(t, home, nil, "--project", "alpha")
	if got != "" || !strings.Contains(log, "anamnesis command, which computes it, is not installed") {
		t.Fatalf("miss without anamnesis printed %q; log:\n%s", got, log)
	}
}
