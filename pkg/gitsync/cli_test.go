package gitsync

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/hook"
)

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
	pid, err := hook.StartDetached(h.dir, nil, filepath.Join(bin, name), "--lock-wait", "30")
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
