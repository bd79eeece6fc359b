package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"syscall"
	"testing"
	"time"

	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdkit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider"
)

// BenchmarkWalks sends, in this process and one resource at a time, the RPCs Terraform 1.11 sends
// in the walks of the Event Mesh section's commands (make bench), to sapmessaging_queue resources of
// the provider and of the provider without an API, each walk to a new provider server, as
// Terraform starts a provider process per walk:
//
//   - create: a plan walk (ValidateResourceConfig, PlanResourceChange) and an apply walk (the same
//     and ApplyResourceChange) of queues that do not exist yet, deleted again outside the timer
//     and the CPU time;
//   - plan: a plan walk with refresh (UpgradeResourceState, ReadResource, ValidateResourceConfig,
//     PlanResourceChange) and no changes;
//   - update: that plan walk with a new max_redelivery_count, then the apply walk
//     (UpgradeResourceState, ValidateResourceConfig, PlanResourceChange, ApplyResourceChange);
//   - destroy (force_destroy = true): the plan walk with refresh that terraform destroy runs first
//     (Terraform's PreDestroyRefresh: a normal plan, as the plan command's), the destroy plan walk
//     (UpgradeResourceState, PlanResourceChange of a null configuration) and the apply walk
//     (UpgradeResourceState, ApplyResourceChange to a null state, no plan again), of queues made
//     again before each command, outside the timer and the CPU time.
//
// The provider talks to an emulator in a process of its own (built from internal/cmd/emulator,
// no latency unless SAPMESSAGING_WALK_LATENCY sets one, idle connections closed after 50 ms as a
// discarded provider process's would be), so cpu-ns/op is this process's CPU time: the framework's
// and the provider's work per command without Terraform, the gRPC transport and the bench's
// parallelism; sys-ns/op is the part of it spent in the kernel. allocs/op is exact and repeats to
// the allocation; cpu-ns/op moves by about 5 % between the runs of one test binary and by up to a
// third between test binaries on a shared 2-vCPU machine (compare the providers in one binary), and
// it holds the client side of every API round trip one after the other, a larger share than in the
// bench's parallel commands (make bench -noapi-call measures the calls there). With
// SAPMESSAGING_WALK_LATENCY (envWalkLatency) the emulator waits before each answer, and the same
// walks show what the waiting costs the process. Compare the two providers' allocs/op and cpu-ns/op
// of a command (benchstat), per queue: op / walkQueues.
func BenchmarkWalks(b *testing.B) {
	em := startWalkEmulator(b)
	for _, p := range []struct {
		name   string
		server func() tfprotov6.ProviderServer
		config func(*testing.B, tftypes.Object) tftypes.Value
		em     *walkEmulator // holds the queues; nil for the provider without an API
	}{
		{"sapmessaging", func() tfprotov6.ProviderServer { return serverOf(b, provider.New("bench")) }, em.providerConfig, em},
		{"noapi", func() tfprotov6.ProviderServer { return serverOf(b, newProvider) }, nullConfig, nil},
	} {
		w := newWalker(b, p.server, p.config)
		b.Run("configure/"+p.name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				w.start(b)
			}
		})
		b.Run("create/"+p.name, func(b *testing.B) {
			cpu := meterCPU(b)
			defer cpu.report()
			for i := 0; b.Loop(); i++ {
				qs := w.queues(fmt.Sprintf("c%s%d", p.name[:1], i), 5)
				w.planWalk(b, qs, false)
				w.applyWalk(b, qs)
				// The queues deleted again, outside the timer and the CPU time.
				cpu.pause()
				p.em.deleteQueues(b, qs)
				cpu.resume()
			}
		})
		qs := w.queues("s"+p.name[:1], 5)
		w.planWalk(b, qs, false)
		w.applyWalk(b, qs)
		b.Run("plan/"+p.name, func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				w.planWalk(b, qs, true)
			}
		})
		b.Run("update/"+p.name, func(b *testing.B) {
			defer reportCPU(b)()
			for i := 0; b.Loop(); i++ {
				for _, q := range qs {
					q.setRedeliveries(int64(6 + i%2))
				}
				w.planWalk(b, qs, true)
				w.applyWalk(b, qs)
			}
		})
		p.em.deleteQueues(b, qs)
		b.Run("destroy/"+p.name, func(b *testing.B) {
			qs := w.queues("d"+p.name[:1], 5)
			w.planWalk(b, qs, false)
			w.applyWalk(b, qs)
			created := make([]walkQueue, len(qs))
			for i, q := range qs {
				created[i] = *q
			}
			cpu := meterCPU(b)
			defer cpu.report()
			for i := 0; b.Loop(); i++ {
				if i > 0 {
					// The queues again, as the create left them, outside the timer and the CPU time.
					cpu.pause()
					for j, q := range qs {
						*q = created[j]
					}
					p.em.putQueues(b, qs)
					cpu.resume()
				}
				w.planWalk(b, qs, true)
				w.destroyPlanWalk(b, qs)
				w.destroyApplyWalk(b, qs)
			}
		})
	}
}

