package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

var lineRE = regexp.MustCompile(`^sync: pushed=(true|false) pulled=\d+ conflicted=(true|false) head=([0-9a-f]{7,}|none) \(.+\)$`)

func setup(t *testing.T) (home, remote string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH")
	}
	remote = filepath.Join(t.TempDir(), "r.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	home = filepath.Join(t.TempDir(), "home")
	t.Setenv("ANAMNESIS_HOME", "")
	t.Setenv("ANAMNESIS_MACHINE_ID", "laptop")
	t.Setenv("ANAMNESIS_GIT_REMOTE", remote)
	t.Setenv("ANAMNESIS_IMPORT_NATIVE", "0")
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(t.TempDir(), "claude"))
	return home, remote
}

func runSync(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestLineAndJSON(t *testing.T) {
	home, remote := setup(t)
	os.MkdirAll(filepath.Join(home, "memory", "semantic"), 0o755)
	os.WriteFile(filepath.Join(home, "memory", "semantic", "01JZ0000000000000000000001.md"),
		[]byte("---\nid: 01JZ0000000000000000000001\ntype: semantic\ntitle: hand written\n---\nbody\n"), 0o644)
	out, _, err := runSync(t, "--home", home)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(out)
	if !lineRE.MatchString(line) || !strings.Contains(line, "pushed=true") {
		t.Fatalf("line %q", line)
	}
	if out, err := exec.Command("git", "--git-dir", remote, "rev-parse", "main").CombinedOutput(); err != nil {
		t.Fatalf("remote has no main: %s", out)
	}
	out, _, err = runSync(t, "--home", home, "--json", "--timeout", "20")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, k := range []string{"pushed", "pulled", "conflicted", "head", "indexed", "detail", "conflict_ids"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, out)
		}
	}
	if m["indexed"].(float64) != 1 || m["detail"] != "up to date" {
		t.Errorf("JSON %s", out)
	}
}

func TestImportRunsFirst(t *testing.T) {
	home, _ := setup(t)
	claude := os.Getenv("CLAUDE_CONFIG_DIR")
	src := "../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api/memory"
	dst := filepath.Join(claude, "projects", "-home-dev-src-quotes-api", "memory")
	os.MkdirAll(dst, 0o755)
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			os.WriteFile(filepath.Join(dst, d.Name()), data, 0o644)
		}
		return nil
	})
	t.Setenv("ANAMNESIS_IMPORT_NATIVE", "")
	out, _, err := runSync(t, "--home", home)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || lines[0] != "import: imported=2 updated=0 skipped=0" || !lineRE.MatchString(lines[1]) {
		t.Fatalf("output:\n%s", out)
	}
	out, _, _ = runSync(t, "--home", home)
	if !strings.HasPrefix(out, "import: imported=0 updated=0 skipped=2\n") {
		t.Errorf("second run:\n%s", out)
	}
}

func TestUnreachableExitsOne(t *testing.T) {
	home, _ := setup(t)
	t.Setenv("ANAMNESIS_GIT_REMOTE", filepath.Join(t.TempDir(), "missing.git"))
	out, _, err := runSync(t, "--home", home, "--timeout", "5s")
	if cli.Code(err) != 1 || !lineRE.MatchString(strings.TrimSpace(out)) || !strings.Contains(out, "failed") {
		t.Fatalf("code %d, out %q", cli.Code(err), out)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"extra"}, {"--timeout", "soon"}, {"--timeout", "-3"}, {"--nope"}} {
		if _, _, err := runSync(t, args...); cli.Code(err) != 2 {
			t.Errorf("%v: code %d (%v)", args, cli.Code(err), err)
		}
	}
}

// --version is every binary's, as anamnesis --version: the version line on
// stderr (where --help prints), nothing else done, no home made.
func TestVersionFlag(t *testing.T) {
	home := t.TempDir() + "/home"
	t.Setenv("ANAMNESIS_HOME", home)
	var out, errb strings.Builder
	if err := run(context.Background(), []string{"--version"}, strings.NewReader(""), &out, &errb); err != nil || out.Len() != 0 || !strings.HasPrefix(errb.String(), "anamnesis-sync "+cli.VersionString()+" (go") {
		t.Fatalf("--version: %v stdout %q stderr %q", err, out.String(), errb.String())
	}
	if _, err := os.Stat(home); err == nil {
		t.Fatal("--version made a home")
	}
}

// The background sync (--detached: SessionStart's and capture's) packs git's
// loose objects once they have grown; a person's sync leaves them, since
// packing takes seconds at 100,000 notes.
func TestDetachedSyncPacksLooseObjects(t *testing.T) {
	home, _ := setup(t)
	if _, _, err := runSync(t, "--home", home); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(home, "memory")
	src := t.TempDir()
	var paths []string
	for i := range 2100 {
		p := filepath.Join(src, strconv.Itoa(i))
		os.WriteFile(p, []byte("object "+strconv.Itoa(i)+"\n"), 0o644)
		paths = append(paths, p)
	}
	cmd := exec.Command("git", "-C", mem, "hash-object", "-w", "--stdin-paths")
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\n") + "\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	loose := func() string {
		out, err := exec.Command("git", "-C", mem, "count-objects", "-v").Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.SplitN(string(out), "\n", 2)[0]
	}
	if _, _, err := runSync(t, "--home", home); err != nil {
		t.Fatal(err)
	}
	if c := loose(); c == "count: 0" {
		t.Fatal("a person's sync packed the objects")
	}
	if _, _, err := runSync(t, "--home", home, "--detached"); err != nil {
		t.Fatal(err)
	}
	if c := loose(); c != "count: 0" {
		t.Errorf("after the background sync: %s", c)
	}
	log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
	if !regexp.MustCompile(`anamnesis-sync\[\d+\]: sync: pack \S+memory: packed \d{4} loose objects`).Match(log) {
		t.Errorf("the log does not say what was packed:\n%s", log)
	}
}
