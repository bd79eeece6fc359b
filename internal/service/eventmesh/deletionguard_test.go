package eventmesh_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// deletionGuardTest runs steps against the provider in the test process, beside the other parallel
// tests.
func deletionGuardTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// deletionGuardQueueHCL is sapmessaging_queue.<label> named name, with 5 redeliveries and the line setting.
func deletionGuardQueueHCL(label, name, setting string) string {
	return fmt.Sprintf(`
resource "sapmessaging_queue" %q {
  name                 = %q
  max_redelivery_count = 5
  %s
}
`, label, name, setting)
}

// deletionGuardForce is the force_destroy line of a queue.
func deletionGuardForce(force bool) string { return fmt.Sprintf("force_destroy        = %t", force) }

// deletionGuardDMQ is the dead_message_queue line of a queue naming dmq literally.
func deletionGuardDMQ(dmq string) string { return fmt.Sprintf("dead_message_queue   = %q", dmq) }

// A plain sapmessaging_queue that another queue names as its dead message queue is not deleted
// while it is named: the other queue would point at nothing and its dead messages would vanish.
// force_destroy waives the message guard only, not this one.
func TestAccDeletionGuard_plainQueueUsedAsDMQ(t *testing.T) {
	t.Parallel()
	for _, force := range []bool{false, true} {
		t.Run(fmt.Sprintf("force_destroy=%t", force), func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			const (
				name  = "acme/crm/prod/returns/parking"
				other = "acme/crm/prod/returns"
			)
			ctx := context.Background()
			config := env.Config(deletionGuardQueueHCL("parking", name, deletionGuardForce(force)))
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config: config,
						Check: func(*terraform.State) error {
							// Another team's queue, outside this state, uses the queue as its DMQ.
							five, dmq := int64(5), name
							_, _, err := env.EventMesh(t).PutQueue(ctx, other, eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq})
							return err
						},
					},
					{
						Config:      config,
						Destroy:     true,
						ExpectError: acctest.Wrapped(`Dead Message Queue Still In Use .*` + other + `.*create_before_destroy`),
					},
					{
						Config: config,
						Check: func(*terraform.State) error {
							if _, ok := env.Srv.Queue(name); !ok {
								return fmt.Errorf("the queue named as dead message queue was deleted")
							}
							return env.EventMesh(t).DeleteQueue(ctx, other)
						},
					},
				},
				CheckDestroy: func(*terraform.State) error {
					if _, ok := env.Srv.Queue(name); ok {
						return fmt.Errorf("the queue still exists once nothing names it")
					}
					return nil
				},
			})
		})
	}
}

// messageCount counts every message in the queue, the unacknowledged ones included: one message
// consumed and not yet acknowledged is one message, not two.
func TestAccDeletionGuard_messageCount(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/refunds"
	config := env.Config(deletionGuardQueueHCL("q", name, deletionGuardForce(false)))
	deletionGuardTest(t, []resource.TestStep{
		{
			Config: config,
			Check: func(*terraform.State) error {
				ctx := context.Background()
				m := env.Messaging(t)
				if err := m.Publish(ctx, name, []byte(`{"id":1}`), "application/json"); err != nil {
					return err
				}
				msg, err := m.Consume(ctx, name)
				if err != nil || msg == nil {
					return fmt.Errorf("consuming the message: %v", err)
				}
				return nil
			},
		},
		{
			Config:      config,
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Queue Holds Messages .*holds 1 message\(s\), 1 of them delivered and not yet acknowledged`),
		},
		{Config: env.Config(deletionGuardQueueHCL("q", name, deletionGuardForce(true)))},
	})
}

// Two queues that name each other as dead message queue are refused at plan, before anything
// is written, whether both are new or one of them already exists on the service.
func TestAccDeletionGuard_deadMessageQueueCycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		a = "acme/crm/prod/ping"
		b = "acme/crm/prod/pong"
		c = "acme/crm/prod/pang"
	)
	queue := func(res, name, dmq string) string { return deletionGuardQueueHCL(res, name, deletionGuardDMQ(dmq)) }
	nothingWritten := func(*terraform.State) error {
		for _, n := range []string{a, b, c} {
			if _, ok := env.Srv.Queue(n); ok {
				return fmt.Errorf("queue %s was written", n)
			}
		}
		return nil
	}
	ctx := context.Background()
	deletionGuardTest(t, []resource.TestStep{
		{
			// Both new, named by literal strings: Terraform knows no order between them.
			Config:      env.Config(queue("a", a, b) + queue("b", b, a)),
			ExpectError: acctest.Wrapped(`Dead Message Queue Cycle .*(` + a + ` → ` + b + ` → ` + a + `|` + b + ` → ` + a + ` → ` + b + `)`),
		},
		{
			// A longer cycle of three.
			Config:      env.Config(queue("a", a, b) + queue("b", b, c) + queue("c", c, a)),
			ExpectError: acctest.Wrapped(`Dead Message Queue Cycle .* → .* → .* → `),
			Check:       nothingWritten,
		},
		{
			// The service already holds pong → ping (ping first: a dead message queue must exist
			// before a queue names it); the plan adds ping → pong.
			PreConfig: func() {
				if err := nothingWritten(nil); err != nil {
					t.Fatal(err)
				}
				five, dmq := int64(5), a
				if _, _, err := env.EventMesh(t).PutQueue(ctx, a, eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
					t.Fatal(err)
				}
				if _, _, err := env.EventMesh(t).PutQueue(ctx, b, eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq}); err != nil {
					t.Fatal(err)
				}
			},
			Config:      env.Config(queue("a", a, b)),
			ExpectError: acctest.Wrapped(`Dead Message Queue Cycle .*` + a + ` → ` + b + ` → ` + a),
		},
		{
			// Nothing was written; a chain without a cycle is applied (with a warning). References
			// order the destroy: a queue goes before the queue it names.
			PreConfig: func() {
				if q, ok := env.Srv.Queue(a); !ok || q.DeadMsgQueue != nil {
					t.Fatalf("the queue of the refused cycle was written: %+v", q)
				}
				for _, name := range []string{b, a} {
					if err := env.EventMesh(t).DeleteQueue(ctx, name); err != nil {
						t.Fatal(err)
					}
				}
			},
			Config: env.Config(strings.Replace(queue("a", a, b), `"`+b+`"`, "sapmessaging_queue.b.name", 1) +
				strings.Replace(queue("b", b, c), `"`+c+`"`, "sapmessaging_dead_message_queue.c.name", 1) + fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "c" {
  name = %q
}
`, c)),
		},
	})
}

