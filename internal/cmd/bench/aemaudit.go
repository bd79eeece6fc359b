package main

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// The AEM audit section: the sapmessaging_retry_audit data source read by `terraform plan` over one
// Advanced Event Mesh broker (1,000 queues by default) and one Cloud Integration tenant with deployed
// flows that read them through AdvancedEventMesh sender channels (100 by default), one emulator with a
// latency per request. It counts the calls (one connection check and one paged queue list of SEMP, one
// runtime list and one download per flow) and sets the audit's time, less a baseline plan's, beside the
// floor of its longer chain of calls.

// aemAuditOptions are the settings of the AEM audit section.
type aemAuditOptions struct {
	enabled bool
	queues  int // AEM queues, the dead message queue they name not included
	flows   int // deployed flows, one AdvancedEventMesh sender channel each
	latency time.Duration
	runs    int
}

// routeListAEMQueues is the emulator's route of the SEMP queue list (and of the connection check, a list
// of one queue name).
const routeListAEMQueues = "GET /SEMP/v2/config/msgVpns/{vpn}/queues"

// aemAuditDMQ is the dead message queue every queue of the section names.
const aemAuditDMQ = "bench.audit.dmq"

// addAEMAuditFlags registers the flags of the AEM audit section, each checked as it is parsed.
func addAEMAuditFlags(fs *flag.FlagSet, o *aemAuditOptions) {
	o.queues, o.flows, o.latency, o.runs = 1000, 100, 100*time.Millisecond, 3
	fs.BoolVar(&o.enabled, "aem-audit", true, "run the AEM audit section (the sapmessaging_retry_audit data source read by terraform plan over AEM queues and "+
		"the deployed flows that read them; -aem-audit alone runs it alone, as naming any section true runs only the sections so named)")
	fs.Func("aem-audit-queues", "AEM audit section: AEM queues, the dead message queue they name not included, 1 to 5000 (default 1000)", intIn(&o.queues, 1, 5000))
	fs.Func("aem-audit-flows", "AEM audit section: deployed flows, one AdvancedEventMesh sender channel each reading one of the queues, 1 to 999 (default 100)", intIn(&o.flows, 1, 999))
	fs.Func("aem-audit-latency", "AEM audit section: latency the emulator adds to every request (default 100ms, as the Event Mesh audit section)", durationIn(&o.latency))
	fs.Func("aem-audit-runs", "AEM audit section: interleaved runs of the baseline and the audit; the table shows medians (default 3)", intIn(&o.runs, 1, 100))
}

// aemAuditQueue is the name of queue i of the section; aemAuditFlowID the ID of flow i, which reads
// queue i % queues.
func aemAuditQueue(i int) string  { return fmt.Sprintf("bench.audit.q%04d", i) }
func aemAuditFlowID(i int) string { return fmt.Sprintf("AEMAuditFlow%03d", i) }

// aemAuditUnboundedPaths is how many flows read a queue with unlimited redelivery: with the FAILED
// outcome of the tenant-written channel, the paths the audit must report unbounded.
func aemAuditUnboundedPaths(queues, flows int) int {
	n := 0
	for i := range flows {
		if auditUnlimited(i % queues) {
			n++
		}
	}
	return n
}

// aemAuditFlowZip is flow i: one AdvancedEventMesh sender channel with the tenant-written settings (5
// attempts, FAILED) reading its queue, and an exception subprocess with an Error End.
func aemAuditFlowZip(i, queues int) []byte {
	return iflowbuild.Build(iflowbuild.Options{Name: aemAuditFlowID(i), ExceptionEnds: [][]string{{"error"}},
		Senders: []iflowbuild.Sender{{Name: "AEM_In", Adapter: "AEM", Properties: iflowbuild.DefaultAEMSenderProperties(aemAuditQueue(i % queues))}}})
}

// aemAuditHCL reads the audit and outputs its summary; the output's precondition fails the plan unless
// the audit saw the landscape the section set up. The connections come from the environment.
func aemAuditHCL(queues, flows int) string {
	unbounded := aemAuditUnboundedPaths(queues, flows)
	return auditCheckHCL(fmt.Sprintf("local.summary.aem_queues == %d && local.summary.flows == %d && local.summary.aem_paths == %d &&\n"+
		"    local.summary.flows_not_analysable == 0 && local.summary.unbounded_paths == %d && local.summary.advanced_event_mesh", queues+1, flows, flows, unbounded),
		fmt.Sprintf("%d AEM queues, %d flows with one AEM path each, %d of them unbounded", queues+1, flows, unbounded))
}

