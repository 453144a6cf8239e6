//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package blockcache

import (
	"os"
	"strconv"
	"syscall"
)

// sysID is " ino:ctime" (the change time no tool can set back).
func sysID(fi os.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return " -"
	}
	sec, nsec := ctime(st)
	return " " + strconv.FormatUint(uint64(st.Ino), 10) + ":" + strconv.FormatInt(sec, 10) + "." + strconv.FormatInt(nsec, 10)
}
