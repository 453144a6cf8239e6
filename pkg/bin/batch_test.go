package bin

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The arguments a Windows user's paths and our own calls hand to a batch
// file (npm's claude.cmd): cmd.exe's metacharacters, spaces, non-ASCII
// letters, trailing backslashes, empty values (claude's --tools "").
var batchArgs = []string{"mcp", "add", "a&b", "x|y", "<in>", "out>", "^caret", "two words", `C:\R&D\`, `C:\Users\José Ñ\bin\`, "!bang!", "", "a,b;c=d", "(paren)", `back\slash`}

// Values cmd.exe cannot carry whole are refused, naming the value; nothing runs.
var batchRefused = []string{"line one\nline two", "cr\rhere", "%PATH%", "50%", `say "hi"`, "nul\x00"}

func TestBatchLine(t *testing.T) {
	line, err := BatchLine(`C:\R&D dir\claude.cmd`, []string{"a&b", "", `C:\x\`})
	if err != nil {
		t.Fatal(err)
	}
	if want := `cmd.exe /d /v:off /s /c ""C:\R&D dir\claude.cmd" "a&b" "" "C:\x\\""`; line != want {
		t.Errorf("line\n got %s\nwant %s", line, want)
	}
	for _, a := range batchRefused {
		if _, err := BatchLine(`C:\x\claude.cmd`, []string{"-p", a}); err == nil || !strings.Contains(err.Error(), "cmd.exe") {
			t.Errorf("%q: not refused (%v)", a, err)
		}
	}
	if _, err := BatchLine(`C:\50% off\claude.cmd`, nil); err == nil {
		t.Error("a batch path holding % is not refused")
	}
}

// Through Windows' (here Wine's) real cmd.exe: a batch file in a folder
// named with & and a space hands every argument to the program it runs
// whole; the values it cannot carry are refused before anything runs.
func TestBatchCommandRunsThroughCmd(t *testing.T) {
	if runtime.GOOS != "windows" {
		t.Skip("batch files run on Windows only")
	}
	dir := filepath.Join(t.TempDir(), "R&D dir")
	os.MkdirAll(dir, 0o755)
	bat := filepath.Join(dir, "shim.cmd")
	self, _ := os.Executable()
	// As npm's shim does: the program, then %*.
	os.WriteFile(bat, []byte("@\""+self+"\" \"-test.run=^TestPrintArgsProcess$\" -- %*\r\n"), 0o755)
	t.Setenv("ANAMNESIS_TEST_PRINT_ARGS", "1")
	cmd, err := Command(context.Background(), bat, batchArgs...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	var got []string
	s := string(out)
	if i := strings.Index(s, "ARGS:"); i >= 0 {
		json.Unmarshal([]byte(strings.SplitN(s[i+5:], "\n", 2)[0]), &got)
	}
	if !slices.Equal(got, batchArgs) {
		t.Errorf("the program got\n %q\nwant\n %q\n(output %q)", got, batchArgs, out)
	}
	for _, a := range batchRefused {
		if _, err := Command(context.Background(), bat, a); err == nil {
			t.Errorf("%q: not refused", a)
		}
	}
}

// TestPrintArgsProcess is the program TestBatchCommandRunsThroughCmd's batch
// file runs: it prints the arguments after --.
func TestPrintArgsProcess(t *testing.T) {
	if os.Getenv("ANAMNESIS_TEST_PRINT_ARGS") == "" {
		t.Skip("run by TestBatchCommandRunsThroughCmd")
	}
	i := slices.Index(os.Args, "--")
	b, _ := json.Marshal(os.Args[i+1:])
	os.Stdout.WriteString("ARGS:" + string(b) + "\n")
}
