package integration_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"

	"github.com/hashicorp/terraform-plugin-framework/types"
	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// checkAEMProperty checks one property of the AEM sender of the orders flow on the tenant.
func checkAEMProperty(env *acctest.TestEnv, key, want string) acc.TestCheckFunc {
	id := acctest.AEMOrdersFlow
	return acctest.CheckEmulator(func() error {
		art, err := iflow.ReadZip(env.Srv.IFlowContent(id))
		if err != nil {
			return err
		}
		s := art.AEMSenders()
		if len(s) != 1 {
			return fmt.Errorf("%s has %d AEM senders", id, len(s))
		}
		if got := s[0].Properties[key]; got != want {
			return fmt.Errorf("%s of %s on the tenant = %q, want %q", key, id, got, want)
		}
		return nil
	})
}

// patchAEMSender changes the AEM sender of flow id on the tenant, as the Web UI would.
func patchAEMSender(t *testing.T, env *acctest.TestEnv, id string, values map[string]string) {
	t.Helper()
	art, err := iflow.ReadZip(env.Srv.IFlowContent(id))
	if err != nil {
		t.Fatal(err)
	}
	zip, err := iflow.PatchZip(env.Srv.IFlowContent(id), art.AEMSenders()[0].ID, values)
	if err != nil {
		t.Fatal(err)
	}
	if err := env.Srv.CreateIFlow(id, id, emulator.SampleAEMIFlowPackage, zip); err != nil {
		t.Fatal(err)
	}
}

// Lifecycle: the plan reads the queue and shows the runs of a poison message; the apply writes only what
// the configuration sets and deploys; import reads the same state; a change made in the Web UI shows as drift
// and the apply restores the configured value.
func TestAccAEMSender_lifecycle(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	cfg := env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `
  max_message_processing_attempts = 3
  retry_multiplier                = 2
`))
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: cfg,
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					// 3 attempts on each of R + 1 = 6 deliveries.
					acctest.PlannedInt(acctest.AEMSenderAddr, "worst_case_runs", 18),
					acctest.PlannedInt(acctest.AEMSenderAddr, "effective_queue_max_redelivery_count", 5),
					acctest.PlannedString(acctest.AEMSenderAddr, "poison_message_end", "DMQ"),
					acctest.PlannedString(acctest.AEMSenderAddr, "queue_name", "acme/aem/prod/orders"),
					acctest.PlannedString(acctest.AEMSenderAddr, "settlement_outcome", "FAILED"),
					acctest.PlannedNotNull(acctest.AEMSenderAddr, "time_to_end"),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.AEMSenderAddr, "runtime_status", "STARTED"),
				acctest.ExpectString(acctest.AEMSenderAddr, "adapter_version", "1.3.0"),
				acctest.ExpectString(acctest.AEMSenderAddr, "adapter", "AdvancedEventMesh"),
				acctest.ExpectLen(acctest.AEMSenderAddr, "unconfirmed", 0),
				acctest.ExpectInt(acctest.AEMSenderAddr, "retry_interval", 1000),
				acctest.ExpectString(acctest.AEMSenderAddr, "acknowledgement_mode", rules.AEMAckOnExchangeComplete),
				acctest.ExpectBool(acctest.AEMSenderAddr, "accept_message_loss", false),
				acctest.ExpectString(acctest.AEMSenderAddr, "id", acctest.AEMOrdersFlow),
			},
			Check: acc.ComposeTestCheckFunc(
				checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "3"),
				checkAEMProperty(env, iflow.KeyAEMRetryMultiplier, "2.0"),
				checkAEMProperty(env, iflow.KeyAEMRetryInterval, "1000"),
			),
		},
		acctest.ImportFlowStep(acctest.AEMSenderAddr, acctest.AEMOrdersFlow, "timeouts", "revision"),
		{
			// Someone sets 7 attempts in the Web UI: the plan shows it and the apply restores 3.
			PreConfig:        func() { patchAEMSender(t, env, acctest.AEMOrdersFlow, map[string]string{iflow.KeyAEMMaxAttempts: "7"}) },
			Config:           cfg,
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.AEMSenderAddr),
			Check:            checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "3"),
		},
	})
}

