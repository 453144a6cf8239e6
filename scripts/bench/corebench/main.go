// Command corebench measures the store and the dispatcher against the SPEC 9
// budgets: `anamnesis search` and `anamnesis status` as processes (10k, 1M), store Search in-process
// over the generated queries (10k, 100k, 1M), `reindex --full` (10k, 100k,
// 1M), an incremental reindex with nothing changed (10k), writes in-process
// into a copy of each index (their median and slowest: no budget, but a
// write's cost must not grow with the store either), and the binaries'
// sizes.
// Processes are timed alternately with the hello-world floor and a search
// is judged on its ratio to it; reindex --full reports its peak RSS. It
// prints the table with the machine's load and exits 1 if one is over budget.
//
//	go run ./scripts/bench/corebench [-work DIR] [-bin DIR] [-sizes 10000,100000,1000000] [-full-max N]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "where generated stores live (reused)")
	bin := flag.String("bin", "bin", "directory with the built binaries")
	sizes := flag.String("sizes", "10000,100000,1000000", "store sizes")
	fullMax := flag.Int("full-max", 0, "time reindex --full only on stores of at most this many notes (0: every size)")
	runs := flag.Int("runs", 30, "runs per process measurement")
	flag.Parse()
	fl, err := floor.Build(*work)
	if err != nil {
		die(err)
	}
	var rows []floor.Row
	anamnesis, _ := filepath.Abs(filepath.Join(*bin, "anamnesis"))
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			die(err)
		}
		home, queries, err := floor.Store(*work, n)
		if err != nil {
			die(err)
		}
		label := fmt.Sprintf("%dk", n/1000)
		big := n >= 100000
		b := budgetsFor(n)
		var ds []time.Duration
		if *fullMax == 0 || n <= *fullMax {
			// reindex --full as a process: wall time and peak RSS.
			var rss []int64
			for range b.fullRuns {
				d, r := timeRSS(anamnesis, "reindex", "--full", "--home", home)
				ds, rss = append(ds, d), append(rss, r)
			}
			slices.Sort(rss)
			peak := rss[len(rss)-1]
			row := floor.Row{What: "reindex --full, " + label, Result: floor.Result{Runs: b.fullRuns, Median: floor.Pct(ds, 50), P95: floor.Pct(ds, 95)},
				Max: b.full, Note: fmt.Sprintf("(peak RSS %.0f MB)", float64(peak)/(1<<20))}
			if b.rss > 0 {
				row.Bad = peak > b.rss
				row.Note = fmt.Sprintf("(peak RSS %.0f MB, budget %d MB)", float64(peak)/(1<<20), b.rss>>20)
			}
			rows = append(rows, row)
		} else if err := self(home); err != nil { // the index must exist for what follows
			die(err)
		}
		if n == 10000 && (*fullMax == 0 || n <= *fullMax) {
			// The same notes with the episodic ones as capture writes them
			// (prov_source: session-end), which the screen of SPEC 17 reads
			// at every index: the generator's notes are all human, which it
			// skips, and a real store is mostly captured sessions.
			captured, err := capturedCopy(*work, home)
			if err != nil {
				die(err)
			}
			var cds []time.Duration
			for range b.fullRuns {
				d, _ := timeRSS(anamnesis, "reindex", "--full", "--home", captured)
				cds = append(cds, d)
			}
			rows = append(rows, floor.Row{What: "reindex --full, " + label + " with its episodic notes captured (session-end, screened)",
				Result: floor.Result{Runs: b.fullRuns, Median: floor.Pct(cds, 50), P95: floor.Pct(cds, 95)}, Max: b.full})
		}
		if !big {
			r, err := floor.Pair(fl, 2, *runs, floor.Exec(func() *exec.Cmd { return exec.Command(anamnesis, "reindex", "--home", home) }))
			if err != nil {
				die(err)
			}
			rows = append(rows, floor.Row{What: "reindex (nothing changed), " + label, Result: r, Max: 100 * time.Millisecond})
		}
		qs, err := floor.Queries(queries)
		if err != nil {
			die(err)
		}
		if b.search > 0 {
			// status as a person runs it, in a home whose hooks' syncs keep
			// the record of what waits for a sync (one sync, once, starts
			// it: a repository of every note the first time, minutes at 1M).
			sync := exec.Command(anamnesis, "sync", "--home", home)
			sync.Env = append(os.Environ(), "ANAMNESIS_GIT_REMOTE=", "ANAMNESIS_IMPORT_NATIVE=0", "CLAUDE_CONFIG_DIR="+filepath.Join(*work, "no-claude"))
			if out, err := sync.CombinedOutput(); err != nil {
				die(fmt.Errorf("anamnesis sync --home %s: %v\n%s", home, err, out))
			}
			r, err := floor.Pair(fl, 2, *runs, floor.Exec(func() *exec.Cmd { return exec.Command(anamnesis, "status", "--home", home) }))
			if err != nil {
				die(err)
			}
			rows = append(rows, floor.Row{What: "anamnesis status (process), " + label, Result: r, MaxRatio: b.search})
			i := 0
			r, err = floor.Pair(fl, 2, *runs*3, floor.Exec(func() *exec.Cmd {
				q := qs[i%len(qs)]
				i++
				return exec.Command(anamnesis, "search", "--home", home, "--project", q.Project, q.Query)
			}))
			if err != nil {
				die(err)
			}
			rows = append(rows, floor.Row{What: "anamnesis search (process), " + label, Result: r, MaxRatio: b.search})
			wr, rm, err := writeAndRemove(fl, anamnesis, home, *runs)
			if err != nil {
				die(err)
			}
			rows = append(rows, floor.Row{What: "anamnesis write (process), " + label, Result: wr, MaxRatio: b.search},
				floor.Row{What: "anamnesis rm (process), " + label, Result: rm, MaxRatio: b.search})
		}
		s, err := store.Open(context.Background(), home)
		if err != nil {
			die(err)
		}
		ds = nil
		for round := 0; round < 3; round++ {
			for _, q := range qs {
				t0 := time.Now()
				// The hits' files read too, as the CLI's --json and MCP read them.
				hits, err := s.Search(context.Background(), store.Query{Text: q.Query, Filter: store.Filter{Project: q.Project}, K: 8})
				if err != nil {
					die(err)
				}
				store.Notes(hits)
				ds = append(ds, time.Since(t0))
			}
		}
		s.Close()
		rows = append(rows, floor.Row{What: "store Search (in-process), " + label, Result: floor.Result{Runs: len(ds), Median: floor.Pct(ds, 50), P95: floor.Pct(ds, 95)},
			Max: b.inProcess})
		ds, err = timeWrites(home, *work, writes)
		if err != nil {
			die(err)
		}
		rows = append(rows, floor.Row{What: fmt.Sprintf("store Write (in-process, %d writes into a copy of the index), %s", writes, label),
			Result: floor.Result{Runs: len(ds), Median: floor.Pct(ds, 50), P95: floor.Pct(ds, 95)}, Note: fmt.Sprintf("(slowest %s)", floor.Pct(ds, 100).Round(time.Millisecond))})
	}
	fail := floor.Print(os.Stdout, fmt.Sprintf("store and commands (%s/%s, %d CPUs, %s)", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339)), rows)
	fmt.Printf("\n| binary | size |\n|---|---|\n")
	entries, _ := os.ReadDir(*bin)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasPrefix(e.Name(), "anamnesis") {
			fmt.Printf("| %s | %.1f MB |\n", e.Name(), float64(info.Size())/1e6)
		}
	}
	if fail {
		os.Exit(1)
	}
}

