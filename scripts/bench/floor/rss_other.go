//go:build !unix

package floor

import "os"

// MaxRSS: the bench measures peak memory on Unix only (Windows has no
// rusage); elsewhere it reports 0.
func MaxRSS(ps *os.ProcessState) int64 { return 0 }
