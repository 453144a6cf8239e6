// Package reftest runs the reference implementation (SPEC 3.2) for tests
// that check a home is shared with it safely: Python code with one of its
// versions on the path, run by the same python3 and PyYAML it needs. The
// reference is ../shared/reference-impl, or $ANAMNESIS_REFERENCE_IMPL; a
// test skips where it or python3 with PyYAML is missing. For tests only: no
// command imports it.
package reftest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Versions are the reference's two versions.
var Versions = []string{"seed-era", "head"}

// Dir is the reference implementation's directory; it skips t when python3
// with PyYAML or the reference's version is missing.
func Dir(t testing.TB, version string) string {
	t.Helper()
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		t.Skip("python3 with PyYAML is not installed; the reference cannot run")
	}
	src := "/work/shared/reference-impl"
	if v := os.Getenv("ANAMNESIS_REFERENCE_IMPL"); v != "" {
		src = v
	}
	if _, err := os.Stat(filepath.Join(src, version, "anamnesis")); err != nil {
		t.Skipf("the reference implementation is not at %s ($ANAMNESIS_REFERENCE_IMPL)", src)
	}
	return src
}

// Python runs code under version of the reference, with args as sys.argv[1:]
// and env added to this process's environment, and returns its combined
// output.
func Python(t testing.TB, version, code string, args []string, env ...string) (string, error) {
	t.Helper()
	src := Dir(t, version)
	cmd := exec.Command("python3", append([]string{"-c", code}, args...)...)
	cmd.Env = append(os.Environ(), append(env, "PYTHONDONTWRITEBYTECODE=1",
		"PYTHONPATH="+filepath.Join(src, "shim")+string(os.PathListSeparator)+filepath.Join(src, version))...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}
