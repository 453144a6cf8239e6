package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/tmptest"
)

// TestMain lets the scripts run the real binary (main, exit code and all),
// and puts the real `anamnesis` command, which computes a block the cache
// does not hold, on PATH for every test.
func TestMain(m *testing.M) {
	var main tmptest.M = m
	if tmptest.IsTestBinary() {
		// The tests get a temp dir of their own, checked empty at the
		// end; the build of anamnesis is removed before the check (a
		// deferred RemoveAll never ran: testscript.Main exits).
		tmp, err := tmptest.New(m, "anamnesis-inject-test-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		dir, err := os.MkdirTemp(tmp.Path(), "anamnesis-inject-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		tmp.Cleanup = func() { os.RemoveAll(dir) }
		exe := filepath.Join(dir, "anamnesis")
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if out, err := exec.Command("go", "build", "-o", exe, "../anamnesis").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build anamnesis: %v\n%s", err, out)
			os.RemoveAll(tmp.Path())
			os.Exit(1)
		}
		os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
		main = tmp
	}
	testscript.Main(main, map[string]func(){
		"anamnesis-inject": func() { cli.QuickMain("anamnesis-inject", run) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ANAMNESIS_HOME", env.WorkDir+"/home")
			env.Setenv("ANAMNESIS_MACHINE_ID", "test")
			return os.MkdirAll(env.WorkDir+"/home/memory/semantic", 0o755)
		},
	})
}
