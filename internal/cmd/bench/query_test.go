package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cmd/internal/cmdtest"
)

// The queue landscape has one aliased provider configuration per instance and, per instance, a
// list block of dead message queues and one of queues on that alias, each with a limit above the
// instance's queues (Terraform lists 100 results per block unless told).
func TestQueryQueuesHCL(t *testing.T) {
	t.Parallel()
	mainTF, query := queryQueuesHCL([]string{"/k/0.json", "/k/1.json"}, 250)
	cmdtest.Contains(t, "main.tf", mainTF,
		"alias      = \"i1\"\n  event_mesh = { service_key = file(\"/k/1.json\") }",
		`sapmessaging = { source = "sapmessaging/sapmessaging" }`,
	)
	cmdtest.Contains(t, "the query", query,
		"list \"sapmessaging_dead_message_queue\" \"i0\" {\n  provider = sapmessaging.i0\n  limit    = 260\n}",
		"list \"sapmessaging_queue\" \"i1\" {\n  provider = sapmessaging.i1\n  limit    = 260\n}",
	)
	if n := strings.Count(query, "list \""); n != 4 {
		t.Errorf("the query has %d list blocks, want 4", n)
	}
	_, flows := queryFlowsHCL("/k/ci.json", 200)
	if !strings.Contains(flows, "list \"sapmessaging_amqp_sender\" \"all\"") || !strings.Contains(flows, "limit    = 210") {
		t.Errorf("the flows' query:\n%s", flows)
	}
}

// The landscape made by hand: the first queue is the dead message queue with a time to live, the
// others name it and are redelivered five times.
func TestQueryQueueSettings(t *testing.T) {
	t.Parallel()
	dmq := queryQueueSettings(0)
	if dmq.RespectTTL == nil || !*dmq.RespectTTL || dmq.MaxTTL == nil || *dmq.MaxTTL != 604800 || dmq.DeadMsgQueue != nil {
		t.Errorf("dead message queue settings: %+v", dmq)
	}
	q := queryQueueSettings(7)
	if q.DeadMsgQueue == nil || *q.DeadMsgQueue != queryQueue(0) || q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != 5 {
		t.Errorf("queue settings: %+v", q)
	}
	if queryQueue(7) != "acme/crm/prod/adopt/q0007" {
		t.Errorf("queryQueue(7) = %s", queryQueue(7))
	}
}

// A plan or apply of the generated configuration must import every resource and do nothing else.
func TestImportsOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		out   string
		apply bool
		ok    bool
	}{
		{"Plan: 2000 to import, 0 to add, 0 to change, 0 to destroy.", false, true},
		{"Plan: 2000 to import, 0 to add, 1 to change, 0 to destroy.", false, false},
		{"Plan: 1999 to import, 0 to add, 0 to change, 0 to destroy.", false, false},
		{"No changes.", false, false},
		{"Apply complete! Resources: 2000 imported, 0 added, 0 changed, 0 destroyed.", true, true},
		{"Apply complete! Resources: 2000 imported, 1 added, 0 changed, 0 destroyed.", true, false},
	} {
		if err := importsOnly(2000, tc.apply)(tc.out); (err == nil) != tc.ok {
			t.Errorf("importsOnly(%q, apply %v) = %v, want ok %v", tc.out, tc.apply, err, tc.ok)
		}
	}
}

// The generated configuration must hold one resource block per listed object.
func TestGeneratedBlocks(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	gen := "resource \"sapmessaging_queue\" \"i0_0\" {\n}\n\nimport {\n}\n\nresource \"sapmessaging_dead_message_queue\" \"i0_0\" {\n}\n"
	cmdtest.WriteFile(t, dir, "generated.tf", gen)
	if err := generatedBlocks(dir, 2)(""); err != nil {
		t.Error(err)
	}
	if err := generatedBlocks(dir, 3)(""); err == nil {
		t.Error("3 blocks accepted in a file of 2")
	}
	if err := generatedBlocks(t.TempDir(), 0)(""); err == nil {
		t.Error("a missing generated.tf accepted")
	}
}

// The targets: one management call per instance for the query, the query within 2× the refresh,
// one download per flow.
func TestQueryTargets(t *testing.T) {
	t.Parallel()
	qo := queryOptions{instances: 8, queues: 250, flows: 100, channels: 2}
	queues := []queryCell{{op: opQuery, perInstance: 1, wall: 15 * time.Second}, {op: opPlan, perInstance: 1, wall: 10 * time.Second}}
	flows := []queryCell{{op: opQuery, downloads: 100}, {op: opImportPlan, downloads: 101}}
	got := queryTargets(qo, queues, flows)
	cmdtest.Contains(t, "targets", got, "1 management API call per instance: at most 1, met", "2000 queues within 2× the time of a refresh of them: 15.00 s / 10.00 s = 1.50×, met", "query -generate-config-out: at most 100 content downloads (one per flow): 100, met",
		"plan (generated configuration): at most 100 content downloads (one per flow): 101, **missed**",
	)
	queues[0].wall, queues[0].perInstance = 25*time.Second, 2
	got = queryTargets(qo, queues, nil)
	if !strings.Contains(got, "at most 2, **missed**") || !strings.Contains(got, "2.50×, **missed**") {
		t.Errorf("missed targets not marked:\n%s", got)
	}
}

// The section's flags: defaults of SAP's limits, bounds refused, and -query alone runs it alone.
func TestQueryFlags(t *testing.T) {
	t.Parallel()
	o, err := parseFlags([]string{"-terraform", "tf"}, io.Discard)
	if err != nil || !o.query.enabled || o.query.instances != 8 || o.query.queues != 250 || o.query.flows != 100 || o.query.channels != 2 || o.query.runs != 1 {
		t.Fatalf("query defaults: %+v %v", o.query, err)
	}
	o, err = parseFlags([]string{"-terraform", "tf", "-query"}, io.Discard)
	if err != nil || !o.query.enabled || o.landscape.enabled || o.eventMesh || o.ci.enabled || o.redrive.enabled {
		t.Fatalf("-query alone: %+v %v", o, err)
	}
	for _, args := range [][]string{{"-query-queues", "1"}, {"-query-queues", "251"}, {"-query-instances", "0"}, {"-query-flows", "0"}, {"-query-runs", "0"}} {
		if _, err := parseFlags(append([]string{"-terraform", "tf"}, args...), io.Discard); err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}
