package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// faultHome is a home for the kill test: built binaries, a git repository,
// a model stand-in that answers after a random delay.
type faultHome struct {
	t     *testing.T
	bin   string
	home  string
	env   []string
	calls atomic.Int64
}

var (
	roundRe = regexp.MustCompile(`Round (\d+) step`)
	idRe    = regexp.MustCompile(`## \[([0-9A-Za-z_-]+)\] \[`)
)

func newFaultHome(t *testing.T) *faultHome {
	dir := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "anamnesis"), ".").CombinedOutput(); err != nil {
		t.Fatalf("build anamnesis: %v\n%s", err, out)
	}
	f := &faultHome{t: t, bin: filepath.Join(dir, "anamnesis"), home: t.TempDir()}
	srv := httptest.NewServer(http.HandlerFunc(f.answer))
	t.Cleanup(srv.Close)
	// A killed gate leaves its sandbox behind: the children's temp dir is the test's own.
	f.env = append(os.Environ(), "ANAMNESIS_HOME="+f.home, "HOME="+t.TempDir(), "TMPDIR="+t.TempDir(), "ANAMNESIS_MACHINE_ID=box",
		"ANAMNESIS_REFLECTION_PROVIDER=local", "ANAMNESIS_REFLECTION_MODEL=m", "ANAMNESIS_REFLECTION_BASE_URL="+srv.URL+"/v1",
		"ANAMNESIS_REFLECTION_TIMEOUT=30", "PATH="+dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return f
}

// answer is the model: reflect gets three notes named after the round its
// episodics belong to; consolidate gets, over the first four notes it is
// shown, a keep of the first two (same text) and a synthesis of the next two.
func (f *faultHome) answer(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.calls.Add(1)
	time.Sleep(time.Duration(rand.IntN(150)) * time.Millisecond)
	var req struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	json.Unmarshal(b, &req)
	var all string
	for _, m := range req.Messages {
		all += m.Content + "\n"
	}
	var content string
	if strings.Contains(all, "distill") {
		round := roundRe.FindStringSubmatch(all)
		var items []string
		for _, k := range []string{"a", "b", "c"} {
			items = append(items, fmt.Sprintf(`{"type":"semantic","title":"Round %s fact %s","body":"Fact %s learnt in round %s."}`, round[1], k, k, round[1]))
		}
		content = "[" + strings.Join(items, ",") + "]"
	} else {
		ids := idRe.FindAllStringSubmatch(all, -1)
		content = "[]" // merged already: nothing left to fold
		if len(ids) >= 4 {
			content = fmt.Sprintf(`[{"action":"keep","keeper_id":%q,"superseded_ids":[%q]},{"action":"synthesize","type":"semantic","title":"Merged cache and queue","body":"The cache is redis; the queue is rabbitmq.","superseded_ids":[%q,%q]}]`,
				ids[0][1], ids[1][1], ids[2][1], ids[3][1])
		}
	}
	json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": map[string]string{"content": content}}}})
}

func (f *faultHome) cmd(args ...string) *exec.Cmd {
	c := exec.Command(f.bin, args...)
	c.Env = f.env
	return c
}

