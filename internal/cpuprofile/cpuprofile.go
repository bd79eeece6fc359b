// Package cpuprofile writes a CPU profile of a provider process when the
// environment variable SAPMESSAGING_CPU_PROFILE names a file prefix. It is an
// opt-in hook for the provider benchmark (internal/cmd/bench -cpuprofile):
// Terraform starts a provider process per command phase, so each process
// writes <prefix>.<pid>.pprof and, when it ends, the allocations of its life
// into <prefix>.<pid>.allocs.pprof, read with go tool pprof. The profiles hold
// function names and sample counts only, never request data.
package cpuprofile

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// Env is the environment variable that names the profile's file prefix.
const Env = "SAPMESSAGING_CPU_PROFILE"

// Start begins a CPU profile when Env is set and returns the function that
// ends it and closes the file; without Env it does nothing. A profile that
// cannot start is reported on standard error, which Terraform logs, and the
// provider runs on.
func Start() (stop func()) {
	prefix := os.Getenv(Env)
	if prefix == "" {
		return func() {}
	}
	f, err := os.Create(fmt.Sprintf("%s.%d.pprof", prefix, os.Getpid()))
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpuprofile:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "cpuprofile:", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
		if a, err := os.Create(fmt.Sprintf("%s.%d.allocs.pprof", prefix, os.Getpid())); err == nil {
			_ = pprof.Lookup("allocs").WriteTo(a, 0)
			_ = a.Close()
		}
	}
}
