package aem_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// A queue whose dead message queue takes smaller messages than the queue itself (maxMsgSize, which the
// provider leaves to the broker) plans with a warning that large poison messages are deleted, as the audit
// reports it.
func TestAccAEMQueue_deadMessageQueueMaxMsgSize(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	on := aem.Ptr(true)
	if _, err := env.AEM(t).CreateQueue(t.Context(), aem.Queue{Name: "acme/size/dmq", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on,
		RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800), MaxMsgSize: aem.Ptr[int64](1000)}}); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.AdoptionMain+`
resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/size/orders"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = "acme/size/dmq"
}
`)
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	w.WithAEM(env)
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	out := strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " ")
	for _, want := range []string{"Large Dead Messages Deleted", "at most 1000 bytes", "larger than 1000 bytes"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan does not say %q:\n%s", want, r.Output)
		}
	}
}

// A dead message queue cycle closed between the plan and the apply (another writer links the dead message
// queue back to the queue) is refused by the apply, which reads the dead message queues right before it writes
// the link: the queue is not created. The plan saw no cycle.
func TestAccAEMQueue_cycleClosedAfterPlan(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	on := aem.Ptr(true)
	if _, err := c.CreateQueue(t.Context(), aem.Queue{Name: "acme/cyc/dmq", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on,
		RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800)}}); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.AdoptionMain+`
resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/cyc/orders"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = "acme/cyc/dmq"
}
`)
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	w.WithAEM(env)
	w.MustRun(0, "plan", "-out=tfplan", "-input=false", "-no-color")
	if _, err := c.UpdateQueue(t.Context(), "acme/cyc/dmq", aem.QueueSettings{DeadMsgQueue: aem.Ptr("acme/cyc/orders")}); err != nil {
		t.Fatal(err)
	}
	r := w.MustRun(1, "apply", "-input=false", "-no-color", "tfplan")
	out := strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " ")
	for _, want := range []string{"Dead Message Queue Cycle", "acme/cyc/orders → acme/cyc/dmq → acme/cyc/orders"} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply does not say %q:\n%s", want, r.Output)
		}
	}
	if q, err := c.GetQueue(t.Context(), "acme/cyc/orders"); err == nil {
		t.Errorf("the apply created the queue that closes the cycle: %+v", q)
	}
}

// The same with the cycle adopted (allow_missing_dead_message_queue): the plan leaves the outcome to the apply,
// which reads the dead message queues when it writes the queue and records the cycle (no deliveries), instead
// of Terraform failing the apply with an inconsistent final plan; the next plan is empty.
func TestAccAEMQueue_adoptedCycleClosedAfterPlan(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	on := aem.Ptr(true)
	if _, err := c.CreateQueue(t.Context(), aem.Queue{Name: "acme/cyc/dmq", QueueSettings: aem.QueueSettings{IngressEnabled: on, EgressEnabled: on,
		RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800)}}); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.AdoptionMain+`
resource "sapmessaging_aem_queue" "orders" {
  name                     = "acme/cyc/orders"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = "acme/cyc/dmq"
  allow_missing_dead_message_queue = true
}
`)
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	w.WithAEM(env)
	w.MustRun(0, "plan", "-out=tfplan", "-input=false", "-no-color")
	if _, err := c.UpdateQueue(t.Context(), "acme/cyc/dmq", aem.QueueSettings{DeadMsgQueue: aem.Ptr("acme/cyc/orders")}); err != nil {
		t.Fatal(err)
	}
	r := w.MustRun(0, "apply", "-input=false", "-no-color", "tfplan")
	if !strings.Contains(r.Output, "Dead Message Queue Cycle Allowed") {
		t.Errorf("the apply does not warn about the adopted cycle:\n%s", r.Output)
	}
	r = w.MustRun(0, "state", "show", "-no-color", "sapmessaging_aem_queue.orders")
	if regexp.MustCompile(`poison_message_deliveries\s+=`).MatchString(r.Output) {
		t.Errorf("the state counts deliveries of a queue whose dead message queues form a cycle:\n%s", r.Output)
	}
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
}
