package integration_test

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// The state of the Cloud Integration resources records what the tenant runs: after a failed,
// interrupted or skipped deploy the next plan deploys, so that applying again is the remedy.

// flowStateUploadRoute is the emulator's route of an iFlow content upload.
const flowStateUploadRoute = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"

// flowStateSenderEnv starts an emulator holding the sender flow (acctest.SenderFlowID, one AMQP
// sender on acme/crm/prod/orders).
func flowStateSenderEnv(t *testing.T) *acctest.TestEnv {
	t.Helper()
	env := acctest.NewTestEnv(t)
	flowStateAddSenderFlow(t, env)
	return env
}

// flowStateAddSenderFlow adds the sender flow to env's emulator.
func flowStateAddSenderFlow(t *testing.T, env *acctest.TestEnv) {
	t.Helper()
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
}

// flowStateTest runs steps against the provider in the test process, beside the other parallel tests.
func flowStateTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// flowStateSender is a sender of the cases of TestAccSenderStateTruth_failedDeployIsDeployedAgain: its
// flow, its address, how its flow is added to the emulator, and its configuration setting n.
type flowStateSender struct {
	flow, addr string
	add        func(t *testing.T, env *acctest.TestEnv)
	hcl        func(n int) string
}

var (
	// flowStateAMQP is the AMQP sender of the sender flow.
	flowStateAMQP = flowStateSender{acctest.SenderFlowID, acctest.SenderAddr, flowStateAddSenderFlow, func(n int) string {
		return fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n}\n", acctest.SenderFlowID, n)
	}}
	// flowStateJMS is the JMS sender of the guarded flow.
	flowStateJMS = flowStateSender{acctest.JMSGuardedFlow, acctest.JMSAddr, func(t *testing.T, env *acctest.TestEnv) {
		env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions())
	}, func(n int) string {
		return acctest.JMSHCL(acctest.JMSGuardedFlow, fmt.Sprintf("  retry_interval = %d\n  max_retries = 5\n", n))
	}}
)

// A sender with deploy = true whose deploy fails after its settings were written: the next plan
// deploys the flow (before, it said "No changes" and the flow stayed in ERROR with settings that
// never ran), for the AMQP and the JMS sender alike, and when the build fails and the flow keeps
// running its previous version.
func TestAccSenderStateTruth_failedDeployIsDeployedAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		flowStateSender
		failBuild bool
		// failRead: the runtime cannot be read from the deploy on, during the rest of the apply
		// (its read-back included): the write must be recorded as undeployed all the same.
		failRead bool
	}{
		{name: "amqp", flowStateSender: flowStateAMQP},
		{name: "jms", flowStateSender: flowStateJMS},
		{name: "amqp-failed-build", flowStateSender: flowStateAMQP, failBuild: true},
		{name: "amqp-failed-build-and-runtime-read", flowStateSender: flowStateAMQP, failBuild: true, failRead: true},
		{name: "jms-failed-deploy-and-runtime-read", flowStateSender: flowStateJMS, failRead: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			tc.add(t, env)
			wantErr := `Deployment Failed.*(Credential EventMesh not found|keeps running the version deployed before).*next plan shows the deploy`
			if tc.failRead {
				wantErr = `Cannot Read Deployment`
			}
			pipelineTest(t, []resource.TestStep{
				{Config: env.Config(tc.hcl(1)), Check: acctest.CheckRunsDesignTime(env, tc.flow)},
				{
					PreConfig: func() {
						if tc.failRead {
							flowStateFailRuntimeReads(t, env)
						}
						if tc.failBuild {
							// The build fails: the flow keeps running (STARTED) its previous settings.
							env.Srv.FailNextBuild(tc.flow, "Credential EventMesh not found")
							return
						}
						env.Srv.FailNextDeploy(tc.flow, "Credential EventMesh not found")
					},
					Config:      env.Config(tc.hcl(2)),
					ExpectError: acctest.Wrapped(wantErr),
				},
				{
					// The runtime can be read again (the faults the failed apply left over are dropped).
					PreConfig: func() { env.Srv.ClearFaults(); env.Srv.SetDeployDelay(0) },
					// Nothing changed in the configuration: the plan deploys because the flow does not run it.
					Config:           env.Config(tc.hcl(2)),
					ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(tc.addr),
					Check:            acctest.CheckRunsDesignTime(env, tc.flow),
					ConfigStateChecks: []statecheck.StateCheck{
						acctest.ExpectString(tc.addr, "runtime_status", "STARTED"),
					},
				},
			})
		})
	}
}

