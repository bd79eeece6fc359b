package eventmesh_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const (
	safetyQueue = "acme/crm/prod/payments"
	safetyDMQ   = "acme/crm/prod/payments/dmq"
)

// safetyHCL is the queue, naming the DMQ through a reference when withRef is set, and the DMQ
// (with create_before_destroy when cbd is set) when withDMQ is set.
func safetyHCL(withRef, withDMQ, cbd bool) string {
	var hcl string
	if withDMQ {
		lifecycle := ""
		if cbd {
			lifecycle = "lifecycle {\n    create_before_destroy = true\n  }"
		}
		hcl += fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = %q
  %s
}
`, safetyDMQ, lifecycle)
	}
	ref := ""
	if withRef {
		ref = "dead_message_queue   = sapmessaging_dead_message_queue.dmq.name"
	}
	return hcl + deletionGuardQueueHCL("q", safetyQueue, ref)
}

// safetyServerHolds asserts which of the two queues the emulator holds, and the queue's dead message queue.
func safetyServerHolds(env *acctest.TestEnv, queue, dmq bool, queueDMQ string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		q, hasQueue := env.Srv.Queue(safetyQueue)
		_, hasDMQ := env.Srv.Queue(safetyDMQ)
		if hasQueue != queue || hasDMQ != dmq {
			return fmt.Errorf("emulator holds queue %t and DMQ %t, want %t and %t", hasQueue, hasDMQ, queue, dmq)
		}
		if hasQueue {
			got := ""
			if q.DeadMsgQueue != nil {
				got = *q.DeadMsgQueue
			}
			if got != queueDMQ {
				return fmt.Errorf("the queue's deadMsgQueue is %q, want %q", got, queueDMQ)
			}
		}
		return nil
	}
}

// Destroying a queue and its DMQ in one apply destroys the queue first. Dropping only the
// queue's reference while destroying the DMQ is ordered the other way by Terraform: the queue's
// update waits for the DMQ's destroy. The provider then refuses to delete the DMQ, which survives
// with its settings, and the error says how to get out; applying the queue change first works.
func TestAccDataSafety_deadMessageQueueDestroyOrder(t *testing.T) {
	env := acctest.NewTestEnv(t)
	deletionGuardTest(t, []resource.TestStep{
		{
			Config: env.Config(safetyHCL(true, true, false)),
			Check:  safetyServerHolds(env, true, true, safetyDMQ),
		},
		{
			// The queue and its DMQ go in one apply: the queue first.
			Config: env.Config(`# nothing`),
			Check:  safetyServerHolds(env, false, false, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sapmessaging_queue.q", plancheck.ResourceActionDestroy),
					plancheck.ExpectResourceAction("sapmessaging_dead_message_queue.dmq", plancheck.ResourceActionDestroy),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
		},
		{
			Config: env.Config(safetyHCL(true, true, false)),
			Check:  safetyServerHolds(env, true, true, safetyDMQ),
		},
		{
			// The reference and the DMQ go in one apply: Terraform tries the DMQ first, which is refused.
			Config:      env.Config(safetyHCL(false, false, false)),
			ExpectError: acctest.Wrapped(`Dead Message Queue Still In Use .*` + regexp.QuoteMeta(safetyQueue) + `.*terraform apply -target=.*create_before_destroy = true`),
		},
		{
			// Nothing was lost; the queue change applied alone goes through.
			Config: env.Config(safetyHCL(false, true, false)),
			Check:  safetyServerHolds(env, true, true, ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{acctest.ExpectUpdate("sapmessaging_queue.q")},
			},
		},
		{
			Config:           env.Config(safetyHCL(false, false, false)),
			Check:            safetyServerHolds(env, true, false, ""),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

// With create_before_destroy on the DMQ, one apply that drops the queue's reference and the DMQ
// updates the queue first and then destroys the DMQ.
func TestAccDataSafety_deadMessageQueueCreateBeforeDestroy(t *testing.T) {
	env := acctest.NewTestEnv(t)
	deletionGuardTest(t, []resource.TestStep{
		{
			Config: env.Config(safetyHCL(true, true, true)),
			Check:  safetyServerHolds(env, true, true, safetyDMQ),
		},
		{
			Config: env.Config(safetyHCL(false, false, false)),
			Check:  safetyServerHolds(env, true, false, ""),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue.q", plancheck.ResourceActionUpdate,
				plancheck.ExpectResourceAction("sapmessaging_dead_message_queue.dmq", plancheck.ResourceActionDestroy),
			),
		},
	})
}

// When the queue names its DMQ by a literal string, Terraform knows no order: destroying the DMQ
// while the queue still names it is refused by the provider at plan (the delete's check at apply
// refused it before), and the DMQ and its dead messages survive. With the reference in place, destroying everything works.
func TestAccDataSafety_deadMessageQueueInUseRefused(t *testing.T) {
	env := acctest.NewTestEnv(t)
	dmqHCL := fmt.Sprintf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name          = %q
  force_destroy = true
}
`, safetyDMQ)
	literal := func(withDMQ bool) string {
		hcl := deletionGuardQueueHCL("q", safetyQueue, deletionGuardDMQ(safetyDMQ))
		if withDMQ {
			hcl += dmqHCL
		}
		return env.Config(hcl)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// The DMQ must exist before a queue names it; the queue below names it literally,
				// with no reference to order the two, so the DMQ is applied first on its own.
				Config: env.Config(dmqHCL),
			},
			{
				Config: literal(true),
				Check: func(*terraform.State) error {
					// A dead message waits in the DMQ.
					return env.Messaging(t).Publish(context.Background(), safetyDMQ, []byte(`{"dead":1}`), "application/json")
				},
			},
			{
				Config:      literal(false),
				ExpectError: acctest.Wrapped(`Dead Message Queue Destroyed .*` + regexp.QuoteMeta(safetyQueue) + `.*names it as its dead message queue`),
			},
			{
				// Nothing was lost: the DMQ, its message and the queue's setting are all there.
				Config: literal(true),
				Check: resource.ComposeTestCheckFunc(
					safetyServerHolds(env, true, true, safetyDMQ),
					func(*terraform.State) error {
						if q, _ := env.Srv.Queue(safetyDMQ); q.MessageCount != 1 {
							return fmt.Errorf("the DMQ holds %d messages, want the 1 dead message", q.MessageCount)
						}
						return nil
					},
				),
				ConfigPlanChecks: acctest.EmptyPlanBeforeApply(),
			},
			{
				// A reference records the dependency, so that the test's destroy removes the queue first.
				Config: env.Config(safetyHCL(true, false, false) + dmqHCL),
			},
		},
		CheckDestroy: func(*terraform.State) error {
			return safetyServerHolds(env, false, false, "")(nil)
		},
	})
}
