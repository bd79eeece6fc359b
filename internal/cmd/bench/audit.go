package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// The audit section: the sapmessaging_retry_audit data source read by `terraform plan` over one
// Event Mesh instance and one Cloud Integration tenant (one emulator with a latency per request),
// with the calls it makes and its time beside a plan of the same provider that reads a data
// source without API calls.

// auditOptions are the settings of the audit section.
type auditOptions struct {
	enabled bool
	queues  int // on the instance, the dead message queue included
	flows   int // deployed, one AMQP sender channel each
	latency time.Duration
	runs    int
}

// Emulator route labels of the lists the audit makes besides the content downloads (routeDownload).
const (
	routeListQueues  = "GET /queues"
	routeListRuntime = "GET /api/v1/IntegrationRuntimeArtifacts"
	routeListHooks   = "GET /messagingrest/v1/subscriptions"
)

// auditDMQ is the dead message queue every queue of the audit section names.
const auditDMQ = "acme/crm/prod/audit/dmq"

// auditDMQTTL is the time to live of auditDMQ in seconds (7 days).
const auditDMQTTL = 7 * 24 * 3600

// auditOpAudit and auditOpBaseline are the commands of the section.
const (
	auditOpAudit    = "plan (retry audit)"
	auditOpBaseline = "plan (baseline)"
)

// addAuditFlags registers the flags of the audit section, each checked as it is parsed.
func addAuditFlags(fs *flag.FlagSet, o *auditOptions) {
	o.queues, o.flows, o.latency, o.runs = 250, 50, 100*time.Millisecond, 3
	fs.BoolVar(&o.enabled, "audit", true, "run the audit section (the sapmessaging_retry_audit data source read by terraform plan over queues and deployed flows; "+
		"-audit alone runs it alone, as naming any section true runs only the sections so named)")
	fs.Func("audit-queues", "audit section: queues on the instance, the dead message queue they name included, 2 to 250 (default 250)", intIn(&o.queues, 2, 250))
	fs.Func("audit-flows", "audit section: deployed flows, one AMQP sender channel each reading one of the queues, 1 to 999 (default 50)", intIn(&o.flows, 1, 999))
	fs.Func("audit-latency", "audit section: latency the emulator adds to every request (default 100ms)", durationIn(&o.latency))
	fs.Func("audit-runs", "audit section: interleaved runs of the baseline and the audit; the table shows medians (default 3)", intIn(&o.runs, 1, 100))
}

// intIn parses a flag value into p, refusing values outside lo to hi.
func intIn(p *int, lo, hi int) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("%q is not a whole number from %d to %d", s, lo, hi)
		}
		*p = n
		return nil
	}
}

// durationIn parses a flag value into p, refusing negative durations.
func durationIn(p *time.Duration) func(string) error {
	return func(s string) error {
		d, err := time.ParseDuration(strings.TrimSpace(s))
		if err != nil || d < 0 {
			return fmt.Errorf("%q is not a duration such as 100ms", s)
		}
		*p = d
		return nil
	}
}

// auditQueue is the name of queue i of the section (not the dead message queue).
func auditQueue(i int) string { return fmt.Sprintf("acme/crm/prod/audit/q%04d", i) }

// auditFlowID is the ID of flow i of the section.
func auditFlowID(i int) string { return fmt.Sprintf("AuditFlow%03d", i) }

// auditFlowQueue is the index of the queue flow i reads: the queues in turn (the dead message
// queue is not one of the queues - 1 it can read).
func auditFlowQueue(i, queues int) int { return i % (queues - 1) }

// auditUnlimited reports whether queue i leaves its redelivery count at 0 (unlimited): every
// 25th, so that the audit has findings.
func auditUnlimited(i int) bool { return i%25 == 0 }

// auditUnboundedPaths is how many of the flows read a queue with unlimited redelivery: the
// paths the audit must report unbounded.
func auditUnboundedPaths(queues, flows int) int {
	n := 0
	for i := range flows {
		if auditUnlimited(auditFlowQueue(i, queues)) {
			n++
		}
	}
	return n
}

