// Command anamnesis-capture is the SessionEnd and PreCompact hook: it turns
// the session's transcript into one episodic note (SPEC 5).
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.Main("anamnesis-capture", run) }
