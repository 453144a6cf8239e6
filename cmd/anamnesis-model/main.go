// Command anamnesis-model sends one request to a model provider over HTTP
// for the binaries that do not link the HTTP stack (the dispatcher's
// reflect, consolidate and config test): the request as JSON on standard
// input, the reply as JSON on standard output (pkg/model.Helper).
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.Main("anamnesis-model", run) }
