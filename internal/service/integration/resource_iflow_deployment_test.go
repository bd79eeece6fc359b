package integration_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// checkDeploys asserts the number of deploys since the emulator's statistics were reset.
func checkDeploys(env *acctest.TestEnv, want int64, what string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != want {
			return fmt.Errorf("the apply deployed %d times, want %d (%s)", n, want, what)
		}
		return nil
	})
}

// checkFlowRuns asserts that flow id is STARTED and runs its design-time content, whose AMQP
// senders all hold maxRetries and NumberConcurrentProcesses want.
func checkFlowRuns(env *acctest.TestEnv, id, want string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		content := env.Srv.IFlowContent(id)
		art, err := iflow.ReadZip(content)
		if err != nil {
			return err
		}
		for _, s := range art.AMQPSenders() {
			if r, c := s.Properties["maxRetries"], s.Properties["NumberConcurrentProcesses"]; r != want || c != want {
				return fmt.Errorf("channel %s of %s on the tenant has maxRetries %q and NumberConcurrentProcesses %q, want %q", s.Name, id, r, c, want)
			}
		}
		d, ok := env.Srv.Deployed(id)
		if !ok || d.Status != "STARTED" {
			return fmt.Errorf("flow %s not running after apply: %+v", id, d.Status)
		}
		if !bytes.Equal(d.Content, content) {
			return fmt.Errorf("flow %s runs other content than its design time: the last change was not deployed", id)
		}
		return nil
	})
}

// TestAccIFlowDeployment_oneDeployPerFlow: two flows with two channel resources each, written with
// deploy = false and deployed by one sapmessaging_iflow_deployment per flow: each apply deploys each
// changed flow once, also after a change on the tenant, and only then.
func TestAccIFlowDeployment_oneDeployPerFlow(t *testing.T) {
	env := acctest.NewTestEnv(t)
	for _, id := range acctest.DeploymentFlows {
		env.AddTwoChannelFlow(t, id)
	}
	flowA, flowB := acctest.DeploymentAddr("DeployFlowA"), acctest.DeploymentAddr("DeployFlowB")
	bothRun := func(want string) resource.TestCheckFunc {
		return resource.ComposeTestCheckFunc(checkFlowRuns(env, "DeployFlowA", want), checkFlowRuns(env, "DeployFlowB", want))
	}
	emptyAfter := acctest.EmptyPlanAfterApply()
	// changeStep applies DeploymentHCL(2, "") after change (nil for none) altered the tenant: the plan passes the
	// checks planned, the apply deploys deploys times (why), both flows run 2 retries, and the next plan is empty.
	changeStep := func(change func(), deploys int64, why string, planned ...plancheck.PlanCheck) resource.TestStep {
		return resource.TestStep{
			PreConfig: func() {
				if change != nil {
					change()
				}
				env.Srv.ResetStats()
			},
			Config:           env.Config(acctest.DeploymentHCL(2, "")),
			Check:            resource.ComposeTestCheckFunc(bothRun("2"), checkDeploys(env, deploys, why)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: planned, PostApplyPostRefresh: emptyAfter.PostApplyPostRefresh},
		}
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig:        env.Srv.ResetStats,
			Config:           env.Config(acctest.DeploymentHCL(1, "")),
			Check:            resource.ComposeTestCheckFunc(bothRun("1"), checkDeploys(env, 2, "one per flow for its two channels")),
			ConfigPlanChecks: emptyAfter,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(flowA, "id", "DeployFlowA"),
				acctest.ExpectString(flowA, "runtime_status", "STARTED"),
				acctest.ExpectNotNull(flowA, "deployed_version"),
				acctest.ExpectMatch("sapmessaging_amqp_sender.DeployFlowA_AMQP_A", "revision",
					revisionPattern),
			},
		},
		// Every channel changes: one deploy per flow again, planned through the unknown revisions.
		changeStep(nil, 2, "one per flow for its two channels",
			acctest.PlannedUnknown("sapmessaging_amqp_sender.DeployFlowB_AMQP_B", "revision"),
			acctest.ExpectUpdate(flowA),
			acctest.ExpectUpdate(flowB)),
		{
			Config:                  env.Config(acctest.DeploymentHCL(2, "")),
			ResourceName:            flowA,
			ImportState:             true,
			ImportStateId:           "DeployFlowA",
			ImportStateVerify:       true,
			ImportStateVerifyIgnore: []string{"triggers", "timeouts"},
		},
		// Undeployed out of band: the plan deploys that flow again, and only that one.
		changeStep(func() {
			if err := env.CloudIntegration(t).Undeploy(context.Background(), "DeployFlowA"); err != nil {
				t.Fatal(err)
			}
		}, 1, "the undeployed flow only",
			acctest.ExpectUpdate(flowA),
			acctest.ExpectNoop(flowB),
			acctest.PlannedUnknown(flowA, "runtime_status")),
		// A channel changed on the tenant is written back, and its flow deployed once more,
		// although the revision the deployment last saw described the same settings.
		changeStep(func() {
			zip, err := iflow.PatchZip(env.Srv.IFlowContent("DeployFlowB"), "MessageFlow_1", map[string]string{"maxRetries": "4"})
			if err == nil {
				err = env.Srv.CreateIFlow("DeployFlowB", "DeployFlowB", "Orders", zip)
			}
			if err != nil {
				t.Fatal(err)
			}
		}, 1, "the flow whose channel was written back",
			acctest.ExpectUpdate("sapmessaging_amqp_sender.DeployFlowB_AMQP_A"),
			acctest.ExpectUpdate(flowB),
			acctest.ExpectNoop(flowA)),
		{
			// Only the timeouts change: an update in place that deploys nothing.
			PreConfig:        env.Srv.ResetStats,
			Config:           env.Config(acctest.DeploymentHCL(2, `  timeouts = { create = "5m", update = "5m" }`)),
			Check:            checkDeploys(env, 0, "a change of the timeouts deploys nothing"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(flowA),
		},
	})
}

