//go:build !windows

package bin

import "os/exec"

func setCmdLine(cmd *exec.Cmd, line string) {} // only Windows runs batch files
