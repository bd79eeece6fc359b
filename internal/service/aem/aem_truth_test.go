package aem_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// aemMakeCycle makes on the emulator the queues cyc/dmq (ingress and egress on, a time to live of 2 s) and cyc/q
// (R = 1, dead message queue cyc/dmq), then points cyc/dmq's dead message queue at cyc/q: a poison message of
// cyc/q ends in cyc/dmq, expires back into cyc/q and is delivered again, for ever.
func aemMakeCycle(t *testing.T, env *acctest.TestEnv, q, dmq string) {
	t.Helper()
	ctx := context.Background()
	c := env.AEM(t)
	if _, err := c.CreateQueue(ctx, aem.Queue{Name: dmq, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
		RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](2)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateQueue(ctx, aem.Queue{Name: q, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true),
		MaxRedeliveryCount: aem.Ptr[int64](1), DeadMsgQueue: aem.Ptr(dmq)}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.UpdateQueue(ctx, dmq, aem.QueueSettings{DeadMsgQueue: aem.Ptr(q)}); err != nil {
		t.Fatal(err)
	}
}

// A dead message queue cycle brings a poison message back for ever: the queue's plan refuses it (adopted as it
// is with allow_missing_dead_message_queue, which an import sets), its outcome and the data source's retry_plan
// say the message comes back.
func TestAccAEMQueue_dmqCycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	aemMakeCycle(t, env, "cyc/q", "cyc/dmq")
	const addr = "sapmessaging_aem_queue.q"
	hcl := func(extra string) string {
		return env.AEMConfig(fmt.Sprintf(`
import {
  to = %s
  id = "cyc/q"
}

resource "sapmessaging_aem_queue" "q" {
  name                 = "cyc/q"
  max_redelivery_count = 1
  dead_message_queue   = "cyc/dmq"
  ingress_enabled      = true
  egress_enabled       = true
%s}

data "sapmessaging_aem_queue" "q" {
  name = "cyc/q"
}
`, addr, extra))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: hcl(""), PlanOnly: true, ExpectError: acctest.Wrapped(`Dead Message Queue Cycle.*cyc/q → cyc/dmq → cyc/q`)},
		{
			Config: hcl("  allow_missing_dead_message_queue = true\n"),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop,
				acctest.PlannedNull(addr, "poison_message_deliveries"),
				acctest.PlannedNull(addr, "time_to_dead_letter")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_missing_dead_message_queue", true),
				acctest.ExpectNull(addr, "poison_message_deliveries"),
				acctest.ExpectNull("data.sapmessaging_aem_queue.q", "poison_message_deliveries"),
				acctest.ExpectMatch("data.sapmessaging_aem_queue.q", "retry_plan",
					`cyc/q → cyc/dmq → cyc/q\): the message comes back and is delivered again, for ever`),
			},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: "cyc/q", ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		// cyc/dmq names cyc/q as its dead message queue, so the queue is left to the broker, not destroyed.
		{Config: env.AEMConfig(`
removed {
  from = sapmessaging_aem_queue.q
  lifecycle {
    destroy = false
  }
}
`)},
	})
}

// The sender on a queue of a dead message queue cycle runs a poison message for ever: poison_message_end `never`.
func TestAccAEMSender_dmqCycle(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	if _, err := env.AEM(t).UpdateQueue(context.Background(), "acme/aem/prod/orders/dmq", aem.QueueSettings{
		IngressEnabled: aem.Ptr(true), DeadMsgQueue: aem.Ptr("acme/aem/prod/orders")}); err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `
  max_message_processing_attempts = 3
  max_total_attempts              = 20
`)),
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedString(acctest.AEMSenderAddr, "poison_message_end", "never"),
					acctest.PlannedNull(acctest.AEMSenderAddr, "worst_case_runs"),
					acctest.PlannedNull(acctest.AEMSenderAddr, "time_to_end"),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
		},
	})
}

// The guide's sender on acme/aem/prod/orders after respectDmqEligibleEnabled is turned on: the broker deletes a
// poison message its publisher did not flag DMQ-eligible, so the end is not `DMQ`.
func TestAccAEMSender_respectDMQEligible(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	if _, err := env.AEM(t).UpdateQueue(context.Background(), "acme/aem/prod/orders", aem.QueueSettings{RespectDmqEligibleEnabled: aem.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	// REJECTED gives the same end (the rules' tests); its value is unconfirmed, which this apply does not check.
	acctest.ParallelTest(t, []acc.TestStep{
		acctest.AEMSenderPoisonEndStep(env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `
  max_message_processing_attempts = 3
  settlement_outcome              = "FAILED"
  max_total_attempts              = 20
`)), "deleted unless DMQ-eligible", 18),
	})
}

// terraform query writes a queue of a dead message queue cycle with allow_missing_dead_message_queue, so that
// the configuration it generates adopts the queue as it is, and without a number of deliveries.
func TestAccAEMQueueListResource_dmqCycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	aemMakeCycle(t, env, "cyc/q", "cyc/dmq")
	acc.ParallelTest(t, acc.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				Query: true,
				Config: env.AEMConfig(`
list "sapmessaging_aem_queue" "cyc" {
  provider         = sapmessaging
  include_resource = true
  config {
    name_prefix = "cyc/q"
  }
}
`),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_aem_queue.cyc", 1),
					querycheck.ExpectResourceKnownValues("sapmessaging_aem_queue.cyc", acctest.ByAEMName("cyc/q"), acctest.KnownValues(map[string]knownvalue.Check{
						"allow_missing_dead_message_queue": knownvalue.Bool(true),
						"poison_message_deliveries":        knownvalue.Null(),
					})),
				},
			},
		},
	})
}

// The warnings of the plan, with the real CLI: the guide's sender on a queue that respects the DMQ-eligible flag
// says that poison messages are deleted unless their publisher flagged them, and how to fix it; on a queue of a
// dead message queue cycle, that it runs for ever.
func TestAccAEMSender_planWarnings(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	ctx := context.Background()
	env := acctest.NewAEMSenderEnv(t)
	if _, err := env.AEM(t).UpdateQueue(ctx, "acme/aem/prod/orders", aem.QueueSettings{RespectDmqEligibleEnabled: aem.Ptr(true)}); err != nil {
		t.Fatal(err)
	}
	cyc := acctest.NewAEMSenderEnv(t)
	if _, err := cyc.AEM(t).UpdateQueue(ctx, "acme/aem/prod/orders/dmq", aem.QueueSettings{IngressEnabled: aem.Ptr(true), DeadMsgQueue: aem.Ptr("acme/aem/prod/orders")}); err != nil {
		t.Fatal(err)
	}
	sender := acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `
  max_message_processing_attempts = 3
  settlement_outcome              = "FAILED"
  max_total_attempts              = 20
`)
	for _, tc := range []struct {
		env  *acctest.TestEnv
		want string
	}{
		{env, `^warning: Poison Messages Deleted Unless DMQ-Eligible: .*respect_dmq_eligible_enabled = true.*acme/aem/prod/orders/dmq.*Set respect_dmq_eligible_enabled = false`},
		{cyc, `^warning: Adapter Retries for Ever: .*acme/aem/prod/orders → acme/aem/prod/orders/dmq → acme/aem/prod/orders.*for ever`},
	} {
		dir := t.TempDir()
		acctest.WriteFile(t, filepath.Join(dir, "main.tf"), acctest.RequiredProviders+tc.env.AEMConfig(sender))
		acctest.NewCLIWorkspace(t, tf, plugins, dir, tc.env).ExpectPlanDiagnostics(regexp.MustCompile(acctest.BacktickTolerant(tc.want)))
	}
}
