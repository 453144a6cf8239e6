package main

import (
	"bytes"
	"context"
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
