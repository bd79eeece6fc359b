package integration_test

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// The state of the Cloud Integration resources records what the tenant runs: after a failed,
// interrupted or skipped deploy the next plan deploys, so that applying again is the remedy.

// uploadRoute is the emulator's route of an iFlow content upload.
const uploadRoute = "PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"

// expectDeployPlanned: the plan updates addr although the configuration did not change.
func expectDeployPlanned(addr string) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
}

// A sender with deploy = true whose deploy fails after its settings were written: the next plan
// deploys the flow (before, it said "No changes" and the flow stayed in ERROR with settings that
// never ran), for the AMQP and the JMS sender alike, and when the build fails and the flow keeps
// running its previous version.
func TestAccSenderStateTruth_failedDeployIsDeployedAgain(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, flow, addr string
		add              func(env *acctest.TestEnv)
		hcl              func(n int) string
		failBuild        bool
		// failRead: the runtime cannot be read from the deploy on, during the rest of the apply
		// (its read-back included): the write must be recorded as undeployed all the same.
		failRead bool
	}{
		{
			name: "amqp", flow: acctest.SenderFlowID, addr: acctest.SenderAddr,
			add: func(env *acctest.TestEnv) {
				env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
			},
			hcl: func(n int) string {
				return fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n}\n", acctest.SenderFlowID, n)
			},
		},
		{
			name: "jms", flow: acctest.JMSGuardedFlow, addr: acctest.JMSAddr,
			add: func(env *acctest.TestEnv) { env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions()) },
			hcl: func(n int) string {
				return acctest.JMSHCL(acctest.JMSGuardedFlow, fmt.Sprintf("  retry_interval = %d\n  max_retries = 5\n", n))
			},
		},
		{
			name: "amqp-failed-build", flow: acctest.SenderFlowID, addr: acctest.SenderAddr, failBuild: true,
			add: func(env *acctest.TestEnv) {
				env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
			},
			hcl: func(n int) string {
				return fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n}\n", acctest.SenderFlowID, n)
			},
		},
		{
			name: "amqp-failed-build-and-runtime-read", flow: acctest.SenderFlowID, addr: acctest.SenderAddr, failBuild: true, failRead: true,
			add: func(env *acctest.TestEnv) {
				env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
			},
			hcl: func(n int) string {
				return fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n}\n", acctest.SenderFlowID, n)
			},
		},
		{
			name: "jms-failed-deploy-and-runtime-read", flow: acctest.JMSGuardedFlow, addr: acctest.JMSAddr, failRead: true,
			add: func(env *acctest.TestEnv) { env.AddJMSFlow(t, acctest.JMSGuardedFlow, false, acctest.GuardedOptions()) },
			hcl: func(n int) string {
				return acctest.JMSHCL(acctest.JMSGuardedFlow, fmt.Sprintf("  retry_interval = %d\n  max_retries = 5\n", n))
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			tc.add(env)
			wantErr := `Deployment Failed.*(Credential EventMesh not found|keeps running the version deployed before).*next plan shows the deploy`
			if tc.failRead {
				wantErr = `Cannot Read Deployment`
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{Config: env.Config(tc.hcl(1)), Check: acctest.CheckRunsDesignTime(env, tc.flow)},
					{
						PreConfig: func() {
							if tc.failRead {
								failRuntimeReadsFromDeploy(t, env)
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
						ConfigPlanChecks: expectDeployPlanned(tc.addr),
						Check:            acctest.CheckRunsDesignTime(env, tc.flow),
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(tc.addr, tfjsonpath.New("runtime_status"), knownvalue.StringExact("STARTED")),
						},
					},
				},
			})
		})
	}
}

// runtimeRoute is the emulator's route of a runtime artifact read.
const runtimeRoute = "GET /api/v1/IntegrationRuntimeArtifacts(Id)"

// failRuntimeReadsFromDeploy makes the runtime of every flow unreadable (500 past the client's
// retries) from the next deploy request on, for the rest of that apply: the deploy is held for a
// while so that the faults are in place before anything reads the runtime after it.
func failRuntimeReadsFromDeploy(t *testing.T, env *acctest.TestEnv) {
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
				env.Srv.InjectNextOn(runtimeRoute, faults...)
				return
			}
		}
	}()
}

