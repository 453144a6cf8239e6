//go:build !unix

package gitsync

import "os/exec"

// killGroup: elsewhere the default (kill the process) applies; WaitDelay
// still bounds how long a leftover child can hold the pipes.
func killGroup(cmd *exec.Cmd) {}
