// Command anamnesis-inject is the SessionStart hook: it prints the memory
// block Claude Code puts into a new session's context (SPEC 4).
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.QuickMain("anamnesis-inject", run) }
