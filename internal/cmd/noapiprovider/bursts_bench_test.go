package main

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
)

// BenchmarkBursts measures what waiting costs a Go process on this machine, with no provider and
// no call: the same burst of work (maps and JSON, about a millisecond, allocating as the
// framework's handling of one resource's RPC does) back to back, and followed each time by a
// sleep as long as an API's latency. cpu-ns/op is the process's CPU time per burst, the sleep's
// included (the runtime's work while the process waits is part of what waiting costs); compare
// the sub-benchmarks of one run. A provider whose every resource waits for its API runs its work
// in such bursts; the no-API provider of make bench runs it back to back.
func BenchmarkBursts(b *testing.B) {
	for _, wait := range []time.Duration{0, 20 * time.Millisecond, 100 * time.Millisecond} {
		b.Run("wait="+wait.String(), func(b *testing.B) {
			burst()
			defer reportCPU(b)()
			for b.Loop() {
				burst()
				if wait > 0 {
					time.Sleep(wait)
				}
			}
		})
	}
}

var burstSink any

// burst builds, encodes and decodes 40 maps of 20 attributes.
func burst() {
	for i := range 40 {
		m := map[string]any{}
		for j := range 20 {
			m["attr"+strconv.Itoa(j)] = []string{"x", strconv.Itoa(i * j)}
		}
		raw, err := json.Marshal(m)
		if err != nil {
			panic(err)
		}
		var out map[string]any
		if err := json.Unmarshal(raw, &out); err != nil {
			panic(err)
		}
		burstSink = out
	}
}
