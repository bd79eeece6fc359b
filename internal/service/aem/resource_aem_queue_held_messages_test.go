package aem_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// heldAEMQueueHCL is an AEM queue named name with a dead message queue and a subscription of topic,
// both depending on it; force sets force_destroy on the queue and the dead message queue.
func heldAEMQueueHCL(env *acctest.TestEnv, name, topic string, force bool) string {
	return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "acme/aem/held/dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
  force_destroy   = %[3]t
}

resource "sapmessaging_aem_queue" "q" {
  name                 = %[1]q
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_aem_dead_message_queue.dmq.name
  ingress_enabled      = true
  egress_enabled       = true
  force_destroy        = %[3]t
}

resource "sapmessaging_aem_queue_subscription" "s" {
  queue_name = sapmessaging_aem_queue.q.name
  topic      = %[2]q
}
`, name, topic, force))
}

// heldAEMQueueStep applies heldAEMQueueHCL without force_destroy, then publishes n messages to the queue name.
func heldAEMQueueStep(env *acctest.TestEnv, t *testing.T, name, topic string, n int) acc.TestStep {
	return acc.TestStep{Config: heldAEMQueueHCL(env, name, topic, false), Check: env.AEMPublishAfterApply(t, name, n)}
}

// heldAEMQueueKept checks that queue still holds its n messages and its subscription of topic.
func heldAEMQueueKept(env *acctest.TestEnv, t *testing.T, queue, topic string, n int) {
	t.Helper()
	env.ExpectAEMDepths(t, "after the refused plan", []string{queue}, n)
	if !env.AEMSubscribed(t, queue, topic) {
		t.Fatalf("the subscription %s of %s is gone: the apply deleted it before refusing the queue", topic, queue)
	}
}

// Renaming an AEM queue that holds messages replaces it: the plan refuses it on `name`, before the
// apply would delete the queue's subscription and then refuse to delete the queue. With force_destroy
// applied first, the rename goes through.
func TestAccAEMQueueHeldMessages_rename(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		old     = "acme/aem/held/orders"
		renamed = "acme/aem/held/orders2"
		topic   = "acme/aem/held/orders/>"
	)
	acctest.ParallelTest(t, []acc.TestStep{
		heldAEMQueueStep(env, t, old, topic, 1),
		{
			Config:      heldAEMQueueHCL(env, renamed, topic, false),
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*with sapmessaging_aem_queue.q.*name = .*The queue "acme/aem/held/orders" holds 1 message\..*Changing .name. replaces it.*delete.*subscriptions.*stored on no queue.*sapmessaging_aem_redrive.*force_destroy = true`),
		},
		{
			PreConfig: func() { heldAEMQueueKept(env, t, old, topic, 1) },
			Config:    heldAEMQueueHCL(env, old, topic, true),
		},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    heldAEMQueueHCL(env, renamed, topic, true),
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, renamed, topic) {
					return fmt.Errorf("the subscription of the renamed queue is missing")
				}
				return nil
			},
		},
	})
}

// Destroying an AEM queue that holds messages is refused at plan: nothing is deleted.
func TestAccAEMQueueHeldMessages_destroy(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/aem/held/invoices"
		topic = "acme/aem/held/invoices/>"
	)
	acctest.ParallelTest(t, []acc.TestStep{
		heldAEMQueueStep(env, t, name, topic, 2),
		{
			Config:      heldAEMQueueHCL(env, name, topic, false),
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/aem/held/invoices" holds 2 messages\..*destroys it.*delete.*subscriptions.*stored on no queue.*force_destroy = true`),
		},
		{
			PreConfig: func() { heldAEMQueueKept(env, t, name, topic, 2) },
			Config:    heldAEMQueueHCL(env, name, topic, true),
		},
	})
}

