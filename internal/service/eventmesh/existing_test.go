package eventmesh_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

const (
	cockpitQueue = "acme/crm/prod/cockpit"
	cockpitDMQ   = "acme/crm/prod/cockpit/dmq"
)

// cockpitHCL declares the two queues made in the cockpit, with other settings than they have there.
const cockpitHCL = `
resource "sapmessaging_dead_message_queue" "dmq" {
  name    = "acme/crm/prod/cockpit/dmq"
  max_ttl = 3600
}

resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/cockpit"
  max_redelivery_count = 3
  dead_message_queue   = sapmessaging_dead_message_queue.dmq.name
}
`

// cockpitUnchanged asserts that the queues made in the cockpit still hold their own settings.
func cockpitUnchanged(env *acctest.TestEnv) error {
	q, ok := env.Srv.Queue(cockpitQueue)
	if !ok || q.MaxRedeliveryCount != 9 || q.DeadMsgQueue == nil || *q.DeadMsgQueue != cockpitDMQ ||
		q.AccessType != "EXCLUSIVE" || q.RespectTTL == nil || !*q.RespectTTL || q.MaxTTL == nil || *q.MaxTTL != 600 {
		return fmt.Errorf("the cockpit's queue was changed: %+v", q)
	}
	d, ok := env.Srv.Queue(cockpitDMQ)
	if !ok || d.MaxTTL != nil || (d.RespectTTL != nil && *d.RespectTTL) {
		return fmt.Errorf("the cockpit's dead message queue was changed: %+v", d)
	}
	return nil
}

// A configuration that declares queues made outside it does not take them over: the create fails
// with the import block that adopts each, and nothing on the service changes. With the import
// blocks added, the plan imports and updates them, and the apply converges.
func TestAccQueue_existingQueueNotTakenOver(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ctx := context.Background()
	nine, ttl, yes, exclusive, dmq := int64(9), int64(600), true, "EXCLUSIVE", cockpitDMQ
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				em := env.EventMesh(t)
				if _, _, err := em.PutQueue(ctx, cockpitDMQ, eventmesh.QueueSettings{}); err != nil {
					t.Fatal(err)
				}
				if _, _, err := em.PutQueue(ctx, cockpitQueue, eventmesh.QueueSettings{
					MaxRedeliveryCount: &nine, DeadMsgQueue: &dmq, RespectTTL: &yes, MaxTTL: &ttl, AccessType: &exclusive,
				}); err != nil {
					t.Fatal(err)
				}
				env.Srv.ResetStats()
			},
			Config: env.Config(cockpitHCL),
			ExpectError: acctest.Wrapped(`Queue Already Exists .*"acme/crm/prod/cockpit/dmq" already exists.* - to be managed via Terraform this resource needs to be imported` +
				`.*import {.*to = sapmessaging_dead_message_queue.<resource name>.*id = "acme/crm/prod/cockpit/dmq".*}`),
		},
		{
			PreConfig: func() {
				if err := cockpitUnchanged(env); err != nil {
					t.Fatal(err)
				}
				// Each provider process read the queue list once (the plan's for the dead message
				// queue cycle check, the apply's for that and the existence check) and nothing
				// was written.
				st := env.Srv.Stats()
				t.Logf("refused create: %v", st.Routes)
				if st.Routes["GET /queues"] != 2 || st.Routes["PUT /queues/{queue}"] != 0 {
					t.Fatalf("want one queue list per provider process and no PUT for the refused create: %v", st.Routes)
				}
			},
			// Without its DMQ in the state, the queue waits no more and is refused the same way.
			Config: env.Config(`
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/cockpit"
  max_redelivery_count = 3
  dead_message_queue   = "acme/crm/prod/cockpit/dmq"
}
`),
			ExpectError: acctest.Wrapped(`Queue Already Exists .*"acme/crm/prod/cockpit" already exists .*import {.*to = sapmessaging_queue.<resource name>.*id = "acme/crm/prod/cockpit"`),
		},
		{
			PreConfig: func() {
				if err := cockpitUnchanged(env); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(cockpitHCL + `
import {
  to = sapmessaging_dead_message_queue.dmq
  id = "acme/crm/prod/cockpit/dmq"
}

import {
  to = sapmessaging_queue.q
  id = "acme/crm/prod/cockpit"
}
`),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue.q", plancheck.ResourceActionUpdate,
				acctest.ExpectUpdate("sapmessaging_dead_message_queue.dmq"),
			),
			Check: resource.ComposeTestCheckFunc(
				acctest.CheckStateMatchesEmulator(env, 2, 0),
				func(*terraform.State) error {
					if q, _ := env.Srv.Queue(cockpitQueue); q.MaxRedeliveryCount != 3 {
						return fmt.Errorf("after the import the queue holds maxRedeliveryCount %d, want 3", q.MaxRedeliveryCount)
					}
					return nil
				},
			),
		},
	})
}

