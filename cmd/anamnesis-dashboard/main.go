// Command anamnesis-dashboard serves a local web GUI over an Anamnesis home.
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.Main("anamnesis-dashboard", run) }
