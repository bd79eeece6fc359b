package integration_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

func TestAccAMQPSender_literal(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil, []string{"error"})
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(acctest.SenderHCL("")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					// Known at plan: the arithmetic and what the flow says.
					acctest.PlannedInt(acctest.SenderAddr, "worst_case_attempts", 7),
					acctest.PlannedString(acctest.SenderAddr, "queue_name", "acme/crm/prod/orders"),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.SenderAddr, "runtime_status", "STARTED"),
				acctest.ExpectString(acctest.SenderAddr, "delivery_status_after_max_retries", "REJECTED"),
				acctest.ExpectInt(acctest.SenderAddr, "concurrent_processes", 1),
				acctest.ExpectMatches(acctest.SenderAddr, "exception_end_events", `: error$`),
			},
			Check: resource.ComposeTestCheckFunc(
				acctest.CheckSenderProperty(env, "maxRetries", "1"),
				acctest.CheckSenderProperty(env, "queuePrefetch", "1"),
				acctest.CheckEmulator(func() error {
					if d, ok := env.Srv.Deployed("OrdersInbound"); !ok || d.Status != "STARTED" {
						return fmt.Errorf("flow not running after apply: %+v", d)
					}
					return nil
				}),
			),
		},
		{
			Config:           env.Config(acctest.SenderHCL("concurrent_processes = 2")),
			Check:            acctest.CheckSenderProperty(env, "NumberConcurrentProcesses", "2"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.SenderAddr),
		},
		acctest.ImportFlowStep(acctest.SenderAddr, "OrdersInbound", "queue_max_redelivery_count", "max_total_attempts", "worst_case_attempts", "effective_queue_max_redelivery_count", "queue_max_redelivery_count_source", "timeouts", "revision"),
		{
			// Someone sets the retries back to 5 in the Web UI: the plan shows it and the apply restores 1.
			PreConfig: func() {
				zip, err := iflow.PatchZip(env.Srv.IFlowContent("OrdersInbound"), "MessageFlow_1", map[string]string{"maxRetries": "5"})
				if err != nil {
					t.Fatal(err)
				}
				if err := env.Srv.CreateIFlow("OrdersInbound", "OrdersInbound", "Orders", zip); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(acctest.SenderHCL("concurrent_processes = 2")),
			Check:  acctest.CheckSenderProperty(env, "maxRetries", "1"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{acctest.ExpectUpdate(acctest.SenderAddr)},
			},
		},
	})
}

func TestAccAMQPSender_externalized(t *testing.T) {
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	props["maxRetries"] = "{{Max Retries}}"
	props["deliveryState"] = "{{Delivery State}}"
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: props}},
		map[string]string{"Max Retries": "5", "Delivery State": "REJECTED"}, []string{"error"})
	before := env.Srv.IFlowContent("OrdersInbound")
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(acctest.SenderHCL("")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(acctest.SenderAddr, "max_number_of_retries", 1),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
			Check: acctest.CheckEmulator(func() error {
				cfg, _ := env.Srv.IFlowConfigurations("OrdersInbound")
				if cfg["Max Retries"] != "1" {
					return fmt.Errorf("parameter Max Retries = %q, want 1", cfg["Max Retries"])
				}
				if d, ok := env.Srv.Deployed("OrdersInbound"); !ok || d.Parameters["Max Retries"] != "1" {
					return fmt.Errorf("the running flow does not use the new parameter: %+v", d.Parameters)
				}
				// The literal prefetch was patched; the externalized retries stay a parameter reference.
				if got, _ := env.SenderProperty("OrdersInbound", "maxRetries"); got != "{{Max Retries}}" {
					return fmt.Errorf("maxRetries in the content = %q, want the parameter reference", got)
				}
				if len(env.Srv.IFlowContent("OrdersInbound")) == 0 || string(before) == string(env.Srv.IFlowContent("OrdersInbound")) {
					return fmt.Errorf("prefetch is literal and should have been patched into the content")
				}
				return nil
			}),
		},
		{
			// A parameter changed out of band shows as drift.
			PreConfig: func() {
				if err := env.Srv.SetConfigurationValue("OrdersInbound", "Max Retries", "3"); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(acctest.SenderHCL("")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{acctest.ExpectUpdate(acctest.SenderAddr)},
			},
		},
	})
}

func TestAccAMQPSender_rules(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	cfg := func(body string) string {
		return env.Configf(`
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id = "OrdersInbound"
%s
}
`, body)
	}
	steps := []struct{ body, want string }{
		{`max_prefetched_messages = 1`, `Endless Retries`},
		{`max_number_of_retries = 0`, `Zero Retries`},
		{`max_number_of_retries = 100`, `Invalid Max Retries`},
		{"max_number_of_retries = 1\ndelivery_status_after_max_retries = \"MODIFIED_FAILED_UNDELIVERABLE\"", `(?s)Redelivery Cancelled.*REJECTED`},
		{"max_number_of_retries = 2\nqueue_max_redelivery_count = 5\nmax_total_attempts = 10",
			`Attempt Budget Exceeded.*\(5 \+ 1\) × 2 \+ 1 = 13.*max_redelivery_count = 8`},
		{"max_number_of_retries = 1\nqueue_max_redelivery_count = 0", `Unlimited Redelivery`},
		{"max_number_of_retries = 1\nmax_prefetched_messages = 101", `Invalid Max Prefetched Messages`},
	}
	var ts []resource.TestStep
	for _, s := range steps {
		ts = append(ts, resource.TestStep{Config: cfg(s.body), PlanOnly: true, ExpectError: acctest.Wrapped(s.want)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: ts})
}

func TestAccAMQPSender_channels(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, "TwoSenders", []iflowbuild.Sender{
		{ID: "MessageFlow_1", Name: "Orders", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")},
		{ID: "MessageFlow_2", Name: "Returns", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/returns")},
	}, nil)
	cfg := func(channel string) string {
		return env.Configf(`
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "TwoSenders"
  max_number_of_retries = 1
  %s
}
`, channel)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: cfg(""), PlanOnly: true, ExpectError: acctest.Wrapped(`Ambiguous AMQP Sender Channel.*Orders.*Returns`)},
		{
			Config: cfg(`channel = "Returns"`),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.SenderAddr, "queue_name", "acme/crm/prod/returns"),
				acctest.ExpectString(acctest.SenderAddr, "id", "TwoSenders,Returns"),
			},
		},
		acctest.ImportFlowStep(acctest.SenderAddr, "TwoSenders,Returns", "timeouts"),
	})
}

