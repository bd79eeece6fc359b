package aem_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// aemQueueWithDMQ starts a CLI test of the AEM queue name whose dead message queue dmq the broker already holds,
// made out of band with the provider's settings and the message size limit maxMsgSize (nil for the broker's): it
// returns the emulator and a workspace whose configuration manages the queue, with the extra arguments.
func aemQueueWithDMQ(t *testing.T, dmq string, maxMsgSize *int64, name, extra string) (*acctest.TestEnv, *acctest.CLIWorkspace) {
	t.Helper()
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	on := aem.Ptr(true)
	env.CreateAEMQueue(t, dmq, aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800),
		MaxMsgSize: maxMsgSize})
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.AdoptionMain + fmt.Sprintf(`
resource "sapmessaging_aem_queue" "orders" {
  name                     = %q
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = %q
%s}
`, name, dmq, extra)})
	w.WithAEM(env)
	return env, w
}

// A queue whose dead message queue takes smaller messages than the queue itself (maxMsgSize, which the
// provider leaves to the broker) plans with a warning that large poison messages are deleted, as the audit
// reports it.
func TestAccAEMQueue_deadMessageQueueMaxMsgSize(t *testing.T) {
	_, w := aemQueueWithDMQ(t, "acme/size/dmq", aem.Ptr[int64](1000), "acme/size/orders", "")
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	acctest.ExpectFlatContains(t, "the plan", r.Output, "Large Dead Messages Deleted", "at most 1000 bytes", "larger than 1000 bytes")
}

// aemCycleClosedAfterPlan plans the queue acme/cyc/orders (with the extra arguments) into tfplan, then links its
// dead message queue back to it, as another writer would between the plan and the apply.
func aemCycleClosedAfterPlan(t *testing.T, extra string) (*aem.Client, *acctest.CLIWorkspace) {
	t.Helper()
	env, w := aemQueueWithDMQ(t, "acme/cyc/dmq", nil, "acme/cyc/orders", extra)
	c := env.AEM(t)
	w.MustRun(0, "plan", "-out=tfplan", "-input=false", "-no-color")
	if _, err := c.UpdateQueue(t.Context(), "acme/cyc/dmq", aem.QueueSettings{DeadMsgQueue: aem.Ptr("acme/cyc/orders")}); err != nil {
		t.Fatal(err)
	}
	return c, w
}

// A dead message queue cycle closed between the plan and the apply (another writer links the dead message
// queue back to the queue) is refused by the apply, which reads the dead message queues right before it writes
// the link: the queue is not created. The plan saw no cycle.
func TestAccAEMQueue_cycleClosedAfterPlan(t *testing.T) {
	c, w := aemCycleClosedAfterPlan(t, "")
	r := w.MustRun(1, "apply", "-input=false", "-no-color", "tfplan")
	acctest.ExpectFlatContains(t, "the apply", r.Output, "Dead Message Queue Cycle", "acme/cyc/orders → acme/cyc/dmq → acme/cyc/orders")
	if q, err := c.GetQueue(t.Context(), "acme/cyc/orders"); err == nil {
		t.Errorf("the apply created the queue that closes the cycle: %+v", q)
	}
}

// The same with the cycle adopted (allow_missing_dead_message_queue): the plan leaves the outcome to the apply,
// which reads the dead message queues when it writes the queue and records the cycle (no deliveries), instead
// of Terraform failing the apply with an inconsistent final plan; the next plan is empty.
func TestAccAEMQueue_adoptedCycleClosedAfterPlan(t *testing.T) {
	_, w := aemCycleClosedAfterPlan(t, "  allow_missing_dead_message_queue = true\n")
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
