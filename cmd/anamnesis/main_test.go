package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
	"github.com/anamnesis-dev/anamnesis/pkg/tmptest"
)

func TestMain(m *testing.M) {
	// A temp dir of their own, checked empty after the tests.
	testscript.Main(tmptest.Wrap(m, "anamnesis-test-"), map[string]func(){
		"anamnesis": func() { cli.QuickMain("anamnesis", run) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("ANAMNESIS_HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("ANAMNESIS_MACHINE_ID", "testbox")
			env.Setenv("HOME", filepath.Join(env.WorkDir, "userhome"))
			env.Setenv("REFSTORE", mustAbs("../../testdata/fixtures/reference/store"))
			env.Setenv("NATIVE", mustAbs("../../testdata/fixtures/claude-code/projects/-home-dev-src-quotes-api/memory"))
			// Commits made by scripts: a bare git may have no identity.
			env.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(env.WorkDir, "gitconfig"))
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			return nil
		},
	})
}

func mustAbs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		panic(err)
	}
	return a
}

// The dispatcher finds extensions next to its own executable even when that
// directory is not on PATH, and passes their exit code through exec.
func TestOwnDirectoryDispatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell-script extension")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "anamnesis")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ext := "#!/bin/sh\necho \"hello $* bin=$ANAMNESIS_BIN home=$ANAMNESIS_HOME path1=${PATH%%:*}\"\nexit 7\n"
	if err := os.WriteFile(filepath.Join(dir, "anamnesis-hello"), []byte(ext), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "hello", "--flag", "two words")
	cmd.Env = append(os.Environ(), "PATH=/usr/bin:/bin", "ANAMNESIS_HOME=/tmp/h")
	out, err := cmd.Output()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 7 {
		t.Fatalf("exit: %v (%s)", err, out)
	}
	want := "hello --flag two words bin=" + bin + " home=/tmp/h path1=" + dir + "\n"
	if got := string(out); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	// A built-in can never be shadowed by an extension of the same name.
	os.WriteFile(filepath.Join(dir, "anamnesis-version"), []byte("#!/bin/sh\necho fake\n"), 0o755)
	out, _ = exec.Command(bin, "version").Output()
	if strings.Contains(string(out), "fake") {
		t.Fatal("built-in shadowed")
	}
}

// commandName accepts exactly what ^[a-z][a-z0-9-]*$ does.
func TestCommandNameAgreesWithRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	for _, s := range []string{"", "a", "sync", "my-ext2", "2fa", "-x", "Sync", "a_b", "a.b", "a b", "é", "x-", "../x", "a/b"} {
		if got, want := commandName(s), re.MatchString(s); got != want {
			t.Errorf("commandName(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}
