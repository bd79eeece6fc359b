package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
)

// checkChannels asserts that every one of the first n channels holds retries and concurrency on the
// tenant, that the flow runs, and that the running flow uses the values of externalized parameters.
func checkChannels(env *testEnv, n int, retries, concurrency string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got, err := env.channelValues()
		if err != nil {
			return err
		}
		for _, name := range channelNames[:n] {
			if v := got[name]; v != [2]string{retries, concurrency} {
				return fmt.Errorf("channel %s on the tenant has maxRetries %q and NumberConcurrentProcesses %q, want %q and %q (all channels: %v)",
					name, v[0], v[1], retries, concurrency, got)
			}
		}
		d, ok := env.srv.Deployed(sharedFlowID)
		if !ok || d.Status != "STARTED" {
			return fmt.Errorf("flow not running after apply: %+v", d)
		}
		cfg, _ := env.srv.IFlowConfigurations(sharedFlowID)
		for k, v := range cfg {
			if d.Parameters[k] != v {
				return fmt.Errorf("the running flow uses parameter %q = %q, the design time holds %q: the last change was not deployed", k, d.Parameters[k], v)
			}
		}
		return nil
	}
}

// checkOneDeploy asserts that the flow was deployed once since the emulator's statistics were reset.
func checkOneDeploy(env *testEnv) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if n := env.srv.Stats().Routes[deployRoute]; n != 1 {
			return fmt.Errorf("the apply deployed the flow %d times, want once for all its channels", n)
		}
		return nil
	}
}

// sharedFlowHCL is one sapmessaging_amqp_sender per channel of sharedFlowID, named after the channel.
func sharedFlowHCL(n int, retries, concurrency int) string {
	var b strings.Builder
	for _, name := range channelNames[:n] {
		fmt.Fprintf(&b, `
resource "sapmessaging_amqp_sender" %q {
  iflow_id              = %q
  channel               = %q
  max_number_of_retries = %d
  concurrent_processes  = %d
}
`, strings.ToLower(name), sharedFlowID, name, retries, concurrency)
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
			env := newTestEnv(t)
			env.addSharedFlow(t, tc.n, tc.externalized)
			steps := []resource.TestStep{
				{
					PreConfig: env.srv.ResetStats,
					Config:    env.config(sharedFlowHCL(tc.n, 1, 1)),
					Check:     resource.ComposeTestCheckFunc(checkChannels(env, tc.n, "1", "1"), checkOneDeploy(env)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				},
				{
					PreConfig: env.srv.ResetStats,
					Config:    env.config(sharedFlowHCL(tc.n, 2, 2)),
					Check:     resource.ComposeTestCheckFunc(checkChannels(env, tc.n, "2", "2"), checkOneDeploy(env)),
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("sapmessaging_amqp_sender.amqp_a", plancheck.ResourceActionUpdate)},
						PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
					},
				},
			}
			for _, name := range channelNames[:tc.n] {
				steps = append(steps, resource.TestStep{
					Config:                  env.config(sharedFlowHCL(tc.n, 2, 2)),
					ResourceName:            "sapmessaging_amqp_sender." + strings.ToLower(name),
					ImportState:             true,
					ImportStateId:           sharedFlowID + "," + name,
					ImportStateVerify:       true,
					ImportStateVerifyIgnore: []string{"timeouts", "revision"}, // an import starts the revision history anew,
				})
			}
			resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
		})
	}
}

func (c changeOnTenant) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = c()
}

// TestAccAMQPSender_changedBetweenPlanAndApply: a channel setting changed on the tenant after the plan
// fails the apply instead of being overwritten unseen; the next plan shows it.
func TestAccAMQPSender_changedBetweenPlanAndApply(t *testing.T) {
	env := newTestEnv(t)
	env.addSharedFlow(t, 2, false)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.config(sharedFlowHCL(2, 1, 1)), Check: checkChannels(env, 2, "1", "1")},
			{
				Config: env.config(sharedFlowHCL(2, 2, 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{changeOnTenant(func() error {
					zip, err := iflow.PatchZip(env.srv.IFlowContent(sharedFlowID), "MessageFlow_2", map[string]string{"maxRetries": "4"})
					if err == nil {
						err = env.srv.CreateIFlow(sharedFlowID, sharedFlowID, "Orders", zip)
					}
					return err
				})}},
				ExpectError: wrapped(`AMQP Sender Changed Since Plan.*AMQP_B.*maxRetries: planned from 1, now 4.*plan again`),
			},
			{
				// The change made on the tenant is kept, and the next plan shows it.
				PreConfig: func() {
					if got, _ := env.channelValues(); got["AMQP_B"][0] != "4" {
						t.Errorf("AMQP_B on the tenant = %v, want the change made there (4)", got["AMQP_B"])
					}
				},
				Config:             env.config(sharedFlowHCL(2, 2, 1)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: env.config(sharedFlowHCL(2, 2, 1)), Check: checkChannels(env, 2, "2", "1")},
		},
	})
}

// TestAccAMQPSender_severalChannelsDeployFailure: the channels of one flow are deployed once together,
// and when that deploy fails, every one of their resources fails with the runtime's error.
func TestAccAMQPSender_severalChannelsDeployFailure(t *testing.T) {
	env := newTestEnv(t)
	env.addSharedFlow(t, 2, false)
	env.srv.FailNextDeploy(sharedFlowID, "Credential EventMesh not found")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig:   env.srv.ResetStats,
				Config:      env.config(sharedFlowHCL(2, 1, 1)),
				ExpectError: wrapped(`Deployment Failed.*Credential EventMesh not found.*Deployment Failed.*Credential EventMesh not found`),
			},
			{
				// One deploy was made for both channels; the next apply deploys again and converges.
				PreConfig: func() {
					if n := env.srv.Stats().Routes[deployRoute]; n != 1 {
						t.Errorf("the failed apply deployed the flow %d times, want once", n)
					}
				},
				Config:           env.config(sharedFlowHCL(2, 1, 1)),
				Check:            checkChannels(env, 2, "1", "1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
