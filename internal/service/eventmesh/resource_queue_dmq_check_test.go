package eventmesh_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

const (
	extQueue = "acme/crm/prod/ext"
	extDMQ   = "acme/crm/prod/extdmq"
)

// extQueueHCL is a queue whose dead message queue is made outside the configuration, named as text.
func extQueueHCL(env *acctest.TestEnv, redeliveries int, extra string) string {
	return env.Configf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = %d
  dead_message_queue   = %q
%s}
`, extQueue, redeliveries, extDMQ, extra)
}

func putExtDMQ(t *testing.T, env *acctest.TestEnv) func() {
	return func() { env.PutQueues(t, acctest.EventMeshQueue{Name: extDMQ}) }
}

func deleteExtDMQ(t *testing.T, env *acctest.TestEnv) func() {
	return func() {
		if err := env.EventMesh(t).DeleteQueue(context.Background(), extDMQ); err != nil {
			t.Fatal(err)
		}
	}
}

// putExtQueueWithoutDMQ makes, outside the configuration, the queue extQueue with 3 redeliveries to its dead
// message queue extDMQ, then deletes extDMQ.
func putExtQueueWithoutDMQ(t *testing.T, env *acctest.TestEnv) {
	t.Helper()
	three, dmq := int64(3), extDMQ
	env.PutQueues(t, acctest.EventMeshQueue{Name: extDMQ},
		acctest.EventMeshQueue{Name: extQueue, Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, DeadMsgQueue: &dmq}})
	deleteExtDMQ(t, env)()
}

// A queue whose dead message queue, made outside the configuration, was deleted by hand fails every plan, the one
// that changes nothing (failed messages would be dropped) and the one that writes the queue (the apply would fail),
// from the refresh's queue list: the plan costs no management call beyond it. Once the dead message queue exists
// again, the plan passes.
func TestAccQueue_deadMessageQueueDeletedOutside(t *testing.T) {
	env := acctest.NewTestEnv(t)
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: putExtDMQ(t, env),
			Config:    extQueueHCL(env, 3, ""),
		},
		{
			PreConfig: func() {
				deleteExtDMQ(t, env)()
				env.Srv.ResetStats()
			},
			Config:      extQueueHCL(env, 3, ""),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*dropped.*Create the queue "acme/crm/prod/extdmq" again`),
		},
		{
			PreConfig: func() {
				st := env.Srv.Stats()
				t.Logf("refresh and plan: %d management calls %v", st.ManagementCalls, st.Routes)
				if st.ManagementCalls != 1 || st.Routes["GET /queues"] != 1 {
					t.Fatalf("the refresh and plan of the queue made %d management calls (%v), want the one queue list", st.ManagementCalls, st.Routes)
				}
			},
			Config:      extQueueHCL(env, 4, ""),
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*the apply would fail`),
		},
		{
			PreConfig:        putExtDMQ(t, env),
			Config:           extQueueHCL(env, 4, ""),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

// A queue whose dead message queue is missing is adopted as it is: the import sets
// allow_missing_dead_message_queue, the plan changes nothing and warns; without the attribute the plan refuses
// the queue and names it.
func TestAccQueue_adoptQueueWithMissingDeadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_queue.q"
	importHCL := "\nimport {\n  to = sapmessaging_queue.q\n  id = \"" + extQueue + "\"\n}\n"
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig:   func() { putExtQueueWithoutDMQ(t, env) },
			Config:      extQueueHCL(env, 3, "") + importHCL,
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*allow_missing_dead_message_queue = true`),
		},
		{
			Config:           extQueueHCL(env, 3, "  allow_missing_dead_message_queue = true\n") + importHCL,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_missing_dead_message_queue", true),
			},
			Check: func(*terraform.State) error {
				if q, ok := env.Srv.Queue(extQueue); !ok || q.DeadMsgQueue == nil || *q.DeadMsgQueue != extDMQ {
					return fmt.Errorf("the adopted queue changed: %+v", q)
				}
				return nil
			},
		},
		{
			// A change writes the queue, which Event Mesh refuses while its dead message queue is missing.
			Config:      extQueueHCL(env, 4, "  allow_missing_dead_message_queue = true\n"),
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*the apply would fail`),
		},
		{
			PreConfig:        putExtDMQ(t, env),
			Config:           extQueueHCL(env, 4, ""),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

// The queue list resource writes allow_missing_dead_message_queue = true for a queue whose dead message queue is
// gone, and false for one whose dead message queue exists, from its one queue list.
func TestAccQueueListResource_missingDeadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	putExtQueueWithoutDMQ(t, env)
	acctest.QueryTest(t,
		env.CountedQueryStep(env.ProviderBlock+acctest.ListHCL("sapmessaging_queue", "prod", `name_prefix = "acme/crm/prod/"`, "include_resource = true"),
			querycheck.ExpectResourceKnownValues("sapmessaging_queue.prod", byName(extQueue), acctest.KnownValues(map[string]knownvalue.Check{
				"allow_missing_dead_message_queue": knownvalue.Bool(true),
			})),
			querycheck.ExpectResourceKnownValues("sapmessaging_queue.prod", byName("acme/crm/prod/orders"), acctest.KnownValues(map[string]knownvalue.Check{
				"allow_missing_dead_message_queue": knownvalue.Bool(false),
			})),
			expectManagementCalls(env, 1),
		),
	)
}

// A queue in the state whose dead message queue was deleted by hand is adopted as it is by switching
// allow_missing_dead_message_queue on, as the refusal advises: the plan changes only what the provider keeps,
// warns instead of refusing, and the apply writes nothing to Event Mesh (which refuses any write of the queue
// while its dead message queue is missing); force_destroy alike.
func TestAccQueue_allowMissingDeadMessageQueueInState(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_queue.q"
	puts := func() int64 { return env.Srv.Stats().Routes["PUT /queues/{queue}"] }
	var before int64
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: putExtDMQ(t, env),
			Config:    extQueueHCL(env, 3, ""),
		},
		{
			PreConfig:   deleteExtDMQ(t, env),
			Config:      extQueueHCL(env, 3, ""),
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist`),
		},
		{
			PreConfig:        func() { before = puts() },
			Config:           extQueueHCL(env, 3, "  allow_missing_dead_message_queue = true\n  force_destroy = true\n"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(addr),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_missing_dead_message_queue", true),
				acctest.ExpectBool(addr, "force_destroy", true),
			},
			Check: func(*terraform.State) error {
				if n := puts() - before; n != 0 {
					return fmt.Errorf("the apply wrote the queue %d time(s); only attributes the provider keeps changed", n)
				}
				if q, ok := env.Srv.Queue(extQueue); !ok || q.DeadMsgQueue == nil || *q.DeadMsgQueue != extDMQ || q.MaxRedeliveryCount != 3 {
					return fmt.Errorf("the queue changed: %+v", q)
				}
				return nil
			},
		},
		{
			// A change of a setting writes the queue, which Event Mesh refuses while its dead message queue is missing.
			Config:      extQueueHCL(env, 4, "  allow_missing_dead_message_queue = true\n  force_destroy = true\n"),
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*the apply would fail`),
		},
		{
			PreConfig:        putExtDMQ(t, env),
			Config:           extQueueHCL(env, 4, ""),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

// A queue re-pointed to a dead message queue that the same plan destroys is refused at plan, in
// whichever order Terraform plans the two: the queue names the dead message queue by its literal name,
// so nothing orders them. Before, the plan passed, the delete's check that no queue names the dead
// message queue ran before the queue's write, and the queue named a deleted queue after the apply.
func TestAccQueue_deadMessageQueueDestroyedByTheSamePlan(t *testing.T) {
	env := acctest.NewTestEnv(t)
	cfg := func(stage int) string {
		d, dmq := `
resource "sapmessaging_dead_message_queue" "d" {
  name = "acme/crm/prod/f3/d"
}
`, "sapmessaging_dead_message_queue.d0.name"
		if stage == 2 {
			d, dmq = "", `"acme/crm/prod/f3/d"`
		}
		return env.Configf(`
resource "sapmessaging_dead_message_queue" "d0" {
  name = "acme/crm/prod/f3/d0"
}
%s
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/f3/q"
  max_redelivery_count = 3
  dead_message_queue   = %s
}
`, d, dmq)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: cfg(1)},
		{
			Config:      cfg(2),
			ExpectError: acctest.Wrapped(`Error: Dead Message Queue Destroyed .*This plan destroys the queue "acme/crm/prod/f3/d".*"acme/crm/prod/f3/q" names it as its dead message queue`),
		},
		{
			PreConfig: func() {
				if _, ok := env.Srv.Queue("acme/crm/prod/f3/d"); !ok {
					t.Fatal("the refused plan's dead message queue was deleted")
				}
				if q, ok := env.Srv.Queue("acme/crm/prod/f3/q"); !ok || q.DeadMsgQueue == nil || *q.DeadMsgQueue != "acme/crm/prod/f3/d0" {
					t.Fatalf("the queue was changed by the refused plan: %+v", q)
				}
			},
			Config: cfg(1),
		},
	})
}