// reportCPU reports the allocations and the CPU time of this process per operation (cpu-ns/op:
// user and system time, the garbage collector's included; sys-ns/op: the kernel's part; gc-ns/op
// and gc-idle-ns/op: the collector's CPU time and the part of it its idle mark workers ran, as the
// runtime estimates them), which leaves out the time the provider waits for the emulator; call the
// function it returns after the loop.
func reportCPU(b *testing.B) func() { return meterCPU(b).report }

// cpuMeter reports what reportCPU reports without the CPU time between pause and resume (which
// also stop the timer, and collect the garbage of what ran in between, so that its collection does
// not fall into the timed work).
type cpuMeter struct {
	b             *testing.B
	begin, paused cpuSample
	pauseBegin    cpuSample
}

// cpuSample is this process's CPU time so far: all, the kernel's, the collector's and its idle
// mark workers'.
type cpuSample struct{ all, sys, gc, gcIdle time.Duration }

func sampleCPU(b *testing.B) cpuSample {
	ms := []metrics.Sample{{Name: "/cpu/classes/gc/total:cpu-seconds"}, {Name: "/cpu/classes/gc/mark/idle:cpu-seconds"}}
	metrics.Read(ms)
	seconds := func(v metrics.Value) time.Duration { return time.Duration(v.Float64() * float64(time.Second)) }
	return cpuSample{all: processCPU(b), sys: systemCPU(b), gc: seconds(ms[0].Value), gcIdle: seconds(ms[1].Value)}
}

func (a cpuSample) sub(c cpuSample) cpuSample {
	return cpuSample{all: a.all - c.all, sys: a.sys - c.sys, gc: a.gc - c.gc, gcIdle: a.gcIdle - c.gcIdle}
}

func (a cpuSample) add(c cpuSample) cpuSample {
	return cpuSample{all: a.all + c.all, sys: a.sys + c.sys, gc: a.gc + c.gc, gcIdle: a.gcIdle + c.gcIdle}
}

func meterCPU(b *testing.B) *cpuMeter {
	b.ReportAllocs()
	return &cpuMeter{b: b, begin: sampleCPU(b)}
}

func (m *cpuMeter) pause() {
	m.b.StopTimer()
	m.pauseBegin = sampleCPU(m.b)
}

func (m *cpuMeter) resume() {
	runtime.GC()
	m.paused = m.paused.add(sampleCPU(m.b).sub(m.pauseBegin))
	m.b.StartTimer()
}

func (m *cpuMeter) report() {
	d := sampleCPU(m.b).sub(m.begin).sub(m.paused)
	n := float64(m.b.N)
	m.b.ReportMetric(float64(d.all.Nanoseconds())/n, "cpu-ns/op")
	m.b.ReportMetric(float64(d.sys.Nanoseconds())/n, "sys-ns/op")
	m.b.ReportMetric(float64(d.gc.Nanoseconds())/n, "gc-ns/op")
	m.b.ReportMetric(float64(d.gcIdle.Nanoseconds())/n, "gc-idle-ns/op")
}

// systemCPU is this process's system time: the part of processCPU spent in the kernel.
func systemCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Stime.Nano())
}

func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// walkQueues is the number of queues of each command of BenchmarkWalks.
const walkQueues = 50

// walkDMQ is the dead message queue every queue of BenchmarkWalks names; it exists beforehand,
// as in the Event Mesh section.
const walkDMQ = "acme/crm/prod/bench/dmq"