// An ordinary queue imported as sapmessaging_dead_message_queue shows in the plan that the
// apply resets its redelivery count and removes its dead message queue.
func TestAccDeletionGuard_importOrdinaryQueueAsDMQ(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		name  = "acme/crm/prod/audit"
		other = "acme/crm/prod/audit/dmq"
		addr  = "sapmessaging_dead_message_queue.audit"
	)
	ctx := context.Background()
	config := env.Configf(`
resource "sapmessaging_dead_message_queue" "audit" {
  name = %q
}
`, name)
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				em := env.EventMesh(t)
				ttl, yes, five, dmq := int64(604800), true, int64(5), other
				if _, _, err := em.PutQueue(ctx, other, eventmesh.QueueSettings{MaxTTL: &ttl, RespectTTL: &yes}); err != nil {
					t.Fatal(err)
				}
				if _, _, err := em.PutQueue(ctx, name, eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq, MaxTTL: &ttl, RespectTTL: &yes}); err != nil {
					t.Fatal(err)
				}
			},
			Config:             config,
			ResourceName:       addr,
			ImportState:        true,
			ImportStateId:      name,
			ImportStatePersist: true,
		},
		{
			Config: config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate,
				acctest.PlannedInt(addr, "max_redelivery_count", 0),
				acctest.PlannedNull(addr, "dead_message_queue"),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(addr, "max_redelivery_count", 0),
			},
		},
	})
}

// A destroy of N queues without force_destroy lists the queues once per provider process, reads each queue once for its
// message count and deletes it: linear in calls and bytes, not a list of every queue per queue.
// The dead message queue all of them name is deleted last, once the run's own deletes have
// removed every queue that named it.
func TestAccDeletionGuard_destroyCalls(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 20
	config := env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/many/dmq"
}

resource "sapmessaging_queue" "q" {
  count                = %d
  name                 = "acme/crm/prod/many/q${count.index}"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
}
`, n)
	var listBytes int64
	deletionGuardTest(t, []resource.TestStep{
		{
			Config: config,
			Check: func(*terraform.State) error {
				// The size of one list of all n+1 queues, for the bytes bound below.
				before := env.Srv.Stats().ResponseBytes
				if _, err := env.EventMesh(t).ListQueues(context.Background()); err != nil {
					return err
				}
				listBytes = env.Srv.Stats().ResponseBytes - before
				env.Srv.ResetStats()
				return nil
			},
		},
		{
			Config:  config,
			Destroy: true,
			Check: func(*terraform.State) error {
				st := env.Srv.Stats()
				r := st.Routes
				t.Logf("destroy of %d queues: %d management calls %v, %d bytes sent (one list: %d bytes)",
					n+1, st.ManagementCalls, r, st.ResponseBytes, listBytes)
				if r["DELETE /queues/{queue}"] != n+1 || r["GET /queues/{queue}"] != n+1 {
					return fmt.Errorf("want one GET and one DELETE per queue: %v", r)
				}
				// At most one list per provider process (each fetches one token): the refreshes'
				// reads, the destroy plan's read of the message counts and the apply's checks before
				// the deletes.
				lists, processes := r["GET /queues"], r["POST /oauth/token"]
				if lists > processes || lists > 7 {
					return fmt.Errorf("the destroy listed the queues %d times in %d provider processes, want at most one list per process", lists, processes)
				}
				// The lists, n+1 single GETs of about a (n+1)th of a list each (counted twice
				// over), and the tokens: linear in n. A list per delete would add about (n+1)/2
				// lists.
				if limit := lists*listBytes + 2*listBytes + 2048*processes; st.ResponseBytes > limit {
					return fmt.Errorf("the destroy made the service send %d bytes, want at most %d (linear in the queues)", st.ResponseBytes, limit)
				}
				return nil
			},
		},
	})
}
