package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/tmptest"
)

// TestMain lets the scripts run the real binary (main, exit code and all).
func TestMain(m *testing.M) {
	// A temp dir of their own, checked empty after the tests.
	testscript.Main(tmptest.Wrap(m, "anamnesis-recall-test-"), map[string]func(){
		"anamnesis-recall": func() { cli.QuickMain("anamnesis-recall", run) },
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