// must runs a command to its end.
func (f *faultHome) must(args ...string) string {
	f.t.Helper()
	out, err := f.cmd(args...).CombinedOutput()
	if err != nil {
		f.t.Fatalf("anamnesis %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// killed starts a command and kills it with SIGKILL after a random part of
// span; it reports whether the kill landed before the command ended.
func (f *faultHome) killed(span time.Duration, args ...string) bool {
	c := f.cmd(args...)
	if err := c.Start(); err != nil {
		f.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
		return false
	case <-time.After(time.Duration(rand.Int64N(int64(span)))):
		c.Process.Signal(syscall.SIGKILL)
		<-done
		return true
	}
}

// timed runs a command to its end and returns how long it took.
func (f *faultHome) timed(args ...string) time.Duration {
	start := time.Now()
	f.must(args...)
	return time.Since(start)
}

func (f *faultHome) write(typ, project, title, body string, tags ...string) {
	args := []string{"write", "--type", typ, "--project", project, "--title", title, "--body", body}
	if len(tags) > 0 {
		args = append(args, "--tags", strings.Join(tags, ","))
	}
	f.must(args...)
}

// commitAll commits what the test wrote, as a sync would, so that "git
// clean" after a command speaks of the command's own files.
func (f *faultHome) commitAll() {
	f.t.Helper()
	mem := filepath.Join(f.home, "memory")
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.test", "commit", "-qm", "setup"}} {
		if args[0] == "init" {
			if _, err := os.Stat(filepath.Join(mem, ".git")); err == nil {
				continue
			}
		}
		if out, err := exec.Command("git", append([]string{"-C", mem}, args...)...).CombinedOutput(); err != nil {
			f.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// check is the invariant after every rerun: the index holds exactly the
// note files, and memory/ has nothing uncommitted. It returns the notes.
func (f *faultHome) check(what string) []*note.Note {
	f.t.Helper()
	files := map[string]*note.Note{}
	filepath.WalkDir(filepath.Join(f.home, "memory"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			b, _ := os.ReadFile(p)
			n, err := note.Parse(b)
			if err != nil {
				f.t.Fatalf("%s: %s: %v", what, p, err)
			}
			if files[n.ID] != nil {
				f.t.Errorf("%s: two files hold %s", what, n.ID)
			}
			files[n.ID] = n
		}
		return nil
	})
	ctx := context.Background()
	s, err := store.Open(ctx, f.home)
	if err != nil {
		f.t.Fatal(err)
	}
	defer s.Close()
	listed, err := s.List(ctx, store.Filter{})
	if err != nil {
		f.t.Fatal(err)
	}
	var ids []string
	for _, n := range listed {
		ids = append(ids, n.ID)
		if fn := files[n.ID]; fn == nil || fn.Project != n.Project || strings.Join(fn.Tags, ",") != strings.Join(n.Tags, ",") ||
			strings.Join(fn.Supersedes, ",") != strings.Join(n.Supersedes, ",") {
			f.t.Errorf("%s: the index's %s (%s %v %v) is not the file's", what, n.ID, n.Project, n.Tags, n.Supersedes)
		}
	}
	if len(ids) != len(files) {
		f.t.Errorf("%s: the index lists %d notes, the files hold %d", what, len(ids), len(files))
	}
	out, err := exec.Command("git", "-C", filepath.Join(f.home, "memory"), "status", "--porcelain").Output()
	if err != nil || len(strings.TrimSpace(string(out))) != 0 {
		f.t.Errorf("%s: git is not clean: %v\n%s", what, err, out)
	}
	var ns []*note.Note
	for _, n := range files {
		ns = append(ns, n)
	}
	return ns
}

func count(ns []*note.Note, keep func(*note.Note) bool) int {
	c := 0
	for _, n := range ns {
		if keep(n) {
			c++
		}
	}
	return c
}

// Each lifecycle command, killed with SIGKILL at a random point of its run
// (20 kills each, the model answering after a random delay) and then run
// again, leaves no duplicate, no lost note, no half-applied group, an index
// equal to the files and git clean.
func TestLifecycleSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("kills each lifecycle command 20 times")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	const kills = 20
	f := newFaultHome(t)

	t.Run("reflect", func(t *testing.T) {
		f.t = t
		landed := 0
		var span time.Duration
		for round := 0; landed < kills; round++ {
			p := fmt.Sprintf("r%d", round)
			for i := range 5 {
				f.write("episodic", p, fmt.Sprintf("Round %d step %d", round, i), fmt.Sprintf("ran step %d of round %d", i, round), "session")
			}
			args := []string{"reflect", "--project", p, "--apply", "--no-sync"}
			f.commitAll()
			if round == 0 {
				span = f.timed(args...) // an unkilled run: how long the kills spread over
			} else if f.killed(span, args...) {
				landed++
				f.must(args...)
			}
			ns := f.check("reflect round " + p)
			for _, k := range []string{"a", "b", "c"} {
				title := fmt.Sprintf("Round %d fact %s", round, k)
				if c := count(ns, func(n *note.Note) bool { return n.Title == title }); c != 1 {
					t.Errorf("round %d: %d notes %q, want 1", round, c, title)
				}
			}
			if c := count(ns, func(n *note.Note) bool { return n.Project == p && n.Type == "episodic" && !n.HasTag("reflected") }); c != 0 {
				t.Errorf("round %d: %d episodics left unreflected", round, c)
			}
		}
	})

	t.Run("consolidate", func(t *testing.T) {
		f.t = t
		landed := 0
		var span time.Duration
		for round := 0; landed < kills; round++ {
			p := fmt.Sprintf("c%d", round)
			f.write("semantic", p, "Deploy target", "We deploy to the staging cluster first.")
			f.write("semantic", p, "Deploy target", "We deploy to the staging cluster first.")
			f.write("semantic", p, "Cache", "The cache is redis.")
			f.write("semantic", p, "Queue", "The queue is rabbitmq.")
			args := []string{"consolidate", "--project", p, "--min", "2", "--apply", "--no-sync"}
			f.commitAll()
			if round == 0 {
				span = f.timed(args...)
			} else if f.killed(span, args...) {
				landed++
				f.must(args...)
			}
			ns := f.check("consolidate round " + p)
			var mine []*note.Note
			for _, n := range ns {
				if n.Project == p {
					mine = append(mine, n)
				}
			}
			merged := count(mine, func(n *note.Note) bool { return n.ProvSource == note.ProvMerge })
			kept := count(mine, func(n *note.Note) bool { return n.HasTag("merged") && len(n.Supersedes) == 1 })
			if len(mine) != 5 || merged != 1 || kept != 1 {
				t.Errorf("round %d: %d notes, %d merged, %d keepers; want 5, 1, 1", round, len(mine), merged, kept)
			}
			for _, n := range mine {
				if n.ProvSource == note.ProvMerge && len(n.Supersedes) != 2 {
					t.Errorf("round %d: the synthesis supersedes %v", round, n.Supersedes)
				}
			}
		}
	})

	t.Run("dedup", func(t *testing.T) {
		f.t = t
		landed := 0
		var span time.Duration
		for round := 0; landed < kills; round++ {
			p := fmt.Sprintf("d%d", round)
			for range 4 {
				f.write("semantic", p, "Copy", fmt.Sprintf("The same text, round %d.", round))
			}
			args := []string{"dedup", "--apply", "--no-sync"}
			f.commitAll()
			if round == 0 {
				span = f.timed(args...)
			} else if f.killed(span, args...) {
				landed++
				f.must(args...)
			}
			ns := f.check("dedup round " + p)
			if c := count(ns, func(n *note.Note) bool { return n.Project == p }); c != 1 {
				t.Errorf("round %d: %d copies left, want 1", round, c)
			}
		}
	})

	t.Run("migrate", func(t *testing.T) {
		f.t = t
		landed := 0
		var span time.Duration
		mapFile := filepath.Join(t.TempDir(), "map.json")
		for round := 0; landed < kills; round++ {
			from, to := fmt.Sprintf("m%d", round), fmt.Sprintf("n%d", round)
			for i := range 6 {
				f.write("semantic", from, fmt.Sprintf("Moved %d", i), fmt.Sprintf("note %d of round %d to move", i, round))
			}
			os.WriteFile(mapFile, []byte(fmt.Sprintf(`{%q: %q}`, from, to)), 0o644)
			args := []string{"migrate", "--map", mapFile, "--apply", "--no-sync"}
			f.commitAll()
			if round == 0 {
				span = f.timed(args...)
			} else if f.killed(span, args...) {
				landed++
				f.must(args...)
			}
			ns := f.check("migrate round " + from)
			if a, b := count(ns, func(n *note.Note) bool { return n.Project == from }), count(ns, func(n *note.Note) bool { return n.Project == to }); a != 0 || b != 6 {
				t.Errorf("round %d: %d notes left in %s, %d in %s", round, a, from, b, to)
			}
		}
	})
	if !slices.Contains([]bool{t.Failed()}, true) {
		t.Logf("model calls: %d", f.calls.Load())
	}
}