// aemAuditPages is how many pages of 100 the queue list of queues queues (the dead message queue
// included) takes.
func aemAuditPages(queues int) int { return (queues + 1 + aem.PageSize - 1) / aem.PageSize }

// aemAuditFloor is the audit's time with nothing but the latency: the longer of its two chains, which
// run side by side: the Cloud Integration chain (the runtime list, then ceil(flows / concurrency) waves of
// content downloads) and the AEM chain (the pages of the queue list, one after the other). The connection
// check and the token request before them are left out, as in the Event Mesh audit section.
func aemAuditFloor(queues, flows, concurrency int, latency time.Duration) time.Duration {
	ci := 1 + (flows+concurrency-1)/concurrency
	return time.Duration(max(ci, aemAuditPages(queues))) * latency
}

// aemAuditCell is the audit's cell with the SEMP calls: the most of any run, and of them the queue list's
// route (the connection check included).
type aemAuditCell struct {
	auditCell
	semp, listCalls int64
}

func aemAuditCellOf(op string, ss []sample) aemAuditCell {
	c := aemAuditCell{auditCell: auditCellOf(op, ss)}
	for _, s := range ss {
		c.semp = max(c.semp, s.sempCalls)
		c.listCalls = max(c.listCalls, s.routes[routeListAEMQueues])
	}
	return c
}

// measureAEMAudit sets up one emulator with the AEM queues and the deployed flows, then runs the
// baseline's plan and the audit's plan, interleaved, and returns the baseline's cell and the audit's.
func (b *bench) measureAEMAudit() ([]aemAuditCell, error) {
	ao := b.o.aemAudit
	b.logf("AEM audit: %d AEM queues and %d deployed flows at %s latency", ao.queues, ao.flows, ao.latency)
	baselines, audits, err := b.measurePlans("AEM audit", ao.latency, ao.runs, aemAuditHCL(ao.queues, ao.flows), func(em *emulatorProc, keys string) ([]string, error) {
		creds, err := readAEMCredentials(keys)
		if err != nil {
			return nil, err
		}
		broker, err := aemClientOf(creds)
		if err != nil {
			return nil, err
		}
		ci, err := cloudIntegrationClient(filepath.Join(keys, "cloud-integration.json"))
		if err != nil {
			return nil, err
		}
		env := append(creds.sapmessagingEnv(), "SAPMESSAGING_CLOUD_INTEGRATION_SERVICE_KEY="+filepath.Join(keys, "cloud-integration.json"))
		return env, seedAEMAudit(broker, ci, em.putIFlow, ao.queues, ao.flows)
	})
	if err != nil {
		return nil, err
	}
	return []aemAuditCell{aemAuditCellOf(auditOpBaseline, baselines), aemAuditCellOf(auditOpAudit, audits)}, nil
}

// aemClientOf is a SEMP client of the broker the emulator wrote the credentials of.
func aemClientOf(c aemCredentials) (*aem.Client, error) {
	h, err := httpx.New(aem.HTTPConfig(c.SEMPURL, c.Username, c.Password))
	if err != nil {
		return nil, err
	}
	return aem.New(h, c.MsgVpnName)
}

