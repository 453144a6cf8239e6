//go:build !unix

package main

import "os"

// maxRSS: the bench measures peak memory on Unix only (Windows has no
// rusage); elsewhere it reports 0.
func maxRSS(ps *os.ProcessState) int64 { return 0 }
