package eventmesh_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// queueNamesRedeliveries returns the max_redelivery_count the emulator's queue holds, -1 if it does not exist.
func queueNamesRedeliveries(env *acctest.TestEnv, name string) int64 {
	q, ok := env.Srv.Queue(name)
	if !ok {
		return -1
	}
	return q.MaxRedeliveryCount
}

// Two resources of one configuration that name the same queue are refused at plan, with the API
// slow enough that their creates would race: nothing is written. A resource that already holds
// the queue keeps it and its settings when a second one names it; a dead message queue shares
// the names of queues; a resource whose name change replaces it is not its own duplicate.
func TestAccQueueNames_duplicateRefusedAtPlan(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/dup"
	two := func(typeB string) string {
		setting := "max_redelivery_count = 7"
		if typeB == "sapmessaging_dead_message_queue" {
			setting = "max_ttl = 600"
		}
		return env.Configf(`
resource "sapmessaging_queue" "a" {
  name                 = %q
  max_redelivery_count = 3
}

resource %q "b" {
  name = %q
  %s
}
`, name, typeB, name, setting)
	}
	one := func(n string) string {
		return env.Configf(`
resource "sapmessaging_queue" "a" {
  name                 = %q
  max_redelivery_count = 3
}
`, n)
	}
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig:   func() { env.Srv.SetFaults(emulator.Faults{Latency: 200 * time.Millisecond}) },
			Config:      two("sapmessaging_queue"),
			ExpectError: acctest.Wrapped(`Duplicate Queue Name .*Two resources of this configuration name the queue "` + name + `".*Give each resource its own queue name`),
		},
		{
			PreConfig: func() {
				if _, ok := env.Srv.Queue(name); ok {
					t.Fatal("the refused plan created the queue")
				}
				if n := env.Srv.Stats().Routes["PUT /queues/{queue}"]; n != 0 {
					t.Fatalf("the refused plan sent %d queue PUTs", n)
				}
			},
			Config:      two("sapmessaging_dead_message_queue"),
			ExpectError: acctest.Wrapped(`Duplicate Queue Name .*"` + name + `"`),
		},
		{Config: one(name)},
		{
			// The queue exists with a's settings; b names it too.
			Config:      two("sapmessaging_queue"),
			ExpectError: acctest.Wrapped(`Duplicate Queue Name .*"` + name + `".*sapmessaging_queue resource that (holds it in its state|plans to create it)`),
		},
		{
			PreConfig: func() {
				if got := queueNamesRedeliveries(env, name); got != 3 {
					t.Fatalf("after the refused plan the queue holds max_redelivery_count %d, want a's 3", got)
				}
			},
			// A new name replaces a: Terraform plans it twice, the second time without its state.
			Config: one(name + "/renamed"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("sapmessaging_queue.a", plancheck.ResourceActionDestroyBeforeCreate),
			}},
			Check: func(*terraform.State) error {
				if got := queueNamesRedeliveries(env, name+"/renamed"); got != 3 {
					return fmt.Errorf("the renamed queue holds max_redelivery_count %d, want 3", got)
				}
				return nil
			},
		},
	})
}

// Names that the plan does not know yet (they come from another resource) are reserved when the
// apply plans the resources again with the names known: of two resources that would create the
// same queue at once, the second fails before writing, and the state holds exactly one of them
// with the settings the queue holds.
func TestAccQueueNames_duplicateRefusedAtApply(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/dup-late"
	config := env.Configf(`
resource "terraform_data" "n" {
  input = %q
}

resource "sapmessaging_queue" "a" {
  name                 = terraform_data.n.output
  max_redelivery_count = 3
}

resource "sapmessaging_queue" "b" {
  name                 = terraform_data.n.output
  max_redelivery_count = 7
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { env.Srv.SetFaults(emulator.Faults{Latency: 200 * time.Millisecond}) },
				Config:      config,
				ExpectError: acctest.Wrapped(`Duplicate Queue Name .*Two resources of this configuration name the queue "` + name + `"`),
			},
			{
				PreConfig: func() {
					// At most one of the two wrote the queue, and it holds that one's settings.
					puts := env.Srv.Stats().Routes["PUT /queues/{queue}"]
					got := queueNamesRedeliveries(env, name)
					if puts > 1 || (puts == 1) != (got == 3 || got == 7) || (puts == 0) != (got == -1) {
						t.Fatalf("the refused apply sent %d queue PUTs and left max_redelivery_count %d; want at most one PUT, of a's 3 or b's 7", puts, got)
					}
				},
				// Whichever resource holds the queue is destroyed.
				Config: env.Configf(`
resource "terraform_data" "n" {
  input = %q
}
`, name),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if _, ok := env.Srv.Queue(name); ok {
				return fmt.Errorf("the queue is left behind")
			}
			return nil
		},
	})
}

// A queue made elsewhere after the apply checked that its name was free is not adopted: the
// create's PUT is answered 200 (replaced), not 201, and the apply fails with the import block,
// saying that the settings were replaced. Importing it then adopts it.
func TestAccQueueNames_madeElsewhereDuringApply(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		dmq  = "acme/crm/prod/race/dmq"
		name = "acme/crm/prod/race"
	)
	config := env.Configf(`
resource "sapmessaging_dead_message_queue" "d" {
  name = %q
}

resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 4
  dead_message_queue   = sapmessaging_dead_message_queue.d.name
}
`, dmq, name)
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	deletionGuardTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				// The dead message queue's answer is held back; as soon as it exists (the apply
				// has listed the queues by then), the cockpit creates the queue, which the apply
				// creates next.
				env.Srv.SetFaults(emulator.Faults{ResponseLatency: 300 * time.Millisecond})
				em := env.EventMesh(t)
				wg.Go(func() {
					deadline := time.Now().Add(2 * time.Minute)
					for time.Now().Before(deadline) {
						if _, ok := env.Srv.Queue(dmq); ok {
							nine := int64(9)
							if _, _, err := em.PutQueue(context.Background(), name, eventmesh.QueueSettings{MaxRedeliveryCount: &nine}); err != nil {
								t.Error(err)
							}
							return
						}
						time.Sleep(time.Millisecond)
					}
					t.Error("the dead message queue was never created")
				})
			},
			Config: config,
			ExpectError: acctest.Wrapped(`Queue Already Exists .*"` + name + `" already existed when this apply created it: .*answered the create with 200` +
				`.*import {.*to = sapmessaging_queue.<resource name>.*id = "` + name + `".*}`),
		},
		{
			PreConfig: func() {
				wg.Wait()
				env.Srv.ClearFaults()
			},
			Config: config + fmt.Sprintf(`
import {
  to = sapmessaging_queue.q
  id = %q
}
`, name),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				acctest.ExpectNoop("sapmessaging_queue.q"),
			}},
			Check: acctest.CheckStateMatchesEmulator(env, 2, 0),
		},
	})
}