func serverOf(b *testing.B, p func() fwprovider.Provider) tfprotov6.ProviderServer {
	srv, err := providerserver.NewProtocol6WithError(p())()
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

// walkEmulator is a standalone emulator process.
type walkEmulator struct {
	key  string // the Event Mesh service key
	mgmt *eventmesh.Client
}

// envWalkLatency names a duration, such as 20ms, that the emulator of BenchmarkWalks waits before
// each answer (its -latency): the walks then wait for every API call one after the other, as a provider
// process waits in Terraform's walks, and cpu-ns/op against a run without it shows what the waiting
// costs the process in CPU (the same allocations, more CPU per command). Unset: no latency.
const envWalkLatency = "SAPMESSAGING_WALK_LATENCY"

// startWalkEmulator builds and starts the emulator, stopped when b ends, and creates walkDMQ.
func startWalkEmulator(b *testing.B) *walkEmulator {
	b.Helper()
	dir := b.TempDir()
	bin := filepath.Join(dir, "emulator")
	build := exec.Command("go", "build", "-o", bin, "./internal/cmd/emulator")
	build.Dir = acctest.RepoRoot()
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building the emulator: %v\n%s", err, out)
	}
	args := []string{"-listen", "127.0.0.1:0", "-keys", dir, "-max-queues", "100000", "-idle-timeout", "50ms"}
	if l := os.Getenv(envWalkLatency); l != "" {
		if _, err := time.ParseDuration(l); err != nil {
			b.Fatalf("%s=%q: %v", envWalkLatency, l, err)
		}
		args = append(args, "-latency", l)
	}
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if !strings.HasPrefix(line, "listening on ") {
		b.Fatalf("the emulator printed %q (%v) instead of its address", line, err)
	}
	keyFile := filepath.Join(dir, "event-mesh.json")
	raw, err := os.ReadFile(keyFile)
	if err != nil {
		b.Fatal(err)
	}
	key, err := cmdkit.LoadEventMesh(keyFile)
	if err != nil {
		b.Fatal(err)
	}
	mgmt, err := cmdkit.EventMeshManagement(key, httpx.Config{})
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := mgmt.PutQueue(context.Background(), walkDMQ, eventmesh.QueueSettings{}); err != nil {
		b.Fatal(err)
	}
	return &walkEmulator{key: string(raw), mgmt: mgmt}
}

// providerConfig is the provider block with the emulator's Event Mesh service key.
func (e *walkEmulator) providerConfig(b *testing.B, t tftypes.Object) tftypes.Value {
	attrs := nullAttributes(t)
	emType, ok := t.AttributeTypes["event_mesh"].(tftypes.Object)
	if !ok {
		b.Fatalf("event_mesh is a %s", t.AttributeTypes["event_mesh"])
	}
	em := nullAttributes(emType)
	em["service_key"] = tftypes.NewValue(tftypes.String, e.key)
	attrs["event_mesh"] = tftypes.NewValue(emType, em)
	return tftypes.NewValue(t, attrs)
}

func (e *walkEmulator) deleteQueues(b *testing.B, qs []*walkQueue) {
	if e == nil {
		return
	}
	for _, q := range qs {
		if err := e.mgmt.DeleteQueue(context.Background(), q.name); err != nil {
			b.Fatal(err)
		}
	}
}

// putQueues creates the queues again with the settings of their state (the walks' DMQ and
// redelivery count), as their create left them.
func (e *walkEmulator) putQueues(b *testing.B, qs []*walkQueue) {
	if e == nil {
		return
	}
	for _, q := range qs {
		var attrs map[string]tftypes.Value
		var redeliveries big.Float
		if err := q.state.As(&attrs); err != nil {
			b.Fatal(err)
		}
		if err := attrs["max_redelivery_count"].As(&redeliveries); err != nil {
			b.Fatal(err)
		}
		n, _ := redeliveries.Int64()
		dmq := walkDMQ
		if _, _, err := e.mgmt.PutQueue(context.Background(), q.name, eventmesh.QueueSettings{MaxRedeliveryCount: &n, DeadMsgQueue: &dmq}); err != nil {
			b.Fatal(err)
		}
	}
}

func nullConfig(_ *testing.B, t tftypes.Object) tftypes.Value {
	return tftypes.NewValue(t, nullAttributes(t))
}

func nullAttributes(t tftypes.Object) map[string]tftypes.Value {
	attrs := map[string]tftypes.Value{}
	for name, at := range t.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	return attrs
}

// walker sends the walks of one provider.
type walker struct {
	server         func() tfprotov6.ProviderServer
	providerConfig tftypes.Value
	schema         *tfprotov6.Schema
	typ            tftypes.Object
}

func newWalker(b *testing.B, server func() tfprotov6.ProviderServer, config func(*testing.B, tftypes.Object) tftypes.Value) *walker {
	s, err := server().GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		b.Fatal(err)
	}
	pt, ok := s.Provider.ValueType().(tftypes.Object)
	if !ok {
		b.Fatal("the provider schema is not an object")
	}
	rs := s.ResourceSchemas["sapmessaging_queue"]
	rt, ok := rs.ValueType().(tftypes.Object)
	if !ok {
		b.Fatal("the queue schema is not an object")
	}
	return &walker{server: server, providerConfig: config(b, pt), schema: rs, typ: rt}
}

