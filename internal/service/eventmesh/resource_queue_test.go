package eventmesh_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// checkServerQueue asserts what the emulator holds for testQueue, the queue
// queueHCL configures, through its management API.
func checkServerQueue(env *acctest.TestEnv, t *testing.T, redeliveries int64) resource.TestCheckFunc {
	return func(*terraform.State) error {
		q, err := env.EventMesh(t).GetQueue(context.Background(), acctest.TestQueue)
		if err != nil {
			return err
		}
		if q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != redeliveries {
			return fmt.Errorf("queue %s: maxRedeliveryCount %v, want %d", acctest.TestQueue, q.MaxRedeliveryCount, redeliveries)
		}
		return nil
	}
}

func TestAccQueue_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.Config(acctest.QueueHCL(3)),
				Check:  checkServerQueue(env, t, 3),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectString("sapmessaging_queue.orders", "id", acctest.TestQueue),
					acctest.ExpectInt("sapmessaging_queue.orders", "max_redelivery_count", 3),
					acctest.ExpectString("sapmessaging_queue.orders", "access_type", "NON_EXCLUSIVE"),
					acctest.ExpectString("sapmessaging_queue.orders", "dead_message_queue", acctest.TestQueue+"/dmq"),
					acctest.ExpectNotNull("sapmessaging_queue.orders", "max_queue_size_in_bytes"),
					acctest.ExpectBool("sapmessaging_queue.orders", "force_destroy", false),
					acctest.ExpectBool("sapmessaging_dead_message_queue.dmq", "respect_ttl", true),
					acctest.ExpectInt("sapmessaging_dead_message_queue.dmq", "max_ttl", 604800),
				},
				ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
			},
			{
				Config:           env.Config(acctest.QueueHCL(5)),
				Check:            checkServerQueue(env, t, 5),
				ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue.orders", plancheck.ResourceActionUpdate),
			},
			{
				ResourceName:      "sapmessaging_queue.orders",
				ImportState:       true,
				ImportStateId:     acctest.TestQueue,
				ImportStateVerify: true,
			},
			{
				ResourceName:      "sapmessaging_dead_message_queue.dmq",
				ImportState:       true,
				ImportStateId:     acctest.TestQueue + "/dmq",
				ImportStateVerify: true,
			},
		},
		CheckDestroy: func(*terraform.State) error {
			for _, name := range []string{acctest.TestQueue, acctest.TestQueue + "/dmq"} {
				if _, ok := env.Srv.Queue(name); ok {
					return fmt.Errorf("queue %s still exists after destroy", name)
				}
			}
			return nil
		},
	})
}

func TestAccQueue_drift(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ctx := context.Background()
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(acctest.QueueHCL(3))},
		{
			// Someone sets the count to 0 (unlimited) in the cockpit: the next plan restores it.
			PreConfig: func() {
				em := env.EventMesh(t)
				q, err := em.GetQueue(ctx, acctest.TestQueue)
				if err != nil {
					t.Fatal(err)
				}
				zero := int64(0)
				s := q.Settings()
				s.MaxRedeliveryCount = &zero
				if _, _, err := em.PutQueue(ctx, acctest.TestQueue, s); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(acctest.QueueHCL(3)),
			Check:  checkServerQueue(env, t, 3),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate("sapmessaging_queue.orders"),
					acctest.PlannedInt("sapmessaging_queue.orders", "max_redelivery_count", 3),
				},
			},
		},
		{
			// The queue is deleted out of band: it leaves the state and is planned for creation.
			PreConfig: func() {
				if err := env.EventMesh(t).DeleteQueue(ctx, acctest.TestQueue); err != nil {
					t.Fatal(err)
				}
			},
			Config:           env.Config(acctest.QueueHCL(3)),
			Check:            checkServerQueue(env, t, 3),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue.orders", plancheck.ResourceActionCreate),
		},
	})
}