// A dead message queue that holds messages is refused at plan too; a plan that cannot count the
// messages fails instead of passing.
func TestAccAEMQueueHeldMessages_deadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/held/onlydmq"
	hcl := func(force bool) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
  force_destroy   = %t
}
`, name, force))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: hcl(false),
			Check:  env.AEMPublishAfterApply(t, name, 1),
		},
		{
			Config:      hcl(false),
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/aem/held/onlydmq" holds 1 message\..*destroys it`),
		},
		{
			// The count fails (a server error on every attempt): the plan fails, nothing is deleted.
			PreConfig: func() {
				for range 8 {
					env.Srv.InjectNextOn("GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs", emulator.Fault500)
				}
			},
			Config:      hcl(false),
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Cannot Count Queue Messages .*acme/aem/held/onlydmq`),
		},
		{
			PreConfig: func() {
				env.Srv.ClearFaults()
				env.ExpectAEMDepths(t, "after the failed plan", []string{name}, 1)
			},
			Config: hcl(true),
		},
	})
}

// A destroy of N empty queues (one of them their dead message queue) counts the messages of each once at plan and once right before its delete
// without force_destroy, and never with force_destroy = true: the plan's check adds N monitoring requests
// to a destroy without force_destroy, none to one with it.
func TestAccAEMQueueHeldMessages_destroyCalls(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 6
	const msgs = "GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs"
	hcl := func(force bool) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name          = "acme/aem/held/many/dmq"
  force_destroy = %[2]t
}

resource "sapmessaging_aem_queue" "q" {
  count                = %[1]d
  name                 = "acme/aem/held/many/q${count.index}"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_aem_dead_message_queue.dmq.name
  ingress_enabled      = true
  egress_enabled       = true
  force_destroy        = %[2]t
}
`, n-1, force))
	}
	destroyCalls := func(force bool, want int64) func() {
		return func() {
			st := env.Srv.Stats()
			t.Logf("destroy of %d AEM queues with force_destroy = %t: %v", n, force, st.Routes)
			if got := st.Routes[msgs]; got != want {
				t.Fatalf("the destroy with force_destroy = %t counted messages %d times, want %d", force, got, want)
			}
			if got := st.Routes["DELETE /SEMP/v2/config/msgVpns/{vpn}/queues/{queue}"]; got != n {
				t.Fatalf("the destroy with force_destroy = %t made %d DELETEs, want %d", force, got, n)
			}
		}
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: hcl(false)},
		{PreConfig: env.Srv.ResetStats, Config: hcl(false), Destroy: true},
		{PreConfig: destroyCalls(false, 2*n), Config: hcl(true)},
		{PreConfig: env.Srv.ResetStats, Config: hcl(true), Destroy: true},
		{PreConfig: destroyCalls(true, 0), Config: env.AEMConfig("")},
	})
}

// A tainted AEM queue is replaced under its name: Terraform plans it once, as a create without prior
// state. The plan knows it from the refresh, which read the queue from the tainted state: it does not
// call the queue one that exists outside the configuration, and it refuses the replacement while the
// queue holds messages, as a rename is refused. Once the message is consumed, the queue is replaced,
// and its subscription with it.
func TestAccAEMQueueHeldMessages_tainted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/aem/held/tainted"
		topic = "acme/aem/held/tainted/>"
	)
	acctest.ParallelTest(t, []acc.TestStep{
		heldAEMQueueStep(env, t, name, topic, 1),
		{
			Taint:       []string{"sapmessaging_aem_queue.q"},
			Config:      heldAEMQueueHCL(env, name, topic, false),
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/aem/held/tainted" holds 1 message\..*replaces it under the same name.*tainted.*delete.*subscriptions.*terraform untaint`),
		},
		{
			PreConfig: func() {
				heldAEMQueueKept(env, t, name, topic, 1)
				d, ok := env.Srv.AEMReceive(name)
				if !ok {
					t.Fatal("no message to consume")
				}
				if _, err := env.Srv.AEMSettle(name, d.MsgID, core.AEMAccepted); err != nil {
					t.Fatal(err)
				}
			},
			Config: heldAEMQueueHCL(env, name, topic, false), // empty now: the tainted queue is replaced
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, name, topic) {
					return fmt.Errorf("the replaced queue has no subscription of %s", topic)
				}
				return nil
			},
		},
	})
}

