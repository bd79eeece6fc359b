package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// The query section (Terraform 1.14): a landscape made by hand is adopted with `terraform query
// -generate-config-out`, then `terraform plan` and `terraform apply` of the generated
// configuration (imports only), then a plan without changes, the refresh the listing is compared
// with. Two landscapes: instances × queues Event Mesh queues, one emulator and one aliased
// provider configuration per instance, each instance's first queue the dead message queue of the
// others; and flows × channels AMQP sender channels of deployed flows on one Cloud Integration
// tenant.

// The commands of the query section.
const (
	opQuery      = "query -generate-config-out"
	opImportPlan = "plan (generated configuration)"
	opImport     = "apply (imports)"
)

// queryOptions are the settings of the query section.
type queryOptions struct {
	enabled   bool
	terraform string
	instances int
	queues    int // per instance, the dead message queue included
	latency   time.Duration
	flows     int
	channels  int
	runs      int
}

func addQueryFlags(fs *flag.FlagSet, o *queryOptions) {
	o.instances, o.queues, o.latency, o.flows, o.channels, o.runs = 8, 250, 20*time.Millisecond, 100, 2, 1
	fs.BoolVar(&o.enabled, "query", true, "run the query section (terraform query -generate-config-out of queues and AMQP sender channels made by hand, "+
		"then plan and apply of the generated configuration; needs the Terraform 1.14 CLI of -query-terraform)")
	fs.StringVar(&o.terraform, "query-terraform", terraform114(), "Terraform 1.14 CLI `path` of the query section (default $TERRAFORM114, else the build of make terraform114)")
	fs.Func("query-instances", "query section: Event Mesh instances, one emulator and one aliased provider configuration each, 1 to 50 (default 8)", intIn(&o.instances, 1, 50))
	fs.Func("query-queues", "query section: queues per instance, the first the dead message queue of the others, 2 to 250, SAP's limit (default 250)", intIn(&o.queues, 2, 250))
	fs.Func("query-latency", "query section: latency each emulator adds to every request (default 20ms)", durationIn(&o.latency))
	fs.Func("query-flows", "query section: deployed integration flows, 1 to 999 (default 100)", intIn(&o.flows, 1, 999))
	fs.Func("query-channels", "query section: AMQP sender channels per flow, 1 to 26 (default 2)", intIn(&o.channels, 1, 26))
	fs.Func("query-runs", "query section: runs; the table shows medians (default 1: each run imports 2,000 queues)", intIn(&o.runs, 1, 100))
}

// queryQueue is the name of queue q of an instance; queue 0 is the dead message queue of the others.
func queryQueue(q int) string {
	if q == 0 {
		return "acme/crm/prod/adopt/dmq"
	}
	return fmt.Sprintf("acme/crm/prod/adopt/q%04d", q)
}

// queryQueueSettings are the settings of queue q as made by hand: the dead message queue keeps its
// messages 7 days, the others are redelivered 5 times and then moved to it.
func queryQueueSettings(q int) eventmesh.QueueSettings {
	if q == 0 {
		respect, ttl := true, int64(604800)
		return eventmesh.QueueSettings{RespectTTL: &respect, MaxTTL: &ttl}
	}
	redeliveries, dmq := int64(5), queryQueue(0)
	return eventmesh.QueueSettings{MaxRedeliveryCount: &redeliveries, DeadMsgQueue: &dmq}
}

// queryQueuesHCL is the configuration of the queue landscape, one aliased provider
// configuration per service key, and its query file: the dead message queues and the other
// queues of each instance.
func queryQueuesHCL(keys []string, perInstance int) (mainTF, query string) {
	var m, q strings.Builder
	m.WriteString(requiredProvidersHCL)
	limit := perInstance + 10
	for i, key := range keys {
		fmt.Fprintf(&m, "\nprovider \"sapmessaging\" {\n  alias      = \"i%d\"\n  event_mesh = { service_key = file(%q) }\n}\n", i, key)
		for _, typ := range []string{"sapmessaging_dead_message_queue", "sapmessaging_queue"} {
			fmt.Fprintf(&q, "list %q \"i%d\" {\n  provider = sapmessaging.i%d\n  limit    = %d\n}\n\n", typ, i, i, limit)
		}
	}
	return m.String(), q.String()
}

