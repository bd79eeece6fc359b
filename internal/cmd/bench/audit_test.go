package main

import (
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// The floor is one latency per wave of 8 downloads plus one per list.
func TestAuditFloor(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flows, concurrency int
		latency, want      time.Duration
	}{
		{50, 8, 100 * time.Millisecond, 900 * time.Millisecond},
		{48, 8, 100 * time.Millisecond, 800 * time.Millisecond},
		{1, 8, 20 * time.Millisecond, 60 * time.Millisecond},
		{9, 8, 100 * time.Millisecond, 400 * time.Millisecond},
		{50, 8, 0, 0},
	} {
		if got := auditFloor(tc.flows, tc.concurrency, tc.latency); got != tc.want {
			t.Errorf("auditFloor(%d, %d, %s) = %s, want %s", tc.flows, tc.concurrency, tc.latency, got, tc.want)
		}
	}
}

// -audit alone runs the audit alone; its flags are checked as they are parsed.
func TestAuditFlags(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-terraform", "tf"}, io.Discard)
	if err != nil || !o.audit.enabled || o.audit.queues != 250 || o.audit.flows != 50 || o.audit.latency != 100*time.Millisecond || o.audit.runs != 3 {
		t.Fatalf("audit defaults: %+v %v", o.audit, err)
	}
	o, err = parseFlags([]string{"-terraform", "tf", "-audit", "-audit-queues", "20", "-audit-flows", "30", "-audit-latency", "20ms", "-audit-runs", "5"}, io.Discard)
	if err != nil || !o.audit.enabled || o.eventMesh || o.landscape.enabled || o.ci.enabled || o.redrive.enabled {
		t.Fatalf("-audit: %+v %v", o, err)
	}
	if o.audit.queues != 20 || o.audit.flows != 30 || o.audit.latency != 20*time.Millisecond || o.audit.runs != 5 {
		t.Fatalf("audit flags: %+v", o.audit)
	}
	if o, err := parseFlags([]string{"-terraform", "tf", "-ci"}, io.Discard); err != nil || o.audit.enabled {
		t.Fatalf("-ci runs the audit too: %+v %v", o.audit, err)
	}
	for _, args := range [][]string{
		{"-audit-queues", "1"}, {"-audit-queues", "251"}, {"-audit-flows", "0"}, {"-audit-flows", "x"},
		{"-audit-latency", "-1s"}, {"-audit-latency", "soon"}, {"-audit-runs", "0"},
	} {
		if _, err := parseFlags(append([]string{"-terraform", "tf"}, args...), io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// The audit's configuration checks what the audit saw; the baseline's calls no API.
func TestAuditHCL(t *testing.T) {
	t.Parallel()
	hcl := auditHCL(250, 50)
	cmdtest.Contains(t, "the audit configuration", hcl,
		`data "sapmessaging_retry_audit" "a" {}`,
		`local.summary.queues == 250 && local.summary.flows == 50 && local.summary.paths == 50`,
		`local.summary.flows_not_analysable == 0 && local.summary.unbounded_paths == 2)`,
		`(250 queues, 50 flows with one path each, 2 of them unbounded)`,
		`provider "sapmessaging" {}`,
	)
	base := auditBaselineHCL()
	if strings.Contains(base, "retry_audit") || !strings.Contains(base, `data "sapmessaging_retry_policy" "p"`) || !strings.Contains(base, "total_attempts = 7") {
		t.Errorf("the baseline configuration:\n%s", base)
	}
	// Flows read the queues in turn, never the dead message queue; every 25th queue is unlimited.
	if got := auditUnboundedPaths(3, 5); got != 3 { // queues 0, 1, 0, 1, 0
		t.Errorf("auditUnboundedPaths(3, 5) = %d, want 3", got)
	}
	if got := auditUnboundedPaths(250, 249); got != 10 {
		t.Errorf("auditUnboundedPaths(250, 249) = %d, want 10", got)
	}
	if got := countUnlimited(249); got != 10 {
		t.Errorf("countUnlimited(249) = %d, want 10", got)
	}
}

// Each flow has one AMQP sender channel reading its queue with one retry.
func TestAuditFlowZip(t *testing.T) {
	t.Parallel()
	art, err := iflow.ReadZip(auditFlowZip(7, 250))
	if err != nil {
		t.Fatal(err)
	}
	senders := art.AMQPSenders()
	if len(senders) != 1 {
		t.Fatalf("%d senders, want 1", len(senders))
	}
	p := senders[0].Properties
	if p[iflow.KeyDestinationName] != "queue:acme/crm/prod/audit/q0007" || p[iflow.KeyMaxRetries] != "1" || auditFlowID(7) != "AuditFlow007" {
		t.Errorf("sender properties %v", p)
	}
}

// The cell splits the Cloud Integration calls by route and adds up the messaging REST routes.
func TestAuditCellOf(t *testing.T) {
	t.Parallel()
	s := func(wall time.Duration, routes map[string]int64, ci int64) sample {
		return sample{wall: wall, providerCPU: wall / 4, mgmtCalls: routes[routeListQueues], ciCalls: ci, tokenCalls: 3, rssKB: int64(wall / time.Millisecond), routes: routes}
	}
	routes := map[string]int64{routeListQueues: 1, routeListRuntime: 1, routeDownload: 50, routeListHooks: 1, "POST /messagingrest/v1/queues/{queue}/messages": 2, "POST /oauth/token": 3}
	c := auditCellOf(auditOpAudit, []sample{s(1800*time.Millisecond, routes, 52), s(1600*time.Millisecond, routes, 51), s(2000*time.Millisecond, routes, 51)})
	if c.wall != 1800*time.Millisecond || c.providerCPU != 450*time.Millisecond || c.mgmtCalls != 1 || c.runtimeLists != 1 || c.downloads != 50 ||
		c.otherCI != 1 || c.messaging != 3 || c.tokens != 3 || c.rssKB != 2000 || c.runs != 3 {
		t.Errorf("cell = %+v", c)
	}
}

// The report shows the calls and times, and marks each target.
func TestRenderAudit(t *testing.T) {
	t.Parallel()
	o := options{audit: auditOptions{queues: 250, flows: 50, latency: 100 * time.Millisecond, runs: 3}}
	cells := []auditCell{
		{op: auditOpBaseline, wall: 800 * time.Millisecond, providerCPU: 200 * time.Millisecond, rssKB: 25 * 1024},
		{op: auditOpAudit, wall: 1900 * time.Millisecond, providerCPU: 500 * time.Millisecond, rssKB: 35 * 1024,
			mgmtCalls: 1, runtimeLists: 1, downloads: 50, messaging: 1, tokens: 3},
	}
	md := renderAudit(o, "Terraform 1.11.4", cells, true)
	cmdtest.Contains(t, "the markdown", md,
		"| plan (baseline) | 0 | 0 / 0 / 0 | 0 | 0 | 0.80 s | 0.20 s | 25 MiB |",
		"| plan (retry audit) | 1 | 1 / 50 / 0 | 1 | 3 | 1.90 s | 0.50 s | 35 MiB |",
		"| 1.10 s | 0.90 s | 1.22× | 2.11× |",
		"- 1 management API call: 1, met",
		"(50): 1 list(s), 50 downloads, 0 other calls, met",
		"within 1.5× of the floor (0.90 s): 1.10 s = 1.22×, met",
		"ceil(50 / 8) × 100ms",
	)
	cells[1].wall = 2300 * time.Millisecond
	cells[1].mgmtCalls = 2
	cells[1].downloads = 51
	md = renderAudit(o, "Terraform", cells, false)
	cmdtest.Contains(t, "the report of a missed target or a missing measurement", md,
		"- 1 management API call: 2, **missed**",
		"51 downloads, 0 other calls, **missed**",
		"1.50 s = 1.67×, **missed**",
		"| n/a | n/a |",
	)
}

// parallel calls f once per index and returns an error f returned.
func TestParallel(t *testing.T) {
	t.Parallel()
	var calls [100]atomic.Int32
	if err := parallel(100, 7, func(i int) error { calls[i].Add(1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if n := calls[i].Load(); n != 1 {
			t.Errorf("index %d called %d times", i, n)
		}
	}
	boom := errors.New("boom")
	if err := parallel(10, 3, func(i int) error {
		if i == 4 {
			return boom
		}
		return nil
	}); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if err := parallel(0, 3, func(int) error { return boom }); err != nil {
		t.Errorf("no work returned %v", err)
	}
}