// auditFlowZip is flow i: one AMQP sender channel reading its queue, one retry, and an exception
// subprocess with an Error End.
func auditFlowZip(i, queues int) []byte {
	props := iflowbuild.DefaultSenderProperties(auditQueue(auditFlowQueue(i, queues)))
	props[iflow.KeyMaxRetries] = "1"
	return iflowbuild.Build(iflowbuild.Options{Name: auditFlowID(i),
		Senders: []iflowbuild.Sender{{Name: "EventMesh", Properties: props}}, ExceptionEnds: [][]string{{"error"}}})
}

// auditHCLHead is the provider requirement and the provider block both configurations share; the
// service keys come from the environment.
const auditHCLHead = requiredProvidersHCL + `
provider "sapmessaging" {}
`

// auditHCL reads the audit and outputs its summary; the output's precondition fails the plan
// unless the audit saw the landscape the section set up.
func auditHCL(queues, flows int) string {
	unbounded := auditUnboundedPaths(queues, flows)
	return auditCheckHCL(fmt.Sprintf("local.summary.queues == %d && local.summary.flows == %d && local.summary.paths == %d &&\n"+
		"    local.summary.flows_not_analysable == 0 && local.summary.unbounded_paths == %d", queues, flows, flows, unbounded),
		fmt.Sprintf("%d queues, %d flows with one path each, %d of them unbounded", queues, flows, unbounded))
}

// auditCheckHCL reads the audit and outputs its summary with a precondition that fails the plan unless
// condition holds; landscape says what the benchmark set up.
func auditCheckHCL(condition, landscape string) string {
	return auditHCLHead + fmt.Sprintf(`
data "sapmessaging_retry_audit" "a" {}

locals {
  summary = data.sapmessaging_retry_audit.a.summary
}

output "summary" {
  value = local.summary
  precondition {
    condition = (%s)
    error_message = "The audit did not see the landscape the benchmark set up (%s): ${jsonencode(local.summary)}."
  }
}
`, condition, landscape)
}

// auditBaselineHCL reads sapmessaging_retry_policy, which calls no API: a plan with one data
// source read by the same provider process, without the audit's work.
func auditBaselineHCL() string {
	return auditHCLHead + `
data "sapmessaging_retry_policy" "p" {
  total_attempts = 7
}

output "summary" {
  value = data.sapmessaging_retry_policy.p.max_redelivery_count
}
`
}

// auditFloor is the audit's time with nothing but the latency: ceil(flows / concurrency) waves
// of content downloads plus one latency per list (the queue list and the runtime list; the token
// requests and the webhook list are left out).
func auditFloor(flows, concurrency int, latency time.Duration) time.Duration {
	waves := (flows + concurrency - 1) / concurrency
	return time.Duration(waves+2) * latency
}

// auditCell is the result of one command of the section over the runs.
type auditCell struct {
	op                string
	wall, providerCPU time.Duration // medians
	mgmtCalls         int64         // this and the counts below: the most of any run
	runtimeLists      int64
	downloads         int64
	otherCI           int64
	messaging         int64
	tokens            int64
	rssKB             int64 // the largest provider process of any run
	runs              int
}

// cpuMem is the cell's provider CPU time and peak RSS as the tables write them, "n/a" without GNU time.
func (c auditCell) cpuMem(rss bool) (cpu, mem string) {
	if !rss || c.rssKB <= 0 {
		return "n/a", "n/a"
	}
	return seconds(c.providerCPU), mib(c.rssKB)
}

// auditCellOf summarizes the samples of one command.
func auditCellOf(op string, ss []sample) auditCell {
	c := auditCell{op: op, wall: median(ss), providerCPU: medianOf(ss, func(s sample) time.Duration { return s.providerCPU }), runs: len(ss)}
	for _, s := range ss {
		c.mgmtCalls = max(c.mgmtCalls, s.mgmtCalls)
		c.runtimeLists = max(c.runtimeLists, s.routes[routeListRuntime])
		c.downloads = max(c.downloads, s.routes[routeDownload])
		c.otherCI = max(c.otherCI, s.ciCalls-s.routes[routeListRuntime]-s.routes[routeDownload])
		var msg int64
		for route, n := range s.routes {
			if _, path, _ := strings.Cut(route, " "); strings.HasPrefix(path, "/messagingrest/") {
				msg += n
			}
		}
		c.messaging = max(c.messaging, msg)
		c.tokens = max(c.tokens, s.tokenCalls)
		c.rssKB = max(c.rssKB, s.rssKB)
	}
	return c
}

