package setup

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// doctor names an unreadable note file by its path, which a pulled
// repository chooses: an escape sequence or a line break in the name does
// not reach the terminal as such.
func TestDoctorPrintsOneLinePerCheck(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows refuses control characters in a file name: no pulled file can carry them there")
	}
	e := newEnv(t, false)
	sem := filepath.Join(e.defaultHome(), "memory", "semantic")
	if err := os.MkdirAll(sem, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sem, "x\x1b]0;PWNED\x07\nFAIL forged.md"), []byte("---\nbad\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Doctor(context.Background(), DoctorOptions{Paths: Paths{BinDir: e.binDir}}, &out, &out)
	s := out.String()
	if !strings.Contains(s, "PWNED") {
		t.Fatalf("doctor did not name the file:\n%s", s)
	}
	if strings.ContainsAny(s, "\x1b\x07") || strings.Contains(s, "\nFAIL forged") {
		t.Errorf("doctor printed:\n%q", s)
	}
}
