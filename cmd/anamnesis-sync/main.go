// Command anamnesis-sync commits, pulls and pushes the portable notes over
// git, keeps both versions of a note changed on two machines, and brings the
// index up to date (SPEC 6).
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.Main("anamnesis-sync", run) }
