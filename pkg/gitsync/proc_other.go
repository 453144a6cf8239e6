//go:build !unix && !windows

package gitsync

import "os/exec"

// runGroup: elsewhere the default (kill the process) applies; WaitDelay
// still bounds how long a leftover child can hold the pipes.
func runGroup(cmd *exec.Cmd) error { return cmd.Run() }
