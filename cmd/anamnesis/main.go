// Command anamnesis is the dispatcher: built-in commands run in-process and
// `anamnesis NAME` runs `anamnesis-NAME` from its own directory or PATH, as git does.
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.QuickMain("anamnesis", run) }
