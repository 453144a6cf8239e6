//go:build !linux

package gitsync

// lockHeld cannot look up a lock's holder here: the lock's age decides.
func lockHeld(lockPath, repo string) (held, known bool) { return false, false }
