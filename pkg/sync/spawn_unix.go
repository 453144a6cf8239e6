//go:build unix

package gitsync

import (
	"os/exec"
	"syscall"
)

// detach gives the child its own session: no controlling terminal, and no
// signal aimed at the hook's process group reaches it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
