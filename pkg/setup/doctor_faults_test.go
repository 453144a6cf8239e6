package setup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

// doctorFaultHome is a store whose memory/ is a git repository on main.
func doctorFaultHome(t *testing.T) (home, mem string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	home = t.TempDir()
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Write(context.Background(), note.New(note.Procedural, "a procedure", "steps")); err != nil {
		t.Fatal(err)
	}
	st.Close()
	mem = filepath.Join(home, "memory")
	gitRun(t, mem, "init", "-q", "-b", "main")
	gitRun(t, mem, "add", "-A")
	gitRun(t, mem, "commit", "-q", "-m", "first")
	return home, mem
}

func doctorChecks(home string) []Check {
	d := &doctor{p: Paths{Home: home}, timeout: 10 * time.Second, readAllBelow: readAllBelow}
	d.store(context.Background())
	d.git(context.Background(), "")
	return d.checks
}

func hasCheck(checks []Check, name, status, detail string) bool {
	for _, c := range checks {
		if c.Name == name && c.Status == status && strings.Contains(c.Detail, detail) {
			return true
		}
	}
	return false
}

// doctor reports a stale memory/.git/index.lock (issue 12, item 3), a
// symlink under memory/ (item 4) and an index it had to rebuild (item 1).
func TestDoctorStoreFaults(t *testing.T) {
	home, mem := doctorFaultHome(t)
	if c := doctorChecks(home); !hasCheck(c, "git", statusOK, "is a git repository on main") {
		t.Fatalf("healthy home: %+v", c)
	}

	lock := filepath.Join(mem, ".git", "index.lock")
	os.WriteFile(lock, nil, 0o644)
	if c := doctorChecks(home); !hasCheck(c, "git", statusFail, "index.lock was left by a git process that no longer runs") {
		t.Errorf("stale index.lock not reported: %+v", c)
	}
	os.Remove(lock)

	elsewhere := filepath.Join(t.TempDir(), "procedural")
	os.Rename(filepath.Join(mem, "procedural"), elsewhere)
	os.Symlink(elsewhere, filepath.Join(mem, "procedural"))
	if c := doctorChecks(home); !hasCheck(c, "git", statusFail, "procedural is a symbolic link") {
		t.Errorf("symlinked type dir not reported: %+v", c)
	}
	os.Remove(filepath.Join(mem, "procedural"))
	os.Rename(elsewhere, filepath.Join(mem, "procedural"))

	db := filepath.Join(home, "index.db")
	os.Remove(db + "-wal")
	os.Remove(db + "-shm")
	os.WriteFile(db, []byte(strings.Repeat("not a database ", 20)), 0o644)
	c := doctorChecks(home)
	if !hasCheck(c, "index", statusWarn, "the index was unusable") || !hasCheck(c, "index", statusOK, "index in step") {
		t.Errorf("rebuilt index not reported: %+v", c)
	}
}

// Above readAllBelow, doctor neither reads every index page nor every note
// file (minutes at a million notes): it says so and how to, lists the files
// the index recorded as unreadable, and --deep reads everything again.
func TestDoctorReadsAllOnlyBelowTheSize(t *testing.T) {
	home, mem := doctorFaultHome(t)
	bad := filepath.Join(mem, "procedural", "01JZ0000000000000000000009.md")
	os.WriteFile(bad, []byte("no front matter"), 0o600)
	st, err := store.Open(context.Background(), home)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Reindex(context.Background(), false); err != nil { // records the bad file
		t.Fatal(err)
	}
	st.Close()
	os.WriteFile(filepath.Join(mem, "procedural", "01JZ0000000000000000000010.md"), []byte("written since"), 0o600)

	big := &doctor{p: Paths{Home: home}, timeout: 10 * time.Second, readAllBelow: 1}
	big.store(context.Background())
	if !hasCheck(big.checks, "index", statusOK, "not all read") || hasCheck(big.checks, "index", statusOK, "index in step") {
		t.Errorf("a big index read whole: %+v", big.checks)
	}
	if !hasCheck(big.checks, "notes", statusFail, "01JZ0000000000000000000009.md cannot be read") ||
		hasCheck(big.checks, "notes", statusFail, "01JZ0000000000000000000010.md") {
		t.Errorf("a big index's recorded problems: %+v", big.checks)
	}
	if !hasCheck(big.checks, "index", statusOK, "`anamnesis doctor --deep` reads them all") {
		t.Errorf("doctor does not say how to read everything: %+v", big.checks)
	}

	small := &doctor{p: Paths{Home: home}, timeout: 10 * time.Second, readAllBelow: readAllBelow}
	small.store(context.Background())
	if hasCheck(small.checks, "index", statusOK, "not all read") || !hasCheck(small.checks, "notes", statusFail, "01JZ0000000000000000000010.md cannot be read") {
		t.Errorf("a small index not read whole: %+v", small.checks)
	}
}

// doctor warns about a sync lock no live process holds where locks are
// files (Windows), naming the holder's pid; where they are flocks such a
// file is the lock's resting state and doctor says nothing.
func TestDoctorStaleSyncLock(t *testing.T) {
	home := t.TempDir()
	lock := filepath.Join(home, "sync.lock")
	if err := os.WriteFile(lock, []byte("4242\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &doctor{p: Paths{Home: home}, timeout: 10 * time.Second}
	d.locks()
	if runtime.GOOS != "windows" {
		if len(d.checks) != 0 {
			t.Fatalf("a flock file is reported: %+v", d.checks)
		}
		return
	}
	if !hasCheck(d.checks, "lock", statusWarn, lock+" was left by a process (pid 4242) that no longer runs") {
		t.Fatalf("stale sync.lock not reported: %+v", d.checks)
	}
	// Held (open, as a running sync keeps it): not reported.
	f, err := os.Open(lock)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d.checks = nil
	d.locks()
	if len(d.checks) != 0 {
		t.Fatalf("a held lock is reported stale: %+v", d.checks)
	}
}

// A value that does not parse (here the environment's) is named with a
// warning: it used to put the default in place silently.
func TestDoctorNamesAnIgnoredValue(t *testing.T) {
	t.Setenv("ANAMNESIS_INJECT_MAX_CHARS", "abc")
	d := &doctor{p: Paths{Home: t.TempDir()}}
	d.config()
	if !hasCheck(d.checks, "config", statusWarn, `ANAMNESIS_INJECT_MAX_CHARS="abc" is not a valid value and is ignored`) {
		t.Errorf("checks: %+v", d.checks)
	}
}
