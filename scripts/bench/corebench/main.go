// Command corebench measures the store and the dispatcher against the SPEC 9
// budgets: `anamnesis search` as a process (10k), store Search in-process over
// the generated queries (10k, 100k), `reindex --full` (10k, 100k), an
// incremental reindex with nothing changed (10k), and the binaries' sizes.
// It prints a table of medians and exits 1 if one is over budget.
//
//	go run ./scripts/bench/corebench [-work DIR] [-bin DIR] [-sizes 10000,100000]
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

type row struct {
	what   string
	median time.Duration
	p95    time.Duration
	budget time.Duration
}

func main() {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "where generated stores live (reused)")
	bin := flag.String("bin", "bin", "directory with the built binaries")
	gen := flag.String("gen", "scripts/bench/gen_store.py", "the store generator")
	sizes := flag.String("sizes", "10000,100000", "store sizes")
	runs := flag.Int("runs", 30, "runs per process measurement")
	flag.Parse()
	var rows []row
	fail := false
	add := func(r row) {
		rows = append(rows, r)
		if r.budget > 0 && r.median > r.budget {
			fail = true
		}
	}
	anamnesis, _ := filepath.Abs(filepath.Join(*bin, "anamnesis"))
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			die(err)
		}
		home, queries := ensureStore(*work, *gen, n)
		label := fmt.Sprintf("%dk", n/1000)
		big := n >= 100000
		// reindex --full as a process.
		fullRuns := 5
		if big {
			fullRuns = 3
		}
		d := timeProcess(fullRuns, anamnesis, "reindex", "--full", "--home", home)
		add(row{"reindex --full, " + label, median(d), pct(d, 95), pick(big, 20*time.Second, 2*time.Second)})
		if !big {
			d = timeProcess(*runs, anamnesis, "reindex", "--home", home)
			add(row{"reindex (nothing changed), " + label, median(d), pct(d, 95), 100 * time.Millisecond})
		}
		qs := readQueries(queries)
		if !big {
			var ds []time.Duration
			for i := 0; i < *runs*3; i++ {
				q := qs[i%len(qs)]
				ds = append(ds, timeProcess(1, anamnesis, "search", "--home", home, "--project", q.Project, q.Query)...)
			}
			add(row{"anamnesis search (process), " + label, median(ds), pct(ds, 95), 20 * time.Millisecond})
		}
		s, err := store.Open(context.Background(), home)
		if err != nil {
			die(err)
		}
		var ds []time.Duration
		for round := 0; round < 3; round++ {
			for _, q := range qs {
				t0 := time.Now()
				if _, err := s.Search(context.Background(), q.Query, store.Filter{Project: q.Project}, 8); err != nil {
					die(err)
				}
				ds = append(ds, time.Since(t0))
			}
		}
		s.Close()
		add(row{"store Search (in-process), " + label, median(ds), pct(ds, 95), pick(big, 20*time.Millisecond, 3*time.Millisecond)})
	}
	fmt.Printf("\n| what | median | p95 | budget |\n|---|---|---|---|\n")
	for _, r := range rows {
		b := "-"
		if r.budget > 0 {
			b = "≤ " + r.budget.String()
			if r.median > r.budget {
				b += " **over**"
			}
		}
		fmt.Printf("| %s | %s | %s | %s |\n", r.what, round(r.median), round(r.p95), b)
	}
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

func pick(big bool, a, b time.Duration) time.Duration {
	if big {
		return a
	}
	return b
}

func ensureStore(work, gen string, n int) (home, queries string) {
	home = filepath.Join(work, fmt.Sprintf("store-%d", n))
	queries = home + ".queries.jsonl"
	if _, err := os.Stat(queries); err == nil {
		return home, queries
	}
	fmt.Fprintf(os.Stderr, "generating a %d-note store in %s\n", n, home)
	os.RemoveAll(home)
	cmd := exec.Command("python3", gen, home, strconv.Itoa(n), "--queries", queries+".tmp", "--nq", "200")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		die(fmt.Errorf("gen_store.py: %w", err))
	}
	if err := os.Rename(queries+".tmp", queries); err != nil {
		die(err)
	}
	return home, queries
}

type query struct{ Query, Project string }

func readQueries(path string) []query {
	f, err := os.Open(path)
	if err != nil {
		die(err)
	}
	defer f.Close()
	var qs []query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var q query
		if json.Unmarshal(sc.Bytes(), &q) == nil {
			qs = append(qs, q)
		}
	}
	return qs
}

func timeProcess(n int, name string, args ...string) []time.Duration {
	var ds []time.Duration
	for range n {
		cmd := exec.Command(name, args...)
		t0 := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			die(fmt.Errorf("%s %v: %v\n%s", name, args, err, out))
		}
		ds = append(ds, time.Since(t0))
	}
	return ds
}

func median(ds []time.Duration) time.Duration { return pct(ds, 50) }

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func round(d time.Duration) string {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond).String()
	}
	return d.Round(time.Microsecond).String()
}

func die(err error) {
	fmt.Fprintln(os.Stderr, "corebench:", err)
	os.Exit(2)
}
