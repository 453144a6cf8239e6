package bin

import (
	"os/exec"
	"syscall"
)

// setCmdLine makes line the command line as is (Go would quote argv for
// the C runtime's rules, not cmd.exe's).
func setCmdLine(cmd *exec.Cmd, line string) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: line}
}
