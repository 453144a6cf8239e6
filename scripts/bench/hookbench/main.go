// Command hookbench measures the Claude Code hooks as processes, the way
// Claude Code runs them (SPEC 9): each hook of hooks() on the generated 10k
// and 100k stores (anamnesis-recall on the 10k one, with a prompt about a
// stored note), timed alternately with the hello-world floor
// (scripts/bench/floor) and judged on its ratio to it, and
// anamnesis-capture on a generated 100 MB transcript (wall time and peak
// RSS); inject again right after each kind of write SPEC 9 names (capture,
// a CLI write, a global note, MCP memory_write, a dashboard edit, a sync
// that pulled another machine's note, the last in a git-synced copy of the
// store made once); with -team-sizes, inject and recall also on a home whose personal
// store has a team store of as many notes beside it (SPEC 18). It prints the table with the machine's load and exits 1 if a
// median is over its budget.
//
//	go run ./scripts/bench/hookbench [-work DIR] [-sizes 10000,100000] [-team-sizes 10000] [-runs 40] [-transcript-mb 100]
//
// Stores are WORK/store-N, shared with the other drivers (made by
// scripts/bench/gen_store.py when missing), and brought up to date before
// timing, so the numbers are the steady state a user sees at every
// SessionStart.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/note"
	"github.com/anamnesis-dev/anamnesis/pkg/session"
	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	// Memory-hungry steps run in a child: on Linux a process started with
	// vfork inherits its parent's peak RSS until exec, so a large bench
	// process would inflate the peak RSS measured for capture.
	if len(os.Args) == 4 && os.Args[1] == "-internal-transcript" {
		size, _ := strconv.ParseInt(os.Args[3], 10, 64)
		if err := writeTranscript(os.Args[2], size); err != nil {
			fmt.Fprintln(os.Stderr, "hookbench:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 3 && os.Args[1] == "-internal-measure" {
		if err := measure(os.Args[2], os.Args[3:]); err != nil {
			fmt.Fprintln(os.Stderr, "hookbench:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "-internal-index" {
		if err := index(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "hookbench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "hookbench:", err)
		os.Exit(1)
	}
}

// hook is one hook timed as a process on a generated store, the way Claude
// Code runs it: its payload on stdin, its home in the environment. Adding a
// hook to the bench is adding one of these to hooks().
type hook struct {
	name     string          // binary in -bin
	args     []string        // command-line arguments
	payload  string          // stdin
	budgets  map[int]float64 // store size -> budget as a ratio to the floor; sizes without one are skipped
	maxChars int             // output larger than this (or empty, unless mayBeEmpty) is an error
	// what names the row (default: the hook's name); mayBeEmpty: a prompt
	// recall rightly answers with nothing.
	what       string
	mayBeEmpty bool
}

// sessionMark in a payload is replaced by a fresh session id at every run:
// recall never shows a note twice in one session, so a fixed session would
// time a hook that has nothing left to do after the first run.
const sessionMark = "@SESSION@"

// benchProject is the project the hooks run in (project-cwd's marker).
const benchProject = "github.com/acme/proj03"

// recallPrompt asks about a note of the benchmark project: the path where
// recall does the most work (a search, matches, a block printed). It also
// returns the word of the note's title that made it chosen, in at most 1%
// of the notes.
func recallPrompt(home string) (prompt, rare string, err error) {
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		return "", "", err
	}
	defer st.Close()
	notes, err := st.List(ctx, store.Filter{Project: benchProject, Type: "procedural", Limit: 200})
	if err != nil || len(notes) == 0 {
		return "", "", fmt.Errorf("no procedural note in %s to ask about (%v)", benchProject, err)
	}
	// A note whose title holds a word in at most 1% of the notes, as a
	// prompt about a real note does: in a large generated store most
	// words are common, and recall rightly injects nothing for a prompt
	// of common words only.
	for i := len(notes) - 1; i >= 0; i-- {
		terms, docs, err := st.QueryTerms(ctx, notes[i].Title)
		if err != nil {
			return "", "", err
		}
		for _, t := range terms {
			if !t.Absent && t.DF*100 <= docs {
				return "how did we handle the " + notes[i].Title + "?", strings.ToLower(t.Word), nil
			}
		}
	}
	return "", "", fmt.Errorf("no procedural note in %s has a rare word in its title", benchProject)
}

func hooks(cwd, prompt, vague string) []hook {
	session := fmt.Sprintf(`{"session_id":"bench","transcript_path":"/nonexistent.jsonl","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, cwd)
	ask := func(p string) string {
		return fmt.Sprintf(`{"session_id":%q,"transcript_path":"/nonexistent.jsonl","cwd":%q,"hook_event_name":"UserPromptSubmit","prompt":%q}`, sessionMark, cwd, p)
	}
	recall := map[int]float64{10000: 4, 100000: 4.5, 1000000: 5}
	return []hook{
		{name: "anamnesis-inject", payload: session, budgets: injectBudgets, maxChars: 9500},
		{name: "anamnesis-recall", payload: ask(prompt), budgets: recall, maxChars: 2000},
		{name: "anamnesis-recall", what: "anamnesis-recall (common words and one in 1-5% of the notes)", payload: ask(vague), budgets: recall, maxChars: 2000, mayBeEmpty: true},
	}
}

// vaguePrompt is a prompt of function words and one word of a title in
// 1-5% of the notes, none of them absent: the shape of "how did we fix the
// retry", whose search reads that word's postings or walks for them.
func vaguePrompt(home string) (string, error) {
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		return "", err
	}
	defer st.Close()
	notes, err := st.List(ctx, store.Filter{Project: benchProject, Limit: 400})
	if err != nil {
		return "", err
	}
	for _, n := range notes {
		for _, w := range strings.Fields(n.Title) {
			terms, docs, err := st.QueryTerms(ctx, w)
			if err != nil {
				return "", err
			}
			if len(terms) == 1 && !terms[0].Absent && terms[0].DF*100 > docs && terms[0].DF*20 <= docs {
				return "how did we fix the " + w + " again?", nil
			}
		}
	}
	return "", fmt.Errorf("no title in %s has a word in 1-5%% of the notes", benchProject)
}

// SPEC 9: inject's budget holds cached or not, right after every kind of write.
var injectBudgets = map[int]float64{10000: 2, 100000: 2.5, 1000000: 2.5}

func run() error {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "work directory: generated stores (WORK/store-N, shared with the other drivers) and the transcript are kept for reuse")
	bin := flag.String("bin", "", "directory holding the hooks (default: build them into WORK/bin)")
	sizesFlag := flag.String("sizes", "10000,100000,1000000", "store sizes for the hooks")
	teamSizes := flag.String("team-sizes", "10000", "also time inject and recall on a home of this many personal notes beside a team store of as many (SPEC 18; empty: none)")
	missRuns := flag.Int("miss-runs", 10, "runs of inject right after each kind of write, per store (0: none)")
	pullMax := flag.Int("pull-max", 0, "time inject after a pull only on stores of at most this many notes (0: every size; the first run at a size adopts a copy of the store into git: minutes at 1M)")
	runs := flag.Int("runs", 40, "runs per hook and store (each paired with a floor run)")
	captureRuns := flag.Int("capture-runs", 3, "capture runs")
	mb := flag.Int("transcript-mb", 100, "size of the generated transcript in MB")
	flag.Parse()

	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	if *bin == "" {
		*bin = filepath.Join(*work, "bin")
		fmt.Fprintln(os.Stderr, "building hooks into", *bin)
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", *bin+string(filepath.Separator), "./cmd/anamnesis", "./cmd/anamnesis-inject", "./cmd/anamnesis-recall", "./cmd/anamnesis-capture")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build (run from the repository root): %w", err)
		}
	}
	fl, err := floor.Build(*work)
	if err != nil {
		return err
	}
	sqlFloor, err := filepath.Abs(filepath.Join(*work, "sqlfloor"))
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", sqlFloor, "./scripts/bench/sqlfloor")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building the SQLite floor (run from the repository root): %v\n%s", err, out)
	}
	cwd := filepath.Join(*work, "project-cwd")
	if err := os.MkdirAll(filepath.Join(cwd, ".anamnesis"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cwd, ".anamnesis", "project"), []byte(benchProject+"\n"), 0o644); err != nil {
		return err
	}
	var rows []floor.Row
	for _, f := range strings.Split(*sizesFlag, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-sizes: %v", err)
		}
		home, _, err := floor.Store(*work, n)
		if err != nil {
			return err
		}
		// Bring the index up to date outside the timed runs.
		t0 := time.Now()
		if err := self("-internal-index", home); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "store %d: index ready in %s\n", n, time.Since(t0).Round(time.Millisecond))
		prompt, rare, err := recallPrompt(home)
		if err != nil {
			return err
		}
		r, err := benchSQLFloor(fl, sqlFloor, home, rare, n, *runs)
		if err != nil {
			return err
		}
		rows = append(rows, r)
		vague, err := vaguePrompt(home)
		if err != nil {
			return err
		}
		for _, h := range hooks(cwd, prompt, vague) {
			if h.budgets[n] == 0 {
				continue
			}
			r, err := benchHook(fl, *bin, home, h, n, *runs)
			if err != nil {
				return err
			}
			rows = append(rows, r)
		}
		if *missRuns > 0 {
			r, err := benchAfterWrites(fl, *work, *bin, home, cwd, n, *missRuns, *pullMax == 0 || n <= *pullMax)
			if err != nil {
				return err
			}
			rows = append(rows, r...)
		}
	}
	for _, f := range strings.Split(*teamSizes, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("-team-sizes: %v", err)
		}
		r, err := benchTeam(fl, *work, *bin, cwd, n, *runs)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if *captureRuns > 0 { // -capture-runs 0 times the SessionStart and prompt hooks only
		r, err := benchCapture(*work, *bin, *mb, *captureRuns)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if floor.Print(os.Stdout, fmt.Sprintf("hooks (%s/%s, %d CPUs, %s)", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339)), rows) {
		return errors.New("a hook is over its budget")
	}
	return nil
}

// benchTeam times the hooks on a home of n personal notes beside a team
// store of n notes (floor.TeamStore), against the budgets of n personal
// notes: a team's store must not cost the hooks their budget (SPEC 9, 18).
func benchTeam(fl, work, bin, cwd string, n, runs int) ([]floor.Row, error) {
	home, err := floor.TeamStore(work, n)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	if err := self("-internal-index", home); err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "store %d + team %d: index ready in %s\n", n, n, time.Since(t0).Round(time.Millisecond))
	prompt, _, err := recallPrompt(home)
	if err != nil {
		return nil, err
	}
	var rows []floor.Row
	// Inject and recall; the vague prompt's row is the personal stores'.
	for _, h := range hooks(cwd, prompt, "")[:2] {
		if h.budgets[n] == 0 {
			continue
		}
		r, err := benchHook(fl, bin, home, h, n, runs)
		if err != nil {
			return nil, err
		}
		r.What += fmt.Sprintf(" + %dk team notes", n/1000)
		rows = append(rows, r)
	}
	return rows, nil
}

// benchSQLFloor times scripts/bench/sqlfloor on the index at home (an open
// and one FTS5 search of word in the bench project's notes) alternately
// with the floor: what SQLite itself costs a hook, beside the hooks' rows.
// It has no budget.
func benchSQLFloor(fl, sqlFloor, home, word string, n, runs int) (floor.Row, error) {
	res, err := floor.Pair(fl, 2, runs, floor.Exec(func() *exec.Cmd {
		return exec.Command(sqlFloor, filepath.Join(home, "index.db"), word, benchProject)
	}))
	if err != nil {
		return floor.Row{}, err
	}
	return floor.Row{What: fmt.Sprintf("SQLite alone: open the index, one FTS5 search, %dk notes", n/1000), Result: res,
		Note: "(no budget: what any hook reading this index pays)"}, nil
}

// benchHook times h on the store at home alternately with the floor, after
// two warm-up rounds that fill the page cache (and, for inject, its cache).
func benchHook(fl, bin, home string, h hook, n, runs int) (floor.Row, error) {
	var outLen int
	// The fresh sessions' state files are removed afterwards: left behind,
	// thousands of them (every run of the bench adds its own) would make
	// every later hook's write into that directory slower than a real
	// one's, which holds a day of sessions.
	var sessions []string
	defer func() {
		for _, id := range sessions {
			session.Remove(home, id)
		}
	}()
	timer := func() (time.Duration, error) {
		var out bytes.Buffer
		cmd := exec.Command(filepath.Join(bin, h.name), h.args...)
		cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home)
		id := "bench-" + strconv.FormatInt(time.Now().UnixNano(), 36)
		if strings.Contains(h.payload, sessionMark) {
			sessions = append(sessions, id)
		}
		cmd.Stdin = strings.NewReader(strings.ReplaceAll(h.payload, sessionMark, id))
		cmd.Stdout = &out
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		outLen = len([]rune(out.String()))
		return d, err
	}
	res, err := floor.Pair(fl, 2, runs, timer)
	if err != nil {
		return floor.Row{}, fmt.Errorf("%s: %w", h.name, err)
	}
	if outLen == 0 && !h.mayBeEmpty || (h.maxChars > 0 && outLen > h.maxChars) {
		return floor.Row{}, fmt.Errorf("%s on %d notes printed %d characters", h.name, n, outLen)
	}
	what := h.what
	if what == "" {
		what = h.name
	}
	return floor.Row{What: fmt.Sprintf("%s process, %dk notes", what, n/1000), Result: res, MaxRatio: h.budgets[n],
		Note: fmt.Sprintf("(%d chars out)", outLen)}, nil
}

// self runs this program with args in a child process.
func self(args ...string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	return cmd.Run()
}

// waitGone waits, up to limit, until process pid (not a child of ours) has
// exited; 0 is no process. An exited process is gone once it is a zombie:
// whoever adopted it may reap it much later (this sandbox's init, after
// about a second).
func waitGone(pid int, limit time.Duration) {
	if pid == 0 {
		return
	}
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(2 * time.Millisecond) {
		p, err := os.FindProcess(pid)
		if err != nil || p.Signal(syscall.Signal(0)) != nil {
			return
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if _, rest, ok := bytes.Cut(stat, []byte(") ")); ok && bytes.HasPrefix(rest, []byte("Z")) {
				return
			}
		}
	}
}

// measure runs a command (stdin, stdout and stderr its own) and writes its
// wall time and peak RSS to the file out: started from this small process
// and not from the bench, whose peak RSS a vforked child inherits (the
// memory map of a 1M store's index counts in it) until its exec.
func measure(out string, argv []string) error {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return err
	}
	return os.WriteFile(out, fmt.Appendf(nil, "%d %d\n", time.Since(start), floor.MaxRSS(cmd.ProcessState)), 0o644)
}

// index opens the store (building the index if it is missing), brings it
// up to date with the files and merges its small segments, as a sync leaves
// it.
func index(home string) error {
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Reindex(ctx, false); err != nil {
		return err
	}
	// As a sync does after the index follows git: the full-text segments
	// the previous runs' writes left are merged, as a user's next session
	// end would merge them.
	return st.Tidy(ctx)
}

// benchCapture writes (once) a transcript of mb megabytes shaped like a long
// real session, then captures it with --no-sync into a fresh home.
func benchCapture(work, bin string, mb, runs int) ([]floor.Row, error) {
	path := filepath.Join(work, fmt.Sprintf("transcript-%dmb.jsonl", mb))
	if fi, err := os.Stat(path); err != nil || fi.Size() < int64(mb)<<20 {
		fmt.Fprintf(os.Stderr, "generating a %d MB transcript in %s\n", mb, path)
		if err := self("-internal-transcript", path, strconv.FormatInt(int64(mb)<<20, 10)); err != nil {
			return nil, err
		}
	}
	home := filepath.Join(work, "capture-home")
	os.RemoveAll(home)
	var times []time.Duration
	var rss []int64
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	figures := filepath.Join(work, "capture-figures")
	for range runs {
		var out bytes.Buffer
		// --wait: the work itself, which the hook hands to a detached child.
		cmd := exec.Command(exe, "-internal-measure", figures, filepath.Join(bin, "anamnesis-capture"), "--transcript", path, "--project", "github.com/acme/bench", "--no-sync", "--wait")
		cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench", "ANAMNESIS_REFLECTION_PROVIDER=heuristic")
		cmd.Stdin = strings.NewReader("")
		cmd.Stdout, cmd.Stderr = &out, os.Stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("capture: %w", err)
		}
		data, err := os.ReadFile(figures)
		if err != nil {
			return nil, err
		}
		var took time.Duration
		var peak int64
		if _, err := fmt.Sscan(string(data), &took, &peak); err != nil {
			return nil, fmt.Errorf("capture's figures %q: %w", data, err)
		}
		times = append(times, took)
		rss = append(rss, peak)
		if !strings.Contains(out.String(), "episodic note") {
			return nil, fmt.Errorf("capture wrote no note: %q", out.String())
		}
	}
	slices.Sort(rss)
	medRSS := rss[len(rss)/2]
	t := floor.Result{Runs: runs, Median: floor.Pct(times, 50), P95: floor.Pct(times, 95)}
	return []floor.Row{{What: fmt.Sprintf("anamnesis-capture, %d MB transcript", mb), Result: t, Max: 3 * time.Second,
		Bad: medRSS > 64<<20, Note: fmt.Sprintf("(peak RSS %.1f MB, budget 64 MB)", float64(medRSS)/(1<<20))}}, nil
}

// writeTranscript writes lines in the proportions of a long coding session:
// prompts, assistant text, edits, tool results of many sizes (some huge,
// over the parser's line limit), attachments and API request blobs.
func writeTranscript(path string, size int64) error {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	w := &countWriter{w: f}
	bw := newBuf(w)
	filler := func(n int) string { return strings.Repeat("lorem ipsum dolor sit amet ", n/27+1)[:n] }
	const sess = `"sessionId":"bench-0000-4000-8000-000000000000","cwd":"/home/dev/src/app","gitBranch":"main","version":"2.1.330"`
	for i := 0; w.n < size; i++ {
		switch {
		case i%500 == 499: // a huge tool result (a 12 MB file read), past the line limit
			fmt.Fprintf(bw, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]},%s}`+"\n", i, filler(12<<20), sess)
		case i%7 == 0:
			fmt.Fprintf(bw, `{"type":"user","message":{"role":"user","content":"Please change step %d: %s"},%s}`+"\n", i, filler(300), sess)
		case i%7 == 1:
			fmt.Fprintf(bw, `{"type":"assistant","message":{"model":"claude","content":[{"type":"text","text":"Done with step %d. %s"}]},%s}`+"\n", i, filler(600), sess)
		case i%7 == 2:
			fmt.Fprintf(bw, `{"type":"assistant","message":{"model":"claude","content":[{"type":"tool_use","id":"t%d","name":"Edit","input":{"file_path":"/home/dev/src/app/f%03d.go","old_string":"%s","new_string":"%s"}}]},%s}`+"\n",
				i, i%400, filler(400), filler(500), sess)
		case i%7 == 3:
			fmt.Fprintf(bw, `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"%s"}]},"toolUseResult":{"stdout":"%s"},%s}`+"\n",
				i, filler(20000), filler(20000), sess)
		case i%7 == 4:
			fmt.Fprintf(bw, `{"type":"attachment","attachment":{"type":"file","content":"%s"},%s}`+"\n", filler(3000), sess)
		case i%7 == 5:
			fmt.Fprintf(bw, `{"type":"api-request-blob","sessionId":"x","message":{"role":"user","content":[{"type":"text","text":"%s"}]}}`+"\n", filler(8000))
		default:
			fmt.Fprintf(bw, `{"type":"queue-operation","operation":"enqueue",%s}`+"\n", sess)
		}
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

type buf struct {
	w io.Writer
	b []byte
}

func newBuf(w io.Writer) *buf { return &buf{w: w} }

func (b *buf) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	if len(b.b) >= 1<<20 {
		return len(p), b.Flush()
	}
	return len(p), nil
}

func (b *buf) Flush() error {
	_, err := b.w.Write(b.b)
	b.b = b.b[:0]
	return err
}

// A write is one kind of write SPEC 9 times inject right after: it runs
// (untimed) before each timed inject run and returns the id of the note it
// wrote, which is removed again when the row is done (the generated store
// must keep its size).
type write struct {
	what string
	do   func(i int) (string, error)
	home string // the home the write lands in, when not the store's own
}

// benchAfterWrites times anamnesis-inject right after each kind of write
// (the block cache made stale by it), alternately with the floor, and
// capture itself on a 200-line transcript. A dashboard edit and a pull are
// not driven here: the dashboard's writes go through the same store write and
// stale-block refresh as the CLI's (pkg/dashboard's wrote), and a pull's
// through sync's reindex and refresh.
func benchAfterWrites(fl, work, bin, home, cwd string, n, runs int, pulls bool) ([]floor.Row, error) {
	envFor := func(home string) []string {
		return append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench", "ANAMNESIS_REFLECTION_PROVIDER=heuristic")
	}
	env := envFor(home)
	transcript := filepath.Join(work, "transcript-200-lines.jsonl")
	if _, err := os.Stat(transcript); err != nil {
		if err := self("-internal-transcript", transcript, strconv.Itoa(1500<<10)); err != nil {
			return nil, err
		}
	}
	cli := func(project string) func(int) (string, error) {
		return func(i int) (string, error) {
			cmd := exec.Command(filepath.Join(bin, "anamnesis"), "write", "--type", "semantic", "--project", project,
				"--title", fmt.Sprintf("bench write %d", i), "--body", "a note written right before a session starts")
			cmd.Env = env
			out, err := cmd.Output()
			return strings.TrimSpace(string(out)), err
		}
	}
	mcp, stop, err := startMCP(bin, env)
	if err != nil {
		return nil, err
	}
	defer stop()
	dash, stopDash, err := startDashboard(bin, env)
	if err != nil {
		return nil, err
	}
	defer stopDash()
	// captureTimes is the hook's, childTimes from its start to its detached
	// child's exit (the note written, the block rendered, the commit made).
	var captureTimes, childTimes []time.Duration
	child := 0 // the last capture's detached child, if any
	endPayload := fmt.Sprintf(`{"session_id":"bench-end","transcript_path":%q,"cwd":%q,"hook_event_name":"SessionEnd","reason":"other"}`, transcript, cwd)
	writes := []write{
		{what: "CLI write", do: cli(benchProject)},
		{what: "a global note", do: cli("global")},
		{what: "MCP memory_write", do: mcp},
		{what: "a dashboard edit", do: dash},
		{what: "capture", do: func(i int) (string, error) {
			// As Claude Code runs the SessionEnd hook: the payload on stdin.
			cmd := exec.Command(filepath.Join(bin, "anamnesis-capture"), "--project", benchProject, "--no-sync")
			cmd.Env = env
			cmd.Stdin = strings.NewReader(endPayload)
			// A session ends long after the last one's capture: capture is
			// timed alone, not beside the previous capture's child; the
			// inject timed after it runs once its child is done (the next
			// session starts seconds after a session ends).
			waitGone(child, 2*time.Minute)
			t0 := time.Now()
			out, err := cmd.Output()
			captureTimes = append(captureTimes, time.Since(t0))
			p := regexp.MustCompile(`in the background \(pid (\d+)\)`).FindStringSubmatch(string(out))
			if err != nil || p == nil {
				return "", fmt.Errorf("capture did not hand the session to its child: %v %q", err, out)
			}
			child, _ = strconv.Atoi(p[1])
			waitGone(child, 2*time.Minute)
			childTimes = append(childTimes, time.Since(t0))
			log, _ := os.ReadFile(filepath.Join(home, "logs", "anamnesis.log"))
			m := regexp.MustCompile(`anamnesis-capture\[` + p[1] + `\]: capture: wrote episodic note (\S+)`).FindSubmatch(log)
			if m == nil {
				return "", fmt.Errorf("capture's child (pid %s) wrote no note (see %s)", p[1], filepath.Join(home, "logs", "anamnesis.log"))
			}
			return string(m[1]), nil
		}},
	}
	if pulls {
		pull, err := syncPull(work, bin, home, n)
		if err != nil {
			return nil, err
		}
		writes = append(writes, write{what: "a sync that pulled a note", do: pull, home: filepath.Join(syncHome(work, n), "home")})
	}
	session := fmt.Sprintf(`{"session_id":"bench","transcript_path":"/nonexistent.jsonl","cwd":%q,"hook_event_name":"SessionStart","source":"startup"}`, cwd)
	var rows []floor.Row
	var floorTimes []time.Duration
	for _, w := range writes {
		env := env
		if w.home != "" {
			env = envFor(w.home)
		}
		ids := map[string]bool{}
		i := 0
		timer := func() (time.Duration, error) {
			i++
			id, err := w.do(i)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", w.what, err)
			}
			ids[id] = true
			var out bytes.Buffer
			cmd := exec.Command(filepath.Join(bin, "anamnesis-inject"))
			cmd.Env = env
			cmd.Stdin = strings.NewReader(session)
			cmd.Stdout = &out
			t0 := time.Now()
			err = cmd.Run()
			d := time.Since(t0)
			if err == nil && out.Len() == 0 {
				err = errors.New("inject printed nothing")
			}
			return d, err
		}
		res, err := floor.Pair(fl, 1, runs, timer)
		floorTimes = append(floorTimes, res.Floor)
		for id := range ids {
			if id == "" {
				continue
			}
			cmd := exec.Command(filepath.Join(bin, "anamnesis"), "rm", id)
			cmd.Env = env
			if out, rerr := cmd.CombinedOutput(); rerr != nil && err == nil {
				err = fmt.Errorf("removing bench note %s: %v %s", id, rerr, out)
			}
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, floor.Row{What: fmt.Sprintf("anamnesis-inject right after %s, %dk notes", w.what, n/1000), Result: res, MaxRatio: injectBudgets[n]})
	}
	c := floor.Result{Runs: len(captureTimes), Median: floor.Pct(captureTimes, 50), P95: floor.Pct(captureTimes, 95), Floor: floor.Pct(floorTimes, 50)}
	c.RatioMedian, c.RatioP95 = float64(c.Median)/float64(c.Floor), float64(c.P95)/float64(c.Floor)
	rows = append(rows, floor.Row{What: fmt.Sprintf("anamnesis-capture, 200-line transcript, %dk notes (floor: the same run's)", n/1000), Result: c, MaxRatio: 6})
	d := floor.Result{Runs: len(childTimes), Median: floor.Pct(childTimes, 50), P95: floor.Pct(childTimes, 95)}
	rows = append(rows, floor.Row{What: fmt.Sprintf("capture's detached child done (note, block, commit), %dk notes", n/1000), Result: d, Note: "(no budget: off the user's terminal)"})
	return rows, nil
}

// startMCP starts anamnesis-mcp on the store and returns a write that calls
// memory_write through it.
func startMCP(bin string, env []string) (func(int) (string, error), func(), error) {
	cmd := exec.Command(filepath.Join(bin, "anamnesis-mcp"))
	cmd.Env = env
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	out := bufio.NewReader(pipe)
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	// Stopped as a client stops it: stdin closed, and killed only when it
	// has not exited by then. A kill would leave its write-ahead log for
	// every later process to recover, which no session meets (Claude Code
	// ends its servers the same way).
	stop := func() {
		in.Close()
		t := time.AfterFunc(10*time.Second, func() { cmd.Process.Kill() })
		cmd.Wait()
		t.Stop()
	}
	id := 0
	call := func(method, params string) (string, error) {
		id++
		if _, err := fmt.Fprintf(in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params); err != nil {
			return "", err
		}
		line, err := out.ReadString('\n')
		if err != nil {
			return "", err
		}
		if !strings.Contains(line, fmt.Sprintf(`"id":%d`, id)) || strings.Contains(line, `"isError":true`) || strings.Contains(line, `"error":`) {
			return "", fmt.Errorf("unexpected MCP answer: %.300s", line)
		}
		return line, nil
	}
	if _, err := call("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"hookbench","version":"1"}}`); err != nil {
		stop()
		return nil, nil, err
	}
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	write := func(i int) (string, error) {
		line, err := call("tools/call", fmt.Sprintf(`{"name":"memory_write","arguments":{"type":"semantic","title":"bench mcp write %d","body":"written through MCP right before a session","project":"github.com/acme/proj03"}}`, i))
		if err != nil {
			return "", err
		}
		m := regexp.MustCompile(`\\?"id\\?":\s*\\?"([0-9A-Z]{26})`).FindStringSubmatch(line)
		if m == nil {
			return "", fmt.Errorf("no id in the MCP answer: %.300s", line)
		}
		return m[1], nil
	}
	return write, stop, nil
}

// startDashboard starts anamnesis-dashboard on the store and returns a write
// that edits one note through its form, as a person does: the first call
// creates the note, every later one opens its edit form and saves a new body.
func startDashboard(bin string, env []string) (func(int) (string, error), func(), error) {
	cmd := exec.Command(filepath.Join(bin, "anamnesis-dashboard"), "--addr", "127.0.0.1:0")
	cmd.Env = env
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop := func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }
	line, err := bufio.NewReader(pipe).ReadString('\n')
	m := regexp.MustCompile(`(http://127\.0\.0\.1:\d+)/`).FindStringSubmatch(line)
	if err != nil || m == nil {
		stop()
		return nil, nil, fmt.Errorf("anamnesis-dashboard did not say where it serves: %q %v", line, err)
	}
	base := m[1]
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	hidden := func(page, name string) string {
		m := regexp.MustCompile(`name="` + name + `" value="([^"]*)"`).FindStringSubmatch(page)
		if m == nil {
			return ""
		}
		return html.UnescapeString(m[1])
	}
	get := func(path string) (string, error) {
		resp, err := client.Get(base + path)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("GET %s: %s", path, resp.Status)
		}
		return string(b), err
	}
	post := func(path string, form url.Values) (string, error) {
		req, err := http.NewRequest("POST", base+path, strings.NewReader(form.Encode()))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", base)
		resp, err := client.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther && resp.StatusCode != http.StatusFound {
			b, _ := io.ReadAll(resp.Body)
			return "", fmt.Errorf("POST %s: %s %.300s", path, resp.Status, b)
		}
		return resp.Header.Get("Location"), nil
	}
	id := ""
	write := func(i int) (string, error) {
		form := url.Values{"title": {"bench dashboard note"}, "type": {"semantic"}, "scope": {"portable"},
			"project": {benchProject}, "body": {fmt.Sprintf("edited in the dashboard right before a session (%d)", i)}}
		path := "/notes/new"
		if id != "" {
			path = "/notes/" + id + "/edit"
		}
		page, err := get(path)
		if err != nil {
			return "", err
		}
		form.Set("csrf", hidden(page, "csrf"))
		form.Set("base", hidden(page, "base"))
		loc, err := post(path, form)
		if err != nil {
			return "", err
		}
		if id == "" {
			m := regexp.MustCompile(`^/notes/([0-9A-Z]{26})`).FindStringSubmatch(loc)
			if m == nil {
				return "", fmt.Errorf("the dashboard's create redirected to %q", loc)
			}
			id = m[1]
		}
		return id, nil
	}
	return write, stop, nil
}