// measureAudit sets up one emulator with the queues and deployed flows, then runs the baseline's
// plan and the audit's plan o.audit.runs times, interleaved, and returns the baseline's cell and
// the audit's.
func (b *bench) measureAudit() ([]auditCell, error) {
	ao := b.o.audit
	b.logf("audit: %d queues and %d deployed flows at %s latency", ao.queues, ao.flows, ao.latency)
	// At most 250 queues, SAP's limit and the emulator's: no -max-queues.
	baselines, audits, err := b.measurePlans("audit", ao.latency, ao.runs, auditHCL(ao.queues, ao.flows), func(em *emulatorProc, keys string) ([]string, error) {
		env := []string{
			"SAPMESSAGING_EVENT_MESH_SERVICE_KEY=" + filepath.Join(keys, "event-mesh.json"),
			"SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY=" + filepath.Join(keys, "cloud-integration.json"),
		}
		return env, seedAudit(em, keys, ao.queues, ao.flows)
	})
	if err != nil {
		return nil, err
	}
	return []auditCell{auditCellOf(auditOpBaseline, baselines), auditCellOf(auditOpAudit, audits)}, nil
}

// measurePlans starts one emulator with latency for the section, seeds it (seed returns the environment
// of the provider), and runs the baseline's plan and the audit's plan (the configuration hcl) runs times,
// interleaved; it returns the samples of each.
func (b *bench) measurePlans(section string, latency time.Duration, runs int, hcl string, seed func(em *emulatorProc, keys string) ([]string, error)) (baselines, audits []sample, err error) {
	base := filepath.Join(b.work, strings.ReplaceAll(strings.ToLower(section), " ", "-"))
	keys := filepath.Join(base, "keys")
	em, err := b.startEmulator(keys, latency, "-deploy-delay", "0s")
	if err != nil {
		return nil, nil, err
	}
	defer em.stop()
	env, err := seed(em, keys)
	if err != nil {
		return nil, nil, err
	}
	return b.interleavedPlans(section, base, runs, env, em, hcl)
}

// interleavedPlans runs the baseline's plan and the audit's plan (the configuration hcl) runs times,
// interleaved, under base against the emulator em, and returns the samples of each. section names the
// bench section in errors and the log.
func (b *bench) interleavedPlans(section, base string, runs int, env []string, em *emulatorProc, hcl string) (baselines, audits []sample, err error) {
	for r := 1; r <= runs; r++ {
		for _, c := range []struct {
			name, op, hcl string
			into          *[]sample
		}{
			{"baseline", auditOpBaseline, auditBaselineHCL(), &baselines},
			{"audit", auditOpAudit, hcl, &audits},
		} {
			ss, err := b.runSteps(filepath.Join(base, fmt.Sprintf("run-%d", r), c.name), c.hcl, b.cliRC, env, emulators{em},
				[]step{{op: c.op, args: []string{"plan", "-input=false", "-no-color"}}})
			if err != nil {
				return nil, nil, fmt.Errorf("the %s section, %s, run %d: %w", section, c.name, r, err)
			}
			s := ss[c.op]
			*c.into = append(*c.into, s)
			b.logf("%s run %d/%d, %s: wall %s, %d management calls, %d SEMP calls, %d Cloud Integration calls, provider CPU %s, peak RSS %d KiB",
				section, r, runs, c.name, seconds(s.wall), s.mgmtCalls, s.sempCalls, s.ciCalls, seconds(s.providerCPU), s.rssKB)
		}
	}
	return baselines, audits, nil
}

