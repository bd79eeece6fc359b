package eventmesh_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// heldQueueHCL is a queue named name with a dead message queue and a subscription of topic, both
// depending on it; force sets force_destroy on the queue and the dead message queue.
func heldQueueHCL(env *acctest.TestEnv, name, topic string, force bool) string {
	return env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name          = "acme/crm/prod/held/dmq"
  force_destroy = %[3]t
}

resource "sapmessaging_queue" "q" {
  name                 = %[1]q
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
  force_destroy        = %[3]t
}

resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.q.name
  topic_pattern = %[2]q
}
`, name, topic, force)
}

// heldQueueByIDHCL is a queue named name with a dead message queue, without the provider block, and a
// subscription of topic that refers to the queue's id: replaced with the queue, as Terraform knows the
// id only after the queue's create.
func heldQueueByIDHCL(name, topic string) string {
	return fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/held/dmq"
}

resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
}

resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.q.id
  topic_pattern = %q
}
`, name, topic)
}

// heldQueueStep applies heldQueueHCL without force_destroy, then publishes a message to the queue name.
func heldQueueStep(env *acctest.TestEnv, t *testing.T, name, topic string) resource.TestStep {
	return resource.TestStep{Config: heldQueueHCL(env, name, topic, false), Check: env.PublishAfterApply(t, name)}
}

// heldQueueKept checks that queue still holds the one message published to it and its subscription
// of topic: nothing was deleted.
func heldQueueKept(env *acctest.TestEnv, t *testing.T, queue, topic string) {
	t.Helper()
	q, ok := env.Srv.Queue(queue)
	if !ok || q.MessageCount != 1 {
		t.Fatalf("the queue %s or its messages are gone: %v %+v", queue, ok, q)
	}
	if ok, err := acctest.Subscribed(env, t, queue, topic); err != nil || !ok {
		t.Fatalf("the subscription %s of %s is gone (err %v): the apply deleted it before refusing the queue", topic, queue, err)
	}
}

// Renaming a queue that holds messages replaces it: the plan refuses it on `name`, before the
// apply would delete the queue's subscription and then refuse to delete the queue. The queue keeps
// its messages and its subscription; with force_destroy applied first, the rename goes through.
func TestAccQueueHeldMessages_rename(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		old     = "acme/crm/prod/held/orders"
		renamed = "acme/crm/prod/held/orders2"
		topic   = "acme/crm/prod/ce/held/orders/*"
	)
	acctest.ParallelTest(t, []resource.TestStep{
		heldQueueStep(env, t, old, topic),
		{
			Config:      heldQueueHCL(env, renamed, topic, false),
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*with sapmessaging_queue.q.*name = .*The queue "acme/crm/prod/held/orders" holds 1 message\(s\).*Changing .name. replaces it.*delete.*subscriptions.*stored on no queue.*sapmessaging_redrive.*force_destroy = true`),
		},
		{
			PreConfig: func() { heldQueueKept(env, t, old, topic) },
			Config:    heldQueueHCL(env, old, topic, true),
		},
		{
			Config: heldQueueHCL(env, renamed, topic, true),
			Check: func(*terraform.State) error {
				if _, ok := env.Srv.Queue(old); ok {
					return fmt.Errorf("the queue %s was not replaced", old)
				}
				if ok, err := acctest.Subscribed(env, t, renamed, topic); err != nil || !ok {
					return fmt.Errorf("the subscription of the renamed queue is missing (err %v)", err)
				}
				return nil
			},
		},
	})
}

// Destroying a queue that holds messages is refused at plan: the destroy deletes nothing, neither
// the subscription that depends on the queue nor the dead message queue.
func TestAccQueueHeldMessages_destroy(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/crm/prod/held/invoices"
		topic = "acme/crm/prod/ce/held/invoices/*"
	)
	acctest.ParallelTest(t, []resource.TestStep{
		heldQueueStep(env, t, name, topic),
		{
			Config:      heldQueueHCL(env, name, topic, false),
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/crm/prod/held/invoices" holds 1 message\(s\).*destroys it.*delete.*subscriptions.*stored on no queue.*force_destroy = true`),
		},
		{
			PreConfig: func() {
				heldQueueKept(env, t, name, topic)
				if _, ok := env.Srv.Queue("acme/crm/prod/held/dmq"); !ok {
					t.Fatal("the dead message queue was deleted")
				}
			},
			Config: heldQueueHCL(env, name, topic, true),
		},
	})
}