// A sender switched from deploy = false back to deploy = true while the flow runs older content
// deploys it: the settings written with deploy = false were recorded as not deployed.
func TestAccSenderStateTruth_deployFalseToTrueDeploys(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	hcl := func(n int, deploy bool) string {
		return env.Config(fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n  deploy = %t\n}\n",
			acctest.SenderFlowID, n, deploy))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: hcl(1, true), Check: acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)},
			{
				// Written, not deployed: the flow keeps running retries = 1, and with deploy = false
				// nothing more is planned.
				Config: hcl(2, false),
				Check: func(*terraform.State) error {
					if acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)(nil) == nil {
						return fmt.Errorf("deploy = false deployed the flow")
					}
					return nil
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{Config: hcl(2, true), Check: acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// A deployment whose deploy request fails (5xx after the client's retries) keeps its old
// triggers, so that the next plan deploys again; before, it saved the new triggers and the flow
// kept running its old content.
func TestAccIFlowDeploymentStateTruth_failedRequestKeepsTriggers(t *testing.T) {
	env := acctest.NewTestEnv(t)
	for _, id := range acctest.DeploymentFlows {
		env.AddTwoChannelFlow(t, id)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Config(acctest.DeploymentHCL(1, "")), Check: acctest.CheckRunsDesignTime(env, "DeployFlowA")},
			{
				// max_retries = 3: four answers of 500 fail each deploy request for good.
				PreConfig: func() {
					env.Srv.InjectNextOn(acctest.DeployRoute, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500,
						emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
				},
				Config:      env.Config(acctest.DeploymentHCL(2, "")),
				ExpectError: regexp.MustCompile(`Deployment Failed`),
			},
			{
				Config: env.Config(acctest.DeploymentHCL(2, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.DeploymentAddr("DeployFlowA"), plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(acctest.DeploymentAddr("DeployFlowB"), plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(acctest.CheckRunsDesignTime(env, "DeployFlowA"), acctest.CheckRunsDesignTime(env, "DeployFlowB")),
			},
		},
	})
}

// An update whose build fails leaves the flow running its previous version (STARTED): the
// triggers are kept, so the next plan deploys again, although the runtime looks healthy.
func TestAccIFlowDeploymentStateTruth_failedBuildKeepsTriggers(t *testing.T) {
	env := acctest.NewTestEnv(t)
	for _, id := range acctest.DeploymentFlows {
		env.AddTwoChannelFlow(t, id)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Config(acctest.DeploymentHCL(1, "")), Check: acctest.CheckRunsDesignTime(env, "DeployFlowA")},
			{
				PreConfig:   func() { env.Srv.FailNextBuild("DeployFlowA", "Build failed: adapter 'AMQP' not found") },
				Config:      env.Config(acctest.DeploymentHCL(2, "")),
				ExpectError: regexp.MustCompile(`Deployment Failed`),
			},
			{
				Config: env.Config(acctest.DeploymentHCL(2, "")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(acctest.DeploymentAddr("DeployFlowA"), plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: resource.ComposeTestCheckFunc(acctest.CheckRunsDesignTime(env, "DeployFlowA"), acctest.CheckRunsDesignTime(env, "DeployFlowB")),
			},
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
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: hcl("AMQP_A"), Check: acctest.CheckRunsDesignTime(env, id)},
			{
				Config: hcl("AMQP_B"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: acctest.CheckRunsDesignTime(env, id),
			},
		},
	})
}

// Two resources of one configuration on one channel, or two deployments of one flow, are refused
// at plan, also when one names the flow's version as "active" and the other explicitly.
func TestAccSenderStateTruth_managedTwiceRefused(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
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
		},
	})
}

