// Command syncbench times anamnesis-sync as a process against a local bare
// remote: a cycle with nothing to do on a 10k store, a cycle pushing 1,000
// new notes on a 10k store, the other machine's cycle pulling them, an idle
// cycle as the hooks run it (--recorded), and the
// first push and first adoption of the whole store. It prints medians (and
// the slowest run); there is no budget in SPEC 9 for sync, so it never fails
// on time.
//
//	go run ./scripts/bench/syncbench [-bin DIR] [-work DIR] [-n 10000] [-add 1000] [-runs 5]
package main

import (
	"crypto/rand"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	bin := flag.String("bin", "bin", "directory with the built binaries")
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-syncbench"), "scratch directory (wiped)")
	n := flag.Int("n", 10000, "notes in the store")
	add := flag.Int("add", 1000, "new notes per push measurement")
	runs := flag.Int("runs", 5, "runs per measurement")
	flag.Parse()
	syncBin, err := filepath.Abs(filepath.Join(*bin, "anamnesis-sync"))
	check(err)
	check(os.RemoveAll(*work))
	check(os.MkdirAll(*work, 0o755))
	base := filepath.Join(*work, "base")
	fmt.Fprintf(os.Stderr, "generating a %d-note store...\n", *n)
	check(floor.Generate(floor.Gen{Home: filepath.Join(base, "a"), N: *n}))
	run("git", "init", "-q", "--bare", filepath.Join(base, "remote.git"))
	run("git", "--git-dir", filepath.Join(base, "remote.git"), "symbolic-ref", "HEAD", "refs/heads/main")
	// The generator writes the notes; the first sync builds the index too,
	// so open the store first to time the git part on its own.
	env := func(home string, machine string) []string {
		return append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID="+machine,
			"ANAMNESIS_GIT_REMOTE="+filepath.Join(filepath.Dir(home), "remote.git"),
			"ANAMNESIS_IMPORT_NATIVE=0", "CLAUDE_CONFIG_DIR="+filepath.Join(*work, "no-claude"))
	}
	syncOnce := func(home, machine string, args ...string) (time.Duration, string) {
		cmd := exec.Command(syncBin, append([]string{"--timeout", "600"}, args...)...)
		cmd.Env = env(home, machine)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if err != nil {
			die(fmt.Errorf("sync %s: %v\n%s", home, err, out))
		}
		return d, strings.TrimSpace(string(out))
	}
	var rows [][3]string
	report := func(what string, ds []time.Duration, line string) {
		slices.Sort(ds)
		rows = append(rows, [3]string{what, ms(ds[len(ds)/2]), ms(ds[len(ds)-1])})
		fmt.Fprintf(os.Stderr, "%s: %s\n", what, line)
	}

	// First push of the whole store (index built by this sync's store open).
	d, line := syncOnce(filepath.Join(base, "a"), "alpha")
	report(fmt.Sprintf("first sync, push %d notes (incl. first index build)", *n), []time.Duration{d}, line)
	d, line = syncOnce(filepath.Join(base, "b"), "beta")
	report(fmt.Sprintf("second machine adopts %d notes (incl. index build)", *n), []time.Duration{d}, line)

	var idle []time.Duration
	for range *runs * 2 {
		d, line = syncOnce(filepath.Join(base, "a"), "alpha")
		idle = append(idle, d)
	}
	report(fmt.Sprintf("nothing to do, %d notes", *n), idle, line)
	// As the hooks run it (SessionStart's, capture's): what the store's
	// writers recorded, not a look at every file.
	idle = nil
	for range *runs * 2 {
		d, line = syncOnce(filepath.Join(base, "a"), "alpha", "--recorded")
		idle = append(idle, d)
	}
	report(fmt.Sprintf("nothing to do, %d notes, a hook's sync (--recorded)", *n), idle, line)

	var pushes, pulls []time.Duration
	var pushLine, pullLine string
	for i := range *runs {
		// A fresh copy of the settled pair each time: the store stays at n notes.
		dir := filepath.Join(*work, fmt.Sprintf("run%d", i))
		run("cp", "-a", base, dir)
		writeNotes(filepath.Join(dir, "a", "memory"), *add, i)
		d, pushLine = syncOnce(filepath.Join(dir, "a"), "alpha")
		pushes = append(pushes, d)
		d, pullLine = syncOnce(filepath.Join(dir, "b"), "beta")
		pulls = append(pulls, d)
		os.RemoveAll(dir)
	}
	report(fmt.Sprintf("%d new notes on a %d-note store: commit+push+index", *add, *n), pushes, pushLine)
	report(fmt.Sprintf("other machine pulls those %d: fetch+merge+index", *add), pulls, pullLine)

	fmt.Printf("\n%-60s %10s %10s\n", "anamnesis-sync (process)", "median", "max")
	for _, r := range rows {
		fmt.Printf("%-60s %10s %10s\n", r[0], r[1], r[2])
	}
}

// writeNotes adds count new notes of realistic size to a memory tree.
func writeNotes(mem string, count, salt int) {
	words := strings.Fields("the sync keeps both versions of a note when two machines edit it and pushes the merge " +
		"so every index answers every search without a manual reindex or a lost note")
	for i := range count {
		n := note.New(note.Types[i%3], fmt.Sprintf("bench note %d of run %d", i, salt), "")
		var b strings.Builder
		for j := range 120 {
			b.WriteString(words[(i+j*7)%len(words)])
			b.WriteByte(' ')
		}
		n.Body = b.String()
		n.ID = ulid.MustNew(ulid.Now(), rand.Reader).String()
		n.MachineID = "alpha"
		n.CreatedAt, n.UpdatedAt = note.Now(), note.Now()
		n.Tags = []string{"bench"}
		p := filepath.Join(mem, n.Type, n.ID+".md")
		check(os.MkdirAll(filepath.Dir(p), 0o755))
		check(os.WriteFile(p, n.Marshal(), 0o644))
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func run(name string, args ...string) {
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		die(fmt.Errorf("%s %v: %v\n%s", name, args, err, out))
	}
}

func check(err error) {
	if err != nil {
		die(err)
	}
}

func die(err error) {
	fmt.Fprintln(os.Stderr, "syncbench:", err)
	os.Exit(1)
}
