package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
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
		// A list in the destroy's plan and one in its apply, then a DELETE per queue.
		{opDestroy, 250, 20 * time.Millisecond, alone + 27*20*time.Millisecond},
	} {
		if got := floorFor(tc.op, tc.n, 10, tc.lat, alone, options{}); got != tc.want {
			t.Errorf("floorFor(%s, %d, %s) = %s, want %s", tc.op, tc.n, tc.lat, got, tc.want)
		}
	}
	// A no-API provider that waited in each create, update and delete holds those waits in its
	// wall time already: only the lists, which it does not wait for, are added.
	for _, tc := range []struct {
		op   string
		want time.Duration
	}{
		{opCreate, alone + 20*time.Millisecond},
		{opPlan, alone + 20*time.Millisecond},
		{opUpdate, alone},
		{opDestroy, alone + 40*time.Millisecond},
	} {
		if got := floorFor(tc.op, 250, 10, 20*time.Millisecond, alone, options{noAPIWait: true}); got != tc.want {
			t.Errorf("floorFor(%s, waited) = %s, want %s", tc.op, got, tc.want)
		}
		// A no-API provider that called a server for each call and for its lists holds them all.
		if got := floorFor(tc.op, 250, 10, 20*time.Millisecond, alone, options{noAPICall: true}); got != alone {
			t.Errorf("floorFor(%s, called) = %s, want %s", tc.op, got, alone)
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
	cpu := cmdtest.WriteFile(t, t.TempDir(), "cpu.txt", "\tUser time (seconds): 0.50\n\tSystem time (seconds): 0.25\n\tUser time (seconds): 1.00\n")
	if got := providerCPU(cpu); got != 1750*time.Millisecond {
		t.Errorf("providerCPU = %s, want 1.75s", got)
	}
	report := "\tCommand being timed: \"x\"\n\tMaximum resident set size (kbytes): 40960\n" +
		"\tCommand being timed: \"x\"\n\tMaximum resident set size (kbytes): 51200\n"
	p := cmdtest.WriteFile(t, t.TempDir(), "rss.txt", report)
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
		{latency: 20 * time.Millisecond, n: 250, op: opCreate, wall: 3 * time.Second, tfAlone: 2 * time.Second, mgmtCalls: 250, rssKB: 40 * 1024,
			noAPI: 2200 * time.Millisecond, noAPIFloor: 2700 * time.Millisecond, noAPICPU: 400 * time.Millisecond,
			cpu: 1500 * time.Millisecond, providerCPU: 420 * time.Millisecond, tfAloneCPU: time.Second},
		{latency: 20 * time.Millisecond, n: 250, op: opPlan, wall: time.Second, tfAlone: 900 * time.Millisecond, mgmtCalls: 1, rssKB: 50 * 1024},
		{latency: 20 * time.Millisecond, n: 250, op: opDestroy, wall: 2 * time.Second, tfAlone: time.Second, mgmtCalls: 252, rssKB: 50 * 1024,
			noAPICPU: 500 * time.Millisecond, providerCPU: 540 * time.Millisecond},
	}
	md := render(o, "Terraform 1.11.4", cells, []benchLine{{name: "BenchmarkValidateResourceConfig/queue", nsPerOp: 250000, allocs: "1000"}}, true)
	cmdtest.Contains(t, "the markdown", md,
		"| 20ms | 250 | apply (create) | 250 | 3.00 s | 2.20 s → 2.70 s | 1.11× | 0.42 s / 0.40 s | 1.05× | 2.00 s / 1.00 s | 1.50 s | 40 MiB |",
		"| 20ms | 250 | plan (refresh, no changes) | 1 | 1.00 s | n/a | n/a |",
		"250 queues at 20ms, apply (create): provider CPU within 1.15× of the no-API provider that never waits (the plain floor): 0.42 s / 0.40 s = 1.05×, met",
		"refresh of 250 queues at 20ms with 1 management API call: 1, met",
		"- apply (create) of 250 queues at 20ms with at most N + 2 = 252 management API calls: 250, met",
		"destroy (force_destroy = true) of 250 queues at 20ms with at most N + 5 = 255 management API calls: 252, met",
		"250 queues at 20ms, destroy: provider CPU within 1.1× of the no-API provider that never waits (the plain floor): 0.54 s / 0.50 s = 1.08×, met",
		"| queue | 250 µs | 1000 |",
		"slowest 250 µs, met",
		"provider peak RSS under 100 MB at 250 resources: 50 MiB, met",
	)
	if strings.Contains(md, "terraform_data →") {
		t.Errorf("terraform_data is context, not a floor:\n%s", md)
	}
	cells[0].ratioLo, cells[0].ratioHi = 0.98, 1.21
	if md := render(o, "Terraform", cells, nil, true); !strings.Contains(md, "| 0.42 s / 0.40 s | 1.05× (runs 0.98–1.21) |") {
		t.Errorf("the CPU ratio does not show the runs' spread:\n%s", md)
	}
	cells[0].providerCPU = 600 * time.Millisecond
	cells[1].mgmtCalls = 2
	cells[2].mgmtCalls = 255
	if md := render(o, "Terraform", cells, nil, true); !strings.Contains(md, "255 management API calls: 255, met") {
		t.Errorf("N + 5 calls in a destroy are within the target:\n%s", md)
	}
	cells[2].mgmtCalls = 256
	cells[0].mgmtCalls = 253
	md = render(o, "Terraform", cells, nil, true)
	if !strings.Contains(md, "= 1.50×, **missed**") || !strings.Contains(md, "1 management API call: 2, **missed**") ||
		!strings.Contains(md, "255 management API calls: 256, **missed**") || !strings.Contains(md, "N + 2 = 252 management API calls: 253, **missed**") {
		t.Errorf("a missed target is not reported:\n%s", md)
	}
	if md := render(o, "Terraform", cells, nil, false); strings.Contains(md, "RSS under") || strings.Contains(md, "CPU within") {
		t.Errorf("CPU and RSS targets without GNU time:\n%s", md)
	}
	if !strings.Contains(md, "never waits (the plain floor, the floor of the targets)") || strings.Contains(md, "CPU ratio to the") {
		t.Errorf("the table does not say that the floor never waited, or shows another floor it did not run:\n%s", md)
	}
	// Beside the targets' floor, the other floor's ratio is context: the targets stay on their floor.
	for _, f := range []struct {
		wait             bool
		other            time.Duration
		otherName, floor string
		ratio            string
	}{
		{false, 600 * time.Millisecond, "waiting floor", "the no-API provider that never waits (the plain floor)", "0.90×"},
		{true, 450 * time.Millisecond, "plain floor", "the no-API provider that waits as the provider does", "1.20×"},
	} {
		o.noAPIWait = f.wait
		cells[2].otherCPU = 0
		md = render(o, "Terraform", cells, nil, true)
		if strings.Contains(md, "CPU ratio to the") {
			t.Errorf("another floor's column without another floor measured:\n%s", md)
		}
		cells[2].otherCPU = f.other
		md = render(o, "Terraform", cells, nil, true)
		cmdtest.Contains(t, "the markdown beside the "+f.otherName, md,
			"| CPU: "+f.otherName+" | CPU ratio to the "+f.otherName+" |",
			"|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
			fmt.Sprintf("| 50 MiB | %s | %s |\n", seconds(f.other), f.ratio),
			"| 40 MiB | n/a | n/a |\n",
			"destroy: provider CPU within 1.1× of "+f.floor+": 0.54 s / 0.50 s = 1.08×, met",
		)
	}
	if !strings.Contains(md, "waits the latency in each create, update and delete (-noapi-wait)") {
		t.Errorf("the table does not say that the no-API provider waited:\n%s", md)
	}
	o.noAPICall = true
	if md := render(o, "Terraform", cells, nil, true); !strings.Contains(md, "makes one HTTP GET in each create, update and delete (-noapi-call)") ||
		strings.Contains(md, "(-noapi-wait)") || !strings.Contains(md, "of the no-API provider that calls a server as the provider calls its API: 0.54 s") {
		t.Errorf("the table does not say that the no-API provider called a server (and only that):\n%s", md)
	}
}

