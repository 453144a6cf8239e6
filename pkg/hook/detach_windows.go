//go:build windows

package hook

import (
	"os/exec"
	"syscall"
)

// detachedProcess is DETACHED_PROCESS: no console inherited from Claude Code.
const detachedProcess = 0x00000008

// detach starts the child without Claude Code's console or process group.
func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}
