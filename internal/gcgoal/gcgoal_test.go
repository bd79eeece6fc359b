package gcgoal

import (
	"math"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

const mib = 1 << 20

func TestFor(t *testing.T) {
	t.Parallel()
	limit := uint64(32 * mib)
	for _, tc := range []struct {
		name        string
		live, roots uint64
		want        Setting
	}{
		{"nothing collected yet", 0, 0, Setting{Percent: -1, MemoryLimit: 32 * mib}},
		{"a provider between plugin calls", 2 * mib, 300 << 10, Setting{Percent: -1, MemoryLimit: 32 * mib}},
		{"default goal just under half the limit", 7 * mib, 2*mib - 1, Setting{Percent: -1, MemoryLimit: 32 * mib}},
		{"default goal at half the limit", 7 * mib, 2 * mib, Default},
		{"a refresh holding 20 MB", 20 * mib, mib, Default},
		{"live heap above the limit", 64 * mib, 0, Default},
		{"roots alone at half the limit", 0, 16 * mib, Default},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := For(limit, tc.live, tc.roots); got != tc.want {
				t.Errorf("For(32 MiB, %d, %d) = %+v, want %+v", tc.live, tc.roots, got, tc.want)
			}
		})
	}
	if Default.Percent != 100 || Default.MemoryLimit != math.MaxInt64 {
		t.Errorf("Default = %+v, want Go's default (GOGC=100, no memory limit)", Default)
	}
}

// current reads the collector's setting without changing it.
func current() Setting {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	p := int(s[0].Value.Uint64())
	if p == 0 { // GOGC=off reads as 0
		p = -1
	}
	return Setting{Percent: p, MemoryLimit: int64(s[1].Value.Uint64())}
}

// unset clears GOGC and GOMEMLIMIT for the test (empty counts as unset).
func unset(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
}

// waitFor collects until cond holds, or fails after ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after ten seconds of collections; setting %+v", what, current())
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func heapGoal() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

var keep [][]byte

func TestStartFollowsTheLiveHeap(t *testing.T) { //nolint:paralleltest // the collector's setting is the process's
	unset(t)
	limit := uint64(16 * mib)
	stop := Start(limit)
	defer stop()
	small := Setting{Percent: -1, MemoryLimit: int64(limit)}
	waitFor(t, "a small live heap collects at the limit", func() bool { return current() == small })
	if g := heapGoal(); g > limit {
		t.Errorf("heap goal %d with a small live heap, want at most the limit %d", g, limit)
	}

	// A live heap whose default goal passes half the limit runs on Go's
	// default, so the goal follows the live heap and the limit does not make
	// the collector run without end.
	for range 12 {
		keep = append(keep, make([]byte, mib))
	}
	waitFor(t, "a large live heap runs on Go's default", func() bool { return current() == Default })
	if g := heapGoal(); g <= limit {
		t.Errorf("heap goal %d with 12 MiB live, want Go's default, above the limit %d", g, limit)
	}

	keep = nil
	waitFor(t, "a live heap that shrank collects at the limit again", func() bool { return current() == small })
}

func TestStopRestoresGosDefault(t *testing.T) { //nolint:paralleltest // the collector's setting is the process's
	unset(t)
	stop := Start(16 * mib)
	waitFor(t, "started", func() bool { return current().Percent == -1 })
	stop()
	if got := current(); got != Default {
		t.Fatalf("after stop the setting is %+v, want Go's default %+v", got, Default)
	}
	// Collections after stop change nothing.
	for range 3 {
		runtime.GC()
	}
	time.Sleep(20 * time.Millisecond)
	if got := current(); got != Default {
		t.Fatalf("collections after stop set %+v, want Go's default %+v", got, Default)
	}
}

func TestStartLeavesTheUsersSetting(t *testing.T) { //nolint:paralleltest // the collector's setting is the process's
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			unset(t)
			t.Setenv(env, "200")
			before := current()
			stop := Start(16 * mib)
			defer stop()
			for range 3 {
				runtime.GC()
			}
			time.Sleep(20 * time.Millisecond)
			if got := current(); got != before {
				t.Fatalf("with %s set the setting changed from %+v to %+v, want it left alone", env, before, got)
			}
		})
	}
}
