//go:build unix

package gitsync

import (
	"os/exec"
	"syscall"
)

// runGroup runs the command in its own process group and, on cancel, kills
// the whole group: git's ssh child must not outlive a timed-out sync.
func runGroup(cmd *exec.Cmd) error {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		if cmd.Process == nil {
			return nil
		}
		// Negative pid: the group. Fall back to the process itself.
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	return cmd.Run()
}
