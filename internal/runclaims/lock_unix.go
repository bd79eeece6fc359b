//go:build unix

package runclaims

import (
	"os"
	"syscall"
)

// Supported reports whether this platform can coordinate processes (it locks files).
const Supported = true

// lockFile takes the exclusive lock of f; wait false fails at once when another open file holds it.
func lockFile(f *os.File, wait bool) error {
	how := syscall.LOCK_EX
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if err != syscall.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