func TestPairedRatios(t *testing.T) {
	t.Parallel()
	s := func(cpu time.Duration) sample { return sample{providerCPU: cpu} }
	for _, tc := range []struct {
		name           string
		mine, noAPI    []sample
		wantLo, wantHi float64
	}{
		{"runs paired by index", []sample{s(120), s(100), s(150)}, []sample{s(100), s(100), s(100)}, 1.0, 1.5},
		// The medians would pair 120 with 100 (1.2); the runs pair 150 with 100 and 100 with 200.
		{"not the medians", []sample{s(150), s(120), s(100)}, []sample{s(100), s(100), s(200)}, 0.5, 1.5},
		{"a run without CPU time is left out", []sample{s(0), s(110)}, []sample{s(100), s(100)}, 1.1, 1.1},
		{"more runs of one than the other", []sample{s(110), s(130), s(900)}, []sample{s(100), s(100)}, 1.1, 1.3},
		{"none", nil, []sample{s(100)}, 0, 0},
	} {
		lo, hi := pairedRatios(tc.mine, tc.noAPI)
		if math.Abs(lo-tc.wantLo) > 1e-9 || math.Abs(hi-tc.wantHi) > 1e-9 {
			t.Errorf("%s: pairedRatios = %v, %v, want %v, %v", tc.name, lo, hi, tc.wantLo, tc.wantHi)
		}
	}
}

