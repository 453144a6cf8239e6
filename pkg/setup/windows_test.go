//go:build windows

package setup

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// On Windows init's hooks are argument lists (exec form): started as Claude
// Code starts them (the executable with its arguments, no shell), each runs
// its binary from a folder and with a home whose names hold a space,
// non-ASCII letters, '&' and ',', and the binary receives every argument
// whole. The binaries here are copies of this test binary, which prints its
// arguments (TestMain).
func TestWindowsHooksRunFromAnyPath(t *testing.T) {
	root := t.TempDir()
	binDir := filepath.Join(root, "R&D, José", "Program Files", "bin")
	home := filepath.Join(root, "First Last & Co, Zoë", ".anamnesis")
	if err := os.MkdirAll(binDir, 0o755); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range BuildHooks(binDir, home, false) {
		for _, g := range ev.Groups {
			for _, h := range g.Hooks {
				if len(h.Args) < 2 || h.Args[0] != "--home" || h.Args[1] != home || !strings.HasPrefix(h.Command, binDir) {
					t.Fatalf("%s: %+v", ev.Event, h)
				}
				js, _ := json.Marshal(h)
				if !strings.Contains(string(js), `"args":[`) {
					t.Errorf("%s: written without args: %s", ev.Event, js)
				}
				if _, err := os.Stat(h.Command); err != nil {
					copyFile(t, self, h.Command)
				}
				cmd := exec.Command(h.Command, h.Args...)
				cmd.Env = append(os.Environ(), "SETUP_TEST_PRINT_ARGS=1")
				out, err := cmd.Output()
				if err != nil {
					t.Fatalf("%s: %s: %v", ev.Event, h.Line(), err)
				}
				var got []string
				if err := json.Unmarshal(out, &got); err != nil || !slices.Equal(got, h.Args) {
					t.Errorf("%s: the binary got %q (%v), want %q", ev.Event, got, err, h.Args)
				}
				n++
			}
		}
	}
	if n != 5 {
		t.Errorf("%d hooks run, want 5", n)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// doctor warns when %HOME% names another folder than %USERPROFILE%, and not
// when Git Bash spells the same folder its own way.
func TestDoctorWarnsWhenHOMEIsNotUSERPROFILE(t *testing.T) {
	up := `C:\Users\First Last`
	t.Setenv("USERPROFILE", up)
	for home, warn := range map[string]bool{`D:\msys\home\me`: true, "/c/Users/First Last": false, `c:\users\first last\`: false, "": false} {
		t.Setenv("HOME", home)
		d := &doctor{}
		d.homeVars()
		if got := len(d.checks) == 1 && d.checks[0].Status == statusWarn; got != warn {
			t.Errorf("HOME=%q: %+v, want a warning: %v", home, d.checks, warn)
		}
	}
}
