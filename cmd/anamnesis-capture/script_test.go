package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/tmptest"
)

// TestMain lets the scripts run the real binary (main, exit code and all).
func TestMain(m *testing.M) {
	// A temp dir of their own, checked empty after the tests.
	testscript.Main(tmptest.Wrap(m, "anamnesis-capture-test-"), map[string]func(){
		"anamnesis-capture": func() { cli.Main("anamnesis-capture", run) },
	})
}

func TestScripts(t *testing.T) {
	fx, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ANAMNESIS_HOME", env.WorkDir+"/home")
			env.Setenv("ANAMNESIS_MACHINE_ID", "dev")
			env.Setenv("ANAMNESIS_REFLECTION_PROVIDER", "heuristic")
			env.Setenv("FIXTURES", fx)
			// git must be found; anamnesis-sync must not, even when one is
			// installed (no background syncs from tests).
			bin := filepath.Join(env.WorkDir, ".bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				return err
			}
			for _, tool := range []string{"git", "sh", "cat"} {
				p, err := exec.LookPath(tool)
				if err != nil {
					return err
				}
				if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
					return err
				}
			}
			// Keep testscript's own command directory, which comes first.
			first, _, _ := strings.Cut(env.Getenv("PATH"), string(os.PathListSeparator))
			env.Setenv("PATH", first+string(os.PathListSeparator)+bin)
			return nil
		},
	})
}
