package main

import (
	"context"

	gitsync "github.com/anamnesis-dev/anamnesis/pkg/sync"
)

// runImport is `anamnesis import`: Claude Code's native memory files into the
// store (SPEC 6.3), then a sync unless --no-sync.
func runImport(ctx context.Context, e *env, args []string) error {
	return gitsync.RunImport(ctx, args, e.getenv, e.stdout, e.stderr)
}
