package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// TestMain lets the scripts run the real binary (main, exit code and all),
// and puts the real `anamnesis` command, which computes a block the cache
// does not hold, on PATH for every test.
func TestMain(m *testing.M) {
	if strings.HasSuffix(strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"), ".test") {
		dir, err := os.MkdirTemp("", "anamnesis-inject-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer os.RemoveAll(dir)
		exe := filepath.Join(dir, "anamnesis")
		if runtime.GOOS == "windows" {
			exe += ".exe"
		}
		if out, err := exec.Command("go", "build", "-o", exe, "../anamnesis").CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "build anamnesis: %v\n%s", err, out)
			os.Exit(1)
		}
		os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	}
	testscript.Main(m, map[string]func(){
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
