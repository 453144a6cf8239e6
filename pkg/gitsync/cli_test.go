package gitsync

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/anamnesis-dev/anamnesis/pkg/hook"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/native"
)

func fixtureClaude(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "claude")
	src := "../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api/memory"
	dst := filepath.Join(dir, "projects", "-home-dev-src-quotes-api", "memory")
	os.MkdirAll(dst, 0o755)
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			os.WriteFile(filepath.Join(dst, d.Name()), data, 0o644)
		}
		return nil
	})
	return dir
}

func TestRunImport(t *testing.T) {
	needGit(t)
	isolateGit(t)
	remote := newRemote(t)
	home := filepath.Join(t.TempDir(), "home")
	claude := fixtureClaude(t)
	env := func(k string) string {
		return map[string]string{"ANAMNESIS_MACHINE_ID": "laptop", "ANAMNESIS_GIT_REMOTE": remote,
			"ANAMNESIS_IMPORT_NATIVE": "0", "HOME": t.TempDir()}[k]
	}
	var out, errb bytes.Buffer
	// --no-sync: the notes are written and indexed, git is not touched.
	err := RunImport(context.Background(), []string{"--home", home, "--claude-home", claude, "--no-sync"}, env, &out, &errb)
	if err != nil || out.String() != "import: imported=2 updated=0 skipped=0\n" {
		t.Fatalf("--no-sync: %v %q %q", err, out.String(), errb.String())
	}
	if _, err := os.Stat(filepath.Join(home, "memory", ".git")); err == nil {
		t.Error("--no-sync created the git repository")
	}
	// With a sync, even though ANAMNESIS_IMPORT_NATIVE=0 (asked for explicitly).
	os.WriteFile(filepath.Join(claude, "projects", "-home-dev-src-quotes-api", "memory", "broken.md"), []byte("no front-matter"), 0o644)
	out.Reset()
	errb.Reset()
	err = RunImport(context.Background(), []string{"--home", home, "--claude-home", claude}, env, &out, &errb)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if err != nil || len(lines) != 2 || lines[0] != "import: imported=0 updated=0 skipped=3" || !strings.Contains(lines[1], "pushed=true") {
		t.Fatalf("with sync: %v\n%s", err, out.String())
	}
	if !strings.Contains(errb.String(), "broken.md") {
		t.Errorf("malformed file not reported: %q", errb.String())
	}
	if n := gitIn(t, remote, "ls-tree", "-r", "--name-only", "main"); strings.Count(n, ".md") != 2 {
		t.Errorf("remote tree:\n%s", n)
	}
	out.Reset()
	if err := RunImport(context.Background(), []string{"--home", home, "--claude-home", claude, "--no-sync", "--json"}, env, &out, &errb); err != nil {
		t.Fatal(err)
	}
	var r native.Result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Skipped != 3 || len(r.Problems) != 1 {
		t.Errorf("json: %v %s", err, out.String())
	}
	if err := RunImport(context.Background(), []string{"extra"}, env, &out, &errb); cli.Code(err) != 2 {
		t.Errorf("extra argument: %v", err)
	}
}

// TestStartDetached runs the real binary detached, the way capture starts it.
func TestStartDetached(t *testing.T) {
	needGit(t)
	isolateGit(t)
	bin := t.TempDir()
	name := "anamnesis-sync"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	// isolateGit points GIT_DIR and git's config at decoys; the go command
	// must not see them (with Go's default -buildvcs it runs git to stamp the
	// binary, and GIT_DIR= made that fail on every machine without
	// GOFLAGS=-buildvcs=false). No VCS stamp is needed here.
	build := exec.Command("go", "build", "-buildvcs=false", "-o", filepath.Join(bin, name), "../../cmd/anamnesis-sync")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			build.Env = append(build.Env, kv)
		}
	}
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	remote := newRemote(t)
	h := newHome(t, "alpha", remote)
	h.write("semantic", "detached", "pushed by a background sync")
	t.Setenv("ANAMNESIS_GIT_REMOTE", remote)
	t.Setenv("ANAMNESIS_MACHINE_ID", "alpha")
	t.Setenv("ANAMNESIS_IMPORT_NATIVE", "0")
	pid, err := hook.StartDetached(h.dir, filepath.Join(bin, name), "--lock-wait", "30")
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" {
		// Its own session: the session id is its pid.
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(f) > 3 && f[3] != strconv.Itoa(pid) && f[0] != "Z" {
				t.Errorf("detached sync is in session %s, not its own (%d)", f[3], pid)
			}
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if out, err := gitTry(remote, "rev-parse", "--verify", "main"); err == nil && out != "" {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(hook.LogPath(h.dir))
			t.Fatalf("the detached sync did not push; log:\n%s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Its output goes to the home's log.
	for time.Now().Before(deadline) {
		if log, _ := os.ReadFile(hook.LogPath(h.dir)); strings.Contains(string(log), "sync: pushed=true") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("sync line not in the log")
}