// flowStateRuntimeRoute is the emulator's route of a runtime artifact read.
const flowStateRuntimeRoute = "GET /api/v1/IntegrationRuntimeArtifacts(Id)"

// flowStateFailRuntimeReads makes the runtime of every flow unreadable (500 past the client's
// retries) from the next deploy request on, for the rest of that apply: the deploy is held for a
// while so that the faults are in place before anything reads the runtime after it.
func flowStateFailRuntimeReads(t *testing.T, env *acctest.TestEnv) {
	t.Helper()
	env.Srv.SetDeployDelay(300 * time.Millisecond)
	before := env.Srv.Stats().Routes[acctest.DeployRoute]
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(2 * time.Millisecond):
			}
			if env.Srv.Stats().Routes[acctest.DeployRoute] > before {
				faults := make([]emulator.FaultKind, 40)
				for i := range faults {
					faults[i] = emulator.Fault500
				}
				env.Srv.InjectNextOn(flowStateRuntimeRoute, faults...)
				return
			}
		}
	}()
}

// A sender switched from deploy = false back to deploy = true while the flow runs older content
// deploys it: the settings written with deploy = false were recorded as not deployed.
func TestAccSenderStateTruth_deployFalseToTrueDeploys(t *testing.T) {
	env := flowStateSenderEnv(t)
	hcl := func(n int, deploy bool) string {
		return env.Config(fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n  deploy = %t\n}\n",
			acctest.SenderFlowID, n, deploy))
	}
	flowStateTest(t, []resource.TestStep{
		{Config: hcl(1, true), Check: acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)},
		{
			// Written, not deployed: the flow keeps running retries = 1, and with deploy = false
			// nothing more is planned.
			Config: hcl(2, false),
			Check: acctest.CheckEmulator(func() error {
				if acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)(nil) == nil {
					return fmt.Errorf("deploy = false deployed the flow")
				}
				return nil
			}),
			ConfigPlanChecks: pipelineSettles,
		},
		{Config: hcl(2, true), Check: acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
			ConfigPlanChecks: pipelineSettles},
	})
}