// budgets are SPEC 9's for one store size.
type budgets struct {
	full      time.Duration // reindex --full
	fullRuns  int
	rss       int64   // reindex --full's peak RSS (0: not budgeted)
	search    float64 // anamnesis search as a process, ratio to the floor (0: not measured)
	inProcess time.Duration
}

func budgetsFor(n int) budgets {
	switch {
	case n >= 1000000:
		return budgets{full: 240 * time.Second, fullRuns: 1, rss: 600 << 20, search: 10, inProcess: 30 * time.Millisecond}
	case n >= 100000:
		return budgets{full: 20 * time.Second, fullRuns: 3, rss: 300 << 20, inProcess: 10 * time.Millisecond}
	default:
		return budgets{full: 2 * time.Second, fullRuns: 5, search: 6, inProcess: 3 * time.Millisecond}
	}
}

// writes is how many notes timeWrites writes: enough for FTS5 to merge
// the segments writes add several times over.
const writes = 300

// timeWrites writes n notes one transaction each, as capture or an MCP
// memory_write does, into a copy of home's index (the notes' files go to the
// copy's home) and returns each write's time.
func timeWrites(home, work string, n int) ([]time.Duration, error) {
	dir := filepath.Join(work, "writes-home")
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := copyFile(filepath.Join(home, "index.db"), filepath.Join(dir, "index.db")); err != nil {
		return nil, err
	}
	ctx := context.Background()
	s, err := store.Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var ds []time.Duration
	for i := range n {
		nt := note.New(note.Episodic, fmt.Sprintf("Bench write %d", i), fmt.Sprintf("A session note written by the bench, number %d: the quotes service retries with backoff, the ledger closes nightly, and write%d is its own word.", i, i))
		nt.Project = "github.com/acme/proj03"
		t0 := time.Now()
		if _, err := s.Write(ctx, nt); err != nil {
			return nil, err
		}
		ds = append(ds, time.Since(t0))
	}
	return ds, nil
}

