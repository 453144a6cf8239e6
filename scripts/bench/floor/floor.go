// Package floor is the yardstick of SPEC 9: every hook and command is timed
// alternately with a hello-world Go binary (the floor) in the same run, so a
// budget is a ratio that holds on a fast laptop and on a loaded virtual
// machine alike. It also owns the generated stores the drivers share, so a
// missing or half-written store stops the bench instead of skewing it.
package floor

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// src is the floor: the least a Go process can do.
const src = `package main

import "os"

func main() { os.Stdout.WriteString("floor\n") }
`

// Build compiles the floor into dir (static, stripped, like our binaries)
// and returns its path.
func Build(dir string) (string, error) {
	srcDir := filepath.Join(dir, "floor-src")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(srcDir, "go.mod"), []byte("module floor\n\ngo 1.22\n"), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(srcDir, "main.go"), []byte(src), 0o644); err != nil {
		return "", err
	}
	bin, err := filepath.Abs(filepath.Join(dir, "floor"))
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Dir = srcDir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the floor: %v\n%s", err, out)
	}
	return bin, nil
}

// Timer runs the command under test once and returns how long it took.
type Timer func() (time.Duration, error)

// Exec returns a Timer that runs the command mk makes, from start to exit,
// with stdout discarded.
func Exec(mk func() *exec.Cmd) Timer {
	return func() (time.Duration, error) {
		cmd := mk()
		if cmd.Stdout == nil {
			cmd.Stdout = io.Discard
		}
		var errb strings.Builder
		if cmd.Stderr == nil {
			cmd.Stderr = &errb
		}
		t0 := time.Now()
		err := cmd.Run()
		d := time.Since(t0)
		if err != nil {
			return 0, fmt.Errorf("%s: %v %s", strings.Join(cmd.Args, " "), err, errb.String())
		}
		return d, nil
	}
}

// Result is one command's timings next to the floor's, taken alternately.
type Result struct {
	Runs                  int
	Median, P95           time.Duration
	Floor                 time.Duration // the floor's median over the same runs
	RatioMedian, RatioP95 float64
}

// Pair times cmd and the floor alternately: warm untimed rounds (page cache,
// binaries), then runs rounds, each running the floor then the command, so
// a burst of load from the machine's other tenants hits both.
func Pair(floorBin string, warm, runs int, cmd Timer) (Result, error) {
	fl := Exec(func() *exec.Cmd { return exec.Command(floorBin) })
	var fs, cs []time.Duration
	for i := range warm + runs {
		f, err := fl()
		if err != nil {
			return Result{}, err
		}
		c, err := cmd()
		if err != nil {
			return Result{}, err
		}
		if i >= warm {
			fs, cs = append(fs, f), append(cs, c)
		}
	}
	r := Result{Runs: runs, Median: Pct(cs, 50), P95: Pct(cs, 95), Floor: Pct(fs, 50)}
	r.RatioMedian = float64(r.Median) / float64(r.Floor)
	r.RatioP95 = float64(r.P95) / float64(r.Floor)
	return r, nil
}

// Pct is the p-th percentile of ds.
func Pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// MS formats d in milliseconds.
func MS(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }

// Row is one line of a SPEC 9 table. A ratio budget (MaxRatio > 0) is
// judged on the median's ratio to the floor; an absolute one (Max > 0) on
// the median itself.
type Row struct {
	What     string
	Result   Result
	MaxRatio float64
	Max      time.Duration
	Bad      bool // a check other than time failed (Note says which)
	Note     string
}

// Over says whether the row misses its budget.
func (r Row) Over() bool {
	return r.Bad || (r.MaxRatio > 0 && r.Result.RatioMedian > r.MaxRatio) || (r.Max > 0 && r.Result.Median > r.Max)
}

// Print writes rows as a markdown table with the machine's load, and
// reports whether any row is over budget.
func Print(w io.Writer, title string, rows []Row) (over bool) {
	fmt.Fprintf(w, "\n%s (load %s)\n\n", title, Load())
	fmt.Fprintln(w, "| what | median | p95 | floor | ratio (p50) | budget | |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, r := range rows {
		ratio, fl, budget := "-", "-", "-"
		if r.Result.Floor > 0 {
			ratio, fl = fmt.Sprintf("%.2fx", r.Result.RatioMedian), MS(r.Result.Floor)
		}
		switch {
		case r.MaxRatio > 0:
			budget = fmt.Sprintf("≤ %gx floor", r.MaxRatio)
		case r.Max > 0:
			budget = "≤ " + r.Max.String()
		}
		mark := "ok"
		if r.Over() {
			mark, over = "**OVER**", true
		}
		if r.Note != "" {
			mark += " " + r.Note
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", r.What, MS(r.Result.Median), MS(r.Result.P95), fl, ratio, budget, mark)
	}
	return over
}

// Load is the machine's load average (the bench shares its machine).
func Load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
