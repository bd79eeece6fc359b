package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// generatedBlock finds a resource block of a generated configuration: its type, its label
// and its body.
var generatedBlock = regexp.MustCompile(`(?s)resource "(sapmessaging_\w+)" "(\w+)" \{\n(.*?)\n\}\n`)

// generatedName finds the queue name in a generated resource block's body.
var generatedName = regexp.MustCompile(`(?m)^\s*name\s*=\s*"([^"]+)"$`)

// The query path of the guide "Adopting an Existing Landscape", step by step, against the
// sandbox's sample landscape with the Terraform 1.14 CLI: examples/adopting-a-landscape/query
// lists the landscape's queues and dead message queues; the generated configuration adopts the
// queue with unlimited redelivery as it is, with a warning; with the guide's edits (references to
// the dead message queues, a finite redelivery count) the plan imports the eight queues and
// changes two, and the next plan is empty; the fragment import/payments-module.tf moves the payments queues into the
// retry-policy module without a change and imports their subscription; the list blocks added later
// (later/flows.tfquery.hcl, in place of the adopted query file) generate no queue again, the payments
// subscription generated a second time is refused at plan until its blocks go, and the rest imports
// without a change, the payments sender with allow_cancelled_redelivery and a warning; destroy removes
// them in an order the service accepts.
func TestAccGuideAdoptingALandscape_query(t *testing.T) {
	tf := queryCLI(t, "the guide's query path needs")
	env := newSampleEnv(t)
	// The reader's directory, outside the repository: the query example's files, and in step 5 the
	// module copied into modules/retry-policy as the guide says.
	src := filepath.Join("..", "..", "examples", "adopting-a-landscape", "query")
	w, dir := newWorkspace(t, tf, env, src, nil)
	fragment := acctest.ReadFile(t, filepath.Join(dir, "import", "payments-module.tf"))
	laterQuery := acctest.ReadFile(t, filepath.Join(dir, "later", "flows.tfquery.hcl"))
	for _, sub := range []string{"import", "later"} {
		if err := os.RemoveAll(filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	prefix := emulator.SampleLandscapePrefix

	// 1. terraform query lists every queue once, the dead message queues with the queues naming them.
	r := w.MustRun(0, "query", "-no-color")
	for _, want := range []string{
		"list.sapmessaging_dead_message_queue.erp   name=" + prefix + "dmq",
		prefix + "dmq (dead message queue of " + prefix + "invoices, " + prefix + "returns, " + prefix + "sales-orders/errors, " + prefix + "shipments)",
		prefix + "payments/dmq (dead message queue of " + prefix + "payments)",
		"list.sapmessaging_queue.erp   name=" + prefix + "shipments",
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("terraform query does not show %q:\n%s", want, r.Output)
		}
	}
	if n := strings.Count(r.Output, "list.sapmessaging_queue.erp "); n != len(emulator.SampleQueues)-2 {
		t.Errorf("terraform query lists %d queues, want the %d of the sample landscape that are no dead message queue:\n%s", n, len(emulator.SampleQueues)-2, r.Output)
	}

	// 2. -generate-config-out writes a resource and an import block per queue.
	w.MustRun(0, "query", "-generate-config-out=generated.tf", "-no-color")
	generatedPath := filepath.Join(dir, "generated.tf")
	b := acctest.ReadFile(t, generatedPath)
	generated := string(b)
	addr := map[string]string{} // queue name -> resource address
	dmqAddr := map[string]string{}
	for _, m := range generatedBlock.FindAllStringSubmatch(generated, -1) {
		n := generatedName.FindStringSubmatch(m[3])
		if n == nil {
			t.Fatalf("generated block %s.%s has no name:\n%s", m[1], m[2], m[0])
		}
		addr[n[1]] = m[1] + "." + m[2]
		if m[1] == "sapmessaging_dead_message_queue" {
			dmqAddr[n[1]] = addr[n[1]]
		}
	}
	if len(addr) != len(emulator.SampleQueues) || len(dmqAddr) != 2 {
		t.Fatalf("generated.tf has %d resource blocks (%d dead message queues), want %d (2):\n%s", len(addr), len(dmqAddr), len(emulator.SampleQueues), generated)
	}
	// The fragment of the guide names the generated addresses of the payments queues.
	for name, want := range map[string]string{prefix + "payments": "sapmessaging_queue.erp_3", prefix + "payments/dmq": "sapmessaging_dead_message_queue.erp_1"} {
		if addr[name] != want {
			t.Fatalf("%s is generated as %s; import/payments-module.tf moves %s", name, addr[name], want)
		}
	}

	// 3. The generated configuration adopts the queue with unlimited redelivery as it is
	// (allow_unlimited_redelivery = true), and the plan warns about it: imports and the dead message
	// queue's time to live only.
	allow := regexp.MustCompile(`\n\s*allow_unlimited_redelivery\s*=\s*true\n`)
	if n := len(allow.FindAllString(generated, -1)); n != 1 {
		t.Fatalf("generated.tf has %d allow_unlimited_redelivery = true, want 1 (on %s):\n%s", n, prefix+"shipments", generated)
	}
	r = w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		// payments/dmq has no time to live: adopted as it is with allow_no_ttl = true.
		fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(emulator.SampleQueues)),
		"Unlimited Redelivery Allowed",
		`resource "sapmessaging_queue" "` + strings.TrimPrefix(addr[prefix+"shipments"], "sapmessaging_queue.") + `"`,
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("the plan of the generated configuration does not show %q:\n%s", want, r.Output)
		}
	}

	// 4. The guide's edits: dead message queues by reference, a finite redelivery count instead of
	// the allowance.
	// Every queue by reference, the chained error queue sales-orders/errors too, so that the
	// destroy deletes a queue before the queue it names.
	for name, a := range addr {
		quoted := regexp.MustCompile(`(dead_message_queue\s*=\s*)"` + regexp.QuoteMeta(name) + `"`)
		generated = quoted.ReplaceAllString(generated, "${1}"+a+".name")
	}
	zero := regexp.MustCompile(`(max_redelivery_count\s*=\s*)0\n`)
	if len(zero.FindAllString(generated, -1)) != 1 {
		t.Fatalf("generated.tf has not exactly one max_redelivery_count = 0:\n%s", generated)
	}
	generated = allow.ReplaceAllString(zero.ReplaceAllString(generated, "${1}5\n"), "\n")
	// The time to live of payments/dmq: no allow_no_ttl, so the plan sets 7 days.
	generated = regexp.MustCompile(`\n\s*allow_no_ttl\s*=\s*true\n`).ReplaceAllString(generated, "\n")
	acctest.WriteFile(t, generatedPath, generated)
	r = w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		fmt.Sprintf("Plan: %d to import, 0 to add, 2 to change, 0 to destroy.", len(emulator.SampleQueues)),
		"max_redelivery_count                       = 0 -> 5",
		"respect_ttl                             = false -> true",
		"No Dead Message Queue", // credit-notes and audit: a warning to review, no error
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("the plan after the guide's edits does not show %q:\n%s", want, r.Output)
		}
	}
	r = w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(r.Output, fmt.Sprintf("%d imported, 0 added, 2 changed, 0 destroyed", len(emulator.SampleQueues))) {
		t.Errorf("the apply did not import the %d queues and change 2:\n%s", len(emulator.SampleQueues), r.Output)
	}
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	em := env.EventMesh(t)
	if q, err := em.GetQueue(context.Background(), prefix+"shipments"); err != nil || q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != 5 {
		t.Errorf("%s after the apply: %+v, %v; want max_redelivery_count 5", prefix+"shipments", q, err)
	}
	if q, err := em.GetQueue(context.Background(), prefix+"payments/dmq"); err != nil || q.RespectTTL == nil || !*q.RespectTTL || q.MaxTTL == nil || *q.MaxTTL != 604800 {
		t.Errorf("%s after the apply: %+v, %v; want respect_ttl and max_ttl 604800", prefix+"payments/dmq", q, err)
	}

	// 5. Into the module: drop the payments queues' blocks from generated.tf and add the fragment.
	for _, a := range []string{addr[prefix+"payments"], addr[prefix+"payments/dmq"]} {
		generated = removeGenerated(t, generated, a)
	}
	acctest.WriteFile(t, generatedPath, generated)
	acctest.CopyTree(t, filepath.Join("..", "..", "examples", "modules", "retry-policy"), filepath.Join(dir, "modules", "retry-policy"))
	acctest.WriteFile(t, filepath.Join(dir, "payments-module.tf"), string(fragment))
	w.MustRun(0, "get", "-no-color")
	r = w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		"Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.",
		addr[prefix+"payments"] + " has moved to module.payments.sapmessaging_queue.this[\"payments\"]",
		addr[prefix+"payments/dmq"] + " has moved to module.payments.sapmessaging_dead_message_queue.this[\"payments\"]",
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("the plan with the payments module does not show %q:\n%s", want, r.Output)
		}
	}
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// 6. List blocks added later: the adopted query file goes, the new blocks get a query file and
	// a generated file of their own. The payments subscription, which the module manages since
	// step 5, is generated again, and the plan refuses it until its generated blocks go.
	if err := os.Rename(filepath.Join(dir, "landscape.tfquery.hcl"), filepath.Join(dir, "landscape.tfquery.hcl.done")); err != nil {
		t.Fatal(err)
	}
	acctest.WriteFile(t, filepath.Join(dir, "flows.tfquery.hcl"), string(laterQuery))
	w.MustRun(0, "query", "-generate-config-out=generated-flows.tf", "-no-color")
	flowsPath := filepath.Join(dir, "generated-flows.tf")
	b = acctest.ReadFile(t, flowsPath)
	flows := string(b)
	if n := strings.Count(flows, `resource "sapmessaging_queue" `) + strings.Count(flows, `resource "sapmessaging_dead_message_queue" `); n != 0 {
		t.Fatalf("generated-flows.tf generates %d queues again:\n%s", n, flows)
	}
	subs, senders := map[string]string{}, map[string]string{} // queue name or iFlow ID -> address
	queueName := regexp.MustCompile(`(?m)^\s*queue_name\s*=\s*"([^"]+)"$`)
	iflowID := regexp.MustCompile(`(?m)^\s*iflow_id\s*=\s*"([^"]+)"$`)
	for _, m := range generatedBlock.FindAllStringSubmatch(flows, -1) {
		switch m[1] {
		case "sapmessaging_queue_subscription":
			if n := queueName.FindStringSubmatch(m[3]); n != nil {
				subs[n[1]] = m[1] + "." + m[2]
			}
		case "sapmessaging_amqp_sender":
			if n := iflowID.FindStringSubmatch(m[3]); n != nil {
				senders[n[1]] = m[1] + "." + m[2]
			}
		}
	}
	if n := strings.Count(flows, `resource "sapmessaging_amqp_sender" `); len(subs) != 6 || subs[prefix+"payments"] == "" || n != 6 || senders["Acme_Payments_Inbound"] == "" {
		t.Fatalf("generated-flows.tf has subscriptions %v and %d senders (%v), want the 6 subscriptions and the 6 AMQP channels:\n%s", subs, n, senders, flows)
	}
	if salesOrders := generatedBlockOf(t, flows, senders["Acme_SalesOrders_Inbound"]); !regexp.MustCompile(`\n\s*allow_unsafe_retries\s*=\s*true\n`).MatchString(salesOrders) {
		t.Errorf("the generated sender of Acme_SalesOrders_Inbound (0 retries) does not carry allow_unsafe_retries = true:\n%s", salesOrders)
	}
	paymentsSender := generatedBlockOf(t, flows, senders["Acme_Payments_Inbound"])
	if !regexp.MustCompile(`\n\s*allow_cancelled_redelivery\s*=\s*true\n`).MatchString(paymentsSender) {
		t.Errorf("the generated sender of Acme_Payments_Inbound does not carry allow_cancelled_redelivery = true:\n%s", paymentsSender)
	}
	r = w.MustRun(1, "plan", "-input=false", "-no-color")
	for _, want := range []string{
		"Error: Subscription Managed Twice",
		`manage the subscription of queue "` + prefix + `payments" to topic "` + prefix + `ce/sap/s4/Payment/*"`,
		"import the subscription only once",
	} {
		if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " "), want) {
			t.Errorf("the plan with the payments subscription generated twice does not show %q:\n%s", want, r.Output)
		}
	}
	flows = removeGenerated(t, flows, subs[prefix+"payments"])
	acctest.WriteFile(t, flowsPath, flows)
	r = w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		"Plan: 11 to import, 0 to add, 0 to change, 0 to destroy.", // 5 subscriptions, 6 sender channels
		"Redelivery Cancelled Allowed",
	} {
		if !strings.Contains(r.Output, want) {
			t.Errorf("the plan of generated-flows.tf does not show %q:\n%s", want, r.Output)
		}
	}
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// 7. Destroy: queues before the dead message queues they name, so the service accepts each delete.
	w.MustRun(0, "destroy", "-auto-approve", "-input=false", "-no-color")
	left, err := em.ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range left {
		t.Errorf("queue %s left after destroy", q.Name)
	}
}

// generatedBlockOf returns the resource block of address addr in a generated configuration.
func generatedBlockOf(t *testing.T, generated, addr string) string {
	t.Helper()
	typ, label, _ := strings.Cut(addr, ".")
	m := regexp.MustCompile(`(?s)resource "` + typ + `" "` + label + `" \{\n.*?\n\}\n`).FindString(generated)
	if m == "" {
		t.Fatalf("no resource block of %s in:\n%s", addr, generated)
	}
	return m
}

// removeGenerated deletes the resource block and the import block of address addr from a
// generated configuration, as the guide tells the reader to.
func removeGenerated(t *testing.T, generated, addr string) string {
	t.Helper()
	typ, label, _ := strings.Cut(addr, ".")
	block := regexp.MustCompile(`(?s)resource "` + typ + `" "` + label + `" \{\n.*?\n\}\n`)
	imp := regexp.MustCompile(`(?s)import \{\n\s*to\s*=\s*` + regexp.QuoteMeta(addr) + `\n.*?\n\}\n`)
	if !block.MatchString(generated) || !imp.MatchString(generated) {
		t.Fatalf("no resource or import block of %s in:\n%s", addr, generated)
	}
	return imp.ReplaceAllString(block.ReplaceAllString(generated, ""), "")
}