// A create whose answer is lost and whose confirming read fails too leaves the queue written on
// the service: it is recorded in the state with an error that says it may exist, so Terraform
// taints it. The next apply replaces the empty queue and converges: no orphan, no duplicate.
func TestAccReliability_lostAnswerFailingConfirm(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/unsure"
	config := env.ProviderWith("  max_retries = 0") + fmt.Sprintf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 4
}
`, name)
	deletionGuardTest(t, []resource.TestStep{
		{
			// The queue's PUT loses its answer, and the read back fails.
			PreConfig: func() {
				env.Srv.InjectNextOn("PUT /queues/{queue}", emulator.FaultLostResponse)
				env.Srv.InjectNextOn("GET /queues/{queue}", emulator.Fault503)
			},
			Config:      config,
			ExpectError: acctest.Wrapped(`Queue May Exist .*"acme/crm/prod/unsure" was sent, but the outcome is unknown .*tainted`),
		},
		{
			PreConfig: func() {
				if pending := env.Srv.PendingFaults(); len(pending) != 0 {
					t.Fatalf("faults not taken: %v", pending)
				}
				if _, ok := env.Srv.Queue(name); !ok {
					t.Fatal("the lost create did not reach the emulator; the test does not exercise an unknown outcome")
				}
			},
			Config:           config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue.q", plancheck.ResourceActionDestroyBeforeCreate),
			Check:            acctest.CheckStateMatchesEmulator(env, 1, 0),
		},
	})
}

// The existence check costs one queue list for all creates of an apply, and the refresh of every
// queue stays at one management call.
func TestAccQueue_createCheckAndRefreshCalls(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 25
	hcl := fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  count = %[1]d
  name  = format("acme/crm/prod/calls/q%%03d/dmq", count.index)
}

resource "sapmessaging_queue" "q" {
  count                = %[1]d
  name                 = format("acme/crm/prod/calls/q%%03d", count.index)
  max_redelivery_count = 5
  dead_message_queue   = sapmessaging_dead_message_queue.dmq[count.index].name
}
`, n)
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: env.Srv.ResetStats,
			Config:    env.Config(hcl),
			Check: func(*terraform.State) error {
				st := env.Srv.Stats()
				t.Logf("apply of %d queues: %d management calls %v", 2*n, st.ManagementCalls, st.Routes)
				// One queue list per provider process, whatever the number of queues: the plan's
				// serves the dead message queue cycle check, the apply's both that check before
				// each write and the existence check before each create.
				if st.Routes["GET /queues"] != 2 || st.Routes["GET /queues/{queue}"] != 0 ||
					st.Routes["PUT /queues/{queue}"] != 2*n || st.ManagementCalls != 2*n+2 {
					return fmt.Errorf("the apply of %d queues made %d management calls (%v), want %d PUTs and one list per provider process",
						2*n, st.ManagementCalls, st.Routes, 2*n)
				}
				return nil
			},
		},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    env.Config(hcl),
			PlanOnly:  true,
		},
		{
			PreConfig: func() {
				st := env.Srv.Stats()
				t.Logf("plan-only step: %d management calls %v", st.ManagementCalls, st.Routes)
				if st.ManagementCalls != 1 || st.Routes["GET /queues"] != 1 {
					t.Fatalf("the refresh of %d queues made %d management calls (%v), want one list and nothing else",
						2*n, st.ManagementCalls, st.Routes)
				}
			},
			Config:   env.Config(hcl),
			PlanOnly: true,
		},
	})
}