func TestRenderCI(t *testing.T) {
	t.Parallel()
	o := options{ci: ciOptions{flows: 10, channels: 2, deployDelay: 5 * time.Second, latency: 100 * time.Millisecond}}
	routes := func(down, up, deploys int64) map[string]int64 {
		return map[string]int64{routeDownload: down, routeUpload: up, routeDeploy: deploys}
	}
	cells := []ciCell{
		{config: ciPerChannel, parallelism: 20, op: opCreate, sample: sample{wall: 13 * time.Second, ciCalls: 150, routes: routes(40, 10, 10), providerCPU: time.Second}},
		{config: ciPerChannel, parallelism: 20, op: opPlan, sample: sample{wall: 2 * time.Second, ciCalls: 30, routes: routes(10, 0, 0)}},
		{config: ciPerChannel, parallelism: 10, op: opUpdate, sample: sample{wall: 21 * time.Second, ciCalls: 170, routes: routes(50, 14, 14)}},
		{config: ciPerFlow, parallelism: 10, op: opUpdate, sample: sample{wall: 12 * time.Second, ciCalls: 120, routes: routes(40, 10, 10)}},
	}
	md := renderCI(o, "Terraform 1.11.4", cells, true)
	cmdtest.Contains(t, "the markdown", md,
		"one deploy takes 10.00 s",
		"| Configuration | Parallelism | Command |",
		"| per-channel deploy | 20 | apply (create) | 150 | 40 | 10 | 0 | 10 | 13.00 s | 1.30× | 1.00 s |",
		"| per-channel deploy | 20 | plan (refresh, no changes) | 30 | 10 | 0 | 0 | 0 | 2.00 s | 0.20× | n/a |",
		"| one deployment per flow | 10 | apply (update every channel) | 120 | 40 | 10 | 0 | 10 | 12.00 s | 1.20× | n/a |",
		"- per-channel deploy, parallelism 20, plan: at most 10 content downloads (one per flow): 10, met",
		"- per-channel deploy, parallelism 20, apply (create): at most 10 deploys (one per flow): 10, met; wall time within 1.5× of one deploy (10.00 s): 1.30×, met",
		"- per-channel deploy, parallelism 10, apply (update every channel): at most 10 deploys (one per flow): 14, **missed**; wall time within 1.5× of one deploy (10.00 s): 2.10×, **missed**",
		"- one deployment per flow, parallelism 10, apply (update every channel): at most 10 deploys (one per flow): 10, met; wall time within 1.5× of one deploy (10.00 s): 1.20×, met",
	)
}

