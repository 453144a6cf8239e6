//go:build !windows

package hook

import (
	"os/exec"
	"syscall"
)

// detach puts the child in its own session so it outlives Claude Code's exit
// and receives none of the terminal's signals.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
}