// A deployment whose deploy request fails (5xx after the client's retries) keeps its old
// triggers, so that the next plan deploys again; before, it saved the new triggers and the flow
// kept running its old content.
func TestAccIFlowDeploymentStateTruth_failedRequestKeepsTriggers(t *testing.T) {
	flowStateKeepsTriggers(t, func(env *acctest.TestEnv) {
		// max_retries = 3: four answers of 500 fail each deploy request for good.
		env.Srv.InjectNextOn(acctest.DeployRoute, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500,
			emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
	}, "DeployFlowA", "DeployFlowB")
}

// An update whose build fails leaves the flow running its previous version (STARTED): the
// triggers are kept, so the next plan deploys again, although the runtime looks healthy.
func TestAccIFlowDeploymentStateTruth_failedBuildKeepsTriggers(t *testing.T) {
	flowStateKeepsTriggers(t, func(env *acctest.TestEnv) {
		env.Srv.FailNextBuild("DeployFlowA", "Build failed: adapter 'AMQP' not found")
	}, "DeployFlowA")
}

// flowStateKeepsTriggers applies the deployments of acctest.DeploymentFlows, changes their triggers
// with fail set up to make the deploy fail, and asserts that the apply fails and that the next plan
// deploys the flows named in redeployed again, after which both flows run their design time.
func flowStateKeepsTriggers(t *testing.T, fail func(env *acctest.TestEnv), redeployed ...string) {
	t.Helper()
	env := acctest.NewTestEnv(t)
	for _, id := range acctest.DeploymentFlows {
		env.AddTwoChannelFlow(t, id)
	}
	var planned []string
	for _, id := range redeployed {
		planned = append(planned, acctest.DeploymentAddr(id))
	}
	flowStateTest(t, []resource.TestStep{
		{Config: env.Config(acctest.DeploymentHCL(1, "")), Check: acctest.CheckRunsDesignTime(env, "DeployFlowA")},
		{
			PreConfig:   func() { fail(env) },
			Config:      env.Config(acctest.DeploymentHCL(2, "")),
			ExpectError: regexp.MustCompile(`Deployment Failed`),
		},
		{
			Config:           env.Config(acctest.DeploymentHCL(2, "")),
			ConfigPlanChecks: acctest.ExpectUpdatesThenEmptyPlan(planned...),
			Check:            resource.ComposeTestCheckFunc(acctest.CheckRunsDesignTime(env, "DeployFlowA"), acctest.CheckRunsDesignTime(env, "DeployFlowB")),
		},
	})
}

// A sender with deploy = false moved to another channel of its flow with the same settings gets
// another revision, so its deployment deploys the flow: before, the revision was a hash of the
// settings alone, the trigger did not change, and the written channel never ran.
func TestAccIFlowDeploymentStateTruth_movedChannelRedeploys(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const id = "MovedChannel"
	var senders []iflowbuild.Sender
	for i, name := range acctest.ChannelNames[:2] {
		props := iflowbuild.DefaultSenderProperties("acme/crm/prod/moved/" + strings.ToLower(name))
		// AMQP_A holds what the configuration sets; AMQP_B does not.
		props["maxRetries"], props["NumberConcurrentProcesses"] = []string{"1", "5"}[i], []string{"1", "3"}[i]
		senders = append(senders, iflowbuild.Sender{ID: fmt.Sprintf("MessageFlow_%d", i+1), Name: name, Properties: props})
	}
	env.AddFlow(t, id, senders, nil, []string{"error"})
	hcl := func(channel string) string {
		return env.Config(fmt.Sprintf(`
resource "sapmessaging_amqp_sender" "c" {
  iflow_id              = %q
  channel               = %q
  max_number_of_retries = 1
  concurrent_processes  = 1
  deploy                = false
}

resource "sapmessaging_iflow_deployment" "f" {
  iflow_id = %q
  triggers = { c = sapmessaging_amqp_sender.c.revision }
}
`, id, channel, id))
	}
	flowStateTest(t, []resource.TestStep{
		{Config: hcl("AMQP_A"), Check: acctest.CheckRunsDesignTime(env, id)},
		{
			Config:           hcl("AMQP_B"),
			ConfigPlanChecks: pipelineSettles,
			Check:            acctest.CheckRunsDesignTime(env, id),
		},
	})
}

// Two resources of one configuration on one channel, or two deployments of one flow, are refused
// at plan, also when one names the flow's version as "active" and the other explicitly.
func TestAccSenderStateTruth_managedTwiceRefused(t *testing.T) {
	env := flowStateSenderEnv(t)
	flowStateTest(t, []resource.TestStep{
		{
			Config: env.Configf(`
resource "sapmessaging_amqp_sender" "active" {
  iflow_id              = %[1]q
  max_number_of_retries = 1
}

resource "sapmessaging_amqp_sender" "explicit" {
  iflow_id              = %[1]q
  version               = "1.0.0"
  max_number_of_retries = 2
}
`, acctest.SenderFlowID),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Channel Managed Twice.*MessageFlow_1.*OrdersInbound`),
		},
		{
			Config: env.Configf(`
resource "sapmessaging_iflow_deployment" "a" {
  iflow_id = %[1]q
}

resource "sapmessaging_iflow_deployment" "b" {
  iflow_id = %[1]q
  version  = "1.0.0"
}
`, acctest.SenderFlowID),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Integration Flow Deployed Twice.*OrdersInbound`),
		},
	})
}