// The plan refuses what loses or endlessly repeats a poison message, with the rule's words.
func TestAccAEMSender_refusals(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	step := func(iflowID, body, want string) acc.TestStep {
		return acc.TestStep{Config: env.AEMConfig(acctest.AEMSenderHCL(iflowID, body)), PlanOnly: true, ExpectError: acctest.Wrapped(want)}
	}
	acctest.ParallelTest(t, []acc.TestStep{
		step(acctest.AEMAuditFlow, "", `Failed Messages Lost.*acknowledgement_mode = "AUTOMATIC_ON_EXCHANGE_COMPLETE"`),
		step(acctest.AEMOrdersFlow, "  max_message_processing_attempts = 0", `Zero Processing Attempts`),
		step(acctest.AEMLegacyFlow, "", `Adapter Retries for Ever.*acme/aem/prod/legacy`),
		step(acctest.AEMLegacyFlow, `  settlement_outcome = "REJECTED"`, `Rejected Messages Deleted.*#DEAD_MSG_QUEUE`),
		step(acctest.AEMOrdersFlow, "  max_total_attempts = 10", `Attempt Budget Exceeded.*max_redelivery_count = 1`),
		step(acctest.AEMOrdersFlow, `  acknowledgement_mode = "automatic_immediate"`, `Value Not In Upper Case`),
		step(acctest.AEMOrdersFlow, `  consumer_mode = "DIRECT"`, `Consumer Mode Not Written`),
		{
			// A plan that cannot read the broker fails.
			PreConfig: func() {
				env.Srv.InjectNextOn("GET "+acctest.SempQueues, emulator.Fault503, emulator.Fault503, emulator.Fault503, emulator.Fault503)
			},
			Config:   env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, "")),
			PlanOnly: true,
			// The run's first SEMP call (the credential check, or the queue list) fails the plan.
			ExpectError: regexp.MustCompile(`(?s)(Cannot Read Advanced Event Mesh Queues|Cannot Verify Advanced Event Mesh).*503`),
		},
	})
}

// A channel that loses failed messages is adopted with accept_message_loss (the plan warns), and an import of
// it sets accept_message_loss, so that the configuration plans no change.
func TestAccAEMSender_acceptMessageLoss(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	cfg := env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMAuditFlow, `  accept_message_loss = true`))
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(acctest.AEMSenderAddr, "worst_case_runs", 1),
				acctest.ExpectString(acctest.AEMSenderAddr, "poison_message_end", "lost"),
				acctest.ExpectInt(acctest.AEMSenderAddr, "effective_queue_max_redelivery_count", 3),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
		},
		acctest.ImportFlowStep(acctest.AEMSenderAddr, acctest.AEMAuditFlow, "timeouts", "revision"),
	})
}

// An apply whose deploy fails records what the tenant holds, and the next apply deploys and converges.
func TestAccAEMSender_deployFailure(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	env.Srv.FailNextDeploy(acctest.AEMOrdersFlow, "Credential AEMPassword not found")
	cfg := env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  max_message_processing_attempts = 2`))
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg, ExpectError: acctest.Wrapped(`Deployment Failed.*Credential AEMPassword not found`)},
		{
			Config: cfg,
			Check:  checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "2"),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.AEMSenderAddr, "runtime_status", "STARTED"),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
		},
	})
}

// Without an advanced_event_mesh connection the queue is not checked: the plan warns and the path stays null; a
// max_total_attempts budget then fails the plan.
func TestAccAEMSender_withoutAEMConnection(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: env.Config(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  max_message_processing_attempts = 4`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectNull(acctest.AEMSenderAddr, "worst_case_runs"),
				acctest.ExpectNull(acctest.AEMSenderAddr, "effective_queue_max_redelivery_count"),
				acctest.ExpectString(acctest.AEMSenderAddr, "queue_name", "acme/aem/prod/orders"),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
			Check:            checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "4"),
		},
		{
			// A budget that cannot be checked fails the plan: a plan that cannot read never passes with a warning.
			Config:      env.Config(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, "  max_message_processing_attempts = 4\n  max_total_attempts = 10")),
			ExpectError: acctest.Wrapped(`Attempt Budget Not Checked.*max_total_attempts = 10.*Configure the provider's\s+.advanced_event_mesh. block`),
		},
	})
}

