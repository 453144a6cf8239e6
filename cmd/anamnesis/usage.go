package main

import (
	"flag"
	"fmt"

	"github.com/anamnesis-dev/anamnesis/pkg/cli"
)

// commandFlags is the flag set of built-in command name, whose --help
// prints the command's usage line (its arguments, e.g. QUERY or ID, from
// the command table), what it does, its flags and an example.
func commandFlags(e *env, name string) *flag.FlagSet {
	fs := cli.FlagSet(name, e.stderr)
	fs.Usage = func() {
		w := fs.Output()
		if c := lookup(name); c != nil {
			fmt.Fprintf(w, "usage: anamnesis %s %s\n\n%s\n\nFlags:\n", c.name, c.args, c.summary)
		}
		fs.PrintDefaults()
		if ex := example(name); ex != "" {
			fmt.Fprintf(w, "\nExample:\n  %s\n", ex)
		}
	}
	return fs
}

// example is one typical use of a built-in command, for its --help.
func example(name string) string {
	switch name {
	case "write":
		return `anamnesis write --type procedural --title "Run tests" --body "make test -race" --project github.com/acme/api`
	case "get":
		return "anamnesis get 01HF7YAT0000Z5KRW4X7KA0H5J --json"
	case "rm":
		return "anamnesis rm 01HF7YAT0000Z5KRW4X7KA0H5J"
	case "list":
		return "anamnesis list --type episodic --project github.com/acme/api --limit 5"
	case "search":
		return `anamnesis search "how do we deploy" --project github.com/acme/api --k 5`
	case "status":
		return "anamnesis status --json"
	case "reindex":
		return "anamnesis reindex --full"
	case "block":
		return "anamnesis block --project github.com/acme/api"
	case "config":
		return "anamnesis config set remote git@github.com:me/anamnesis-memory.git"
	}
	return ""
}
