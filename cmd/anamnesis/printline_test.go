package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// list and search print one line per note. A note's project key comes from
// its file, which a teammate (pulled) or a hand edit writes freely: an
// escape sequence there (a terminal title, OSC 52 writing the clipboard) or
// a line break must not reach the terminal as such.
func TestListPrintsProjectAsOneLine(t *testing.T) {
	home := t.TempDir()
	t.Setenv("ANAMNESIS_MACHINE_ID", "m")
	cmd := func(args ...string) string {
		var out, errb bytes.Buffer
		if err := run(context.Background(), append([]string{args[0], "--home", home}, args[1:]...), strings.NewReader(""), &out, &errb); err != nil {
			t.Fatalf("%v: %v (%s)", args, err, errb.String())
		}
		return out.String()
	}
	id := strings.TrimSpace(cmd("write", "--type", "semantic", "--title", "deploy steps", "--body", "b", "--project", "proj"))
	path := filepath.Join(home, "memory", "semantic", id+".md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "project: proj", `project: "proj\e]52;c;ZXZpbA==\u0007\nforged line"`, 1)
	if edited == string(data) {
		t.Fatalf("no project line in:\n%s", data)
	}
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd("reindex", "--full")
	for _, out := range []string{cmd("list"), cmd("search", "deploy")} {
		if strings.ContainsAny(out, "\x1b\x07") || strings.Count(out, "\n") != 1 || !strings.Contains(out, id) {
			t.Errorf("printed %q", out)
		}
	}
}