// The resource's identity is its import ID's parts, and an import block can name the channel by it.
func TestAccAEMSender_identity(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	// deploy = false, as terraform query writes it: an import by identity reads deploy = false.
	cfg := env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, "  max_message_processing_attempts = 4\n  deploy = false"))
	acctest.IdentityTest(t,
		acc.TestStep{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(acctest.AEMSenderAddr, acctest.SenderIdentity(acctest.AEMOrdersFlow, "")),
			},
		},
		acctest.ImportByIdentity(cfg, acctest.AEMSenderAddr),
	)
}

// The configuration's rules: a setting left out keeps the flow's value (unknown before the flow is read), so
// only what the configuration sets is checked.
func TestAEMConfigRuleInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		m    integration.AEMSenderModel
		want []string
	}{
		{"empty", integration.AEMSenderModel{}, nil},
		{"zero attempts", integration.AEMSenderModel{MaxAttempts: types.Int64Value(0)}, []string{"aem_sender.attempts_zero"}},
		// The consumer mode is the flow's: the plan checks the pair once it read the flow.
		{"immediate, consumer from the flow", integration.AEMSenderModel{AcknowledgementMode: types.StringValue(rules.AEMAckImmediate)}, nil},
		{"immediate", integration.AEMSenderModel{AcknowledgementMode: types.StringValue(rules.AEMAckImmediate), ConsumerMode: types.StringValue(rules.AEMConsumerGuaranteed)},
			[]string{"aem_sender.ack_immediate"}},
		{"immediate accepted", integration.AEMSenderModel{AcknowledgementMode: types.StringValue(rules.AEMAckImmediate), ConsumerMode: types.StringValue(rules.AEMConsumerGuaranteed),
			AcceptMessageLoss: types.BoolValue(true)}, []string{"aem_sender.ack_immediate_accepted"}},
		{"invalid outcome", integration.AEMSenderModel{SettlementOutcome: types.StringValue("DROP")}, []string{"aem_sender.settlement_outcome_invalid"}},
		{"shrinking waits", integration.AEMSenderModel{RetryMultiplier: types.Float64Value(0.5)}, []string{"aem_sender.retry_multiplier_shrinks"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := tc.m // the zero values are null
			var got []string
			for _, f := range rules.CheckAEMSender(integration.AEMConfigRuleInput(&m)) {
				got = append(got, f.Rule)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

// A value no tenant-written flow confirms (the Rejected outcome) is read as it is and listed in unconfirmed;
// REJECTED moves a poison message to the dead message queue after one delivery.
func TestAccAEMSender_unconfirmedOutcome(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	props := iflowbuild.DefaultAEMSenderProperties("acme/aem/prod/orders")
	props[iflow.KeyAEMSettlementOutcome] = "REJECTED"
	if err := env.Srv.CreateIFlow("AEM_Rejecting", "AEM_Rejecting", emulator.SampleAEMIFlowPackage, iflowbuild.Build(iflowbuild.Options{
		Name: "AEM_Rejecting", Senders: []iflowbuild.Sender{{Name: "AEM_In", Adapter: "AEM", Properties: props}}, ExceptionEnds: [][]string{{"error"}},
	})); err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: env.AEMConfig(acctest.AEMSenderHCL("AEM_Rejecting", `  parallel_consumers = 2`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.AEMSenderAddr, "settlement_outcome", "REJECTED"),
				acctest.ExpectMatches(acctest.AEMSenderAddr, "unconfirmed",
					`^failedMessageSettlementOutcome = REJECTED: The stored value of the Rejected outcome is assumed`),

				acctest.ExpectInt(acctest.AEMSenderAddr, "worst_case_runs", 5),
				acctest.ExpectString(acctest.AEMSenderAddr, "poison_message_end", "DMQ"),
				acctest.ExpectInt(acctest.AEMSenderAddr, "parallel_consumers", 2),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
		},
	})
}

// With deploy = false the channel is only written, and a sapmessaging_iflow_deployment whose triggers hold its
// revision deploys the flow once after it; a second apply deploys nothing.
func TestAccAEMSender_deploymentTriggers(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	cfg := func(attempts int) string {
		return env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, fmt.Sprintf("  max_message_processing_attempts = %d\n  deploy = false", attempts)) + `
resource "sapmessaging_iflow_deployment" "d" {
  iflow_id = "` + acctest.AEMOrdersFlow + `"
  triggers = { aem = sapmessaging_aem_sender.s.revision }
}
`)
	}
	deploys := func(want int64) func() {
		return func() {
			if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != want {
				t.Errorf("%d deploys, want %d", n, want)
			}
		}
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			PreConfig: env.Srv.ResetStats,
			Config:    cfg(2),
			Check:     checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "2"),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString("sapmessaging_iflow_deployment.d", "runtime_status", "STARTED"),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
		},
		{
			PreConfig: deploys(1),
			Config:    cfg(4),
			Check:     checkAEMProperty(env, iflow.KeyAEMMaxAttempts, "4"),
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{acctest.ExpectUpdate("sapmessaging_iflow_deployment.d")},
			},
		},
		{PreConfig: deploys(2), Config: cfg(4), PlanOnly: true},
	})
}

