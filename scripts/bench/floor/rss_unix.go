//go:build unix

package floor

import (
	"os"
	"runtime"
	"syscall"
)

// MaxRSS is a finished process's peak resident set in bytes.
func MaxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss // bytes
	}
	return ru.Maxrss << 10 // KiB elsewhere
}