// writeAndRemove times anamnesis write as a person runs it, a note of the
// bench project each time, alternately with the floor, then anamnesis rm of
// each of those notes the same way (which leaves the store as it was).
func writeAndRemove(fl, anamnesis, home string, runs int) (write, rm floor.Result, err error) {
	var ids []string
	write, err = floor.Pair(fl, 2, runs, func() (time.Duration, error) {
		cmd := exec.Command(anamnesis, "write", "--home", home, "--type", "semantic", "--project", "github.com/acme/proj03",
			"--title", fmt.Sprintf("bench write %d", len(ids)), "--body", "a note a person writes by hand")
		t0 := time.Now()
		out, err := cmd.Output()
		d := time.Since(t0)
		if err == nil {
			ids = append(ids, strings.TrimSpace(string(out)))
		}
		return d, err
	})
	if err != nil {
		return write, rm, fmt.Errorf("anamnesis write: %w", err)
	}
	i := 0
	rm, err = floor.Pair(fl, 2, runs, func() (time.Duration, error) {
		cmd := exec.Command(anamnesis, "rm", "--home", home, ids[i])
		i++
		t0 := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%w: %s", err, out)
		}
		return time.Since(t0), err
	})
	if err != nil {
		return write, rm, fmt.Errorf("anamnesis rm: %w", err)
	}
	return write, rm, nil
}

// capturedCopy copies home's notes (once) into a home of their own, each
// episodic note's prov_source made session-end, and returns it.
func capturedCopy(work, home string) (string, error) {
	dir := filepath.Join(work, "store-10000-captured")
	if _, err := os.Stat(filepath.Join(dir, "memory")); err == nil {
		return dir, nil
	}
	tmp := dir + ".tmp"
	os.RemoveAll(tmp)
	for _, tree := range []string{"memory", "local"} {
		files, err := filepath.Glob(filepath.Join(home, tree, "*", "*.md"))
		if err != nil {
			return "", err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return "", err
			}
			typ := filepath.Base(filepath.Dir(f))
			if typ == note.Episodic {
				data = bytes.Replace(data, []byte("\nprov_source: human\n"), []byte("\nprov_source: session-end\n"), 1)
			}
			out := filepath.Join(tmp, tree, typ, filepath.Base(f))
			if err := os.MkdirAll(filepath.Dir(out), 0o700); err != nil {
				return "", err
			}
			if err := os.WriteFile(out, data, 0o600); err != nil {
				return "", err
			}
		}
	}
	return dir, os.Rename(tmp, dir)
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	// On disk before the writes are timed: the first checkpoint's sync
	// would otherwise write back the whole copy (3.7 s at 1M).
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// self brings home's index up to date (building it if missing) outside
// the timed runs, in this process.
func self(home string) error {
	ctx := context.Background()
	s, err := store.Open(ctx, home)
	if err != nil {
		return err
	}
	defer s.Close()
	_, err = s.Reindex(ctx, false)
	return err
}

// timeRSS runs a command once and returns its wall time and peak RSS.
func timeRSS(name string, args ...string) (time.Duration, int64) {
	cmd := exec.Command(name, args...)
	t0 := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		die(fmt.Errorf("%s %v: %v\n%s", name, args, err, out))
	}
	d := time.Since(t0)
	return d, floor.MaxRSS(cmd.ProcessState)
}

func die(err error) {
	fmt.Fprintln(os.Stderr, "corebench:", err)
	os.Exit(2)
}
