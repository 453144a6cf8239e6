//go:build !unix

package main

import (
	"context"
	"os"
)

// execExtension runs the extension as a child: there is no exec(2) here.
func execExtension(ctx context.Context, e *env, path string, args []string) error {
	return runChild(ctx, e, path, args)
}

// forwardInterrupt: nothing to do; the console's Ctrl-C reached the child
// as it reached the dispatcher (and Windows has no interrupt to send to one
// process).
func forwardInterrupt(p *os.Process) {}
