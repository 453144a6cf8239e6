package main

import (
	"context"

	"github.com/anamnesis-dev/anamnesis/pkg/config"
	"github.com/anamnesis-dev/anamnesis/pkg/gitsync"
)

// syncStatus is the memory repo's state for `status`.
func syncStatus(ctx context.Context, cfg config.Config) gitsync.RepoState {
	return gitsync.State(ctx, cfg.Home, cfg.Remote)
}