// queryFlowsHCL is the configuration of the Cloud Integration landscape and its query file: every
// AMQP sender channel of the tenant.
func queryFlowsHCL(key string, channels int) (mainTF, query string) {
	return requiredProvidersHCL + fmt.Sprintf("\nprovider \"sapmessaging\" {\n  cloud_integration = { service_key = file(%q) }\n}\n", key),
		fmt.Sprintf("list \"sapmessaging_amqp_sender\" \"all\" {\n  provider = sapmessaging\n  limit    = %d\n}\n", channels+10)
}

// planSummary finds Terraform's plan and apply summaries.
var (
	planSummary  = regexp.MustCompile(`Plan: (\d+) to import, (\d+) to add, (\d+) to change, (\d+) to destroy\.`)
	applySummary = regexp.MustCompile(`Apply complete! Resources: (\d+) imported, (\d+) added, (\d+) changed, (\d+) destroyed\.`)
)

// importsOnly checks that a plan (or an apply, with apply set) of the generated configuration
// imports n resources and changes nothing else.
func importsOnly(n int, apply bool) func(string) error {
	re, what := planSummary, "plan"
	if apply {
		re, what = applySummary, "apply"
	}
	return func(out string) error {
		m := re.FindStringSubmatch(out)
		if m == nil {
			return fmt.Errorf("the %s of the generated configuration printed no summary:\n%s", what, tail(out, 4000))
		}
		if m[1] != strconv.Itoa(n) || m[2] != "0" || m[3] != "0" || m[4] != "0" {
			return fmt.Errorf("the %s of the generated configuration is %q, want %d imports and nothing else:\n%s", what, m[0], n, tail(out, 4000))
		}
		return nil
	}
}

// generatedResource finds the resource blocks of a generated configuration.
var generatedResource = regexp.MustCompile(`(?m)^resource "sapmessaging_`)

