// Command mcpbench measures anamnesis-mcp's start-up the way an MCP client
// sees it (SPEC 9: start + initialize + tools/list <= 50 ms): it starts the
// process, sends initialize, waits for the answer, sends
// notifications/initialized and tools/list, and stops the clock when the tool
// list arrives. It also times the first memory_search of a session (which
// opens the store) for information. It prints medians and exits 1 if the
// start-up median is over budget.
//
//	go run ./scripts/bench/mcpbench [-work DIR] [-bin FILE] [-size 10000] [-runs 200]
//
// The store is made by ../shared/bench/gen_store.py (python3) once per work
// directory and indexed before timing; -size 0 uses an empty home.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
)

const budget = 50 * time.Millisecond

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func run() error {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-mcpbench"), "work directory (the store is kept for reuse)")
	bin := flag.String("bin", "", "the anamnesis-mcp binary (default: build it into WORK/bin)")
	gen := flag.String("gen", "../shared/bench/gen_store.py", "gen_store.py")
	size := flag.Int("size", 10000, "notes in the store (0: an empty home)")
	runs := flag.Int("runs", 200, "timed runs")
	flag.Parse()

	if err := os.MkdirAll(*work, 0o755); err != nil {
		return err
	}
	if *bin == "" {
		*bin = filepath.Join(*work, "bin", "anamnesis-mcp")
		if runtime.GOOS == "windows" {
			*bin += ".exe"
		}
		fmt.Fprintln(os.Stderr, "building", *bin)
		cmd := exec.Command("go", "build", "-o", *bin, "./cmd/anamnesis-mcp")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build (run from the repository root): %w", err)
		}
	}
	home, err := prepareHome(*work, *gen, *size)
	if err != nil {
		return err
	}

	var startup, firstSearch, exit []time.Duration
	for i := range *runs + 5 {
		s, f, e, err := session(*bin, home)
		if err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		if i < 5 { // warm-up: page cache, binary
			continue
		}
		startup, firstSearch, exit = append(startup, s), append(firstSearch, f), append(exit, e)
	}
	med, p95 := stats(startup)
	fmt.Printf("\n%-52s %10s %10s %10s\n", fmt.Sprintf("anamnesis-mcp (%d runs, %d notes)", *runs, *size), "median", "p95", "budget")
	mark := "ok"
	if med > budget {
		mark = "OVER BUDGET"
	}
	fmt.Printf("%-52s %10s %10s %10s  %s\n", "start + initialize + tools/list", ms(med), ms(p95), ms(budget), mark)
	m, p := stats(firstSearch)
	fmt.Printf("%-52s %10s %10s %10s\n", "  then first memory_search (opens the store)", ms(m), ms(p), "-")
	m, p = stats(exit)
	fmt.Printf("%-52s %10s %10s %10s\n", "  then stdin closed until the process exited", ms(m), ms(p), "-")
	fmt.Printf("(%s/%s, %d CPUs, %s)\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339))
	if med > budget {
		return errors.New("start-up is over its budget")
	}
	return nil
}

func prepareHome(work, gen string, n int) (string, error) {
	home := filepath.Join(work, fmt.Sprintf("store-%d", n))
	if n == 0 {
		os.RemoveAll(home)
		return home, os.MkdirAll(home, 0o755)
	}
	ok := filepath.Join(home, ".mcpbench-ok")
	if _, err := os.Stat(ok); err != nil {
		os.RemoveAll(home)
		fmt.Fprintf(os.Stderr, "generating a %d-note store in %s\n", n, home)
		cmd := exec.Command("python3", gen, home, strconv.Itoa(n))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("gen_store.py: %w", err)
		}
		if err := os.WriteFile(ok, nil, 0o644); err != nil {
			return "", err
		}
	}
	// Index outside the timed runs: the numbers are the steady state.
	ctx := context.Background()
	st, err := store.Open(ctx, home)
	if err != nil {
		return "", err
	}
	defer st.Close()
	_, err = st.Reindex(ctx, false)
	return home, err
}

// session runs one client session and returns the time to the tool list, the
// time of the first search after it, and the time from closing stdin to exit.
func session(bin, home string) (startup, search, exit time.Duration, err error) {
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "ANAMNESIS_HOME="+home, "ANAMNESIS_MACHINE_ID=bench")
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return
	}
	out := bufio.NewReader(outPipe)
	t0 := time.Now()
	if err = cmd.Start(); err != nil {
		return
	}
	defer cmd.Process.Kill()
	send := func(s string) error { _, err := io.WriteString(in, s+"\n"); return err }
	expect := func(id int) error {
		line, err := out.ReadString('\n')
		if err != nil {
			return fmt.Errorf("reading the answer to %d: %w", id, err)
		}
		var m struct {
			ID    int             `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil || m.ID != id || m.Error != nil {
			return fmt.Errorf("unexpected answer to %d: %.200s", id, line)
		}
		return nil
	}
	if err = send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}}`); err != nil {
		return
	}
	if err = expect(1); err != nil {
		return
	}
	if err = send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		return
	}
	if err = send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`); err != nil {
		return
	}
	if err = expect(2); err != nil {
		return
	}
	startup = time.Since(t0)
	t1 := time.Now()
	if err = send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":"how did we fix the deploy"}}}`); err != nil {
		return
	}
	if err = expect(3); err != nil {
		return
	}
	search = time.Since(t1)
	t2 := time.Now()
	in.Close()
	if err = cmd.Wait(); err != nil {
		return
	}
	exit = time.Since(t2)
	return
}

func stats(d []time.Duration) (median, p95 time.Duration) {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2], s[min(len(s)-1, len(s)*95/100)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