// seedAudit creates the dead message queue and queues - 1 queues naming it, and puts and
// deploys the flows, through the APIs of the service keys in keys; it checks that the runtime
// list shows every flow STARTED.
func seedAudit(em *emulatorProc, keys string, queues, flows int) error {
	mgmt, err := managementClient(filepath.Join(keys, "event-mesh.json"))
	if err != nil {
		return err
	}
	ci, err := cloudIntegrationClient(filepath.Join(keys, "cloud-integration.json"))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	respect, ttl := true, int64(auditDMQTTL)
	if _, _, err := mgmt.PutQueue(ctx, auditDMQ, eventmesh.QueueSettings{RespectTTL: &respect, MaxTTL: &ttl}); err != nil {
		return fmt.Errorf("creating the dead message queue %s: %w", auditDMQ, err)
	}
	err = parallel(queues-1, 16, func(i int) error {
		dmq, redeliveries := auditDMQ, int64(5)
		if auditUnlimited(i) {
			redeliveries = 0
		}
		if _, _, err := mgmt.PutQueue(ctx, auditQueue(i), eventmesh.QueueSettings{MaxRedeliveryCount: &redeliveries, DeadMsgQueue: &dmq}); err != nil {
			return fmt.Errorf("creating queue %s: %w", auditQueue(i), err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return putAndDeploy(ctx, ci, em.putIFlow, flows, auditFlowID, func(i int) []byte { return auditFlowZip(i, queues) })
}

// putAndDeploy puts flows 0 to flows - 1 (the id and content of each) with put and deploys them, 16 at
// once, then checks that the runtime list shows every flow STARTED.
func putAndDeploy(ctx context.Context, ci *cpi.Client, put func(id string, content []byte) error, flows int, id func(int) string, content func(int) []byte) error {
	err := parallel(flows, 16, func(i int) error {
		if err := put(id(i), content(i)); err != nil {
			return err
		}
		if _, err := ci.DeployAndWait(ctx, id(i), cpi.ActiveVersion, 20*time.Millisecond); err != nil {
			return fmt.Errorf("deploying integration flow %s: %w", id(i), err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	rts, err := ci.ListRuntimeArtifacts(ctx)
	if err != nil {
		return fmt.Errorf("listing the deployed flows: %w", err)
	}
	started := 0
	for _, rt := range rts {
		if rt.Status == cpi.RuntimeStarted {
			started++
		}
	}
	if started != flows {
		return fmt.Errorf("the runtime list shows %d of %d flows STARTED after their deploys; run the emulator with -v to see the deploys", started, flows)
	}
	return nil
}

// parallel calls f for 0 to n - 1, at most workers at once, and returns the first error.
func parallel(n, workers int, f func(i int) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if err := f(i); err != nil {
					mu.Lock()
					first = cmp(first, err)
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

// auditTimes are the section's derived times: the audit's wall time less the baseline's, its
// floor and their ratio.
type auditTimes struct {
	extra, floor time.Duration
	ratio        float64 // extra / floor, 0 without a floor
}

// timesOf derives the times of an audit whose plan took wall against the baseline's and the floor.
func timesOf(baseline, wall, floor time.Duration) auditTimes {
	t := auditTimes{extra: wall - baseline, floor: floor}
	if t.floor > 0 {
		t.ratio = float64(t.extra) / float64(t.floor)
	}
	return t
}

// table is the times as a markdown table, with the audit's raw wall time against the floor.
func (t auditTimes) table(wall time.Duration) string {
	return fmt.Sprintf("\n| Audit wall − baseline wall | Floor | Ratio | Raw audit wall / floor |\n|---:|---:|---:|---:|\n| %s | %s | %.2f× | %.2f× |\n",
		seconds(t.extra), seconds(t.floor), t.ratio, float64(wall)/float64(max(t.floor, 1)))
}

// withinFloor is the target line of the wall time less the baseline's within 1.5× of the floor.
func (t auditTimes) withinFloor() string {
	return fmt.Sprintf("- wall time less the baseline's within 1.5× of the floor (%s): %s = %.2f×, %s\n",
		seconds(t.floor), seconds(t.extra), t.ratio, mark(t.floor > 0 && t.ratio <= 1.5))
}

// mark says whether a target is met.
func mark(ok bool) string {
	if ok {
		return "met"
	}
	return "**missed**"
}

// renderAudit formats the audit section: the baseline's and the audit's calls, times and
// memory, and the targets. cells are the baseline's cell and the audit's, in that order.
func renderAudit(o options, tfVersion string, cells []auditCell, rss bool) string {
	ao := o.audit
	var sb strings.Builder
	fmt.Fprintf(&sb, "Retry audit: %s, `terraform plan` of `data \"sapmessaging_retry_audit\"` over %d Event Mesh queues (%d naming one dead message queue, "+
		"%d of them with unlimited redelivery) and %d deployed flows with one AMQP sender channel each, one emulator with %s latency per request; "+
		"the baseline is a plan of the same provider that reads `data \"sapmessaging_retry_policy\"`, which calls no API. Median of %d interleaved runs; "+
		"calls are the most of any run. Floor = ceil(%d / %d) × %s (content downloads, %d at once) + one %s per list (queues, runtime), "+
		"without the token requests (one per API) and the webhook list; the Event Mesh lists run beside the Cloud Integration reads, "+
		"whose chain (token, runtime list, downloads) is as long as the floor.\n\n",
		tfVersion, ao.queues, ao.queues-1, countUnlimited(ao.queues-1), ao.flows, ao.latency, ao.runs,
		ao.flows, audit.DefaultConcurrency, ao.latency, audit.DefaultConcurrency, ao.latency)
	t, both := auditTable(&sb, "| Command | Mgmt API calls | CI calls: runtime list / downloads / other | Messaging REST calls | Token requests | Wall time | Provider CPU | Provider peak RSS |\n"+
		"|---|---:|---:|---:|---:|---:|---:|---:|\n", cells, rss, func(c auditCell) auditCell { return c }, func(c auditCell, cpu, mem string) string {
		return fmt.Sprintf("| %s | %d | %d / %d / %d | %d | %d | %s | %s | %s |\n",
			c.op, c.mgmtCalls, c.runtimeLists, c.downloads, c.otherCI, c.messaging, c.tokens, seconds(c.wall), cpu, mem)
	}, auditFloor(ao.flows, audit.DefaultConcurrency, ao.latency))
	if both {
		sb.WriteString("\n" + auditTargets(ao, cells[1], t))
	}
	return sb.String()
}

// auditTable writes the table of an audit section: its columns (the header and alignment lines) and
// a row of each cell (base is its auditCell; cpu and mem are its provider CPU time and peak RSS as
// the tables write them). With two cells, the baseline's and the audit's, the audit's times against
// floor follow; it returns them, and whether they are there.
func auditTable[C any](sb *strings.Builder, columns string, cells []C, rss bool, base func(C) auditCell, row func(c C, cpu, mem string) string, floor time.Duration) (auditTimes, bool) {
	sb.WriteString(columns)
	for _, c := range cells {
		cpu, mem := base(c).cpuMem(rss)
		sb.WriteString(row(c, cpu, mem))
	}
	if len(cells) != 2 {
		return auditTimes{}, false
	}
	a := base(cells[1])
	t := timesOf(base(cells[0]).wall, a.wall, floor)
	sb.WriteString(t.table(a.wall))
	return t, true
}

// countUnlimited is how many of the queues 0 to n - 1 leave their redelivery count unlimited.
func countUnlimited(n int) int {
	k := 0
	for i := range n {
		if auditUnlimited(i) {
			k++
		}
	}
	return k
}

// auditTargets checks the audit against its targets: one management call, the runtime list and
// at most one content download per flow, and the wall time less the baseline's within 1.5× of
// the floor.
func auditTargets(ao auditOptions, a auditCell, t auditTimes) string {
	var sb strings.Builder
	sb.WriteString("Targets of the audit:\n\n")
	fmt.Fprintf(&sb, "- 1 management API call: %d, %s\n", a.mgmtCalls, mark(a.mgmtCalls <= 1))
	fmt.Fprintf(&sb, "- Cloud Integration: one runtime list and at most one content download per flow (%d): %d list(s), %d downloads, %d other calls, %s\n",
		ao.flows, a.runtimeLists, a.downloads, a.otherCI, mark(a.runtimeLists == 1 && a.downloads <= int64(ao.flows) && a.otherCI == 0))
	sb.WriteString(t.withinFloor())
	return sb.String()
}
