package integration_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// checkChannels asserts that every one of the first n channels holds retries and concurrency on the
// tenant, that the flow runs, and that the running flow uses the values of externalized parameters.
func checkChannels(env *acctest.TestEnv, n int, retries, concurrency string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		got, err := env.ChannelValues()
		if err != nil {
			return err
		}
		for _, name := range acctest.ChannelNames[:n] {
			if v := got[name]; v != [2]string{retries, concurrency} {
				return fmt.Errorf("channel %s on the tenant has maxRetries %q and NumberConcurrentProcesses %q, want %q and %q (all channels: %v)",
					name, v[0], v[1], retries, concurrency, got)
			}
		}
		d, ok := env.Srv.Deployed(acctest.SharedFlowID)
		if !ok || d.Status != "STARTED" {
			return fmt.Errorf("flow not running after apply: %+v", d)
		}
		cfg, _ := env.Srv.IFlowConfigurations(acctest.SharedFlowID)
		for k, v := range cfg {
			if d.Parameters[k] != v {
				return fmt.Errorf("the running flow uses parameter %q = %q, the design time holds %q: the last change was not deployed", k, d.Parameters[k], v)
			}
		}
		return nil
	})
}

// checkOneDeploy asserts that the flow was deployed once since the emulator's statistics were reset.
func checkOneDeploy(env *acctest.TestEnv) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != 1 {
			return fmt.Errorf("the apply deployed the flow %d times, want once for all its channels", n)
		}
		return nil
	})
}

// sharedFlowHCL is one sapmessaging_amqp_sender per channel of sharedFlowID, named after the channel.
func sharedFlowHCL(n int, retries, concurrency int) string {
	var b strings.Builder
	for _, name := range acctest.ChannelNames[:n] {
		b.WriteString(acctest.ChannelSenderHCL(strings.ToLower(name), acctest.SharedFlowID, name, retries, concurrency, ""))
	}
	return b.String()
}

// TestAccAMQPSender_severalChannelsOneFlow manages two and three AMQP senders of one flow with one resource
// each: created, all updated in one apply, and imported. Terraform applies them in parallel, so every
// resource's values must survive the writes of the others.
func TestAccAMQPSender_severalChannelsOneFlow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n            int
		externalized bool
	}{{2, false}, {3, false}, {2, true}, {3, true}} {
		kind := "literal"
		if tc.externalized {
			kind = "externalized"
		}
		t.Run(fmt.Sprintf("%d_%s", tc.n, kind), func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			env.AddSharedFlow(t, tc.n, tc.externalized)
			steps := []resource.TestStep{
				{
					PreConfig:        env.Srv.ResetStats,
					Config:           env.Config(sharedFlowHCL(tc.n, 1, 1)),
					Check:            resource.ComposeTestCheckFunc(checkChannels(env, tc.n, "1", "1"), checkOneDeploy(env)),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
				},
				{
					PreConfig:        env.Srv.ResetStats,
					Config:           env.Config(sharedFlowHCL(tc.n, 2, 2)),
					Check:            resource.ComposeTestCheckFunc(checkChannels(env, tc.n, "2", "2"), checkOneDeploy(env)),
					ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan("sapmessaging_amqp_sender.amqp_a"),
				},
			}
			for _, name := range acctest.ChannelNames[:tc.n] {
				steps = append(steps, resource.TestStep{
					Config:                  env.Config(sharedFlowHCL(tc.n, 2, 2)),
					ResourceName:            "sapmessaging_amqp_sender." + strings.ToLower(name),
					ImportState:             true,
					ImportStateId:           acctest.SharedFlowID + "," + name,
					ImportStateVerify:       true,
					ImportStateVerifyIgnore: []string{"timeouts", "revision"}, // an import starts the revision history anew,
				})
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
		})
	}
}

// TestAccAMQPSender_changedBetweenPlanAndApply: a channel setting changed on the tenant after the plan
// fails the apply instead of being overwritten unseen; the next plan shows it.
func TestAccAMQPSender_changedBetweenPlanAndApply(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddSharedFlow(t, 2, false)
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(sharedFlowHCL(2, 1, 1)), Check: checkChannels(env, 2, "1", "1")},
		{
			Config: env.Config(sharedFlowHCL(2, 2, 1)),
			ConfigPlanChecks: acctest.ChangeBeforeApply(func() error {
				zip, err := iflow.PatchZip(env.Srv.IFlowContent(acctest.SharedFlowID), "MessageFlow_2", map[string]string{"maxRetries": "4"})
				if err == nil {
					err = env.Srv.CreateIFlow(acctest.SharedFlowID, acctest.SharedFlowID, "Orders", zip)
				}
				return err
			}),
			ExpectError: acctest.Wrapped(`AMQP Sender Changed Since Plan.*AMQP_B.*maxRetries: planned from 1, now 4.*plan again`),
		},
		{
			// The change made on the tenant is kept, and the next plan shows it.
			PreConfig: func() {
				if got, _ := env.ChannelValues(); got["AMQP_B"][0] != "4" {
					t.Errorf("AMQP_B on the tenant = %v, want the change made there (4)", got["AMQP_B"])
				}
			},
			Config:             env.Config(sharedFlowHCL(2, 2, 1)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{Config: env.Config(sharedFlowHCL(2, 2, 1)), Check: checkChannels(env, 2, "2", "1")},
	})
}

// TestAccAMQPSender_severalChannelsDeployFailure: the channels of one flow are deployed once together,
// and when that deploy fails, every one of their resources fails with the runtime's error.
func TestAccAMQPSender_severalChannelsDeployFailure(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddSharedFlow(t, 2, false)
	env.Srv.FailNextDeploy(acctest.SharedFlowID, "Credential EventMesh not found")
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig:   env.Srv.ResetStats,
			Config:      env.Config(sharedFlowHCL(2, 1, 1)),
			ExpectError: acctest.Wrapped(`Deployment Failed.*Credential EventMesh not found.*Deployment Failed.*Credential EventMesh not found`),
		},
		{
			// One deploy was made for both channels; the next apply deploys again and converges.
			PreConfig: func() {
				if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != 1 {
					t.Errorf("the failed apply deployed the flow %d times, want once", n)
				}
			},
			Config:           env.Config(sharedFlowHCL(2, 1, 1)),
			Check:            checkChannels(env, 2, "1", "1"),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
	})
}