// A failed upload is reported as a write, not as a read; applying again converges.
func TestAccSenderStateTruth_failedUploadReportedAsWrite(t *testing.T) {
	env := flowStateSenderEnv(t)
	flowStateTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				env.Srv.InjectNextOn(flowStateUploadRoute, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
			},
			Config:      env.Config(acctest.SenderHCL("")),
			ExpectError: acctest.Wrapped(`Cannot Write Integration Flow.*uploading the changed content`),
		},
		{
			Config:           env.Config(acctest.SenderHCL("")),
			Check:            acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
			ConfigPlanChecks: pipelineSettles,
		},
	})
}

// flowStateSenderCLI starts an emulator holding the sender flow and returns it with a CLI working
// directory with one sapmessaging_amqp_sender of acctest.SenderFlowID (deploy = true) whose retries are
// set by the variable n, applied with n = 1.
func flowStateSenderCLI(t *testing.T, tf, timeouts string) (*emulatortest.Emulator, *acctest.TestEnv, *acctest.CLIWork) {
	t.Helper()
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	flowStateAddSenderFlow(t, env)
	w := acctest.NewCLIWork(t, tf, srv, fmt.Sprintf("  cloud_integration = { service_key = %q }\n  max_retries = 1", string(srv.CloudIntegrationKey())), `
variable "n" {
  type = number
}

resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "`+acctest.SenderFlowID+`"
  max_number_of_retries = var.n
`+timeouts+`
}
`)
	w.ApplyConverges(t, env, 1)
	return srv, env, w
}

// Ctrl-C after the upload, while the deploy request is on its way (the tenant never receives it):
// the apply says it was cancelled, not that it ran out of time; the next plan deploys, and
// applying again makes the flow run the new settings.
func TestAccSenderStateTruth_interruptedBeforeDeploy(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv, env, w := flowStateSenderCLI(t, tf, "")

	// The deploy request is held until the client gives up; it is then dropped unprocessed.
	srv.SetFaults(emulator.Faults{SlowDelay: 2 * time.Minute})
	srv.InjectNextOn(acctest.DeployRoute, emulator.FaultSlow)
	srv.ResetStats()
	cmd, out := w.Start(t, "apply", "-auto-approve", "-input=false", "-no-color", "-var=n=2")
	deadline := time.Now().Add(2 * time.Minute)
	for srv.Stats().Routes[acctest.DeployRoute] < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the apply sent no deploy request:\n%s", out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the interrupted apply succeeded:\n%s", out.String())
	}
	srv.ClearFaults()
	if !strings.Contains(out.String(), "Cancelled") || strings.Contains(out.String(), "did not finish in time") {
		t.Errorf("the interrupted apply does not say it was cancelled:\n%s", out.String())
	}
	if err := acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)(nil); err == nil {
		t.Fatalf("the flow runs the new settings although its deploy request never arrived:\n%s", out.String())
	}
	w.PlanShowsDeploy(t, 2)
	w.ApplyConverges(t, env, 2)
}

// timeouts bound the whole operation, not only the deploy: with every request taking longer
// than the update timeout, the apply ends with "Operation Timed Out" naming timeouts.update
// (before, the read and the upload ran unbounded and only the deploy was timed); the next plan
// shows what is left and applying again converges.
func TestAccSenderStateTruth_timeoutBoundsWholeOperation(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv, env, w := flowStateSenderCLI(t, tf, `  timeouts = { update = "1s" }`)

	if r := w.Run(t, "plan", "-input=false", "-no-color", "-var=n=2", "-out=update.tfplan"); r.ExitCode != 0 {
		t.Fatalf("plan failed (exit %d):\n%s", r.ExitCode, r.Output)
	}
	srv.SetFaults(emulator.Faults{Latency: 1500 * time.Millisecond})
	r := w.Run(t, "apply", "-input=false", "-no-color", "update.tfplan")
	srv.ClearFaults()
	if r.ExitCode == 0 || !strings.Contains(r.Output, "Operation Timed Out") || !strings.Contains(r.Output, "timeouts.update") {
		t.Fatalf("the apply beyond its timeout does not end with Operation Timed Out (exit %d):\n%s", r.ExitCode, r.Output)
	}
	if d, ok := env.Srv.Deployed(acctest.SenderFlowID); !ok || d.Status != "STARTED" {
		t.Fatalf("the flow stopped running: %+v", d)
	}
	w.ApplyConverges(t, env, 2)
}
