package gitsync

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
)

// copyClaude copies the fixture's Claude Code projects directory (two native
// memory files and MEMORY.md, as the real CLI wrote them) into a fresh
// Claude config directory.
func copyClaude(t *testing.T) string {
	t.Helper()
	src := "../../testdata/fixtures/claude-code/projects"
	dst := filepath.Join(t.TempDir(), ".claude")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, "projects", rel)
		if d.IsDir() {
			return os.MkdirAll(out, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// refMachine is a machine still on the reference: its memory/ is a plain
// clone, its import writes what the reference's importer writes (the
// goldens in testdata/fixtures/interop/native, for this machine) under the
// reference's rules, and its sync is add, commit, pull --rebase, push.
type refMachine struct {
	t       *testing.T
	mem     string
	machine string
	// rewrites counts notes its import wrote over an existing file.
	rewrites int
}

func newRefMachine(t *testing.T, remote string) *refMachine {
	mem := filepath.Join(t.TempDir(), "ref", "memory")
	gitIn(t, ".", "init", "-q", "-b", "main", mem)
	gitIn(t, mem, "remote", "add", "origin", remote)
	return &refMachine{t: t, mem: mem, machine: "refbox"}
}

// importNative mirrors the fixture's native files the reference's way: a
// note whose file exists is rewritten unless its body, title, project and
// (sorted) tags already equal the native file's; a new one is written
// unless a note already holds its body.
func (r *refMachine) importNative() {
	t := r.t
	goldens, _ := filepath.Glob("../../testdata/fixtures/interop/native/*/*.md")
	if len(goldens) != 2 {
		t.Fatalf("goldens %v", goldens)
	}
	for _, g := range goldens {
		data, _ := os.ReadFile(g)
		want, err := note.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		want.MachineID = r.machine
		p := filepath.Join(r.mem, want.Type, want.ID+".md")
		if cur, err := os.ReadFile(p); err == nil {
			c, err := note.Parse(cur)
			if err == nil && c.Body == want.Body && c.Title == want.Title && c.Project == want.Project &&
				slices.Equal(sorted(c.Tags), sorted(want.Tags)) {
				continue
			}
			if err == nil {
				want.CreatedAt = c.CreatedAt
			}
			r.rewrites++
		} else if r.holdsBody(want.Body) {
			continue
		}
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, want.Marshal(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func (r *refMachine) holdsBody(body string) bool {
	found := false
	filepath.WalkDir(r.mem, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			if n, err := note.Parse(data); err == nil && strings.TrimSpace(n.Body) == strings.TrimSpace(body) {
				found = true
			}
		}
		return nil
	})
	return found
}

func (r *refMachine) sync() {
	t := r.t
	gitIn(t, r.mem, "add", "-A")
	if out, _ := gitTry(r.mem, "status", "--porcelain"); out != "" {
		gitIn(t, r.mem, "commit", "-q", "-m", "anamnesis: sync from "+r.machine)
	}
	if _, err := gitTry(r.mem, "ls-remote", "--exit-code", "origin", "main"); err == nil {
		gitIn(t, r.mem, "pull", "-q", "--rebase", "origin", "main")
	}
	if _, err := gitTry(r.mem, "rev-parse", "-q", "--verify", "HEAD"); err == nil {
		gitIn(t, r.mem, "push", "-q", "origin", "HEAD:main")
	}
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

func commits(t *testing.T, remote string) int {
	out, err := gitTry(remote, "rev-list", "--count", "main")
	if err != nil {
		return 0 // nothing pushed yet
	}
	n, _ := strconv.Atoi(out)
	return n
}

// conflictNotes lists the notes tagged conflict in a tree of note files.
func conflictNotes(t *testing.T, files map[string]string) []string {
	var out []string
	for p, data := range files {
		if n, err := note.Parse([]byte(data)); err == nil && n.HasTag("conflict") {
			out = append(out, p)
		}
	}
	return out
}

// A mixed fleet (issue 13): one machine on the reference, one on this
// code, both importing the same native memory files, syncing in turn for
// several rounds. Nothing conflicts, no imported note is ever rewritten,
// and the only commit after the first round is the one real edit.
func TestMixedFleetWithReferenceMachine(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	ref := newRefMachine(t, remote)
	ref.importNative()
	ref.sync()

	a := newHome(t, "alpha", remote)
	ao := a.opts()
	ao.Import, ao.ClaudeDir = true, copyClaude(t)
	settled := 0
	for round := range 5 {
		if round == 3 {
			a.write(note.Semantic, "A real edit", "Deploys go out on Tuesdays.")
		}
		before := commits(t, remote)
		r, err := Sync(t.Context(), ao)
		if err != nil || r.Conflicted {
			t.Fatalf("round %d: alpha: %s %v", round, r.Line(), err)
		}
		ref.importNative()
		ref.sync()
		if c := conflictNotes(t, a.files()); len(c) > 0 {
			t.Fatalf("round %d: conflict notes %v", round, c)
		}
		after := commits(t, remote)
		switch {
		case round == 0:
			settled = after
		case round == 3:
			if after != before+1 {
				t.Errorf("round 3: %d commits for one edit", after-before)
			}
			stat := gitIn(t, remote, "log", "-1", "--format=", "--name-only", "main")
			if lines := strings.Fields(stat); len(lines) != 1 || !strings.HasPrefix(lines[0], "semantic/") {
				t.Errorf("the edit's commit touches %q", stat)
			}
		case after != before:
			t.Errorf("round %d: %d commits with nothing changed:\n%s", round, after-before,
				gitIn(t, remote, "log", "--stat", "-"+strconv.Itoa(after-before), "main"))
		}
	}
	if ref.rewrites != 0 {
		t.Errorf("the reference machine rewrote imported notes %d times", ref.rewrites)
	}
	if settled == 0 {
		t.Fatal("no commits")
	}
	// Both machines hold the same imported notes, byte for byte.
	af := a.files()
	for _, g := range []string{"procedural/0Z34SFYF6CFA9N5JYX0S822QZC.md", "semantic/7XFWPQVSNFHAARZH6BCN8PJRP7.md"} {
		rb, _ := os.ReadFile(filepath.Join(ref.mem, g))
		if af[g] == "" || af[g] != string(rb) {
			t.Errorf("%s differs:\nalpha %q\nref   %q", g, af[g], rb)
		}
	}
}

// Two homes of this code importing the same native files and syncing in
// turn: no conflict notes, and after the first round no commits at all.
func TestFleetImportingSameNativeFiles(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	homes := []*home{newHome(t, "alpha", remote), newHome(t, "beta", remote)}
	var opts []Options
	for _, h := range homes {
		o := h.opts()
		o.Import, o.ClaudeDir = true, copyClaude(t)
		opts = append(opts, o)
	}
	var settled int
	for round := range 4 {
		before := commits(t, remote)
		for i, h := range homes {
			r, err := Sync(t.Context(), opts[i])
			if err != nil {
				t.Fatalf("round %d: %s: %s %v", round, h.machine, r.Line(), err)
			}
			if c := conflictNotes(t, h.files()); len(c) > 0 || r.Conflicted {
				t.Fatalf("round %d: %s: conflicted=%v, conflict notes %v", round, h.machine, r.Conflicted, c)
			}
		}
		after := commits(t, remote)
		if round == 0 {
			settled = after
		} else if after != before {
			t.Errorf("round %d: %d commits with nothing changed:\n%s", round, after-before,
				gitIn(t, remote, "log", "--stat", "-"+strconv.Itoa(after-before), "main"))
		}
	}
	if commits(t, remote) != settled {
		t.Error("the fleet kept committing")
	}
	af, bf := homes[0].files(), homes[1].files()
	if len(af) != 2 || len(bf) != 2 {
		t.Errorf("notes: alpha %d, beta %d, want the 2 imported", len(af), len(bf))
	}
	for p, data := range af {
		if bf[p] != data {
			t.Errorf("%s differs between the homes", p)
		}
	}
}