// A failed upload is reported as a write, not as a read; applying again converges.
func TestAccSenderStateTruth_failedUploadReportedAsWrite(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					env.Srv.InjectNextOn(uploadRoute, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
				},
				Config:      env.Config(acctest.SenderHCL("")),
				ExpectError: acctest.Wrapped(`Cannot Write Integration Flow.*uploading the changed content`),
			},
			{
				Config:           env.Config(acctest.SenderHCL("")),
				Check:            acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// senderCLIWork is a CLI working directory with one sapmessaging_amqp_sender of senderFlowID
// (deploy = true) whose retries are set by the variable n.
func senderCLIWork(t *testing.T, tf string, srv *emulatortest.Emulator, timeouts string) *acctest.CLIWork {
	t.Helper()
	return acctest.NewCLIWork(t, tf, srv, fmt.Sprintf("  cloud_integration = { service_key = %q }\n  max_retries = 1", string(srv.CloudIntegrationKey())), `
variable "n" {
  type = number
}

resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "`+acctest.SenderFlowID+`"
  max_number_of_retries = var.n
`+timeouts+`
}
`)
}

// Ctrl-C after the upload, while the deploy request is on its way (the tenant never receives it):
// the apply says it was cancelled, not that it ran out of time; the next plan deploys, and
// applying again makes the flow run the new settings.
func TestAccSenderStateTruth_interruptedBeforeDeploy(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	w := senderCLIWork(t, tf, srv, "")
	w.ApplyConverges(t, env, 1)

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
	srv := emulatortest.Start(t, emulator.Options{})
	env := &acctest.TestEnv{Srv: srv}
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	w := senderCLIWork(t, tf, srv, `  timeouts = { update = "1s" }`)
	w.ApplyConverges(t, env, 1)

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

// A write recorded as undeployed ends when the runtime was deployed since; recorded without the
// runtime's deployment time (the read-back failed), only a deploy of the resource ends it.
func TestStillUndeployed(t *testing.T) {
	t.Parallel()
	started := func(on string) *cpi.RuntimeArtifact { return &cpi.RuntimeArtifact{Status: "STARTED", DeployedOn: on} }
	for _, tc := range []struct {
		name string
		u    *framework.UndeployedWrite
		rt   *cpi.RuntimeArtifact
		want bool
	}{
		{"none recorded", nil, started("t1"), false},
		{"not deployed since", &framework.UndeployedWrite{DeployedOn: "t1"}, started("t1"), true},
		{"deployed since", &framework.UndeployedWrite{DeployedOn: "t1"}, started("t2"), false},
		{"deployed since, but in error", &framework.UndeployedWrite{DeployedOn: "t1"}, &cpi.RuntimeArtifact{Status: "ERROR", DeployedOn: "t2"}, true},
		{"not deployed at all", &framework.UndeployedWrite{}, nil, true},
		{"deployment time unknown", &framework.UndeployedWrite{DeployedOnUnknown: true}, started("t2"), true},
	} {
		if got := framework.StillUndeployed(tc.u, tc.rt) != nil; got != tc.want {
			t.Errorf("%s: still undeployed = %t, want %t", tc.name, got, tc.want)
		}
	}
}

// What the runtime was deployed from is recorded again after a deploy of the resource and when a
// read finds another deployment than the recorded one (by anyone); a read of the same deployment
// keeps the digest recorded, so that a design time changed since is seen. A deployment by someone
// else is unconfirmed until a saved run reads it again (an apply that held a deploy back for it
// needs one more), and the record stays while the flow is not deployed.
func TestNextDeployedContent(t *testing.T) {
	t.Parallel()
	rt := func(on string) *cpi.RuntimeArtifact {
		return &cpi.RuntimeArtifact{Status: "STARTED", DeployedOn: on, Version: "1.0.1"}
	}
	rec := &framework.DeployedContent{DeployedOn: "t1", Digest: "d1", Version: "1.0.1"}
	unconfirmed := func(n int) *framework.DeployedContent { c := *rec; c.Unconfirmed = n; return &c }
	for _, tc := range []struct {
		name   string
		prior  *framework.DeployedContent
		rt     *cpi.RuntimeArtifact
		digest string
		by     framework.RecordBy
		held   bool
		want   *framework.DeployedContent
	}{
		{"first read takes the design time as deployed", nil, rt("t1"), "d2", framework.ByRead, false, &framework.DeployedContent{DeployedOn: "t1", Digest: "d2", Version: "1.0.1"}},
		{"same deployment keeps the record", rec, rt("t1"), "d2", framework.ByRead, false, rec},
		{"a deploy by someone else records anew, unconfirmed", rec, rt("t2"), "d2", framework.ByRead, false,
			&framework.DeployedContent{DeployedOn: "t2", Digest: "d2", Version: "1.0.1", Unconfirmed: 1}},
		{"a saved run's read confirms it", unconfirmed(1), rt("t1"), "d2", framework.ByRead, false, rec},
		{"an apply that held the deploy back keeps it unconfirmed", unconfirmed(1), rt("t1"), "d2", framework.ByApply, true, unconfirmed(2)},
		{"a read after that apply lowers it", unconfirmed(2), rt("t1"), "d2", framework.ByRead, false, unconfirmed(1)},
		{"the resource's own deploy records anew", unconfirmed(1), rt("t1"), "d2", framework.ByDeploy, false, &framework.DeployedContent{DeployedOn: "t1", Digest: "d2", Version: "1.0.1"}},
		{"not deployed: the record of what last ran stays", rec, nil, "d2", framework.ByRead, false, rec},
		{"design time unread: the record stays", rec, rt("t2"), "", framework.ByRead, false, rec},
	} {
		got := framework.NextDeployedContent(tc.prior, tc.rt, tc.digest, tc.by, tc.held, "")
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
