// Command anamnesis-recall is the UserPromptSubmit hook: it adds the notes a
// prompt is about to the request that answers it (SPEC 15).
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.QuickMain("anamnesis-recall", run) }
