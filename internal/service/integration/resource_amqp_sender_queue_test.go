package integration_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

func expectR(r int64, source string, worst knownvalue.Check) []statecheck.StateCheck {
	return []statecheck.StateCheck{
		acctest.ExpectInt(acctest.SenderAddr, "effective_queue_max_redelivery_count", r),
		acctest.ExpectString(acctest.SenderAddr, "queue_max_redelivery_count_source", source),
		acctest.ExpectValue(acctest.SenderAddr, "worst_case_attempts", worst),
	}
}

// Without queue_max_redelivery_count the sender takes R from the queue its channel reads; an
// explicit value wins; and an apply that fixes the queue while the sender changes succeeds, the
// sender showing the R its plan showed until the next refresh.
func TestAccAMQPSender_redeliveryFromQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	em := acctest.RedeliveryFromQueueEnv(t, env)
	planR := func(r int64, source string, worst knownvalue.Check) []plancheck.PlanCheck {
		return []plancheck.PlanCheck{
			acctest.PlannedInt(acctest.SenderAddr, "effective_queue_max_redelivery_count", r),
			acctest.PlannedString(acctest.SenderAddr, "queue_max_redelivery_count_source", source),
			acctest.PlannedValue(acctest.SenderAddr, "worst_case_attempts", worst),
		}
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{
			// R = 0 on the queue: unbounded, a warning (the apply goes ahead).
			Config: env.Config(acctest.DiscoveredSenderHCL("")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             planR(0, "event_mesh", knownvalue.Null()),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: expectR(0, "event_mesh", knownvalue.Null()),
		},
		{
			// Someone sets R = 4 on the queue: the refresh reads it, and nothing is to change.
			PreConfig: func() {
				if _, _, err := em.PutQueue(t.Context(), "acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](4)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(acctest.DiscoveredSenderHCL("")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             acctest.ExpectEmptyPlan(),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: expectR(4, "event_mesh", knownvalue.Int64Exact(6)),
		},
		{
			// An explicit queue_max_redelivery_count wins.
			Config: env.Config(acctest.DiscoveredSenderHCL("queue_max_redelivery_count = 2")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             planR(2, "configuration", knownvalue.Int64Exact(4)),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: expectR(2, "configuration", knownvalue.Int64Exact(4)),
		},
		{
			// Back to R = 0 out of band; the configuration now adopts the queue and fixes it to 5 in the
			// apply that also changes the sender, after the queue's write. The apply's plan of the sender
			// must show the R the plan showed (the queue list of the run, taken before its writes).
			PreConfig: func() {
				if _, _, err := em.PutQueue(t.Context(), "acme/crm/prod/orders", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](0)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(`
import {
  to = sapmessaging_queue.orders
  id = "acme/crm/prod/orders"
}

resource "sapmessaging_queue" "orders" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 5
}
` + acctest.DiscoveredSenderHCL(`
  concurrent_processes = 2
  depends_on           = [sapmessaging_queue.orders]`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             planR(0, "event_mesh", knownvalue.Null()),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			// The state keeps what the plan showed; the next refresh reads the fixed queue.
			ConfigStateChecks: expectR(0, "event_mesh", knownvalue.Null()),
		},
		{
			RefreshState: true,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(acctest.SenderAddr, "effective_queue_max_redelivery_count", "5"),
				resource.TestCheckResourceAttr(acctest.SenderAddr, "worst_case_attempts", "7"),
			),
		},
		acctest.ImportFlowStep(acctest.SenderAddr, acctest.SenderFlowID, "timeouts", "revision"),
	})
}

// The warning of an R = 0 found on the queue names the queue and the fix, and does not stop the apply.
func TestAccAMQPSender_redeliveryFromQueueWarns(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	acctest.RedeliveryFromQueueEnv(t, env)
	w := acctest.NewCLIWork(t, tf, srv, fmt.Sprintf("  cloud_integration = { service_key = %q }", string(srv.CloudIntegrationKey())), acctest.DiscoveredSenderHCL(""))
	r := w.Run(t, "apply", "-auto-approve", "-input=false", "-no-color")
	if r.ExitCode != 0 {
		t.Fatalf("apply failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	out := strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", "")), " ")
	for _, want := range []string{
		"Warning: Unlimited Redelivery",
		`Without ` + "`queue_max_redelivery_count`" + ` on this sender, R comes from the Event Mesh queue "acme/crm/prod/orders" its channel reads.`,
		"Set `max_redelivery_count` on the queue to a value from 1 to 255, for example 5.",
		`queue_max_redelivery_count_source = "event_mesh"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply output lacks %q:\n%s", want, r.Output)
		}
	}
}
