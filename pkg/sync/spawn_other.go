//go:build !unix && !windows

package gitsync

import "os/exec"

func detach(cmd *exec.Cmd) {}
