package main

import (
	"context"

	"github.com/anamnesis-dev/anamnesis/pkg/setup"
)

func runInit(ctx context.Context, e *env, args []string) error {
	return setup.RunInit(ctx, args, e.stdin, e.stdout, e.stderr)
}

func runUninstall(ctx context.Context, e *env, args []string) error {
	return setup.RunUninstall(ctx, args, e.stdin, e.stdout, e.stderr)
}

func runDoctor(ctx context.Context, e *env, args []string) error {
	return setup.RunDoctor(ctx, args, e.stdin, e.stdout, e.stderr)
}
