package atomicfile

import (
	"io/fs"
	"runtime"
)

// HasPerm reports whether info shows the permission a file was written
// with. Windows keeps only a read-only attribute (Go reports 0666 or 0444):
// there a file's privacy comes from its folder's access list (the user
// profile), so only the owner's write bit is compared.
func HasPerm(info fs.FileInfo, perm fs.FileMode) bool {
	if runtime.GOOS == "windows" {
		return info.Mode().Perm()&0o200 == perm&0o200
	}
	return info.Mode().Perm() == perm
}