func TestCIHCLAndFlows(t *testing.T) {
	t.Parallel()
	hcl := ciHCL(10, 2, ciPerChannel)
	cmdtest.Contains(t, "the configuration", hcl, `for f in range(10)`, `for c in ["AMQP_A", "AMQP_B"]`, `format("BenchFlow%02d", f)`, `max_number_of_retries   = var.retries`)
	if strings.Contains(hcl, "deploy ") || strings.Contains(hcl, "sapmessaging_iflow_deployment") {
		t.Errorf("the per-channel configuration turns the channels' deploy off or has deployments:\n%s", hcl)
	}
	perFlow := ciHCL(10, 2, ciPerFlow)
	cmdtest.Contains(t, "the one-deployment-per-flow configuration", perFlow, `deploy                  = false`, `resource "sapmessaging_iflow_deployment" "flow"`,
		`triggers = { for k, s in sapmessaging_amqp_sender.c : k => s.revision if s.iflow_id == each.key }`)
	art, err := iflow.ReadZip(ciFlowZip(3, 2))
	if err != nil {
		t.Fatal(err)
	}
	senders := art.AMQPSenders()
	if len(senders) != 2 || senders[0].Name != "AMQP_A" || senders[1].Name != "AMQP_B" || ciFlowID(3) != "BenchFlow03" {
		t.Fatalf("senders %+v", senders)
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
	if !o.ci.enabled || o.ci.flows != 10 || o.ci.channels != 2 || o.ci.deployDelay != 5*time.Second || fmt.Sprint(o.ci.parallelism) != "[10 20]" {
		t.Fatalf("Cloud Integration defaults: %+v", o.ci)
	}
	if o.noAPIWait || !o.otherFloor || o.noAPICall || o.cpuProfile != "" {
		t.Fatalf("the floor of the targets is the plain one by default, the waiting floor runs beside it, -noapi-call and -cpuprofile are off: %+v", o)
	}
	dir := t.TempDir()
	o, err = parseFlags([]string{"-terraform", "tf", "-noapi-wait", "-other-floor=false", "-cpuprofile", filepath.Join(dir, "prof")}, io.Discard)
	if err != nil || !o.noAPIWait || o.otherFloor || o.cpuProfile != filepath.Join(dir, "prof") {
		t.Fatalf("-noapi-wait -other-floor=false -cpuprofile: %+v %v", o, err)
	}
	if st, err := os.Stat(o.cpuProfile); err != nil || !st.IsDir() {
		t.Fatalf("-cpuprofile did not create its directory: %v", err)
	}
	o, err = parseFlags([]string{"-terraform", "tf", "-ci-parallelism", "4, 8"}, io.Discard)
	if err != nil || fmt.Sprint(o.ci.parallelism) != "[4 8]" {
		t.Fatalf("-ci-parallelism: %+v %v", o.ci, err)
	}
	for _, args := range [][]string{{"-ci-flows", "0"}, {"-ci-channels", "27"}, {"-ci-parallelism", "x"}} {
		if _, err := parseFlags(append([]string{"-terraform", "tf"}, args...), io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// The landscape is one configuration with one aliased provider configuration per instance and
// its queues on that alias, each with force_destroy = true for the destroy at the end; the no-API
// provider's configuration names no connection and the same queues.
func TestLandscapeHCL(t *testing.T) {
	t.Parallel()
	withKeys := landscapeHCL(3, 250, []string{"/k/0.json", "/k/1.json", "/k/2.json"})
	for i := range 3 {
		cmdtest.Contains(t, "the landscape", withKeys,
			fmt.Sprintf("alias = \"i%d\"\n  event_mesh = { service_key = file(\"/k/%d.json\") }", i, i),
			fmt.Sprintf("provider             = sapmessaging.i%d\n  count                = 250", i),
		)
	}
	noAPI := landscapeHCL(3, 250, nil)
	if strings.Contains(noAPI, "event_mesh") || strings.Count(noAPI, "resource \"sapmessaging_queue\"") != 3 {
		t.Errorf("the no-API landscape:\n%s", noAPI)
	}
	for _, hcl := range []string{withKeys, noAPI} {
		if n := strings.Count(hcl, "\n  force_destroy        = true\n}"); n != 3 {
			t.Errorf("%d of the 3 queue resources have force_destroy = true:\n%s", n, hcl)
		}
	}
	steps := destroySteps(10)
	if len(steps) != 4 || steps[3].op != opDestroy ||
		strings.Join(steps[3].args, " ") != "destroy -auto-approve -input=false -no-color -parallelism=10 -var redeliveries=6" {
		t.Errorf("steps = %+v", steps)
	}
	if len(operations) != len(steps) {
		t.Errorf("%d operations for %d steps: a step's results would not reach the table", len(operations), len(steps))
	}
	if hcl := queuesHCL(250); !strings.Contains(hcl, "\n  force_destroy        = true\n}") {
		t.Errorf("the Event Mesh section's queues do not set force_destroy = true, so its destroy would read each queue first:\n%s", hcl)
	}
	for i, op := range operations {
		if op != destroySteps(10)[i].op {
			t.Errorf("operation %d is %q, its step %q", i, op, destroySteps(10)[i].op)
		}
	}
}

// Naming a section true runs it alone; switching one off keeps the others.
func TestSelectSections(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args                       []string
		eventMesh, ls, ci, redrive bool
	}{
		{nil, true, true, true, true},
		{[]string{"-landscape"}, false, true, false, false},
		{[]string{"-landscape", "-ci=true"}, false, true, true, false},
		{[]string{"-landscape=false"}, true, false, true, true},
		{[]string{"-event-mesh=false", "-ci=false", "-redrive=false"}, false, true, false, false},
		{[]string{"-redrive"}, false, false, false, true},
	} {
		o, err := parseFlags(append([]string{"-terraform", "tf"}, tc.args...), io.Discard)
		if err != nil || o.eventMesh != tc.eventMesh || o.landscape.enabled != tc.ls || o.ci.enabled != tc.ci || o.redrive.enabled != tc.redrive {
			t.Errorf("%v: event mesh %v, landscape %v, ci %v, redrive %v (%v), want %v %v %v %v", tc.args, o.eventMesh, o.landscape.enabled, o.ci.enabled,
				o.redrive.enabled, err, tc.eventMesh, tc.ls, tc.ci, tc.redrive)
		}
	}
	o, err := parseFlags([]string{"-terraform", "tf"}, io.Discard)
	if err != nil || o.landscape.instances != 8 || o.landscape.queues != 250 || o.landscape.runs != 1 || o.landscape.latency != 20*time.Millisecond {
		t.Fatalf("landscape defaults: %+v %v", o.landscape, err)
	}
	for _, args := range [][]string{{"-landscape-queues", "251"}, {"-landscape-instances", "0"}, {"-landscape-runs", "0"}} {
		if _, err := parseFlags(append([]string{"-terraform", "tf"}, args...), io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// The RSS lines of several provider processes add up.
func TestSumRSS(t *testing.T) {
	t.Parallel()
	p := cmdtest.WriteFile(t, t.TempDir(), "rss.txt",
		"\tMaximum resident set size (kbytes): 40960\n\tMaximum resident set size (kbytes): 51200\n\tMaximum resident set size (kbytes): 1024\n")
	if got, peak := sumRSS(p), peakRSS(p); got != 93184 || peak != 51200 {
		t.Errorf("sumRSS = %d, peakRSS = %d, want 93184 and 51200", got, peak)
	}
	if got := sumRSS(p + ".missing"); got != 0 {
		t.Errorf("sumRSS of a missing file = %d", got)
	}
}

// The landscape's targets: 1 call per instance for a refresh, N + 5 for a destroy, CPU within
// 1.15× for the create and 1.1× for the others, the largest provider process under 200 MB.
func TestLandscapeTargets(t *testing.T) {
	t.Parallel()
	cells := []landscapeCell{
		{op: opCreate, perInstance: 252, providerCPU: 11200 * time.Millisecond, noAPICPU: 10 * time.Second, rssKB: 50 << 10, rssSumKB: 400 << 10, procs: 17,
			ratioLo: 1.04, ratioHi: 1.19},
		{op: opPlan, perInstance: 1, providerCPU: 12 * time.Second, noAPICPU: 10 * time.Second, rssKB: 60 << 10},
		{op: opUpdate, perInstance: 253, providerCPU: 11 * time.Second, noAPICPU: 10 * time.Second},
		{op: opDestroy, perInstance: 502, providerCPU: 10 * time.Second, noAPICPU: 10 * time.Second, bytes: 2_500_000},
	}
	got := landscapeTargets(250, cells, true, floorName(options{noAPIWait: true}))
	cmdtest.Contains(t, "the list of targets", got,
		"- refresh with 1 management API call per instance: at most 1, met",
		"- destroy (force_destroy = true) with at most N + 5 = 255 management API calls per instance: at most 502, **missed**",
		"- apply (create) with at most N + 2 = 252 management API calls per instance: at most 252, met",
		"- apply (update every queue) with at most N + 2 = 252 management API calls per instance: at most 253, **missed**",
		"- apply (create): provider CPU within 1.15× of the no-API provider that waits as the provider does: 11.20 s / 10.00 s = 1.120×, met",
		"- plan (refresh, no changes): provider CPU within 1.1× of the no-API provider that waits as the provider does: 12.00 s / 10.00 s = 1.200×, **missed**",
		"- apply (update every queue): provider CPU within 1.1× of the no-API provider that waits as the provider does: 11.00 s / 10.00 s = 1.100×, met",
		"- provider peak RSS under 200 MB (the largest provider process): 60 MiB, met",
	)
	table := renderLandscape(options{parallelism: 10, landscape: landscapeOptions{instances: 8, queues: 250, latency: 20 * time.Millisecond, runs: 3}},
		"Terraform 1.11.4", cells, true)
	cmdtest.Contains(t, "the table", table, "| destroy | 0 / 502 | 2.5 MB |", "| 50 MiB (17, 400 MiB) |", "8 Event Mesh instances", "= 2000 sapmessaging_queue",
		"| 11.20 s / 10.00 s | 1.12× (runs 1.04–1.19) |", "| 12.00 s / 10.00 s | 1.20× |",
		"The no-API provider never waits (the plain floor, the floor of the targets).")
}

// The call server waits the latency and answers a queue's JSON; the no-API provider's environment
// names it with -noapi-call, the latency with -noapi-wait, nothing without either.
func TestNoAPICalls(t *testing.T) {
	t.Parallel()
	b := &bench{o: options{noAPICall: true}}
	cs, err := b.startNoAPICalls(50 * time.Millisecond)
	if err != nil || cs == nil {
		t.Fatalf("call server: %v", err)
	}
	defer cs.stop()
	begin := time.Now()
	resp, err := http.Get(cs.url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	var q map[string]any
	if took := time.Since(begin); took < 50*time.Millisecond || json.Unmarshal(body, &q) != nil || q["maxRedeliveryCount"] != float64(5) {
		t.Errorf("answer after %s: %s", took, body)
	}
	if env := b.noAPIEnv(time.Second, cs); len(env) != 1 || env[0] != "SAPMESSAGING_NOAPI_CALL="+cs.url {
		t.Errorf("env with -noapi-call: %v", env)
	}
	b.o = options{noAPIWait: true}
	if env := b.noAPIEnv(20*time.Millisecond, nil); len(env) != 1 || env[0] != "SAPMESSAGING_NOAPI_WAIT=20ms" {
		t.Errorf("env with -noapi-wait: %v", env)
	}
	// The other floor waits beside the plain floor and is the plain one beside a floor that waits or calls.
	for _, c := range []struct {
		o    options
		want string
		name string
	}{
		{options{}, "[SAPMESSAGING_NOAPI_WAIT=20ms]", "waiting floor"},
		{options{noAPIWait: true}, "[]", "plain floor"},
		{options{noAPICall: true}, "[]", "plain floor"},
	} {
		if got := fmt.Sprint((&bench{o: c.o}).otherEnv(20 * time.Millisecond)); got != c.want || otherFloorName(c.o) != c.name {
			t.Errorf("otherEnv(%+v) = %s, %s; want %s, %s", c.o, got, otherFloorName(c.o), c.want, c.name)
		}
	}
	if cs, err := (&bench{}).startNoAPICalls(time.Second); cs != nil || err != nil || (&bench{}).noAPIEnv(time.Second, nil) != nil {
		t.Errorf("without the flags: %v %v", cs, err)
	}
}

// The Event Mesh section end to end on a small scale, as make bench runs it: the provider, the
// no-API provider and the emulator built, then create, plan, update and destroy of 5 queues with
// each provider and over terraform_data; the destroy deletes each queue with one call (N + 2).
func TestEventMeshSectionSmall(t *testing.T) {
	t.Chdir(repoRoot(t))
	out, log := runSection(t, "-event-mesh", "-runs", "2", "-sizes", "5", "-latencies", "0s", "-validation=false")
	if _, err := os.Stat("/usr/bin/time"); err == nil {
		cmdtest.Contains(t, "the section's other floor", out.String(), "| CPU: waiting floor | CPU ratio to the waiting floor |")
	}
	// The configurations run command by command, in even runs in the opposite order.
	var order, want []string
	for _, line := range strings.Split(log.String(), "\n") {
		if rest, ok := strings.CutPrefix(line, "bench: latency 0s, 5 queues, run "); ok && strings.Contains(rest, ": wall") {
			order = append(order, strings.SplitN(rest, ":", 2)[0])
		}
	}
	for r, configs := range [][]string{
		{"terraform_data", "waiting floor", "no-API provider", "provider"},
		{"provider", "no-API provider", "waiting floor", "terraform_data"},
	} {
		for _, op := range operations {
			for _, c := range configs {
				want = append(want, fmt.Sprintf("%d, %s, %s", r+1, c, op))
			}
		}
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands ran in the order\n%s\nwant\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	cmdtest.Contains(t, "the section", out.String(),
		"| 0s | 5 | apply (create) | 7 |",
		"| 0s | 5 | plan (refresh, no changes) | 1 |",
		"| 0s | 5 | apply (update every queue) | 7 |",
		"| 0s | 5 | destroy | 7 |",
		"- refresh of 5 queues at 0s with 1 management API call: 1, met",
		"- destroy (force_destroy = true) of 5 queues at 0s with at most N + 5 = 10 management API calls: 7, met",
		"- apply (create) of 5 queues at 0s with at most N + 2 = 7 management API calls: 7, met",
		"- apply (update every queue) of 5 queues at 0s with at most N + 2 = 7 management API calls: 7, met",
		"(the plain floor, the floor of the targets)",
	)
}

// The landscape section end to end on 2 instances of 3 queues, two runs: its calls per instance,
// and the two providers' commands interleaved, the no-API provider first in odd runs and the
// provider first in even ones, each command of one provider right beside the other's.
func TestLandscapeSectionSmall(t *testing.T) {
	t.Chdir(repoRoot(t))
	out, log := runSection(t, "-landscape", "-landscape-instances", "2", "-landscape-queues", "3", "-landscape-runs", "2",
		"-landscape-latency", "0s", "-validation=false")
	cmdtest.Contains(t, "the section", out.String(),
		"| apply (create) | 10 / 5 |",
		"| plan (refresh, no changes) | 2 / 1 |",
		"| destroy | 10 / 5 |",
		"(the plain floor, the floor of the targets)",
		"- refresh with 1 management API call per instance: at most 1, met",
		"- apply (update every queue) with at most N + 2 = 5 management API calls per instance: at most 5, met",
	)
	var order []string
	for _, line := range strings.Split(log.String(), "\n") {
		for _, who := range []string{"no-API provider", "provider"} {
			if i := strings.Index(line, ", "+who+", "); i >= 0 && strings.Contains(line, "landscape run ") {
				order = append(order, line[strings.Index(line, "run "):i]+" "+who+" "+strings.SplitN(line[i+len(who)+4:], ":", 2)[0])
				break
			}
		}
	}
	var want []string
	for r, pair := range [][2]string{{"no-API provider", "provider"}, {"provider", "no-API provider"}} {
		for _, op := range operations {
			for _, who := range pair {
				want = append(want, fmt.Sprintf("run %d %s %s", r+1, who, op))
			}
		}
	}
	if strings.Join(order, "\n") != strings.Join(want, "\n") {
		t.Errorf("commands ran in the order\n%s\nwant\n%s\nlog:\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"), log.String())
	}
}

// repoRoot is the repository's root, where make bench runs the bench.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// runSection runs the bench with args in the working directory, which the test has made the
// repository's root, and returns its output and its log; it skips without TF_ACC.
func runSection(t *testing.T, args ...string) (out, log *bytes.Buffer) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("builds the provider and the emulator and runs Terraform: set TF_ACC=1")
	}
	out, log = &bytes.Buffer{}, &bytes.Buffer{}
	if err := run(args, out, log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	return out, log
}