func TestAccAMQPSender_deployFailure(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	env.Srv.FailNextDeploy("OrdersInbound", "Credential EventMesh not found")
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(acctest.SenderHCL("")), ExpectError: acctest.Wrapped(`Deployment Failed.*Credential EventMesh not found`)},
		{
			// The next apply deploys again and converges.
			Config: env.Config(acctest.SenderHCL("")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(acctest.SenderAddr, "runtime_status", "STARTED"),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}

func TestAccAMQPSender_flowDeleted(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, "OrdersInbound", []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil, []string{"escalation"})
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(acctest.SenderHCL("")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectMatches(acctest.SenderAddr, "exception_end_events", `: escalation$`),
			},
		},
		{
			// A deleted flow is drift: the plan creates the sender again, and the apply would
			// fail until the flow is uploaded (TestAccDriftDetection_deletedFlow).
			PreConfig:          func() { env.Srv.DeleteIFlow("OrdersInbound") },
			Config:             env.Config(acctest.SenderHCL("")),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	})
}

// Importing a flow that does not exist, or an ID with an empty part, fails and leaves no state.
func TestAccAMQPSender_importMissing(t *testing.T) {
	env := acctest.NewTestEnv(t)
	config := env.Config(acctest.SenderHCL(""))
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:             config,
			ResourceName:       acctest.SenderAddr,
			ImportState:        true,
			ImportStateId:      acctest.SenderFlowID,
			ImportStatePersist: true,
			ExpectError:        acctest.Wrapped(`Cannot import non-existent remote object`),
		},
		{
			Config:        config,
			ResourceName:  acctest.SenderAddr,
			ImportState:   true,
			ImportStateId: acctest.SenderFlowID + ",",
			ExpectError:   acctest.Wrapped(`Invalid Import ID .*IFLOW_ID,CHANNEL`),
		},
		{
			Config:        config,
			ResourceName:  acctest.SenderAddr,
			ImportState:   true,
			ImportStateId: " ,Returns",
			ExpectError:   acctest.Wrapped(`Invalid Import ID`),
		},
	})
}

// A channel configured in the web UI with MODIFIED_FAILED_UNDELIVERABLE can be imported as it is
// with allow_cancelled_redelivery = true, as terraform query writes it: the import changes and
// deploys nothing and the next plan is empty. Without the attribute the plan refuses the status
// and says how to adopt the channel; REJECTED with the attribute dropped writes the status.
func TestAccAMQPSender_adoptCancelledRedeliveryAsItIs(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const id = "AdoptedUndeliverable"
	const addr = "sapmessaging_amqp_sender.adopted"
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/adopted")
	props["deliveryState"] = "MODIFIED_FAILED_UNDELIVERABLE"
	env.AddFlow(t, id, []iflowbuild.Sender{{Properties: props}}, nil)
	if _, err := env.CloudIntegration(t).DeployAndWait(context.Background(), id, "", 5*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	senderHCL := func(status, allow string) string {
		return env.Configf(`
resource "sapmessaging_amqp_sender" "adopted" {
  iflow_id                          = %q
  max_number_of_retries             = 5
  delivery_status_after_max_retries = %q
%s}
`, id, status, allow)
	}
	importHCL := "\nimport {\n  to = sapmessaging_amqp_sender.adopted\n  id = \"" + id + "\"\n}\n"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig:        env.Srv.ResetStats,
			Config:           senderHCL("MODIFIED_FAILED_UNDELIVERABLE", "  allow_cancelled_redelivery = true\n") + importHCL,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_cancelled_redelivery", true),
			},
			Check: acctest.CheckEmulator(func() error {
				if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != 0 {
					return fmt.Errorf("adopting the channel as it is deployed the flow %d times, want none", n)
				}
				return nil
			}),
		},
		{
			Config:      senderHCL("MODIFIED_FAILED_UNDELIVERABLE", ""),
			ExpectError: acctest.Wrapped(`Redelivery Cancelled.*set allow_cancelled_redelivery = true for now`),
		},
		{
			Config:           senderHCL("REJECTED", ""),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(addr),
			Check:            checkSenderPropertyOf(env, id, "deliveryState", "REJECTED"),
		},
	})
}

// checkSenderPropertyOf asserts a property of the only AMQP sender of flow id on the tenant.
func checkSenderPropertyOf(env *acctest.TestEnv, id, key, want string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		got, err := env.SenderProperty(id, key)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("%s of %s = %q, want %q", key, id, got, want)
		}
		return nil
	})
}
