//go:build !unix

package main

import "context"

// execExtension runs the extension as a child: there is no exec(2) here.
func execExtension(ctx context.Context, e *env, path string, args []string) error {
	return runChild(ctx, e, path, args)
}