// A queue made in the cockpit with the Event Mesh default (redelivery count 0, unlimited) can be
// imported as it is with allow_unlimited_redelivery = true, as terraform query writes it: the
// import changes nothing, the import sets the attribute from what the queue holds, and the next
// plan is empty. Without the attribute the plan refuses the count and says how to adopt the queue;
// setting a limit and dropping the attribute writes the limit.
func TestAccQueue_adoptUnlimitedQueueAsItIs(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/adopted"
	const addr = "sapmessaging_queue.adopted"
	queueHCL := func(count int, allow string) string {
		return env.Configf(`
resource "sapmessaging_queue" "adopted" {
  name                 = %q
  max_redelivery_count = %d
%s}
`, name, count, allow)
	}
	importHCL := "\nimport {\n  to = sapmessaging_queue.adopted\n  id = \"" + name + "\"\n}\n"
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				if _, _, err := env.EventMesh(t).PutQueue(context.Background(), name, eventmesh.QueueSettings{}); err != nil {
					t.Fatal(err)
				}
			},
			Config:           queueHCL(0, "  allow_unlimited_redelivery = true\n") + importHCL,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_unlimited_redelivery", true),
				acctest.ExpectInt(addr, "max_redelivery_count", 0),
			},
		},
		{
			Config:      queueHCL(0, ""),
			ExpectError: acctest.Wrapped(`Unlimited Redelivery.*set allow_unlimited_redelivery = true for now`),
		},
		{
			Config:           queueHCL(5, ""),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_unlimited_redelivery", false),
			},
			Check: func(*terraform.State) error {
				if q, _ := env.Srv.Queue(name); q.MaxRedeliveryCount != 5 {
					return fmt.Errorf("the queue holds maxRedeliveryCount %d, want 5", q.MaxRedeliveryCount)
				}
				return nil
			},
		},
	})
}

// An update the service refuses (429, without retries) writes nothing, and the state keeps the queue as
// it was, force_destroy included: the old configuration plans nothing, the new one plans the whole
// update again.
func TestAccQueue_refusedUpdateKeepsState(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr, name = "sapmessaging_queue.q", "acme/crm/prod/refused"
	config := func(redeliveries int, force bool) string {
		return env.ProviderWith("  max_retries = 0") + fmt.Sprintf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = %d
  force_destroy        = %t
}
`, name, redeliveries, force)
	}
	deletionGuardTest(t, []resource.TestStep{
		{Config: config(4, false)},
		{
			PreConfig:   func() { env.Srv.InjectNextOn("PUT /queues/{queue}", emulator.Fault429) },
			Config:      config(6, true),
			ExpectError: acctest.Wrapped(`Cannot Write Queue`),
		},
		{
			PreConfig: func() {
				if pending := env.Srv.PendingFaults(); len(pending) != 0 {
					t.Fatalf("faults not taken: %v", pending)
				}
				if q, _ := env.Srv.Queue(name); q.MaxRedeliveryCount != 4 {
					t.Fatalf("the refused update wrote maxRedeliveryCount %d", q.MaxRedeliveryCount)
				}
			},
			Config:           config(4, false),
			ConfigPlanChecks: acctest.EmptyPlanBeforeApply(),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(addr, "max_redelivery_count", 4),
				acctest.ExpectBool(addr, "force_destroy", false),
			},
		},
		{
			Config:            config(6, true),
			ConfigPlanChecks:  acctest.ExpectUpdateThenEmptyPlan(addr),
			ConfigStateChecks: []statecheck.StateCheck{acctest.ExpectInt(addr, "max_redelivery_count", 6)},
		},
	})
}