// A dead message queue made by hand keeps the broker's ingressEnabled = false and receives nothing, so the broker
// deletes what it removes: the plan says `deleted`, refuses REJECTED as on a missing dead message queue, and warns on
// FAILED.
func TestAccAEMSender_deadMessageQueueWithoutIngress(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	if _, err := env.AEM(t).UpdateQueue(context.Background(), "acme/aem/prod/orders/dmq", aem.QueueSettings{IngressEnabled: aem.Ptr(false)}); err != nil {
		t.Fatal(err)
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config:      env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  settlement_outcome = "REJECTED"`)),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Rejected Messages Deleted.*acme/aem/prod/orders/dmq.*ingress_enabled = true`),
		},
		acctest.AEMSenderPoisonEndStep(env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  max_message_processing_attempts = 3`)), "deleted", 18),
	})
}

// Solace's own adapter (ComponentType SolacePubSubPlus) consumes AEM queues with the AEM sender's keys: the resource
// manages its channel, names the adapter in `adapter`, and lists what no source confirms about it in `unconfirmed`.
func TestAccAEMSender_solaceAdapter(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMSolaceFlow, `  max_message_processing_attempts = 4`)),
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedString(acctest.AEMSenderAddr, "adapter", "SolacePubSubPlus"),
					acctest.PlannedInt(acctest.AEMSenderAddr, "worst_case_runs", 24),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.AEMSenderAddr, "adapter", "SolacePubSubPlus"),
				acctest.ExpectString(acctest.AEMSenderAddr, "adapter_version", "1.2.0"),
				acctest.ExpectMatches(acctest.AEMSenderAddr, "unconfirmed",
					`^ComponentType = SolacePubSubPlus: Solace's own adapter .*settlement outcome.*Maximum Message Processing Attempts`),

				acctest.ExpectString(acctest.AEMSenderAddr, "queue_name", "acme/aem/prod/payments"),
				acctest.ExpectString(acctest.AEMSenderAddr, "poison_message_end", "DMQ"),
			},
			Check: acctest.CheckEmulator(func() error {
				art, err := iflow.ReadZip(env.Srv.IFlowContent(acctest.AEMSolaceFlow))
				if err != nil {
					return err
				}
				s := art.AEMSenders()
				if len(s) != 1 || s[0].Adapter != iflow.ComponentTypeSolace || s[0].Properties[iflow.KeyAEMMaxAttempts] != "4" {
					return fmt.Errorf("the Solace sender on the tenant: %+v", s)
				}
				return nil
			}),
		},
		acctest.ImportFlowStep(acctest.AEMSenderAddr, acctest.AEMSolaceFlow, "timeouts", "revision"),
	})
}

// Switching the outcome changes what no source confirms: the plan leaves `unconfirmed` to the apply (known
// after apply), so that setting REJECTED, and going back to FAILED, apply without an inconsistent result.
func TestAccAEMSender_outcomeSwitch(t *testing.T) {
	env := acctest.NewAEMSenderEnv(t)
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  settlement_outcome = "FAILED"`))},
		{
			Config: env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  settlement_outcome = "REJECTED"`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectMatches(acctest.AEMSenderAddr, "unconfirmed",
					`^failedMessageSettlementOutcome = REJECTED: `),
			},
			ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
		},
		{
			Config: env.AEMConfig(acctest.AEMSenderHCL(acctest.AEMOrdersFlow, `  settlement_outcome = "FAILED"`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectLen(acctest.AEMSenderAddr, "unconfirmed", 0),
			},
		},
	})
}
