package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

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
// retry-policy module without a change and imports their subscription; destroy removes them in
// an order the service accepts.
func TestAccGuideAdoptingALandscape_query(t *testing.T) {
	tf := terraformCLI(t)
	if !terraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no terraform query: the guide's query path needs Terraform 1.14 or later", tf)
	}
	t.Parallel()
	env := newTestEnv(t)
	if err := env.srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	buildProvider(t, plugins)
	examples := filepath.Join(t.TempDir(), "examples")
	copyTree(t, filepath.Join("..", "..", "examples"), examples)
	dir := filepath.Join(examples, "adopting-a-landscape", "query")
	fragment, err := os.ReadFile(filepath.Join(dir, "import", "payments-module.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "import")); err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, tf, plugins, dir, env)
	prefix := emulator.SampleLandscapePrefix

	// 1. terraform query lists every queue once, the dead message queues with the queues naming them.
	r := w.mustRun(0, "query", "-no-color")
	for _, want := range []string{
		"list.sapmessaging_dead_message_queue.erp   name=" + prefix + "dmq",
		prefix + "dmq (dead message queue of " + prefix + "invoices, " + prefix + "returns, " + prefix + "sales-orders/errors, " + prefix + "shipments)",
		prefix + "payments/dmq (dead message queue of " + prefix + "payments)",
		"list.sapmessaging_queue.erp   name=" + prefix + "shipments",
	} {
		if !strings.Contains(r.output, want) {
			t.Errorf("terraform query does not show %q:\n%s", want, r.output)
		}
	}
	if n := strings.Count(r.output, "list.sapmessaging_queue.erp "); n != len(emulator.SampleQueues)-2 {
		t.Errorf("terraform query lists %d queues, want the %d of the sample landscape that are no dead message queue:\n%s", n, len(emulator.SampleQueues)-2, r.output)
	}

	// 2. -generate-config-out writes a resource and an import block per queue.
	w.mustRun(0, "query", "-generate-config-out=generated.tf", "-no-color")
	generatedPath := filepath.Join(dir, "generated.tf")
	b, err := os.ReadFile(generatedPath)
	if err != nil {
		t.Fatal(err)
	}
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
	r = w.mustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		// payments/dmq has no time to live: adopted as it is with allow_no_ttl = true.
		fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(emulator.SampleQueues)),
		"Unlimited Redelivery Allowed",
		`resource "sapmessaging_queue" "` + strings.TrimPrefix(addr[prefix+"shipments"], "sapmessaging_queue.") + `"`,
	} {
		if !strings.Contains(r.output, want) {
			t.Errorf("the plan of the generated configuration does not show %q:\n%s", want, r.output)
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
	writeFile(t, generatedPath, generated)
	r = w.mustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		fmt.Sprintf("Plan: %d to import, 0 to add, 2 to change, 0 to destroy.", len(emulator.SampleQueues)),
		"max_redelivery_count                = 0 -> 5",
		"respect_ttl                         = false -> true",
		"No Dead Message Queue", // credit-notes and audit: a warning to review, no error
	} {
		if !strings.Contains(r.output, want) {
			t.Errorf("the plan after the guide's edits does not show %q:\n%s", want, r.output)
		}
	}
	r = w.mustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	if !strings.Contains(r.output, fmt.Sprintf("%d imported, 0 added, 2 changed, 0 destroyed", len(emulator.SampleQueues))) {
		t.Errorf("the apply did not import the %d queues and change 2:\n%s", len(emulator.SampleQueues), r.output)
	}
	w.mustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	em := env.eventMesh(t)
	if q, err := em.GetQueue(context.Background(), prefix+"shipments"); err != nil || q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != 5 {
		t.Errorf("%s after the apply: %+v, %v; want max_redelivery_count 5", prefix+"shipments", q, err)
	}
	if q, err := em.GetQueue(context.Background(), prefix+"payments/dmq"); err != nil || q.RespectTTL == nil || !*q.RespectTTL || q.MaxTTL == nil || *q.MaxTTL != 604800 {
		t.Errorf("%s after the apply: %+v, %v; want respect_ttl and max_ttl 604800", prefix+"payments/dmq", q, err)
	}

	// 5. Into the module: drop the payments queues' blocks from generated.tf and add the fragment.
	for _, a := range []string{addr[prefix+"payments"], addr[prefix+"payments/dmq"]} {
		typ, label, _ := strings.Cut(a, ".")
		block := regexp.MustCompile(`(?s)resource "` + typ + `" "` + label + `" \{\n.*?\n\}\n`)
		imp := regexp.MustCompile(`(?s)import \{\n\s*to\s*=\s*` + regexp.QuoteMeta(a) + `\n.*?\n\}\n`)
		if !block.MatchString(generated) || !imp.MatchString(generated) {
			t.Fatalf("generated.tf has no resource or import block of %s", a)
		}
		generated = imp.ReplaceAllString(block.ReplaceAllString(generated, ""), "")
	}
	writeFile(t, generatedPath, generated)
	writeFile(t, filepath.Join(dir, "payments-module.tf"), string(fragment))
	w.mustRun(0, "get", "-no-color")
	r = w.mustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{
		"Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.",
		addr[prefix+"payments"] + " has moved to module.payments.sapmessaging_queue.this",
		addr[prefix+"payments/dmq"] + " has moved to module.payments.sapmessaging_dead_message_queue.this",
	} {
		if !strings.Contains(r.output, want) {
			t.Errorf("the plan with the payments module does not show %q:\n%s", want, r.output)
		}
	}
	w.mustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	w.mustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")

	// 6. Destroy: queues before the dead message queues they name, so the service accepts each delete.
	w.mustRun(0, "destroy", "-auto-approve", "-input=false", "-no-color")
	left, err := em.ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range left {
		t.Errorf("queue %s left after destroy", q.Name)
	}
}