// walkQueue is one sapmessaging_queue resource as Terraform holds it between walks.
type walkQueue struct {
	name    string
	config  tftypes.Value
	state   tftypes.Value // null before the create
	private []byte
}

func (w *walker) queues(prefix string, redeliveries int64) []*walkQueue {
	qs := make([]*walkQueue, walkQueues)
	for i := range qs {
		qs[i] = &walkQueue{name: fmt.Sprintf("acme/crm/prod/bench/%s-q%03d", prefix, i), state: tftypes.NewValue(w.typ, nil)}
		qs[i].config = w.queueConfig(qs[i].name, redeliveries)
	}
	return qs
}

// queueConfig is the Event Mesh section's queue: a name, a redelivery count, the DMQ, force_destroy.
func (w *walker) queueConfig(name string, redeliveries int64) tftypes.Value {
	attrs := nullAttributes(w.typ)
	attrs["name"] = tftypes.NewValue(tftypes.String, name)
	attrs["max_redelivery_count"] = tftypes.NewValue(tftypes.Number, redeliveries)
	attrs["dead_message_queue"] = tftypes.NewValue(tftypes.String, walkDMQ)
	attrs["force_destroy"] = tftypes.NewValue(tftypes.Bool, true)
	return tftypes.NewValue(w.typ, attrs)
}

func (q *walkQueue) setRedeliveries(n int64) {
	var attrs map[string]tftypes.Value
	_ = q.config.As(&attrs)
	attrs["max_redelivery_count"] = tftypes.NewValue(tftypes.Number, n)
	q.config = tftypes.NewValue(q.config.Type(), attrs)
}

// start is a new provider server, configured, as at the start of a walk. It is not asked for its
// schema: both providers set GetProviderSchemaOptional, so Terraform 1.11 takes the schema it
// fetched once per command from its cache (newWalker fetches it here).
func (w *walker) start(b *testing.B) tfprotov6.ProviderServer {
	ctx := context.Background()
	srv := w.server()
	cfg := w.dynamic(b, w.providerConfig)
	resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: cfg})
	mustClean(b, "ConfigureProvider", resp.Diagnostics, err)
	return srv
}

// planWalk plans every queue; with refresh it upgrades and reads the state first. The plan's
// state is kept, not the planned one.
func (w *walker) planWalk(b *testing.B, qs []*walkQueue, refresh bool) {
	ctx := context.Background()
	srv := w.start(b)
	for _, q := range qs {
		prior, private := q.state, q.private
		if refresh {
			prior = w.upgrade(b, srv, q.state)
			resp, err := srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: "sapmessaging_queue", CurrentState: w.dynamic(b, prior), Private: private})
			mustClean(b, "ReadResource", resp.Diagnostics, err)
			prior, private = w.value(b, resp.NewState), resp.Private
			q.state, q.private = prior, private
		}
		w.validate(b, srv, q)
		w.plan(b, srv, q, prior, private)
	}
}

// applyWalk plans every queue again and applies it, keeping the new state.
func (w *walker) applyWalk(b *testing.B, qs []*walkQueue) {
	ctx := context.Background()
	srv := w.start(b)
	for _, q := range qs {
		prior := q.state
		if !prior.IsNull() {
			prior = w.upgrade(b, srv, prior)
		}
		w.validate(b, srv, q)
		planned, private := w.plan(b, srv, q, prior, q.private)
		resp, err := srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: "sapmessaging_queue", PriorState: w.dynamic(b, prior), PlannedState: planned,
			Config: w.dynamic(b, q.config), PlannedPrivate: private,
		})
		mustClean(b, "ApplyResourceChange", resp.Diagnostics, err)
		q.state, q.private = w.value(b, resp.NewState), resp.Private
	}
}

// destroyPlanWalk plans the destroy of every queue (a null configuration and proposed state) and
// keeps the planned private state, which Terraform's plan carries to the apply.
func (w *walker) destroyPlanWalk(b *testing.B, qs []*walkQueue) {
	srv := w.start(b)
	for _, q := range qs {
		q.private = w.planDestroy(b, srv, q, w.upgrade(b, srv, q.state))
	}
}

