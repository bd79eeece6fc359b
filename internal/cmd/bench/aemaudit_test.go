package main

import (
	"io"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// -aem-audit alone runs the AEM audit alone; its flags are checked as they are parsed.
func TestAEMAuditFlags(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-terraform", "tf"}, io.Discard)
	if err != nil || !o.aemAudit.enabled || o.aemAudit.queues != 1000 || o.aemAudit.flows != 100 || o.aemAudit.latency != 100*time.Millisecond || o.aemAudit.runs != 3 {
		t.Fatalf("AEM audit defaults: %+v %v", o.aemAudit, err)
	}
	o, err = parseFlags([]string{"-terraform", "tf", "-aem-audit", "-aem-audit-queues", "120", "-aem-audit-flows", "5", "-aem-audit-latency", "5ms", "-aem-audit-runs", "1"}, io.Discard)
	if err != nil || !o.aemAudit.enabled || o.audit.enabled || o.aem.enabled || o.eventMesh || o.ci.enabled {
		t.Fatalf("-aem-audit: %+v %v", o, err)
	}
	if o.aemAudit.queues != 120 || o.aemAudit.flows != 5 || o.aemAudit.latency != 5*time.Millisecond || o.aemAudit.runs != 1 {
		t.Fatalf("AEM audit flags: %+v", o.aemAudit)
	}
	if o, err := parseFlags([]string{"-terraform", "tf", "-audit"}, io.Discard); err != nil || o.aemAudit.enabled {
		t.Fatalf("-audit runs the AEM audit too: %+v %v", o.aemAudit, err)
	}
	for _, args := range [][]string{{"-aem-audit-queues", "0"}, {"-aem-audit-queues", "5001"}, {"-aem-audit-flows", "0"}, {"-aem-audit-latency", "-1s"}, {"-aem-audit-runs", "x"}} {
		if _, err := parseFlags(append([]string{"-terraform", "tf"}, args...), io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// The configuration checks what the audit saw; the floor is the longer chain of calls.
func TestAEMAuditHCLAndFloor(t *testing.T) {
	t.Parallel()
	hcl := aemAuditHCL(1000, 100)
	cmdtest.Contains(t, "the configuration", hcl,
		`data "sapmessaging_retry_audit" "a" {}`,
		`local.summary.aem_queues == 1001 && local.summary.flows == 100 && local.summary.aem_paths == 100`,
		`local.summary.unbounded_paths == 4 && local.summary.advanced_event_mesh`,
		`provider "sapmessaging" {}`,
	)
	if got := aemAuditPages(1000); got != 11 {
		t.Errorf("pages of 1,001 queues = %d, want 11", got)
	}
	if got := aemAuditFloor(1000, 100, 8, 20*time.Millisecond); got != 280*time.Millisecond { // 1 + 13 waves
		t.Errorf("floor = %s, want 280ms", got)
	}
	if got := aemAuditFloor(5000, 8, 8, 10*time.Millisecond); got != 510*time.Millisecond { // 51 pages
		t.Errorf("floor of a long queue list = %s, want 510ms", got)
	}
	art, err := iflow.ReadZip(aemAuditFlowZip(7, 1000))
	if err != nil {
		t.Fatal(err)
	}
	if s := art.AEMSenders(); len(s) != 1 || s[0].Properties[iflow.KeyAEMQueueName] != "bench.audit.q0007" || s[0].Properties[iflow.KeyAEMMaxAttempts] != "5" {
		t.Errorf("flow 7's AEM senders: %+v", s)
	}
}

// The report shows the calls and times, and marks each target met or missed.
func TestRenderAEMAudit(t *testing.T) {
	t.Parallel()
	o := options{aemAudit: aemAuditOptions{queues: 1000, flows: 100, latency: 20 * time.Millisecond, runs: 3}}
	cells := []aemAuditCell{
		{auditCell: auditCell{op: auditOpBaseline, wall: 800 * time.Millisecond, providerCPU: 200 * time.Millisecond, rssKB: 25 * 1024}},
		{auditCell: auditCell{op: auditOpAudit, wall: 1100 * time.Millisecond, providerCPU: 600 * time.Millisecond, rssKB: 60 * 1024,
			runtimeLists: 1, downloads: 100, tokens: 1}, semp: 12, listCalls: 12},
	}
	md := renderAEMAudit(o, "Terraform 1.11.4", cells, true)
	cmdtest.Contains(t, "the markdown", md,
		"| plan (retry audit) | 12 (12) | 1 / 100 / 0 | 1 | 1.10 s | 0.60 s | 60 MiB |",
		"| 0.30 s | 0.28 s | 1.07× | 3.93× |",
		"(11 pages of 100): 12 calls, met",
		"(100): 1 list(s), 100 downloads, 0 other calls, met",
		"- no Event Mesh call: 0, met",
		"within 1.5× of the floor (0.28 s): 0.30 s = 1.07×, met",
	)
	cells[1].wall, cells[1].semp, cells[1].listCalls, cells[1].downloads = 1400*time.Millisecond, 13, 12, 101
	md = renderAEMAudit(o, "Terraform", cells, false)
	cmdtest.Contains(t, "the report of a missed target or a missing measurement", md, "13 calls, **missed**", "101 downloads, 0 other calls, **missed**", "0.60 s = 2.14×, **missed**", "| n/a | n/a |")
}

// The section's small version against an emulator in the test: the seed builds the landscape, and the
// audit reads it with one paged queue list, one runtime list and one download per flow.
func TestAEMAuditSmall(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	creds := srv.AdvancedEventMeshCredentials()
	broker, err := aemClientOf(aemCredentials{SEMPURL: creds.SEMPURL, MsgVpnName: creds.MsgVpnName, Username: creds.Username, Password: creds.Password})
	if err != nil {
		t.Fatal(err)
	}
	ci := cpi.New(srv.CloudIntegrationClient(t))
	put := func(id string, zip []byte) error { return srv.CreateIFlow(id, id, "Bench", zip) }
	const queues, flows = 120, 30
	if err := seedAEMAudit(broker, ci, put, queues, flows); err != nil {
		t.Fatal(err)
	}
	srv.ResetStats()
	in, err := audit.Read(t.Context(), audit.Sources{AEM: broker, Flows: cpi.NewFlows(cpi.New(srv.CloudIntegrationClient(t)))})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Stats()
	if st.Routes[routeListAEMQueues] != int64(aemAuditPages(queues)) || st.SEMPCalls != 2 || st.Routes[routeListRuntime] != 1 || st.Routes[routeDownload] != flows {
		t.Errorf("calls %v (SEMP %d), want %d pages, one runtime list, %d downloads", st.Routes, st.SEMPCalls, aemAuditPages(queues), flows)
	}
	r := audit.Run(in, audit.Filter{MinSeverity: rules.SeverityInfo})
	s := r.Summary
	if s.AEMQueues != queues+1 || s.AEMPaths != flows || s.Flows != flows || s.NotAnalysable != 0 || s.UnboundedPaths != aemAuditUnboundedPaths(queues, flows) {
		t.Errorf("summary = %+v, want what aemAuditHCL checks", s)
	}
}
