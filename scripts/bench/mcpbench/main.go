// Command mcpbench measures anamnesis-mcp's start-up the way an MCP client
// sees it (SPEC 9: start + initialize + tools/list ≤ 4x the floor): it starts the
// process, sends initialize, waits for the answer, sends
// notifications/initialized and tools/list, and stops the clock when the tool
// list arrives. It also times the first memory_search of a session (which
// opens the store) for information. It prints medians and exits 1 if the
// start-up median is over budget.
//
//	go run ./scripts/bench/mcpbench [-work DIR] [-bin FILE] [-size 10000] [-runs 200]
//
// The store is made by scripts/bench/gen_store.py (python3) once per work
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
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/store"
	"github.com/anamnesis-dev/anamnesis/scripts/bench/floor"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func run() error {
	work := flag.String("work", filepath.Join(os.TempDir(), "anamnesis-bench"), "work directory (generated stores WORK/store-N are shared with the other drivers)")
	bin := flag.String("bin", "", "the anamnesis-mcp binary (default: build it into WORK/bin)")
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
		cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", *bin, "./cmd/anamnesis-mcp")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // static, as installed
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build (run from the repository root): %w", err)
		}
	}
	home, err := prepareHome(*work, *size)
	if err != nil {
		return err
	}

	fl, err := floor.Build(*work)
	if err != nil {
		return err
	}
	var firstSearch, exit []time.Duration
	res, err := floor.Pair(fl, 5, *runs, func() (time.Duration, error) {
		s, f, e, err := session(*bin, home)
		firstSearch, exit = append(firstSearch, f), append(exit, e)
		return s, err
	})
	if err != nil {
		return err
	}
	firstSearch, exit = firstSearch[5:], exit[5:]
	info := func(ds []time.Duration) floor.Result {
		return floor.Result{Runs: len(ds), Median: floor.Pct(ds, 50), P95: floor.Pct(ds, 95)}
	}
	rows := []floor.Row{
		{What: fmt.Sprintf("anamnesis-mcp start + initialize + tools/list, %d notes", *size), Result: res, MaxRatio: 4},
		{What: "  then first memory_search (opens the store)", Result: info(firstSearch)},
		{What: "  then stdin closed until the process exited", Result: info(exit)},
	}
	if floor.Print(os.Stdout, fmt.Sprintf("anamnesis-mcp (%s/%s, %d CPUs, %s)", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339)), rows) {
		return errors.New("start-up is over its budget")
	}
	return nil
}

func prepareHome(work string, n int) (string, error) {
	if n == 0 {
		home := filepath.Join(work, "empty-home")
		os.RemoveAll(home)
		return home, os.MkdirAll(home, 0o755)
	}
	home, _, err := floor.Store(work, n)
	if err != nil {
		return "", err
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
