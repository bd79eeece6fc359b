package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFloorFor(t *testing.T) {
	t.Parallel()
	alone := 2 * time.Second
	for _, tc := range []struct {
		op   string
		n    int
		lat  time.Duration
		want time.Duration
	}{
		{opCreate, 250, 20 * time.Millisecond, alone + 26*20*time.Millisecond},
		{opUpdate, 50, 100 * time.Millisecond, alone + 5*100*time.Millisecond},
		{opCreate, 51, 100 * time.Millisecond, alone + 7*100*time.Millisecond},
		{opPlan, 250, 100 * time.Millisecond, alone + 100*time.Millisecond},
	} {
		if got := floorFor(tc.op, tc.n, 10, tc.lat, alone); got != tc.want {
			t.Errorf("floorFor(%s, %d, %s) = %s, want %s", tc.op, tc.n, tc.lat, got, tc.want)
		}
	}
}

func TestMedian(t *testing.T) {
	t.Parallel()
	s := func(ds ...time.Duration) []sample {
		var out []sample
		for _, d := range ds {
			out = append(out, sample{wall: d})
		}
		return out
	}
	if got := median(s(3, 1, 2)); got != 2 {
		t.Errorf("median of 3 = %d", got)
	}
	if got := median(s(4, 1, 3, 2)); got != 2 {
		t.Errorf("median of 4 = %d", got)
	}
	if got := median(nil); got != 0 {
		t.Errorf("median of none = %d", got)
	}
}

func TestPeakRSS(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "rss.txt")
	cpu := filepath.Join(t.TempDir(), "cpu.txt")
	if err := os.WriteFile(cpu, []byte("\tUser time (seconds): 0.50\n\tSystem time (seconds): 0.25\n\tUser time (seconds): 1.00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := providerCPU(cpu); got != 1750*time.Millisecond {
		t.Errorf("providerCPU = %s, want 1.75s", got)
	}
	report := "\tCommand being timed: \"x\"\n\tMaximum resident set size (kbytes): 40960\n" +
		"\tCommand being timed: \"x\"\n\tMaximum resident set size (kbytes): 51200\n"
	if err := os.WriteFile(p, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := peakRSS(p); got != 51200 {
		t.Errorf("peakRSS = %d, want 51200", got)
	}
	if got := providerCPU(p); got != 0 {
		t.Errorf("providerCPU without time lines = %s", got)
	}
	if got := peakRSS(p + ".missing"); got != 0 {
		t.Errorf("peakRSS of a missing file = %d", got)
	}
}

func TestBenchResultLine(t *testing.T) {
	t.Parallel()
	m := benchResult.FindStringSubmatch("BenchmarkValidateResourceConfig/queue-2   \t    2018\t    643928 ns/op\t   81391 B/op\t    1226 allocs/op")
	if m == nil || m[1] != "BenchmarkValidateResourceConfig/queue" || m[2] != "643928" || m[3] != "1226" {
		t.Fatalf("match %q", m)
	}
}

func TestRenderAndTargets(t *testing.T) {
	t.Parallel()
	o := options{parallelism: 10, runs: 3}
	cells := []cell{
		{latency: 20 * time.Millisecond, n: 250, op: opCreate, wall: 3 * time.Second, tfAlone: 2 * time.Second, floor: 2500 * time.Millisecond, mgmtCalls: 250, rssKB: 40 * 1024,
			noAPI: 2200 * time.Millisecond, noAPIFloor: 2700 * time.Millisecond, noAPICPU: 400 * time.Millisecond,
			cpu: 1500 * time.Millisecond, providerCPU: 500 * time.Millisecond, tfAloneCPU: time.Second},
		{latency: 20 * time.Millisecond, n: 250, op: opPlan, wall: time.Second, tfAlone: 900 * time.Millisecond, floor: 920 * time.Millisecond, mgmtCalls: 1, rssKB: 50 * 1024},
	}
	md := render(o, "Terraform 1.11.4", cells, []benchLine{{name: "BenchmarkValidateResourceConfig/queue", nsPerOp: 250000, allocs: "1000"}}, true)
	for _, want := range []string{
		"| 20ms | 250 | apply (create) | 250 | 3.00 s | 2.00 s → 2.50 s | 1.20× | 2.20 s → 2.70 s | 1.11× | 1.50 s / 0.50 s / 0.40 s / 1.00 s | 40 MiB |",
		"| 20ms | 250 | plan (refresh, no changes) | 1 | 1.00 s | 0.90 s → 0.92 s | 1.09× | n/a | n/a |",
		"against the no-API floor (Terraform and the plugin framework with this schema): worst 1.11× (apply (create), 250 queues, 20ms)",
		"refresh of 250 queues at 20ms with at most 2 management API calls: 1 calls, met",
		"apply within 1.2× of the floor: worst 1.20×",
		"| queue | 250 µs | 1000 |",
		"slowest 250 µs, met",
		"provider peak RSS under 100 MB at 250 resources: 50 MiB, met",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the markdown lacks %q:\n%s", want, md)
		}
	}
	cells[0].wall = 4 * time.Second
	if md := render(o, "Terraform", cells, nil, false); !strings.Contains(md, "1.60×") || !strings.Contains(md, "**missed**") || strings.Contains(md, "RSS under") {
		t.Errorf("a missed target is not reported:\n%s", md)
	}
}

func TestParseFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-terraform", "tf", "-sizes", "0"},
		{"-terraform", "tf", "-sizes", "251"},
		{"-terraform", "tf", "-latencies", "fast"},
		{"-terraform", "tf", "-runs", "0"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
	o, err := parseFlags([]string{"-terraform", "tf", "-latencies", "20ms, 100ms", "-sizes", "50,250"}, io.Discard)
	if err != nil || len(o.latencies) != 2 || o.latencies[1] != 100*time.Millisecond || o.sizes[1] != 250 {
		t.Fatalf("%+v %v", o, err)
	}
}