// A dead message queue that holds messages is refused at plan too.
func TestAccQueueHeldMessages_deadMessageQueueDestroy(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/held/onlydmq"
	hcl := func(force bool) string {
		return env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name          = %q
  force_destroy = %t
}
`, name, force)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: hcl(false),
			Check:  env.PublishAfterApply(t, name),
		},
		{
			Config:      hcl(false),
			Destroy:     true,
			PreConfig:   env.Srv.ResetStats,
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/crm/prod/held/onlydmq" holds 1 message\(s\).*destroys it`),
		},
		{
			PreConfig: func() {
				// The refresh listed the queues in its process and the destroy plan in its own, which read the
				// count at plan from it and refused; nothing was deleted.
				if r := env.Srv.Stats().Routes; r["GET /queues"] != 2 || r["GET /queues/{queue}"] != 0 || r["DELETE /queues/{queue}"] != 0 {
					t.Fatalf("the refused destroy made %v, want a list per process and no DELETE", r)
				}
				if q, ok := env.Srv.Queue(name); !ok || q.MessageCount != 1 {
					t.Fatalf("the dead message queue or its message is gone: %v %+v", ok, q)
				}
			},
			Config: hcl(true),
		},
	})
}

// A destroy planned without refresh (terraform destroy -refresh=false) reads the message count at
// plan, not one an earlier command recorded: the queue was empty at the last refresh and got a
// message since, and the plan refuses before the apply would delete its subscription.
func TestAccQueueHeldMessages_destroyWithoutRefresh(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/crm/prod/held/norefresh"
		topic = "acme/crm/prod/ce/held/norefresh/*"
	)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		// Every plan of the test with -refresh=false: only the refresh step reads the queue.
		AdditionalCLIOptions: &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}},
		Steps: []resource.TestStep{
			{Config: heldQueueHCL(env, name, topic, false)},
			{RefreshState: true}, // finds the queue empty
			{
				PreConfig: func() {
					if err := env.PublishAfterApply(t, name)(nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:      heldQueueHCL(env, name, topic, false),
				Destroy:     true,
				ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/crm/prod/held/norefresh" holds 1 message\(s\).*destroys it`),
			},
			{
				PreConfig: func() { heldQueueKept(env, t, name, topic) },
				Config:    heldQueueHCL(env, name, topic, true),
			},
		},
	})
}

// A queue that holds messages and is replaced under the same name (terraform apply -replace) is
// refused at plan as a rename is: Terraform plans the replacement a second time as a create, and
// the apply would delete the subscription that refers to the queue's id before it refused to
// delete the queue.
func TestAccQueueHeldMessages_replaceSameName(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	const (
		name  = "acme/crm/prod/held/replaced"
		topic = "acme/crm/prod/ce/held/replaced/*"
	)
	w := acctest.NewCLIWork(t, tf, srv, "", heldQueueByIDHCL(name, topic))
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("create: %s", r.Output)
	}
	if err := env.PublishAfterApply(t, name)(nil); err != nil {
		t.Fatal(err)
	}
	r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=sapmessaging_queue.q")
	if r.ExitCode == 0 || !regexp.MustCompile(`(?s)Queue Holds Messages.*holds 1 message\(s\).*replaces it under the same name`).MatchString(r.Output) {
		t.Fatalf("the replacement of a queue holding a message was not refused at plan (exit %d):\n%s", r.ExitCode, r.Output)
	}
	heldQueueKept(env, t, name, topic)
}

// A tainted queue that holds messages is refused at plan as a replacement under the same name is:
// Terraform plans a tainted resource once, as a create without prior state, and the apply would
// delete the subscription that refers to the queue's id before it refused to delete the queue. The
// refresh of the plan read the queue from the tainted state, which tells the create's plan. Once
// the message is consumed, the tainted queue is replaced.
func TestAccQueueHeldMessages_tainted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/crm/prod/held/tainted"
		topic = "acme/crm/prod/ce/held/tainted/*"
	)
	hcl := env.Config(heldQueueByIDHCL(name, topic))
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: hcl, Check: env.PublishAfterApply(t, name)},
		{
			Taint:       []string{"sapmessaging_queue.q"},
			Config:      hcl,
			ExpectError: acctest.Wrapped(`Error: Queue Holds Messages .*The queue "acme/crm/prod/held/tainted" holds 1 message\(s\).*replaces it under the same name.*tainted.*delete.*subscriptions.*terraform untaint`),
		},
		{
			PreConfig: func() {
				heldQueueKept(env, t, name, topic)
				m := env.Messaging(t)
				msg, err := m.Consume(t.Context(), name)
				if err != nil || msg == nil {
					t.Fatalf("consume: %v %v", msg, err)
				}
				if err := m.Ack(t.Context(), name, msg.ID); err != nil {
					t.Fatal(err)
				}
			},
			Config: hcl, // the queue is empty now: the tainted queue is replaced
			Check: func(*terraform.State) error {
				if ok, err := acctest.Subscribed(env, t, name, topic); err != nil || !ok {
					return fmt.Errorf("the replaced queue has no subscription of %s (err %v)", topic, err)
				}
				return nil
			},
		},
	})
}