// generatedBlocks checks that the generated configuration in dir holds n resource blocks.
func generatedBlocks(dir string, n int) func(string) error {
	return func(string) error {
		b, err := os.ReadFile(filepath.Join(dir, "generated.tf"))
		if err != nil {
			return err
		}
		if got := len(generatedResource.FindAll(b, -1)); got != n {
			return fmt.Errorf("generated.tf has %d resource blocks, want %d", got, n)
		}
		return nil
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// querySteps are the section's commands with the Terraform 1.14 CLI for a configuration in dir
// whose query lists n resources.
func querySteps(cli, dir string, n, parallelism int) []step {
	par := fmt.Sprintf("-parallelism=%d", parallelism)
	return []step{
		{op: opQuery, cli: cli, args: []string{"query", "-generate-config-out=generated.tf", "-no-color"}, check: generatedBlocks(dir, n)},
		{op: opImportPlan, cli: cli, args: []string{"plan", "-input=false", "-no-color", par}, check: importsOnly(n, false)},
		{op: opImport, cli: cli, args: []string{"apply", "-auto-approve", "-input=false", "-no-color", par}, check: importsOnly(n, true)},
		// opPlan: runSteps fails on a plan with changes (-detailed-exitcode 2).
		{op: opPlan, cli: cli, args: []string{"plan", "-detailed-exitcode", "-input=false", "-no-color", par}},
	}
}

// queryResult is the section's outcome: per landscape, one sample per command and run.
type queryResult struct {
	tfVersion string
	queues    map[string][]sample
	flows     map[string][]sample
}

// measureQuery runs the section o.query.runs times.
func (b *bench) measureQuery() (queryResult, error) {
	qo := b.o.query
	res := queryResult{tfVersion: b.cliVersion(qo.terraform), queues: map[string][]sample{}, flows: map[string][]sample{}}
	for r := 1; r <= qo.runs; r++ {
		base := filepath.Join(b.work, fmt.Sprintf("query-%d", r))
		b.logf("query run %d/%d: %d Event Mesh instances × %d queues made by hand", r, qo.runs, qo.instances, qo.queues)
		ss, err := b.queryQueues(filepath.Join(base, "queues"))
		if err != nil {
			return res, fmt.Errorf("the query of the queues: %w", err)
		}
		for op, s := range ss {
			res.queues[op] = append(res.queues[op], s)
			b.logf("query run %d, queues, %s: %d management calls (at most %d per instance), wall %s, provider CPU %s, peak RSS %d KiB",
				r, op, s.mgmtCalls, s.perInstance, seconds(s.wall), seconds(s.providerCPU), s.rssKB)
		}
		b.logf("query run %d/%d: %d deployed flows × %d AMQP sender channels made by hand", r, qo.runs, qo.flows, qo.channels)
		ss, err = b.queryFlows(filepath.Join(base, "flows"))
		if err != nil {
			return res, fmt.Errorf("the query of the AMQP sender channels: %w", err)
		}
		for op, s := range ss {
			res.flows[op] = append(res.flows[op], s)
			b.logf("query run %d, flows, %s: %d Cloud Integration calls, %d downloads, wall %s, provider CPU %s, peak RSS %d KiB; calls per route %v",
				r, op, s.ciCalls, s.routes[routeDownload], seconds(s.wall), seconds(s.providerCPU), s.rssKB, s.routes)
		}
	}
	return res, nil
}

// queryQueues makes the queue landscape on new emulators and adopts it.
func (b *bench) queryQueues(base string) (map[string]sample, error) {
	qo := b.o.query
	var ems emulators
	defer func() {
		for _, em := range ems {
			em.stop()
		}
	}()
	keys := make([]string, qo.instances)
	errs := make([]error, qo.instances)
	for i := range qo.instances {
		dir := filepath.Join(base, "keys", strconv.Itoa(i))
		em, err := b.startEmulator(dir, qo.latency)
		if err != nil {
			return nil, err
		}
		ems = append(ems, em)
		keys[i] = filepath.Join(dir, "event-mesh.json")
	}
	var wg sync.WaitGroup
	for i := range qo.instances {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = makeQueues(keys[i], qo.queues)
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	dir := filepath.Join(base, "tf")
	mainTF, query := queryQueuesHCL(keys, qo.queues)
	if err := writeQueryFile(dir, query); err != nil {
		return nil, err
	}
	return b.runSteps(dir, mainTF, b.cliRC, nil, ems, querySteps(qo.terraform, dir, qo.instances*qo.queues, b.o.parallelism))
}

// queryFlows makes the Cloud Integration landscape on a new emulator and adopts it.
func (b *bench) queryFlows(base string) (map[string]sample, error) {
	qo := b.o.query
	keys := filepath.Join(base, "keys")
	em, err := b.startEmulator(keys, qo.latency, "-deploy-delay", "0s")
	if err != nil {
		return nil, err
	}
	defer em.stop()
	key := filepath.Join(keys, "cloud-integration.json")
	for i := range qo.flows {
		if err := em.putIFlow(ciFlowID(i), ciFlowZip(i, qo.channels)); err != nil {
			return nil, err
		}
	}
	if err := deployFlows(key, qo.flows); err != nil {
		return nil, err
	}
	dir := filepath.Join(base, "tf")
	mainTF, query := queryFlowsHCL(key, qo.flows*qo.channels)
	if err := writeQueryFile(dir, query); err != nil {
		return nil, err
	}
	return b.runSteps(dir, mainTF, b.cliRC, nil, emulators{em}, querySteps(qo.terraform, dir, qo.flows*qo.channels, b.o.parallelism))
}

func writeQueryFile(dir, query string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "landscape.tfquery.hcl"), []byte(query), 0o644)
}

// makeQueues creates the queues of one instance through the management API of the service key
// in keyFile, the dead message queue first, eight at a time.
func makeQueues(keyFile string, queues int) error {
	c, err := managementClient(keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	put := func(q int) error {
		if _, _, err := c.PutQueue(ctx, queryQueue(q), queryQueueSettings(q)); err != nil {
			return fmt.Errorf("creating the queue %s: %w", queryQueue(q), err)
		}
		return nil
	}
	if err := put(0); err != nil {
		return err
	}
	return parallel(queues-1, 8, func(i int) error { return put(i + 1) })
}

// deployFlows deploys flows BenchFlow00 … through the Cloud Integration API of the service key in
// keyFile and waits until each runs, eight at a time.
func deployFlows(keyFile string, flows int) error {
	c, err := cloudIntegrationClient(keyFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	return parallel(flows, 8, func(i int) error {
		if _, err := c.DeployAndWait(ctx, ciFlowID(i), cpi.ActiveVersion, 20*time.Millisecond); err != nil {
			return fmt.Errorf("deploying integration flow %s: %w", ciFlowID(i), err)
		}
		return nil
	})
}

// queryCell is one command of one landscape: medians of the runs, counts the most of any run.
type queryCell struct {
	op                 string
	wall, providerCPU  time.Duration
	mgmt, perInstance  int64
	ci, downloads      int64
	bytes, rssKB, rss2 int64
	procs              int
}

func queryCells(ss map[string][]sample) []queryCell {
	var cells []queryCell
	for _, op := range []string{opQuery, opImportPlan, opImport, opPlan} {
		c := queryCell{op: op, wall: median(ss[op]), providerCPU: medianOf(ss[op], func(s sample) time.Duration { return s.providerCPU })}
		for _, s := range ss[op] {
			c.mgmt, c.perInstance = max(c.mgmt, s.mgmtCalls), max(c.perInstance, s.perInstance)
			c.ci, c.downloads = max(c.ci, s.ciCalls), max(c.downloads, s.routes[routeDownload])
			c.bytes, c.rssKB, c.rss2 = max(c.bytes, s.bytes), max(c.rssKB, s.rssKB), max(c.rss2, s.rssSumKB)
			c.procs = max(c.procs, s.procs)
		}
		cells = append(cells, c)
	}
	return cells
}

// renderQuery formats the query section and checks its targets.
func renderQuery(o options, res queryResult, rss bool) string {
	qo := o.query
	var sb strings.Builder
	fmt.Fprintf(&sb, "Query: %s, parallelism %d, median of %d run(s). *Queues*: %d Event Mesh instances (one emulator each, latency %s) × %d queues made by hand "+
		"(the first the dead message queue of the others), one aliased provider configuration and two list blocks (dead message queues, queues) per instance. "+
		"*AMQP senders*: %d deployed flows × %d AMQP sender channels on one Cloud Integration emulator (latency %s), one list block. "+
		"Each: `terraform query -generate-config-out`, `terraform plan` and `terraform apply` of the generated configuration (imports only), and a plan without "+
		"changes (the refresh). Calls and bytes are the emulators'; provider CPU adds up the provider processes of the command; peak RSS is the largest one "+
		"(processes, their peaks added up).\n\n",
		res.tfVersion, o.parallelism, qo.runs, qo.instances, qo.latency, qo.queues, qo.flows, qo.channels, qo.latency)
	sb.WriteString("| Landscape | Command | Mgmt API calls: all / most per instance | CI API calls | Content downloads | Bytes sent | Wall time | Provider CPU | Peak RSS (processes, sum) |\n")
	sb.WriteString("|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	queues, flows := queryCells(res.queues), queryCells(res.flows)
	row := func(name string, c queryCell) {
		cpu, mem := "n/a", "n/a"
		if rss && c.providerCPU > 0 {
			cpu = seconds(c.providerCPU)
		}
		if rss && c.rssKB > 0 {
			mem = fmt.Sprintf("%s (%d, %s)", mib(c.rssKB), c.procs, mib(c.rss2))
		}
		fmt.Fprintf(&sb, "| %s | %s | %d / %d | %d | %d | %s | %s | %s | %s |\n", name, c.op, c.mgmt, c.perInstance, c.ci, c.downloads, byteSize(c.bytes), seconds(c.wall), cpu, mem)
	}
	for _, c := range queues {
		row(fmt.Sprintf("queues (%d)", qo.instances*qo.queues), c)
	}
	for _, c := range flows {
		row(fmt.Sprintf("AMQP senders (%d)", qo.flows*qo.channels), c)
	}
	sb.WriteString("\n" + queryTargets(qo, queues, flows))
	return sb.String()
}

// queryTargets checks the section against its targets: the query of the queues with 1 management
// call per instance and within 2× the time of a refresh of them; at most one content download per
// flow in every command of the AMQP senders.
func queryTargets(qo queryOptions, queues, flows []queryCell) string {
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**missed**"
	}
	var sb strings.Builder
	sb.WriteString("Query targets:\n\n")
	var query, refresh queryCell
	for _, c := range queues {
		switch c.op {
		case opQuery:
			query = c
		case opPlan:
			refresh = c
		}
	}
	fmt.Fprintf(&sb, "- listing the queues with 1 management API call per instance: at most %d, %s\n", query.perInstance, mark(query.perInstance <= 1))
	if refresh.wall > 0 {
		r := float64(query.wall) / float64(refresh.wall)
		fmt.Fprintf(&sb, "- listing and generating the %d queues within 2× the time of a refresh of them: %s / %s = %.2f×, %s\n",
			qo.instances*qo.queues, seconds(query.wall), seconds(refresh.wall), r, mark(r <= 2))
	}
	for _, c := range flows {
		fmt.Fprintf(&sb, "- AMQP senders, %s: at most %d content downloads (one per flow): %d, %s\n", c.op, qo.flows, c.downloads, mark(c.downloads <= int64(qo.flows)))
	}
	return sb.String()
}
