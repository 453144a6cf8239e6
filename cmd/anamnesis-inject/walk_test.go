package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/inject"
	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/project"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/pkg/walktest"
)

// SessionStart never walks the store, hit or miss (SPEC 9): run as Claude
// Code runs it (the real binary, and the anamnesis it starts on a miss,
// under strace) on a store of 1,200 notes of a project and global ones,
// it lists no note directory and looks only at the note files of the
// block: the ones the cached block was read from (whose state a hit
// checks) and the ones the new block is read from (a miss), whatever the
// store's size. The one directory a miss may list is one another writer
// changed, which the index may not reflect (blockcache.Drifted, and
// inject.CatchUp reading it again); a write of ours records the state it
// leaves, so a miss after it lists nothing.
func TestSessionStartWalksNoDirectory(t *testing.T) {
	walktest.Available(t)
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "")
	ctx := context.Background()
	home, cwd := t.TempDir(), t.TempDir()
	proj := project.Here(cwd, config.Resolve(home, os.Getenv)).Key
	const notes = 1200
	walktest.Notes(t, home, proj, notes)
	st, err := store.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if r, err := st.Stats(ctx); err != nil || r.Total != notes {
		t.Fatalf("indexed %+v %v", r, err)
	}

	hook, err := exec.LookPath("anamnesis-inject")
	if err != nil {
		t.Fatal(err)
	}
	fixture, err := os.ReadFile("../../testdata/fixtures/claude-code/payloads/SessionStart-startup-82bbae79.json")
	if err != nil {
		t.Fatal(err)
	}
	sessions := 0
	start := func() *exec.Cmd {
		var p map[string]any
		if err := json.Unmarshal(fixture, &p); err != nil {
			t.Fatal(err)
		}
		sessions++
		p["cwd"], p["session_id"] = cwd, fmt.Sprintf("walk-%d", sessions)
		b, _ := json.Marshal(p)
		cmd := exec.Command(hook, "--home", home)
		cmd.Stdin = strings.NewReader(string(b))
		return cmd
	}
	// shown is the note files the project's block is read from now.
	shown := func() map[string]bool {
		t.Helper()
		res, err := inject.Block(ctx, st, proj, 8, 9500, nil)
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, id := range res.Read {
			p, err := st.Path(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
		return walktest.Keys(paths...)
	}
	union := func(sets ...map[string]bool) map[string]bool {
		out := map[string]bool{}
		for _, s := range sets {
			for k := range s {
				out[k] = true
			}
		}
		return out
	}
	// check runs one SessionStart under strace and checks it: a miss (it
	// starts anamnesis to compute the block) or a hit as miss says; no note
	// directory listed but dirs, each once; the note files looked at among
	// before's and after's (the files the block was read from before the
	// session, whose state a hit checks, and after it, which a miss reads)
	// or in dirs; those opened among after's. It returns the block.
	check := func(name string, miss bool, before map[string]bool, dirs ...string) string {
		t.Helper()
		out, tr := walktest.Run(t, start())
		after := shown()
		if !strings.HasPrefix(out, inject.Lead) {
			t.Fatalf("%s: the hook printed:\n%s\nlog:\n%s", name, out, readLog(home))
		}
		if got := tr.Started("anamnesis"); got != miss {
			t.Fatalf("%s: want a miss %v, the hook started anamnesis %v (ran %v)", name, miss, got, tr.Ran)
		}
		want := map[string]bool{}
		for _, d := range dirs {
			want[d] = true
		}
		for d, n := range tr.Listed {
			if !want[d] {
				t.Errorf("%s: note directory %s was listed (%d listings)", name, d, n)
			}
		}
		for d := range want {
			if n := tr.Listed[d]; n != 1 {
				t.Errorf("%s: %s, which another writer changed, was listed %d times, want once", name, d, n)
			}
		}
		if out := tr.Outside(union(before, after), dirs...); len(out) > 0 {
			t.Errorf("%s: %d note files looked at outside the block's (%d before, %d after), e.g. %v",
				name, len(out), len(before), len(after), out[:min(len(out), 5)])
		}
		var opened []string
		for k := range tr.Opened {
			if !after[k] {
				opened = append(opened, k)
			}
		}
		if len(opened) > 0 {
			t.Errorf("%s: note files opened that the block is not read from: %v", name, opened)
		}
		t.Logf("%s: %d note files looked at, %d opened, directories listed %v; the block is read from %d",
			name, len(tr.Looked), len(tr.Opened), tr.Listed, len(after))
		return out
	}

	// The first session computes the block and caches it. The index
	// reflects the directories as the reindex at open read them: nothing
	// is listed.
	check("first session", true, nil)

	// (a) A hit: the block the previous SessionStart rendered.
	check("hit", false, shown())

	// (b) Misses right after a write of ours that left the block stale, in
	// the project and a global note (a write through the store by another
	// process). The CLI's own write renders the stale blocks again: the
	// session after it is a hit.
	for _, c := range []struct{ name, project, typ, body string }{
		{"miss after our write in the project", proj, note.Semantic, "The quotes service keeps its rates in Redis now."},
		{"miss after our global note", note.Global, note.Procedural, "Every service logs in JSON."},
	} {
		before := shown()
		n := note.New(c.typ, "New "+c.typ+" note", c.body)
		n.Project = c.project
		if _, err := st.Write(ctx, n); err != nil {
			t.Fatal(err)
		}
		if b := check(c.name, true, before); !strings.Contains(b, c.body) {
			t.Fatalf("the new note is not in the block:\n%s", b)
		}
	}
	cli := exec.Command("anamnesis", "write", "--home", home, "--type", "semantic", "--project", proj,
		"--title", "Quotes cache size", "--body", "The quotes cache holds 512 MB.")
	if out, err := cli.CombinedOutput(); err != nil {
		t.Fatalf("anamnesis write: %v\n%s", err, out)
	}
	if b := check("hit after anamnesis write", false, shown()); !strings.Contains(b, "512 MB") {
		t.Fatalf("the CLI's note is not in the block:\n%s", b)
	}

	// (c) Misses after a hand edit of one note the block shows. In place
	// (a program that rewrites the file): the note's own state says it
	// changed, no directory's does, and only that file is read again.
	// Saved by rename (as most editors save): its directory changed, so
	// the miss lists that one directory again (the store's Refresh
	// compares what it holds with the index), and no other.
	edit := func(body string) (path string, edited []byte) {
		t.Helper()
		res, err := inject.Block(ctx, st, proj, 8, 9500, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range res.IDs {
			p, err := st.Path(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if old := "The quotes service caches rates for "; strings.Contains(string(data), old) {
				return p, []byte(strings.Replace(string(data), old, body, 1))
			}
		}
		t.Fatalf("no generated note in the block:\n%s", res.Block)
		return "", nil
	}
	before := shown()
	p, data := edit("Edited in place: the quotes service caches rates for ")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if b := check("miss after an edit in place", true, before); !strings.Contains(b, "Edited in place") {
		t.Fatalf("the edit is not in the block:\n%s", b)
	}
	before = shown()
	p, data = edit("Saved by an editor: the quotes service caches rates for ")
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".swp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
	dir := walktest.Key(filepath.Dir(p))
	if b := check("miss after an editor's save", true, before, dir); !strings.Contains(b, "Saved by an editor") {
		t.Fatalf("the edit is not in the block:\n%s", b)
	}
	// And the next session is a hit again, listing nothing.
	check("hit after the misses", false, shown())
}

func readLog(home string) string {
	b, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	return string(b)
}
