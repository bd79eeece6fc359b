// Package gcgoal runs the garbage collector of a provider process at a memory
// limit while its live heap is small, and on Go's default when it is not.
//
// A provider process of a Terraform command allocates a great deal for each
// plugin call (the plugin framework's decoding and encoding, about 300 MB per
// update of 250 queues) while its live heap grows from about 2 MB to 10-20 MB
// over the command (go-plugin's and the framework's, the same in the no-API
// provider of the benchmark). With Go's default (GOGC=100: a heap goal of
// twice the live heap, at least 4 MB) it collects 29-60 times per process of a
// command of 250 queues, most often while the live heap is still small. While
// the process waits for the API, the collector's idle mark workers run on the
// processors that the waiting leaves idle, so the waits make each of those
// collections dearer (DESIGN.md, "Where the provider's CPU time goes"). A
// higher GOGC alone collects less often but multiplies the heap where the live
// heap is large: GOGC=400 raised the provider's peak RSS in the benchmark from
// 65 to 120 MiB. Here the goal is Limit while Go's default goal is under half
// of it, and Go's default above: 13-33 collections per process, at the same
// peak, which comes where the live heap is largest.
//
// After each collection the package reads the live heap and the roots the
// collector scans (goroutine stacks and globals). While the goal of Go's
// default, live + (live + stacks + globals) (runtime/mgcpacer.go, since Go
// 1.18), is under half of Limit, the collector runs when the process's Go
// memory reaches Limit (GOGC off, the memory limit Limit: the runtime's own
// pair for this, https://go.dev/doc/gc-guide#Memory_limit); above it, the
// process runs on Go's default (GOGC=100, no memory limit). A change of mode
// takes effect after the collection that shows it: until then a live heap
// that grew runs against the limit, which bounds it, so the heap never
// outgrows the larger of Limit and Go's default goal. A GOGC or GOMEMLIMIT in
// the environment is the user's choice: then the package leaves the collector
// alone.
package gcgoal

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Limit is the Go memory (heap, stacks and the runtime's own) at which a
// process with a small live heap collects: 32 MiB, below what Go's default
// reaches at the refresh of 250 queues, so the process's peak memory stays
// where it is (BENCHMARKS.md, "Back to the floor: the collector's goal"; 40
// MiB raised the peak RSS of a create of 250 queues from 50 to 58 MiB).
const Limit = 32 << 20

// DefaultPercent is Go's GOGC default.
const DefaultPercent = 100

// Setting is what the collector runs on: a GOGC percent (-1: off) and a
// memory limit in bytes (math.MaxInt64: none).
type Setting struct {
	Percent     int
	MemoryLimit int64
}

// Default is Go's default setting.
var Default = Setting{Percent: DefaultPercent, MemoryLimit: math.MaxInt64}

// For returns the setting for a live heap of live bytes and roots of roots
// bytes (goroutine stacks and globals) under limit: collect at the limit while
// the goal of Go's default is under half of it, Go's default otherwise. Half,
// because near the limit a process collects more often than Go's default
// would and returns memory to the system to stay under it: with the switch at
// the whole limit the provider's CPU rose in the benchmark (BENCHMARKS.md).
func For(limit, live, roots uint64) Setting {
	if 2*live+roots < limit/2 {
		return Setting{Percent: -1, MemoryLimit: int64(limit)}
	}
	return Default
}

// The runtime/metrics samples read after each collection.
const (
	liveMetric    = "/gc/heap/live:bytes"
	stacksMetric  = "/gc/scan/stack:bytes"
	globalsMetric = "/gc/scan/globals:bytes"
)

// Start runs the collector at limit while the live heap is small, until the
// returned function stops it and restores Go's default; with GOGC or
// GOMEMLIMIT in the environment it does nothing.
func Start(limit uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	t := &tuner{limit: limit, samples: []metrics.Sample{{Name: liveMetric}, {Name: stacksMetric}, {Name: globalsMetric}}}
	t.tune()
	t.arm()
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		t.stopped.Store(true)
		apply(Default)
	}
}

type tuner struct {
	limit uint64

	mu      sync.Mutex // guards samples, current and the setting's change
	samples []metrics.Sample
	current Setting
	stopped atomic.Bool
	// runs counts the collections the tuner has seen, for the tests.
	runs atomic.Int64
}

// sentinel is a heap object whose only use is its finalizer, which runs once
// after the collection that finds it unreachable. It holds a pointer, so it is
// not a tiny allocation that shares a block (whose finalizer might never run).
type sentinel struct{ _ *byte }

// arm sets a new sentinel whose finalizer tunes and arms again: one call per
// collection, on the finalizer goroutine.
func (t *tuner) arm() {
	s := &sentinel{}
	runtime.SetFinalizer(s, func(*sentinel) {
		if t.stopped.Load() {
			return
		}
		t.runs.Add(1)
		t.tune()
		t.arm()
	})
}

// tune reads the live heap and the roots and changes the setting when the
// mode changes.
func (t *tuner) tune() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped.Load() {
		return
	}
	metrics.Read(t.samples)
	var v [3]uint64
	for i, s := range t.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	if s := For(t.limit, v[0], v[1]+v[2]); s != t.current {
		apply(s)
		t.current = s
	}
}

// apply sets s in the order that never leaves the collector off without a
// limit: the limit first when switching it on, the percent first when
// switching it off.
func apply(s Setting) {
	if s.Percent < 0 {
		debug.SetMemoryLimit(s.MemoryLimit)
		debug.SetGCPercent(s.Percent)
		return
	}
	debug.SetGCPercent(s.Percent)
	debug.SetMemoryLimit(s.MemoryLimit)
}