func TestAccQueue_rules(t *testing.T) {
	env := acctest.NewTestEnv(t)
	queue := func(body string) string {
		return env.Configf(`
resource "sapmessaging_queue" "q" {
  name = "acme/crm/prod/orders"
%s
}
`, body)
	}
	steps := []struct {
		body string
		want string
	}{
		{`dead_message_queue = "acme/crm/prod/orders/dmq"`, `Unlimited Redelivery`},
		{"max_redelivery_count = 0\ndead_message_queue = \"acme/crm/prod/orders/dmq\"", `(?s)Unlimited Redelivery.*unlimited`},
		{"max_redelivery_count = 256\ndead_message_queue = \"acme/crm/prod/orders/dmq\"", `Invalid Max Redelivery Count`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/orders\"", `Dead Message Queue Cycle`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/test/orders/dmq\"", `Dead Message Queue Outside Namespace`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/dmq\"\nrespect_ttl = true", `Respect TTL Without Max TTL`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/dmq\"\nmax_ttl = 60", `Max TTL Without Respect TTL`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/dmq\"\nrespect_ttl = true\nmax_ttl = 604801", `Invalid Max TTL`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/dmq\"\naccess_type = \"SHARED\"", `Invalid Access Type`},
		{"max_redelivery_count = 5\ndead_message_queue = \"\"", `Empty Dead Message Queue .*dead_message_queue = "" names no queue.*remove the attribute`},
		{"max_redelivery_count = 5\ndead_message_queue = \"acme/crm/prod/../dmq\"", `Invalid Dead Message Queue Name .*segment 4 .* is ".."`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: queue(s.body), PlanOnly: true, ExpectError: acctest.Wrapped(s.want)})
	}
	for _, bad := range []struct {
		name string
		want *regexp.Regexp
	}{
		{"acme crm", regexp.MustCompile(`Invalid Queue Name`)},
		{"acme/crm/prod/prüfung", acctest.Wrapped(`Invalid Queue Name .*contains the character 'ü' \(U\+00FC\) at byte 16`)},
	} {
		ts = append(ts, resource.TestStep{
			Config:      env.Config(fmt.Sprintf("\nresource \"sapmessaging_queue\" \"q\" {\n  name                 = %q\n  max_redelivery_count = 5\n}\n", bad.name)),
			PlanOnly:    true,
			ExpectError: bad.want,
		})
	}
	acctest.ParallelTest(t, ts)
	if n := env.Srv.Stats().ManagementCalls; n != 0 {
		t.Errorf("refused plans made %d management API calls, want 0", n)
	}
}

// A queue without a dead message queue is allowed, with a warning; the apply works and the plan is then empty.
func TestAccQueue_withoutDeadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: env.Config(`
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/dev/scratch"
  max_redelivery_count = 2
  access_type          = "EXCLUSIVE"
}
`),
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.ExpectNull("sapmessaging_queue.q", "dead_message_queue"),
			acctest.ExpectString("sapmessaging_queue.q", "access_type", "EXCLUSIVE"),
			acctest.ExpectBool("sapmessaging_queue.q", "respect_ttl", false),
			acctest.ExpectNull("sapmessaging_queue.q", "max_ttl"),
		},
		ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
	}})
}

// A queue holding messages is not deleted without force_destroy: the destroy fails and the
// messages stay. With force_destroy = true applied first, the destroy deletes it, and the dead
// message queue holding messages too, without reading either queue before its DELETE.
func TestAccQueue_forceDestroy(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name = "acme/crm/prod/invoices"
		dmq  = "acme/crm/prod/invoices/dmq"
	)
	hcl := func(force bool) string {
		return env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name          = %[2]q
  force_destroy = %[3]t
}

resource "sapmessaging_queue" "q" {
  name                 = %[1]q
  max_redelivery_count = 5
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
  force_destroy        = %[3]t
}
`, name, dmq, force)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: hcl(false),
				Check:  env.PublishAfterApply(t, name, dmq),
			},
			{
				Config:      hcl(false),
				Destroy:     true,
				ExpectError: acctest.Wrapped(`Queue Holds Messages.*1 message.*force_destroy = true`),
			},
			{
				Config: hcl(false),
				Check: func(*terraform.State) error {
					for _, n := range []string{name, dmq} {
						if q, ok := env.Srv.Queue(n); !ok || q.MessageCount != 1 {
							return fmt.Errorf("queue %s or its message was lost: %v %+v", n, ok, q)
						}
					}
					return nil
				},
			},
			{
				Config: hcl(true),
				Check: func(*terraform.State) error {
					env.Srv.ResetStats()
					return nil
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			for _, n := range []string{name, dmq} {
				if _, ok := env.Srv.Queue(n); ok {
					return fmt.Errorf("queue %s still exists after a destroy with force_destroy = true", n)
				}
			}
			if r := env.Srv.Stats().Routes; r["DELETE /queues/{queue}"] != 2 || r["GET /queues/{queue}"] != 0 {
				return fmt.Errorf("the destroy with force_destroy = true made %v, want the 2 DELETEs and no read of a queue", r)
			}
			return nil
		},
	})
}

// With force_destroy = true a queue deleted by someone else between the plan and the apply of a
// destroy is gone already, which is no error: unnamed, the provider's DELETE finds no queue (404)
// and nothing is read; named as dead message queue by another queue (outside the configuration),
// the provider reads it, finds nothing, and succeeds instead of refusing to delete a queue that is
// still named.
func TestAccQueue_forceDestroyGoneBeforeDelete(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, queue, namedBy string
		check                func(st emulator.Stats) error
	}{
		{"unnamed", "acme/crm/prod/credits", "", func(st emulator.Stats) error {
			// The out-of-band DELETE and the provider's, which found no queue.
			if st.Routes["DELETE /queues/{queue}"] != 2 || st.Statuses[404] != 1 || st.Routes["GET /queues/{queue}"] != 0 {
				return fmt.Errorf("want two DELETEs, the second answered 404, and no read of the queue: %v %v", st.Routes, st.Statuses)
			}
			return nil
		}},
		{"named by another queue", "acme/crm/prod/credits/dmq", "acme/crm/prod/credits", func(st emulator.Stats) error {
			if st.Routes["GET /queues/{queue}"] != 1 || st.Routes["DELETE /queues/{queue}"] != 1 {
				return fmt.Errorf("want the out-of-band DELETE and one read of the named queue, no DELETE by the provider: %v", st.Routes)
			}
			return nil
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			config := env.Configf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 5
  force_destroy        = true
}
`, tc.queue)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: config},
					{
						PreConfig: func() {
							if tc.namedBy != "" {
								dmq := tc.queue
								if _, _, err := env.EventMesh(t).PutQueue(context.Background(), tc.namedBy, eventmesh.QueueSettings{DeadMsgQueue: &dmq}); err != nil {
									t.Fatal(err)
								}
							}
							env.Srv.ResetStats()
						},
						Config:  config,
						Destroy: true,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							acctest.ChangeOnTenant(func() error { return env.EventMesh(t).DeleteQueue(context.Background(), tc.queue) }),
						}},
					},
					{
						PreConfig: func() {
							if err := tc.check(env.Srv.Stats()); err != nil {
								t.Fatal(err)
							}
						},
						Config: env.Config(""),
					},
				},
			})
		})
	}
}

