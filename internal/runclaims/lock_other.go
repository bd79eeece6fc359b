//go:build !unix

package runclaims

import (
	"errors"
	"os"
)

// Supported reports whether this platform can coordinate processes (it locks files). Without
// file locks a process cannot tell whether another is alive, so it does not coordinate.
const Supported = false

var errUnsupported = errors.New("runclaims: file locks are not supported on this platform")

func lockFile(*os.File, bool) error { return errUnsupported }

func unlockFile(*os.File) error { return errUnsupported }
