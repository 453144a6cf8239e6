//go:build unix

package main

import (
	"context"
	"os"
	"syscall"
)

// execExtension replaces the dispatcher with the extension, so signals,
// stdio and the exit code are the extension's own.
func execExtension(ctx context.Context, e *env, path string, args []string) error {
	if !isProcessStdio(e) {
		return runChild(ctx, e, path, args)
	}
	return syscall.Exec(path, append([]string{path}, args...), childEnv(e))
}

// forwardInterrupt passes an interrupt on to the child, which a signal sent
// to the dispatcher alone would not reach.
func forwardInterrupt(p *os.Process) { p.Signal(os.Interrupt) }
