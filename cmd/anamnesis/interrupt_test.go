package main

import (
	"bufio"
	"errors"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// Ctrl-C while the dispatcher runs an extension as a child: the dispatcher
// does not die first; the child gets the interrupt, cleans up, and its exit
// code comes back through the dispatcher (issue 30). The interrupt is sent
// to the dispatcher (this test process) only, so the child sees it only if
// it is forwarded. Windows delivers a console's Ctrl-C to every process
// attached, which a test cannot send here (see the README).
func TestInterruptWaitsForChild(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no interrupt to send to one process on Windows")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var stderr strings.Builder
	e := &env{stdin: strings.NewReader(""), stdout: w, stderr: &stderr, getenv: func(k string) string {
		if k == "ANAMNESIS_TEST_INTERRUPTED_CHILD" {
			return "1"
		}
		return os.Getenv(k)
	}}
	t.Setenv("ANAMNESIS_TEST_INTERRUPTED_CHILD", "1")
	done := make(chan error, 1)
	go func() {
		done <- runChild(t.Context(), e, os.Args[0], []string{"-test.run=^TestInterruptedChildProcess$"})
		w.Close()
	}()
	out := bufio.NewReader(r)
	if line, _ := out.ReadString('\n'); strings.TrimSpace(line) != "ready" {
		t.Fatalf("child said %q", line)
	}
	p, _ := os.FindProcess(os.Getpid())
	p.Signal(os.Interrupt)
	var err2 error
	select {
	case err2 = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the dispatcher did not return")
	}
	rest, _ := out.ReadString(0)
	if !strings.Contains(rest, "cleaned up") {
		t.Errorf("the child did not finish its cleanup: %q (stderr %q)", rest, stderr.String())
	}
	var ee cli.ExitError
	if !errors.As(err2, &ee) || ee.Code != 1 {
		t.Errorf("exit: %v, want the child's code 1", err2)
	}
}

// TestInterruptedChildProcess is TestInterruptWaitsForChild's extension.
func TestInterruptedChildProcess(t *testing.T) {
	if os.Getenv("ANAMNESIS_TEST_INTERRUPTED_CHILD") == "" {
		t.Skip("run by TestInterruptWaitsForChild")
	}
	intr := make(chan os.Signal, 1)
	signal.Notify(intr, os.Interrupt)
	os.Stdout.WriteString("ready\n")
	<-intr
	time.Sleep(300 * time.Millisecond) // cleanup that takes a while
	os.Stdout.WriteString("cleaned up\n")
	t.Fatal("interrupted") // exit code 1, after the test binary's own cleanup
}
