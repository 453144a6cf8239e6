package main

import (
	"context"

	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// runImport is `anamnesis import`: Claude Code's native memory files into the
// store (SPEC 6.3), then a sync unless --no-sync.
func runImport(ctx context.Context, e *env, args []string) error {
	return gitsync.RunImport(ctx, args, e.getenv, e.stdout, e.stderr)
}