// destroyApplyWalk applies the planned destroy of every queue (Terraform does not plan a delete
// again in the apply): the queue's state ends null.
func (w *walker) destroyApplyWalk(b *testing.B, qs []*walkQueue) {
	srv := w.start(b)
	for _, q := range qs {
		prior := w.upgrade(b, srv, q.state)
		null := w.dynamic(b, tftypes.NewValue(w.typ, nil))
		resp, err := srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
			TypeName: "sapmessaging_queue", PriorState: w.dynamic(b, prior), PlannedState: null, Config: null, PlannedPrivate: q.private,
		})
		mustClean(b, "ApplyResourceChange", resp.Diagnostics, err)
		q.state, q.private = w.value(b, resp.NewState), nil
		if !q.state.IsNull() {
			b.Fatalf("the destroy of %s left the state %s", q.name, q.state)
		}
	}
}

// planDestroy sends PlanResourceChange of a destroy (a null configuration and proposed new state)
// and returns the planned private state.
func (w *walker) planDestroy(b *testing.B, srv tfprotov6.ProviderServer, q *walkQueue, prior tftypes.Value) []byte {
	null := w.dynamic(b, tftypes.NewValue(w.typ, nil))
	resp, err := srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "sapmessaging_queue", PriorState: w.dynamic(b, prior), ProposedNewState: null, Config: null, PriorPrivate: q.private,
	})
	mustClean(b, "PlanResourceChange", resp.Diagnostics, err)
	if resp.PlannedState != nil {
		if planned := w.value(b, resp.PlannedState); !planned.IsNull() {
			b.Fatalf("the destroy plan of %s is %s, not null", q.name, planned)
		}
	}
	return resp.PlannedPrivate
}

func (w *walker) validate(b *testing.B, srv tfprotov6.ProviderServer, q *walkQueue) {
	resp, err := srv.ValidateResourceConfig(context.Background(), &tfprotov6.ValidateResourceConfigRequest{TypeName: "sapmessaging_queue", Config: w.dynamic(b, q.config)})
	mustClean(b, "ValidateResourceConfig", resp.Diagnostics, err)
}

// plan sends PlanResourceChange with Terraform's proposed new state: the configuration, and the
// prior state's value of a computed attribute the configuration leaves null.
func (w *walker) plan(b *testing.B, srv tfprotov6.ProviderServer, q *walkQueue, prior tftypes.Value, private []byte) (*tfprotov6.DynamicValue, []byte) {
	var config, priorAttrs map[string]tftypes.Value
	_ = q.config.As(&config)
	if !prior.IsNull() {
		_ = prior.As(&priorAttrs)
	}
	proposed := map[string]tftypes.Value{}
	for _, a := range w.schema.Block.Attributes {
		v := config[a.Name]
		if v.IsNull() && a.Computed && priorAttrs != nil {
			v = priorAttrs[a.Name]
		}
		proposed[a.Name] = v
	}
	resp, err := srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: "sapmessaging_queue", PriorState: w.dynamic(b, prior), ProposedNewState: w.dynamic(b, tftypes.NewValue(w.typ, proposed)),
		Config: w.dynamic(b, q.config), PriorPrivate: private,
	})
	mustClean(b, "PlanResourceChange", resp.Diagnostics, err)
	return resp.PlannedState, resp.PlannedPrivate
}

// upgrade sends the state as Terraform stores it (JSON) through UpgradeResourceState.
func (w *walker) upgrade(b *testing.B, srv tfprotov6.ProviderServer, state tftypes.Value) tftypes.Value {
	var attrs map[string]tftypes.Value
	if err := state.As(&attrs); err != nil {
		b.Fatal(err)
	}
	stored := map[string]any{}
	for name, v := range attrs {
		stored[name] = acctest.GoValue(b, v)
	}
	raw, err := json.Marshal(stored)
	if err != nil {
		b.Fatal(err)
	}
	resp, err := srv.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{TypeName: "sapmessaging_queue", RawState: &tfprotov6.RawState{JSON: raw}})
	mustClean(b, "UpgradeResourceState", resp.Diagnostics, err)
	return w.value(b, resp.UpgradedState)
}

func (w *walker) dynamic(b *testing.B, v tftypes.Value) *tfprotov6.DynamicValue {
	dv, err := tfprotov6.NewDynamicValue(v.Type(), v)
	if err != nil {
		b.Fatal(err)
	}
	return &dv
}

func (w *walker) value(b *testing.B, dv *tfprotov6.DynamicValue) tftypes.Value {
	v, err := dv.Unmarshal(w.typ)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

func mustClean(b *testing.B, rpc string, diags []*tfprotov6.Diagnostic, err error) {
	if err != nil {
		b.Fatalf("%s: %v", rpc, err)
	}
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.Fatalf("%s: %s: %s", rpc, d.Summary, d.Detail)
		}
	}
}