// terraform apply -replace of an AEM queue that holds messages is refused at plan, as a tainted queue is:
// Terraform plans the replacement a second time as a create, whose claim tells the first plan's state,
// without force_destroy. The apply would delete the subscriptions that refer to the queue, by name and
// by id, before it refused to delete the queue. With force_destroy in the state, the queue and both
// subscriptions are replaced.
func TestAccAEMQueueHeldMessages_replaceSameName(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	const (
		name      = "acme/aem/held/replaced"
		topic     = "acme/aem/held/replaced/>"
		topicByID = "acme/aem/held/replaced-id/>"
	)
	hcl := func(force bool) string {
		return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = "acme/aem/held/replaced-dmq"
}

resource "sapmessaging_aem_queue" "q" {
  name                 = %q
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_aem_dead_message_queue.dmq.name
  force_destroy        = %t
}

resource "sapmessaging_aem_queue_subscription" "by_name" {
  queue_name = sapmessaging_aem_queue.q.name
  topic      = %q
}

resource "sapmessaging_aem_queue_subscription" "by_id" {
  queue_name = sapmessaging_aem_queue.q.id
  topic      = %q
}
`, name, force, topic, topicByID)
	}
	w := acctest.NewCLIWork(t, tf, srv, env.AEMArgument(), "")
	w.WriteHCL(t, "queues.tf", hcl(false))
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("create: %s", r.Output)
	}
	env.AEMPublish(t, name, 1)
	r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=sapmessaging_aem_queue.q")
	if r.ExitCode == 0 || !regexp.MustCompile(`(?s)Queue Holds Messages.*holds 1 message\..*replaces it under the same name`).MatchString(r.Output) {
		t.Fatalf("the replacement of a queue holding a message was not refused at plan (exit %d):\n%s", r.ExitCode, r.Output)
	}
	heldAEMQueueKept(env, t, name, topic, 1)
	if !env.AEMSubscribed(t, name, topicByID) {
		t.Fatal("the subscription by id is gone")
	}
	w.WriteHCL(t, "queues.tf", hcl(true))
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("force_destroy: %s", r.Output)
	}
	// force_destroy = false in the configuration guards the queue as well, though the apply's delete
	// would take the state's true.
	w.WriteHCL(t, "queues.tf", hcl(false))
	r = w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=sapmessaging_aem_queue.q")
	if r.ExitCode == 0 || !strings.Contains(r.Output, "Queue Holds Messages") {
		t.Fatalf("the replacement with force_destroy turned off in the same apply was not refused (exit %d):\n%s", r.ExitCode, r.Output)
	}
	heldAEMQueueKept(env, t, name, topic, 1)
	w.WriteHCL(t, "queues.tf", hcl(true))
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=sapmessaging_aem_queue.q"); r.ExitCode != 0 {
		t.Fatalf("the replacement with force_destroy: %s", r.Output)
	}
	if !env.AEMSubscribed(t, name, topic) || !env.AEMSubscribed(t, name, topicByID) {
		t.Fatal("the replaced queue lacks a subscription")
	}
}

// A queue that one resource destroys and another creates under the same name in one plan (a resource
// renamed without a moved block) is refused at plan: nothing orders the delete and the create, and the
// delete may take the queue the create has just made. The refresh's reading of the old resource's queue
// does not make the create a replacement of it.
func TestAccAEMQueue_destroyedAndCreatedByTwoResources(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/held/moved"
	cfg := func(resourceName string) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = "acme/aem/held/moved-dmq"
}

resource "sapmessaging_aem_queue" %q {
  name                 = %q
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_aem_dead_message_queue.dmq.name
}
`, resourceName, name))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg("q")},
		{
			Config:      cfg("q2"),
			ExpectError: acctest.Wrapped(`Error: Queue Destroyed And Created .*"acme/aem/held/moved".*moved block`),
		},
		{
			PreConfig: func() {
				if _, err := env.AEM(t).GetQueue(t.Context(), name); err != nil {
					t.Fatalf("the refused plan's queue: %v", err)
				}
			},
			Config: cfg("q"),
		},
	})
}
