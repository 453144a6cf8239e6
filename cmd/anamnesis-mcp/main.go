// Command anamnesis-mcp serves the memory store to Claude Code as the MCP
// server "anamnesis" over stdio (SPEC 7). `anamnesis mcp` and `anamnesis
// serve` run it.
package main

import "github.com/anamnesis-dev/anamnesis/pkg/cli"

func main() { cli.Main("anamnesis-mcp", run) }