// seedAEMAudit creates the dead message queue and queues queues naming it (every 25th with unlimited
// redelivery), puts each flow with put and deploys it, and checks that the runtime list shows every
// flow STARTED.
func seedAEMAudit(broker *aem.Client, ci *cpi.Client, put func(id string, content []byte) error, queues, flows int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	on := aem.Ptr(true)
	dmq := aem.Queue{Name: aemAuditDMQ}
	dmq.IngressEnabled, dmq.EgressEnabled, dmq.RespectTTLEnabled, dmq.MaxTTL = on, on, on, aem.Ptr[int64](aemDMQTTL)
	if _, err := broker.CreateQueue(ctx, dmq); err != nil {
		return fmt.Errorf("creating the dead message queue %s: %w", aemAuditDMQ, err)
	}
	err := parallel(queues, 16, func(i int) error {
		q := aem.Queue{Name: aemAuditQueue(i)}
		q.IngressEnabled, q.EgressEnabled, q.RedeliveryDelayEnabled = on, on, on
		q.DeadMsgQueue, q.MaxRedeliveryCount = aem.Ptr(aemAuditDMQ), aem.Ptr[int64](3)
		if auditUnlimited(i) {
			q.MaxRedeliveryCount = aem.Ptr[int64](0)
		}
		if _, err := broker.CreateQueue(ctx, q); err != nil {
			return fmt.Errorf("creating AEM queue %s: %w", q.Name, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return putAndDeploy(ctx, ci, put, flows, aemAuditFlowID, func(i int) []byte { return aemAuditFlowZip(i, queues) })
}

// renderAEMAudit formats the AEM audit section: the baseline's and the audit's calls, times and memory,
// and the targets. cells are the baseline's cell and the audit's, in that order.
func renderAEMAudit(o options, tfVersion string, cells []aemAuditCell, rss bool) string {
	ao := o.aemAudit
	pages := aemAuditPages(ao.queues)
	var sb strings.Builder
	fmt.Fprintf(&sb, "AEM retry audit: %s, `terraform plan` of `data \"sapmessaging_retry_audit\"` over %d Advanced Event Mesh queues (%d naming one dead "+
		"message queue, %d of them with unlimited redelivery) and %d deployed flows with one AdvancedEventMesh sender channel each (%d unbounded paths), "+
		"one emulator with %s latency per request, the `advanced_event_mesh` and `cloud_integration` connections (no Event Mesh); the baseline is a plan of the "+
		"same provider that reads `data \"sapmessaging_retry_policy\"`, which calls no API. Median of %d interleaved runs; calls are the most of any run. "+
		"Floor = the longer of the Cloud Integration chain, (1 + ceil(%d / %d)) × %s (the runtime list, then the content downloads, %d at once), and the "+
		"AEM chain, %d × %s (the pages of the queue list); the token request and the SEMP connection check before them are left out.\n\n",
		tfVersion, ao.queues+1, ao.queues, countUnlimited(ao.queues), ao.flows, aemAuditUnboundedPaths(ao.queues, ao.flows), ao.latency, ao.runs,
		ao.flows, audit.DefaultConcurrency, ao.latency, audit.DefaultConcurrency, pages, ao.latency)
	t, both := auditTable(&sb, "| Command | SEMP calls (queue list route) | CI calls: runtime list / downloads / other | Token requests | Wall time | Provider CPU | Provider peak RSS |\n"+
		"|---|---:|---:|---:|---:|---:|---:|\n", cells, rss, func(c aemAuditCell) auditCell { return c.auditCell }, func(c aemAuditCell, cpu, mem string) string {
		return fmt.Sprintf("| %s | %d (%d) | %d / %d / %d | %d | %s | %s | %s |\n",
			c.op, c.semp, c.listCalls, c.runtimeLists, c.downloads, c.otherCI, c.tokens, seconds(c.wall), cpu, mem)
	}, aemAuditFloor(ao.queues, ao.flows, audit.DefaultConcurrency, ao.latency))
	if !both {
		return sb.String()
	}
	a := cells[1]
	sb.WriteString("\nTargets of the AEM audit:\n\n")
	fmt.Fprintf(&sb, "- SEMP: one connection check and one paged queue list (%d pages of %d): %d calls, %s\n",
		pages, aem.PageSize, a.semp, mark(a.semp <= int64(1+pages) && a.listCalls == a.semp))
	fmt.Fprintf(&sb, "- Cloud Integration: one runtime list and one content download per flow (%d): %d list(s), %d downloads, %d other calls, %s\n",
		ao.flows, a.runtimeLists, a.downloads, a.otherCI, mark(a.runtimeLists == 1 && a.downloads <= int64(ao.flows) && a.otherCI == 0))
	fmt.Fprintf(&sb, "- no Event Mesh call: %d, %s\n", a.mgmtCalls+a.messaging, mark(a.mgmtCalls+a.messaging == 0))
	sb.WriteString(t.withinFloor())
	return sb.String()
}
