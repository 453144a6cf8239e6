package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// Every built-in's help, asked either way, has a synopsis, its flags and an
// example, exits 0, and both ways print the same text (issue 29).
func TestEveryCommandHasHelp(t *testing.T) {
	home := t.TempDir()
	for _, c := range builtins() {
		if c.name == "serve" || c.name == "mcp" {
			continue // anamnesis-mcp's own --help (cmd/anamnesis-mcp tests it)
		}
		var hOut, hErr, fOut, fErr bytes.Buffer
		err := run(context.Background(), []string{"help", c.name}, strings.NewReader(""), &hOut, &hErr)
		if cli.Code(err) != 0 || hErr.Len() != 0 {
			t.Errorf("help %s: exit %d (%v), stderr %q", c.name, cli.Code(err), err, hErr.String())
		}
		t.Setenv("ANAMNESIS_HOME", home)
		err = run(context.Background(), []string{c.name, "--help"}, strings.NewReader(""), &fOut, &fErr)
		if cli.Code(err) != 0 || fOut.Len() != 0 {
			t.Errorf("%s --help: exit %d (%v), stdout %q", c.name, cli.Code(err), err, fOut.String())
		}
		h := hOut.String()
		for _, want := range []string{"usage: anamnesis " + c.name, "\nFlags:\n  -", "\nExample"} {
			if c.name == "eval" && strings.HasPrefix(want, "\nFlags") {
				want = "\nFlags: each subcommand's (anamnesis eval run --help)" // its subcommands have the flags
			}
			if c.name == "merge" {
				want = strings.Replace(want, "merge", "consolidate", 1) // its alias
			}
			if !strings.Contains(h, want) {
				t.Errorf("help %s lacks %q:\n%s", c.name, want, h)
			}
		}
		if h != fErr.String() {
			t.Errorf("help %s and %s --help differ:\n%s\n---\n%s", c.name, c.name, h, fErr.String())
		}
	}
}

// help -a lists the extensions the dispatcher can run, by command name: on
// Windows those ending .exe, .bat or .cmd in any case (an .EXE was missed,
// and a Git Bash script without one was listed though nothing runs it);
// elsewhere those with an execute bit. Each listed one is what dispatch
// finds.
func TestHelpListsOnlyRunnableExtensions(t *testing.T) {
	dir := t.TempDir()
	runnable := map[string]bool{"alpha": true, "beta": true, "gamma": true}
	write := func(name string, mode os.FileMode) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "windows" {
		write("anamnesis-alpha.EXE", 0o755)
		write("anamnesis-beta.cmd", 0o755)
		write("anamnesis-gamma.Bat", 0o755)
		write("anamnesis-delta", 0o755) // a Git Bash script: Windows does not run it
		write("anamnesis-eps.ps1", 0o755)
	} else {
		write("anamnesis-alpha", 0o755)
		write("anamnesis-beta", 0o700)
		write("anamnesis-gamma", 0o755)
		write("anamnesis-delta", 0o644)
	}
	getenv := func(k string) string {
		if k == "PATH" {
			return dir
		}
		return ""
	}
	var warn bytes.Buffer
	got := extensions(getenv, &warn)
	if len(got) != len(runnable) {
		t.Errorf("listed %v, want %v", got, runnable)
	}
	for name := range runnable {
		p, ok := got[name]
		if !ok {
			t.Errorf("%s not listed: %v", name, got)
			continue
		}
		if f := findExtension(getenv, name); !strings.EqualFold(f, p) {
			t.Errorf("%s: listed %s, dispatch finds %q", name, p, f)
		}
	}
	if f := findExtension(getenv, "delta"); f != "" {
		t.Errorf("dispatch would run delta: %s", f)
	}
}