// revisionPattern is the form of a channel resource's revision.
const revisionPattern = `^[0-9a-f]{8}-[0-9a-f]{8}$`

// TestAccIFlowDeployment_jmsSender: a JMS sender written with deploy = false triggers the deployment
// through its revision in the same way.
func TestAccIFlowDeployment_jmsSender(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddJMSFlow(t, "DeployJMS", false, acctest.GuardedOptions())
	cfg := func(interval int) string {
		return env.Config(acctest.JMSHCL("DeployJMS", fmt.Sprintf("retry_interval = %d\nmax_retries = 5\ndeploy = false", interval)) + `
resource "sapmessaging_iflow_deployment" "jms" {
  iflow_id = sapmessaging_jms_sender.retry.iflow_id
  triggers = { retry = sapmessaging_jms_sender.retry.revision }
}
`)
	}
	running := func(want string) resource.TestCheckFunc {
		return acctest.CheckEmulator(func() error {
			d, ok := env.Srv.Deployed("DeployJMS")
			if !ok || d.Status != "STARTED" {
				return fmt.Errorf("flow not running: %+v", d.Status)
			}
			art, err := iflow.ReadZip(d.Content)
			if err != nil {
				return err
			}
			s, _ := art.Model.JMSSender("MessageFlow_JMS")
			if got := s.Properties["RetryInterval"]; got != want {
				return fmt.Errorf("the running flow has RetryInterval %q, want %q", got, want)
			}
			return nil
		})
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig:        env.Srv.ResetStats,
			Config:           cfg(3),
			Check:            resource.ComposeTestCheckFunc(running("3"), checkDeploys(env, 1, "the deployment's")),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    cfg(7),
			Check:     resource.ComposeTestCheckFunc(running("7"), checkDeploys(env, 1, "the deployment's")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedUnknown("sapmessaging_jms_sender.retry", "revision"),
					acctest.ExpectUpdate("sapmessaging_iflow_deployment.jms"),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
		},
	})
}

// TestAccIFlowDeployment_failure: a failed deploy fails the create with the runtime's error and
// leaves a tainted resource; the next apply deploys again and converges.
func TestAccIFlowDeployment_failure(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddTwoChannelFlow(t, "DeployFails")
	env.Srv.FailNextDeploy("DeployFails", "Credential EventMesh not found")
	cfg := env.Config(`
resource "sapmessaging_iflow_deployment" "f" {
  iflow_id = "DeployFails"
}
`)
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: cfg, ExpectError: acctest.Wrapped(`Deployment Failed.*Credential EventMesh not found.*apply again`)},
		{
			Config:           cfg,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_iflow_deployment.f", plancheck.ResourceActionDestroyBeforeCreate),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString("sapmessaging_iflow_deployment.f", "runtime_status", "STARTED"),
			},
		},
		{
			Config:        cfg,
			ResourceName:  "sapmessaging_iflow_deployment.f",
			ImportState:   true,
			ImportStateId: "Missing",
			ExpectError:   acctest.Wrapped(`Cannot import non-existent remote object`),
		},
		{
			Config: env.Config(`
resource "sapmessaging_iflow_deployment" "missing" {
  iflow_id = "NoSuchFlow"
}
`),
			ExpectError: acctest.Wrapped(`Integration Flow Not Found.*NoSuchFlow.*must be uploaded first`),
		},
	})
}