// A queue replaced under the same name takes its subscriptions with it: Event Mesh deletes a queue's
// subscriptions when it deletes the queue. The plan updates a subscription that refers to the queue's
// name in place, so that the apply subscribes the queue again after its create, for a tainted queue and
// for terraform apply -replace. Before, the apply succeeded and left the subscription in the state and
// on no queue.
func TestAccQueue_replacedUnderSameNameSubscriptions(t *testing.T) {
	const (
		name  = "acme/crm/prod/replaced/orders"
		topic = "acme/crm/prod/ce/replaced/orders/*"
	)
	w, env := subscribedQueueWork(t, name, topic, "")
	for _, replace := range [][]string{{"-replace=sapmessaging_queue.q"}, nil} {
		if replace == nil {
			if r := w.Run(t, "taint", "-no-color", "sapmessaging_queue.q"); r.ExitCode != 0 {
				t.Fatalf("taint: %s", r.Output)
			}
		}
		r := w.Run(t, append([]string{"apply", "-auto-approve", "-input=false", "-no-color"}, replace...)...)
		if r.ExitCode != 0 || !strings.Contains(r.Output, "sapmessaging_queue_subscription.s will be updated in-place") ||
			replace == nil && !strings.Contains(r.Output, "Queue Replaced Under Its Name") {
			t.Fatalf("apply %v: the subscription was not planned for replacement (exit %d):\n%s", replace, r.ExitCode, r.Output)
		}
		if ok, err := acctest.Subscribed(env, t, name, topic); err != nil || !ok {
			t.Fatalf("apply %v: the replaced queue has no subscription of %s (err %v):\n%s", replace, topic, err, r.Output)
		}
		if r := w.Run(t, "plan", "-detailed-exitcode", "-input=false", "-no-color"); r.ExitCode != 0 {
			t.Fatalf("apply %v: the plan after it is not empty (exit %d):\n%s", replace, r.ExitCode, r.Output)
		}
	}
}

// A queue that one resource destroys and another creates under the same name in one plan (a resource
// renamed without a moved block) is refused at plan: nothing orders the delete and the create. The
// refresh's reading of the old resource's queue does not make the create a replacement of it, whose
// subscriptions would be replaced.
func TestAccQueue_destroyedAndCreatedByTwoResources(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/held/moved"
	cfg := func(resourceName string) string {
		return env.Configf(`
resource "sapmessaging_queue" %q {
  name                 = %q
  max_redelivery_count = 3
}
`, resourceName, name)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: cfg("q")},
		{
			Config:      cfg("q2"),
			ExpectError: acctest.Wrapped(`Error: Queue Destroyed And Created .*"acme/crm/prod/held/moved".*moved block`),
		},
		{
			PreConfig: func() {
				if _, ok := env.Srv.Queue(name); !ok {
					t.Fatal("the refused plan's queue was deleted")
				}
			},
			Config: cfg("q"),
		},
	})
}

// A queue with create_before_destroy cannot be replaced under its name: the apply creates the new queue
// first and finds the old one. The subscriptions that refer to the queue's name are subscribed again in
// place after the queue's create, so the failed create leaves them on the queue, which was never deleted.
func TestAccQueue_replacedUnderSameNameCreateBeforeDestroy(t *testing.T) {
	const (
		name  = "acme/crm/prod/replaced/cbd"
		topic = "acme/crm/prod/ce/replaced/cbd/*"
	)
	w, env := subscribedQueueWork(t, name, topic, "lifecycle {\n    create_before_destroy = true\n  }")
	r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color", "-replace=sapmessaging_queue.q")
	if r.ExitCode == 0 || !strings.Contains(r.Output, "Queue Already Exists") {
		t.Fatalf("the create before the destroy did not fail on the existing queue (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if ok, err := acctest.Subscribed(env, t, name, topic); err != nil || !ok {
		t.Fatalf("the failed replacement deleted the subscription of %s (err %v):\n%s", topic, err, r.Output)
	}
}

// subscribedQueueWork applies, with the terraform CLI against an emulator of its own, a queue named name
// (with lifecycle, a block or "") and a subscription of topic that refers to the queue's name.
func subscribedQueueWork(t *testing.T, name, topic, lifecycle string) (*acctest.CLIWork, *acctest.TestEnv) {
	t.Helper()
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	w := acctest.NewCLIWork(t, tf, srv, "", fmt.Sprintf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 3
  %s
}

resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.q.name
  topic_pattern = %q
}
`, name, lifecycle, topic))
	if r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
		t.Fatalf("create: %s", r.Output)
	}
	return w, &acctest.TestEnv{Srv: srv}
}