// A queue whose dead message queue does not exist is refused by Event Mesh ("You must first
// create a queue to use it as a dead message queue"). The plan already read the queue list, so
// the plan fails: the error names the missing queue and says to refer to the name of the resource
// that creates it, so that Terraform plans and creates that one first. Nothing is left behind.
// The same dead message queue, created by a resource this queue refers to, plans and applies.
func TestAccQueue_missingDeadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.Config(`
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/refunds"
  max_redelivery_count = 5
  dead_message_queue   = "acme/crm/prod/refunds/dmq"
}
`),
			PlanOnly: true,
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*"acme/crm/prod/refunds/dmq" of "acme/crm/prod/refunds" does not exist.*no resource planned before ` +
				`this one in this run creates it.*set dead_message_queue to that resource's name attribute.*sapmessaging_dead_message_queue.dmq.name`),
		}, {
			Config: env.Config(acctest.QueueWithDMQHCL("q", "acme/crm/prod/refunds", 5, "")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString("sapmessaging_queue.q", "dead_message_queue", "acme/crm/prod/refunds/dmq"),
			},
		}},
		CheckDestroy: func(*terraform.State) error {
			if qs := env.Srv.Queues(); len(qs) != 0 {
				return fmt.Errorf("%d queue(s) left behind", len(qs))
			}
			return nil
		},
	})
}

// A destroy of N queues costs, per instance, one queue list in each of the plan's and the apply's
// provider processes and one DELETE per queue; without force_destroy also one GET per queue, the
// fresh read of the message count that guards the messages. With force_destroy = true the user has
// waived that guard, so no queue is read before its DELETE. The dead message queue guard holds in
// both modes: the dead message queue all the others name goes last, once the run's own deletes
// have removed them.
func TestAccQueue_destroyCalls(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 12 // one dead message queue and n-1 queues that name it
	hcl := func(force bool) string {
		return env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name          = "acme/crm/prod/teardown/dmq"
  force_destroy = %[2]t
}

resource "sapmessaging_queue" "q" {
  count                = %[1]d
  name                 = format("acme/crm/prod/teardown/q%%02d", count.index)
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
  force_destroy        = %[2]t
}
`, n-1, force)
	}
	// destroyCalls checks the management calls of the destroy step before it: the refresh of the
	// destroy plan and the apply, with the post-destroy plans of an empty state adding none.
	destroyCalls := func(force bool) func() {
		return func() {
			st := env.Srv.Stats()
			r := st.Routes
			t.Logf("destroy of %d queues with force_destroy = %t: %d management calls %v", n, force, st.ManagementCalls, r)
			if qs := env.Srv.Queues(); len(qs) != 0 {
				t.Fatalf("the destroy with force_destroy = %t left %d queue(s)", force, len(qs))
			}
			// One list in the refresh's process and one in the apply's; without force_destroy one more in
			// the destroy plan's, which reads the message counts at plan.
			wantLists, wantGets, want := int64(3), int64(n), int64(2*n+3)
			if force {
				wantLists, wantGets, want = 2, 0, n+2
			}
			if r["DELETE /queues/{queue}"] != n || r["GET /queues"] != wantLists {
				t.Fatalf("the destroy with force_destroy = %t made %v, want %d DELETEs and %d lists, one per provider process", force, r, n, wantLists)
			}
			if r["GET /queues/{queue}"] != wantGets || st.ManagementCalls != want {
				t.Fatalf("the destroy with force_destroy = %t made %d management calls (%v), want %d: %d GETs of a queue, %d DELETEs and %d lists",
					force, st.ManagementCalls, r, want, wantGets, n, wantLists)
			}
		}
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: hcl(false)},
		{PreConfig: env.Srv.ResetStats, Config: hcl(false), Destroy: true},
		{PreConfig: destroyCalls(false), Config: hcl(true)},
		{PreConfig: env.Srv.ResetStats, Config: hcl(true), Destroy: true},
		{PreConfig: destroyCalls(true), Config: env.Config("")},
	})
}
