//go:build windows

package gitsync

import (
	"os/exec"
	"syscall"
)

// detachedProcess is DETACHED_PROCESS: no console shared with the parent.
const detachedProcess = 0x00000008

func detach(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: detachedProcess | syscall.CREATE_NEW_PROCESS_GROUP, HideWindow: true}
}