// syncHome is the git-synced copy of store-n that the pull row uses: the
// generated notes (hard links), its own index, a bare remote it pushed them
// to, and a peer's scratch space.
func syncHome(work string, n int) string { return filepath.Join(work, fmt.Sprintf("store-%d-sync", n)) }

// syncPull prepares syncHome once (a copy of the store adopted by a first
// sync into a bare remote; minutes at 1M notes, kept for later runs) and
// returns a write that commits a note to the remote as another machine would
// and pulls it with anamnesis-sync, untimed, before the timed inject.
func syncPull(work, bin, store string, n int) (func(int) (string, error), error) {
	dir := syncHome(work, n)
	home, remote := filepath.Join(dir, "home"), filepath.Join(dir, "remote.git")
	env := append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench", "ANAMNESIS_GIT_REMOTE="+remote,
		"ANAMNESIS_IMPORT_NATIVE=0", "CLAUDE_CONFIG_DIR="+filepath.Join(dir, "no-claude"))
	sync := func() error {
		cmd := exec.Command(filepath.Join(bin, "anamnesis-sync"), "--timeout", "3600")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("anamnesis-sync in %s: %v\n%s", home, err, out)
		}
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "ready")); err != nil {
		t0 := time.Now()
		fmt.Fprintf(os.Stderr, "store %d: preparing its synced copy in %s (once)\n", n, dir)
		os.RemoveAll(dir)
		if err := os.MkdirAll(filepath.Join(home, "memory"), 0o700); err != nil {
			return nil, err
		}
		for _, t := range []string{"episodic", "procedural", "semantic"} {
			if out, err := exec.Command("cp", "-al", filepath.Join(store, "memory", t), filepath.Join(home, "memory", t)).CombinedOutput(); err != nil {
				return nil, fmt.Errorf("cp -al: %v %s", err, out)
			}
		}
		// The store's index, up to date and idle here, saves the first
		// sync a rebuild (its paths are relative to the home).
		for _, f := range []string{"index.db", "index.db-wal"} {
			if _, err := os.Stat(filepath.Join(store, f)); err == nil {
				if out, err := exec.Command("cp", filepath.Join(store, f), filepath.Join(home, f)).CombinedOutput(); err != nil {
					return nil, fmt.Errorf("cp: %v %s", err, out)
				}
			}
		}
		if out, err := exec.Command("git", "init", "-q", "--bare", "-b", "main", remote).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git init: %v %s", err, out)
		}
		if err := sync(); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
			return nil, err
		}
		fmt.Fprintf(os.Stderr, "store %d: synced copy ready in %s\n", n, time.Since(t0).Round(time.Second))
	} else if err := sync(); err != nil { // push what an earlier run left (its notes' removal)
		return nil, err
	}
	git := func(stdin string, args ...string) (string, error) {
		cmd := exec.Command("git", append([]string{"--git-dir", remote}, args...)...)
		cmd.Stdin = strings.NewReader(stdin)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=peer", "GIT_AUTHOR_EMAIL=peer@example.com",
			"GIT_COMMITTER_NAME=peer", "GIT_COMMITTER_EMAIL=peer@example.com")
		out, err := cmd.Output()
		if err != nil {
			return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
		}
		return strings.TrimSpace(string(out)), nil
	}
	return func(i int) (string, error) {
		// Another machine's commit, made in the remote without a checkout:
		// the note's blob, its type directory's tree with it added, the
		// root tree with that directory replaced.
		nt := note.New("semantic", fmt.Sprintf("bench pulled note %d", i), "written on another machine and pulled right before a session")
		nt.ID, nt.Project, nt.MachineID = note.NewID(), benchProject, "peer"
		nt.CreatedAt = note.Now()
		nt.UpdatedAt = nt.CreatedAt
		id, text := nt.ID, string(nt.Marshal())
		blob, err := git(text, "hash-object", "-w", "--stdin")
		if err != nil {
			return "", err
		}
		dirTree, err := git("", "ls-tree", "main:semantic")
		if err != nil {
			return "", err
		}
		sub, err := git(dirTree+"\n100644 blob "+blob+"\t"+id+".md\n", "mktree")
		if err != nil {
			return "", err
		}
		root, err := git("", "ls-tree", "main")
		if err != nil {
			return "", err
		}
		var lines []string
		for _, l := range strings.Split(root, "\n") {
			if !strings.HasSuffix(l, "\tsemantic") {
				lines = append(lines, l)
			}
		}
		newRoot, err := git(strings.Join(append(lines, "040000 tree "+sub+"\tsemantic"), "\n")+"\n", "mktree")
		if err != nil {
			return "", err
		}
		c, err := git("", "commit-tree", newRoot, "-p", "main", "-m", "peer: a note")
		if err != nil {
			return "", err
		}
		if _, err := git("", "update-ref", "refs/heads/main", c); err != nil {
			return "", err
		}
		return id, sync()
	}, nil
}
