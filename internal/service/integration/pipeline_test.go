package integration_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// A team's CI/CD pipeline beside the provider, scripted on the emulator's Cloud Integration API as
// flashpipe or a script on the OData API does it: upload a new version of a flow from git (with or
// without its parameters.prop), deploy it, undeploy it, delete it.

// pipeline drives the tenant's Cloud Integration API as a release pipeline does.
type pipeline struct {
	t   *testing.T
	env *acctest.TestEnv
	ci  *cpi.Client
}

func newPipeline(t *testing.T, env *acctest.TestEnv) *pipeline {
	t.Helper()
	return &pipeline{t: t, env: env, ci: env.CloudIntegration(t)}
}

// stage uploads version of flow id as the pipeline builds it from git: the tenant's current
// content (what the team committed, with any retry lines the provider wrote) with e applied and
// a release note (another change than this configuration's), without deploying it.
func (p *pipeline) stage(id, version string, e acctest.ArchiveEdit) {
	p.t.Helper()
	e.Version = version
	if e.Set == nil {
		e.Set = map[string][]byte{}
	}
	e.Set["src/main/resources/script/release.groovy"] = []byte("// release " + version + "\n")
	content := acctest.RewriteArchive(p.t, p.env.Srv.IFlowContent(id), e)
	if err := p.ci.UpdateContent(p.t.Context(), id, "active", "", content); err != nil {
		p.t.Fatalf("pipeline: uploading %s %s: %v", id, version, err)
	}
}

// deploy deploys flow id as the pipeline's release job does.
func (p *pipeline) deploy(id string) {
	p.t.Helper()
	if _, err := p.ci.DeployAndWait(p.t.Context(), id, "active", 10*time.Millisecond); err != nil {
		p.t.Fatalf("pipeline: deploying %s: %v", id, err)
	}
}

// undeploy undeploys flow id.
func (p *pipeline) undeploy(id string) { //nolint:unparam // each pipeline step names the flow it acts on, as the other steps do
	p.t.Helper()
	if err := p.ci.Undeploy(p.t.Context(), id); err != nil {
		p.t.Fatalf("pipeline: undeploying %s: %v", id, err)
	}
}

// delete deletes flow id from the design time.
func (p *pipeline) delete(id string) {
	p.t.Helper()
	if err := p.ci.DeleteArtifact(p.t.Context(), id, "active"); err != nil {
		p.t.Fatalf("pipeline: deleting %s: %v", id, err)
	}
}

// pipelineDeployedVersion asserts the version and status the runtime of senderFlowID runs (""
// status: not deployed).
func pipelineDeployedVersion(env *acctest.TestEnv, status, version string) resource.TestCheckFunc {
	const id = acctest.SenderFlowID
	return acctest.CheckEmulator(func() error {
		d, ok := env.Srv.Deployed(id)
		switch {
		case status == "" && ok && d.Status != "":
			return fmt.Errorf("flow %s is deployed (%s, version %s), want it undeployed", id, d.Status, d.Version)
		case status == "":
			return nil
		case !ok || d.Status != status || d.Version != version:
			return fmt.Errorf("flow %s runs version %q in status %q, want version %s in status %s", id, d.Version, d.Status, version, status)
		}
		return nil
	})
}

// pipelineSenderRetries asserts the retry count of the AMQP sender of flow id in the design time.
func pipelineSenderRetries(env *acctest.TestEnv, id, want string) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		art, err := iflow.ReadZip(env.Srv.IFlowContent(id))
		if err != nil {
			return err
		}
		if got := art.AMQPSenders()[0].Properties[iflow.KeyMaxRetries]; got != want {
			return fmt.Errorf("the design time of %s holds %s = %q, want %q", id, iflow.KeyMaxRetries, got, want)
		}
		return nil
	})
}

func pipelineSenderHCL(env *acctest.TestEnv, n int, extra string) string {
	return env.Config(fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = %d\n%s}\n",
		acctest.SenderFlowID, n, extra))
}

// newPipelineEnv starts an emulator holding the sender flow (acctest.SenderFlowID, one AMQP sender on
// acme/crm/prod/orders) and the pipeline that releases it.
func newPipelineEnv(t *testing.T) (*acctest.TestEnv, *pipeline) {
	t.Helper()
	env := flowStateSenderEnv(t)
	return env, newPipeline(t, env)
}

// newPipelineSampleEnv starts an emulator holding the sample content and the pipeline that releases
// its flows.
func newPipelineSampleEnv(t *testing.T) (*acctest.TestEnv, *pipeline) {
	t.Helper()
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	return env, newPipeline(t, env)
}

// pipelineTest runs steps against the provider in the test process.
func pipelineTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

var (
	// pipelineNoPlan: the step plans nothing.
	pipelineNoPlan = acctest.EmptyPlanBeforeApply()
	// pipelineSettles: the plan after the step's apply is empty.
	pipelineSettles = acctest.EmptyPlanAfterApply()
)

// pipelineWorkspace writes main (after the provider's requirements and an empty provider block) into a
// directory of its own and returns the CLI workspace there, with the provider built from source, and the
// path of main.tf.
func pipelineWorkspace(t *testing.T, tf string, env *acctest.TestEnv, main string) (*acctest.CLIWorkspace, string) {
	t.Helper()
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := filepath.Join(t.TempDir(), "flows")
	file := filepath.Join(dir, "main.tf")
	acctest.WriteFile(t, file, acctest.AdoptionMain+main)
	return acctest.NewCLIWorkspace(t, tf, plugins, dir, env), file
}

// pipelineDeploymentHCL is sapmessaging_iflow_deployment.flow of the sender flow with the attributes in extra.
func pipelineDeploymentHCL(env *acctest.TestEnv, extra string) string {
	return env.Config(fmt.Sprintf("\nresource \"sapmessaging_iflow_deployment\" \"flow\" {\n  iflow_id = %q\n%s}\n", acctest.SenderFlowID, extra))
}

// pipelineTriggeredHCL is sapmessaging_iflow_deployment.flow with the trigger t and the attributes in extra.
func pipelineTriggeredHCL(env *acctest.TestEnv, trigger, extra string) string {
	return pipelineDeploymentHCL(env, fmt.Sprintf("  triggers = { t = %q }\n%s", trigger, extra))
}

// The pipeline uploads version 1.0.7 without deploying it. A sender whose settings the runtime
// already runs plans nothing and leaves 1.0.7 to the release (before, the plan deployed 1.0.7,
// saying the runtime did not run the configuration's settings). A change of the settings is
// written into 1.0.7 without shipping it; the pipeline's release then runs them, and
// deploy_other_changes = true deploys the staged version from the configuration.
func TestAccPipeline_stagedVersionNotDeployed(t *testing.T) {
	t.Parallel()
	env, p := newPipelineEnv(t)
	noChange := pipelineNoPlan
	pipelineTest(t, []resource.TestStep{
		{Config: pipelineSenderHCL(env, 3, ""), Check: pipelineDeployedVersion(env, "STARTED", "1.0.0")},
		{
			PreConfig:        func() { p.stage(acctest.SenderFlowID, "1.0.7", acctest.ArchiveEdit{}) },
			Config:           pipelineSenderHCL(env, 3, ""),
			ConfigPlanChecks: noChange,
			Check:            pipelineDeployedVersion(env, "STARTED", "1.0.0"),
		},
		{
			// This configuration's change goes into 1.0.7, which is not shipped.
			Config: pipelineSenderHCL(env, 4, ""),
			Check: resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "STARTED", "1.0.0"),
				pipelineSenderRetries(env, acctest.SenderFlowID, "4")),
			ConfigPlanChecks: pipelineSettles,
		},
		{
			// The release job deploys 1.0.7: it runs the settings, and the plan stays empty.
			PreConfig:        func() { p.deploy(acctest.SenderFlowID) },
			Config:           pipelineSenderHCL(env, 4, ""),
			ConfigPlanChecks: noChange,
			Check:            resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "STARTED", "1.0.7"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)),
		},
		{
			PreConfig:        func() { p.stage(acctest.SenderFlowID, "1.0.8", acctest.ArchiveEdit{}) },
			Config:           pipelineSenderHCL(env, 4, "  deploy_other_changes = true\n"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.SenderAddr),
			Check:            pipelineDeployedVersion(env, "STARTED", "1.0.8"),
		},
		{
			// The pipeline uploads a fix under 1.0.8, the version the runtime runs, without
			// deploying it (flashpipe updates the content without a version bump). Leaving
			// deploy_other_changes out deploys nothing.
			PreConfig: func() {
				p.stage(acctest.SenderFlowID, "1.0.8", acctest.ArchiveEdit{Set: map[string][]byte{pipelineHotfix: []byte("// hotfix 1\n")}})
				env.Srv.ResetStats()
			},
			Config:           pipelineSenderHCL(env, 4, ""),
			ConfigPlanChecks: pipelineSettles,
			Check: resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "STARTED", "1.0.8"), pipelineRunsHotfix(env, ""),
				pipelineDeployCount(env, 0)),
		},
		{
			// This configuration's change goes into the design time without shipping the fix
			// (before, the version number being the same, the write deployed the fix with it).
			PreConfig: env.Srv.ResetStats,
			Config:    pipelineSenderHCL(env, 5, ""),
			Check: resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, ""), pipelineSenderRetries(env, acctest.SenderFlowID, "5"),
				pipelineDeployCount(env, 0)),
			ConfigPlanChecks: pipelineSettles,
		},
		{
			// The release job deploys it: the runtime runs the fix and the settings.
			PreConfig:        func() { p.deploy(acctest.SenderFlowID) },
			Config:           pipelineSenderHCL(env, 5, ""),
			ConfigPlanChecks: noChange,
			Check:            resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, "// hotfix 1\n"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)),
		},
		{
			// Another fix under 1.0.8: deploy_other_changes = true ships it from here.
			PreConfig: func() {
				p.stage(acctest.SenderFlowID, "1.0.8", acctest.ArchiveEdit{Set: map[string][]byte{pipelineHotfix: []byte("// hotfix 2\n")}})
			},
			Config:           pipelineSenderHCL(env, 5, "  deploy_other_changes = true\n"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.SenderAddr),
			Check:            resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, "// hotfix 2\n"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)),
		},
	})
}

// pipelineHotfix is an entry a pipeline's upload adds under the version the runtime runs.
const pipelineHotfix = "src/main/resources/script/hotfix.groovy"

// pipelineRunsHotfix asserts the content of the hotfix entry in what the runtime of senderFlowID runs
// ("": none).
func pipelineRunsHotfix(env *acctest.TestEnv, want string) resource.TestCheckFunc {
	const id, name = acctest.SenderFlowID, pipelineHotfix
	return acctest.CheckEmulator(func() error {
		d, ok := env.Srv.Deployed(id)
		if !ok {
			return fmt.Errorf("flow %s is not deployed", id)
		}
		zr, err := zip.NewReader(bytes.NewReader(d.Content), int64(len(d.Content)))
		if err != nil {
			return err
		}
		got := ""
		for _, f := range zr.File {
			if f.Name != name {
				continue
			}
			b, err := acctest.ReadArchiveEntry(f)
			if err != nil {
				return err
			}
			got = string(b)
		}
		if got != want {
			return fmt.Errorf("the runtime of %s runs %s = %q, want %q", id, name, got, want)
		}
		return nil
	})
}

// pipelineDeployCount asserts how many deploys the emulator served since its statistics were reset.
func pipelineDeployCount(env *acctest.TestEnv, want int64) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		if n := env.Srv.Stats().Routes[acctest.DeployRoute]; n != want {
			return fmt.Errorf("the flow was deployed %d times, want %d", n, want)
		}
		return nil
	})
}

// The deploy policy: a flow the team undeploys on purpose stays undeployed under `changes` (also
// when this configuration writes settings) and `never`; `running` deploys it again.
func TestAccPipeline_deployPolicy(t *testing.T) {
	t.Parallel()
	env, p := newPipelineEnv(t)
	policy := func(s string) string { return fmt.Sprintf("  deploy_policy = %q\n", s) }
	pipelineTest(t, []resource.TestStep{
		{PreConfig: func() { p.deploy(acctest.SenderFlowID) }, Config: pipelineSenderHCL(env, 3, policy("changes")),
			Check: resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "STARTED", "1.0.0"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID))},
		{
			PreConfig:        func() { p.undeploy(acctest.SenderFlowID) },
			Config:           pipelineSenderHCL(env, 3, policy("changes")),
			ConfigPlanChecks: pipelineNoPlan,
			Check:            pipelineDeployedVersion(env, "", ""),
		},
		{
			Config:           pipelineSenderHCL(env, 4, policy("changes")),
			Check:            resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "", ""), pipelineSenderRetries(env, acctest.SenderFlowID, "4")),
			ConfigPlanChecks: pipelineSettles,
		},
		{
			Config:           pipelineSenderHCL(env, 5, policy("never")),
			Check:            resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "", ""), pipelineSenderRetries(env, acctest.SenderFlowID, "5")),
			ConfigPlanChecks: pipelineSettles,
		},
		{
			Config:           pipelineSenderHCL(env, 5, policy("running")),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.SenderAddr),
			Check:            acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
		},
		{
			Config:      pipelineSenderHCL(env, 5, policy("changes")+"  deploy = false\n"),
			ExpectError: regexp.MustCompile("Conflicting Deploy Settings"),
		},
	})
}

// sapmessaging_iflow_deployment under `changes` and `never` leaves a flow the team undeployed
// undeployed; before, it could only be removed from the configuration to stop redeploying it.
func TestAccPipeline_deploymentPolicy(t *testing.T) {
	t.Parallel()
	env, p := newPipelineEnv(t)
	hcl := func(policy, trigger string) string {
		return pipelineTriggeredHCL(env, trigger, fmt.Sprintf("  deploy_policy = %q\n", policy))
	}
	pipelineTest(t, []resource.TestStep{
		{PreConfig: func() { p.deploy(acctest.SenderFlowID) }, Config: hcl("changes", "a"), Check: pipelineDeployedVersion(env, "STARTED", "1.0.0")},
		{
			PreConfig:        func() { p.undeploy(acctest.SenderFlowID) },
			Config:           hcl("changes", "a"),
			ConfigPlanChecks: pipelineNoPlan,
			Check:            pipelineDeployedVersion(env, "", ""),
		},
		{
			Config: hcl("never", "b"),
			Check:  pipelineDeployedVersion(env, "", ""),
		},
		{
			Config:           hcl("running", "b"),
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan("sapmessaging_iflow_deployment.flow"),
			Check:            pipelineDeployedVersion(env, "STARTED", "1.0.0"),
		},
	})
}

// sapmessaging_iflow_deployment beside a pipeline that uploads a fix under the version the runtime
// runs: a change of the triggers does not ship it (before, the same version number hid it, and the
// deploy shipped the fix); deploy_other_changes = true does.
func TestAccPipeline_deploymentHoldsSameVersionChanges(t *testing.T) {
	t.Parallel()
	env, p := newPipelineEnv(t)
	pipelineTest(t, []resource.TestStep{
		{Config: pipelineTriggeredHCL(env, "a", ""), Check: pipelineDeployedVersion(env, "STARTED", "1.0.0")},
		{
			PreConfig: func() {
				p.stage(acctest.SenderFlowID, "1.0.0", acctest.ArchiveEdit{Set: map[string][]byte{pipelineHotfix: []byte("// hotfix 1\n")}})
				env.Srv.ResetStats()
			},
			Config: pipelineTriggeredHCL(env, "b", ""),
			Check:  resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, ""), pipelineDeployCount(env, 0)),
		},
		{
			Config: pipelineTriggeredHCL(env, "c", "  deploy_other_changes = true\n"),
			Check:  resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, "// hotfix 1\n"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)),
		},
	})
}

// The drift guide's exit codes against a flow the pipeline deleted: the refresh notices it is
// gone, `plan -detailed-exitcode` exits 2 (drift) and says what happened, where it used to exit 1
// with "Integration Flow Not Found" like a credentials or network failure; the apply fails saying
// the flow must be uploaded first, and once the pipeline uploads it again the apply converges.
func TestAccDriftDetection_deletedFlow(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env, p := newPipelineEnv(t)
	p.deploy(acctest.SenderFlowID)
	w, _ := pipelineWorkspace(t, tf, env, `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "`+acctest.SenderFlowID+`"
  max_number_of_retries = 3
  deploy                = false
}

resource "sapmessaging_iflow_deployment" "orders" {
  iflow_id = sapmessaging_amqp_sender.orders.iflow_id
  triggers = { orders = sapmessaging_amqp_sender.orders.revision }
}
`)
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")
	uploaded := env.Srv.IFlowContent(acctest.SenderFlowID)

	p.undeploy(acctest.SenderFlowID)
	p.delete(acctest.SenderFlowID)
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	for _, want := range []string{"Integration Flow Deleted", "deleted outside Terraform", "sapmessaging_amqp_sender.orders will be created",
		"sapmessaging_iflow_deployment.orders will be created"} {
		if !strings.Contains(strings.Join(strings.Fields(r.Output), " "), want) {
			t.Errorf("the plan after the pipeline deleted the flow does not say %q:\n%s", want, r.Output)
		}
	}
	r = w.MustRun(1, "apply", "-auto-approve", "-input=false", "-no-color")
	if out := strings.Join(strings.Fields(r.Output), " "); !strings.Contains(out, "Integration Flow Not Found") || !strings.Contains(out, "must be uploaded first") {
		t.Errorf("the apply without the flow does not say it must be uploaded first:\n%s", r.Output)
	}

	// The pipeline uploads the flow again: the apply writes and deploys it, and the plan settles.
	if err := env.Srv.CreateIFlow(acctest.SenderFlowID, acctest.SenderFlowID, "Orders", uploaded); err != nil {
		t.Fatal(err)
	}
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")
	if err := acctest.CheckRunsDesignTime(env, acctest.SenderFlowID)(nil); err != nil {
		t.Error(err)
	}
}

// A configuration adopted as terraform query used to write it (deploy = true on the senders, a
// deployment without triggers) moves to the recommended pattern (deploy = false, triggers wired
// to the channels' revision) without a redeploy; before, wiring the triggers redeployed the flow
// although no setting changed. A change of a channel afterwards deploys the flow once.
func TestAccPipeline_switchToRecommendedPatternIsNoOp(t *testing.T) {
	t.Parallel()
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")
	env.AddFlow(t, "TwoChannels", []iflowbuild.Sender{{ID: "MessageFlow_1", Name: "Orders", Properties: props},
		{ID: "MessageFlow_2", Name: "Returns", Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/returns")}}, nil)
	newPipeline(t, env).deploy("TwoChannels")
	cfg := func(deploy, triggers string, n int) string {
		return env.Config(fmt.Sprintf(`
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "TwoChannels"
  channel               = "Orders"
  max_number_of_retries = %[1]d
%[2]s}

resource "sapmessaging_amqp_sender" "returns" {
  iflow_id              = "TwoChannels"
  channel               = "Returns"
  max_number_of_retries = 1
%[2]s}

resource "sapmessaging_iflow_deployment" "flow" {
  iflow_id = "TwoChannels"
%[3]s}
`, n, deploy, triggers))
	}
	wired := "  triggers = { orders = sapmessaging_amqp_sender.orders.revision, returns = sapmessaging_amqp_sender.returns.revision }\n"
	pipelineTest(t, []resource.TestStep{
		{Config: cfg("  deploy = true\n", "", 1), Check: acctest.CheckRunsDesignTime(env, "TwoChannels")},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    cfg("  deploy = false\n", wired, 1),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.PlannedNotNull("sapmessaging_amqp_sender.orders", "revision"),
					acctest.PlannedString("sapmessaging_iflow_deployment.flow", "runtime_status", "STARTED"),
				},
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			Check: resource.ComposeTestCheckFunc(pipelineDeployCount(env, 0), pipelineNoCloudIntegrationWrites(env), acctest.CheckRunsDesignTime(env, "TwoChannels")),
		},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    cfg("  deploy = false\n", wired, 2),
			Check:     resource.ComposeTestCheckFunc(acctest.CheckRunsDesignTime(env, "TwoChannels"), pipelineDeployCount(env, 1)),
		},
	})
}

// pipelineNoCloudIntegrationWrites asserts that the emulator served no Cloud Integration request that
// writes (an upload, a parameter, a deploy, an undeploy) since its statistics were reset.
func pipelineNoCloudIntegrationWrites(env *acctest.TestEnv) resource.TestCheckFunc {
	return acctest.CheckEmulator(func() error {
		for route, n := range env.Srv.Stats().Routes {
			method, p, _ := strings.Cut(route, " ")
			if n > 0 && method != "GET" && method != "HEAD" && strings.HasPrefix(p, "/api/v1/") {
				return fmt.Errorf("the apply sent %d requests %s", n, route)
			}
		}
		return nil
	})
}

// The sample content's flow with externalized retry settings: the sender resource writes the
// parameter values, not the {{...}} keys; an upload of a new version by the pipeline resets them
// to the uploaded parameters.prop, and the next plan writes the configuration's value again.
func TestAccPipeline_externalizedSampleParameters(t *testing.T) {
	t.Parallel()
	env, p := newPipelineSampleEnv(t)
	const id = "Acme_Orders_Parameterized"
	param := func(want string) resource.TestCheckFunc {
		return acctest.CheckEmulator(func() error {
			values, ok := env.Srv.IFlowConfigurations(id)
			if !ok || values["Orders_MaxRetries"] != want {
				return fmt.Errorf("Orders_MaxRetries of %s = %q (found %t), want %q", id, values["Orders_MaxRetries"], ok, want)
			}
			return pipelineSenderRetries(env, id, "{{Orders_MaxRetries}}")(nil)
		})
	}
	cfg := env.Config(fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" \"orders\" {\n  iflow_id = %q\n  max_number_of_retries = 3\n}\n", id))
	pipelineTest(t, []resource.TestStep{
		{Config: cfg, Check: resource.ComposeTestCheckFunc(param("3"), acctest.CheckRunsDesignTime(env, id))},
		{
			// The pipeline uploads 1.0.1 from git, whose parameters.prop holds 2, and releases it.
			PreConfig: func() {
				p.stage(id, "1.0.1", acctest.ArchiveEdit{Edit: func(name string, data []byte) []byte {
					if strings.HasSuffix(name, "parameters.prop") {
						return regexp.MustCompile(`(?m)^Orders_MaxRetries=.*$`).ReplaceAll(data, []byte("Orders_MaxRetries=2"))
					}
					return data
				}})
				if err := param("2")(nil); err != nil {
					t.Errorf("the upload did not reset the parameter to the uploaded parameters.prop: %v", err)
				}
				p.deploy(id)
			},
			// The guide's refresh-only apply after the pipeline's deploy job: without it, the
			// provider cannot tell whether the pipeline uploaded more under 1.0.1 since.
			RefreshState:       true,
			ExpectNonEmptyPlan: true,
		},
		{
			Config:           cfg,
			ConfigPlanChecks: acctest.ExpectUpdateThenEmptyPlan(acctest.SenderAddr),
			Check:            resource.ComposeTestCheckFunc(param("3"), acctest.CheckRunsDesignTime(env, id)),
		},
		{
			// An upload without parameters.prop leaves the parameters without values: the plan
			// writes the configuration's value again.
			PreConfig: func() {
				p.stage(id, "1.0.2", acctest.ArchiveEdit{Drop: []string{"src/main/resources/parameters.prop"}})
				if err := param("3")(nil); err == nil {
					t.Error("the upload without parameters.prop kept the tenant's value")
				}
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{acctest.ExpectUpdate(acctest.SenderAddr)},
			},
			Check: param("3"),
		},
	})
}

// Under `running` (the default with deploy = true, and of sapmessaging_iflow_deployment), a flow
// the team undeployed while its design time holds a version nobody released (1.0.3) is not
// deployed again: the deploy would ship 1.0.3, which the runtime never ran. Before, the plan
// redeployed it "because deploy_policy is running" and shipped 1.0.3 without naming it.
// deploy_other_changes = true ships it.
func TestAccPipeline_runningHoldsUnreleasedVersionOfUndeployedFlow(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		hcl  func(env *acctest.TestEnv, extra string) string
	}{
		{"sender", func(env *acctest.TestEnv, extra string) string { return pipelineSenderHCL(env, 3, extra) }},
		{"deployment", pipelineDeploymentHCL},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env, p := newPipelineEnv(t)
			p.deploy(acctest.SenderFlowID)
			pipelineTest(t, []resource.TestStep{
				{Config: tc.hcl(env, ""), Check: pipelineDeployedVersion(env, "STARTED", "1.0.0")},
				{
					// The pipeline releases 1.0.2; the guide's refresh-only apply records it.
					PreConfig: func() {
						p.stage(acctest.SenderFlowID, "1.0.2", acctest.ArchiveEdit{})
						p.deploy(acctest.SenderFlowID)
					},
					RefreshState: true,
				},
				{
					// It stages 1.0.3 without deploying it, and the team undeploys the flow.
					PreConfig: func() {
						p.stage(acctest.SenderFlowID, "1.0.3", acctest.ArchiveEdit{})
						p.undeploy(acctest.SenderFlowID)
						env.Srv.ResetStats()
					},
					Config:           tc.hcl(env, ""),
					ConfigPlanChecks: pipelineNoPlan,
					Check:            resource.ComposeTestCheckFunc(pipelineDeployedVersion(env, "", ""), pipelineDeployCount(env, 0)),
				},
				{
					Config:           tc.hcl(env, "  deploy_other_changes = true\n"),
					ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
					Check:            pipelineDeployedVersion(env, "STARTED", "1.0.3"),
				},
			})
		})
	}
}

// A pipeline deploys 1.0.2 and then uploads a fix under 1.0.2, with no saved Terraform run between:
// the read that finds the new deployment cannot tell whether the design time changed after it,
// so a change of this configuration's settings is written without a deploy (before, the plan
// took the design time as deployed and the apply shipped the fix, saying it deployed this
// configuration's settings only). The next plan still holds it; an apply -refresh-only after the
// pipeline's next deploy job confirms the record, and a change then deploys.
func TestAccPipeline_unseenDeployThenSameVersionUploadHeld(t *testing.T) {
	t.Parallel()
	env, p := newPipelineEnv(t)
	pipelineTest(t, []resource.TestStep{
		{Config: pipelineSenderHCL(env, 3, ""), Check: pipelineDeployedVersion(env, "STARTED", "1.0.0")},
		{
			PreConfig: func() {
				p.stage(acctest.SenderFlowID, "1.0.2", acctest.ArchiveEdit{})
				p.deploy(acctest.SenderFlowID)
				p.stage(acctest.SenderFlowID, "1.0.2", acctest.ArchiveEdit{Set: map[string][]byte{pipelineHotfix: []byte("// hotfix 1\n")}})
				env.Srv.ResetStats()
			},
			Config:           pipelineSenderHCL(env, 4, ""),
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
			Check:            resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, ""), pipelineDeployCount(env, 0), pipelineSenderRetries(env, acctest.SenderFlowID, "4")),
		},
		{
			// The next plan still holds the write back.
			PreConfig:          env.Srv.ResetStats,
			Config:             pipelineSenderHCL(env, 4, ""),
			PlanOnly:           true,
			ExpectNonEmptyPlan: false,
		},
		{
			// The pipeline's release deploys 1.0.2 with the fix; the refresh-only apply after it
			// records it, and a change then deploys this configuration's settings.
			PreConfig:    func() { p.deploy(acctest.SenderFlowID) },
			RefreshState: true,
		},
		{
			PreConfig: env.Srv.ResetStats,
			Config:    pipelineSenderHCL(env, 5, ""),
			Check: resource.ComposeTestCheckFunc(pipelineRunsHotfix(env, "// hotfix 1\n"), acctest.CheckRunsDesignTime(env, acctest.SenderFlowID),
				pipelineDeployCount(env, 1)),
		},
	})
}

// A pinned version replaced by the pipeline's upload of the next one is not reported as a deleted
// flow: the plan exits 2 and says that version 1.0.8 was replaced by 1.0.9. A design time deleted
// while the runtime still runs says only the design time was deleted. Before, both said the flow
// "no longer exists on the tenant".
func TestAccDriftDetection_versionReplacedAndDesignTimeDeleted(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env, p := newPipelineEnv(t)
	p.stage(acctest.SenderFlowID, "1.0.8", acctest.ArchiveEdit{})
	p.deploy(acctest.SenderFlowID)
	main := func(version string) string {
		return `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "` + acctest.SenderFlowID + `"
  version               = "` + version + `"
  max_number_of_retries = 3
  deploy_policy         = "changes"
}
`
	}
	w, mainTF := pipelineWorkspace(t, tf, env, main("1.0.8"))
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }

	p.stage(acctest.SenderFlowID, "1.0.9", acctest.ArchiveEdit{})
	out := flat(w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color").Output)
	for _, want := range []string{"Integration Flow Version Replaced", "Version 1.0.8 of iFlow", "now holds version 1.0.9", `Set version = "1.0.9"`} {
		if !strings.Contains(strings.ReplaceAll(out, "`", ""), want) {
			t.Errorf("the plan after the pipeline uploaded 1.0.9 does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Integration Flow Deleted") {
		t.Errorf("the plan after the pipeline uploaded 1.0.9 says the flow was deleted:\n%s", out)
	}

	acctest.WriteFile(t, mainTF, acctest.AdoptionMain+main("1.0.9"))
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	// deploy = true beside deploy_policy = "changes" says nothing the configuration does: warned.
	acctest.WriteFile(t, mainTF, acctest.AdoptionMain+strings.Replace(main("1.0.9"), "  deploy_policy", "  deploy                = true\n  deploy_policy", 1))
	out = flat(w.MustRun(0, "plan", "-input=false", "-no-color").Output)
	for _, want := range []string{"Deploy Setting Ignored", `deploy_policy = "changes" is set and decides`, "Remove deploy"} {
		if !strings.Contains(strings.ReplaceAll(out, "`", ""), want) {
			t.Errorf("the plan with deploy = true beside deploy_policy = \"changes\" does not say %q:\n%s", want, out)
		}
	}
	acctest.WriteFile(t, mainTF, acctest.AdoptionMain+main("1.0.9"))
	p.delete(acctest.SenderFlowID)
	out = flat(w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color").Output)
	for _, want := range []string{"Integration Flow Design Time Deleted", "only the design time was deleted", "still runs version 1.0.8"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan after the pipeline deleted the design time does not say %q:\n%s", want, out)
		}
	}
}

// The sample flow with externalized retry settings under deploy_policy = "changes": the pipeline
// releases 1.0.4 without parameters.prop (the retry count is empty: the sender retries without
// end), then stages 1.0.5, again without it. The apply writes the configuration's value into 1.0.5
// and does not deploy it; the next plan changes nothing, and its warning now says that the running
// flow may retry a failing message without end, where it said only that the flow was not deployed.
func TestAccPipeline_heldDeployNamesWhatRuns(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env, p := newPipelineSampleEnv(t)
	const id = "Acme_Orders_Parameterized"
	w, _ := pipelineWorkspace(t, tf, env, `
resource "sapmessaging_amqp_sender" "orders" {
  iflow_id              = "`+id+`"
  max_number_of_retries = 1
  deploy_policy         = "changes"
}
`)
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	w.MustRun(0, "plan", "-detailed-exitcode", "-input=false")

	noProp := acctest.ArchiveEdit{Drop: []string{"src/main/resources/parameters.prop"}}
	p.stage(id, "1.0.4", noProp)
	p.deploy(id)
	w.MustRun(2, "plan", "-detailed-exitcode", "-input=false")
	p.stage(id, "1.0.5", noProp)
	w.MustRun(0, "apply", "-auto-approve", "-input=false")
	if d, ok := env.Srv.Deployed(id); !ok || d.Version != "1.0.4" {
		t.Fatalf("the runtime runs %+v, want 1.0.4", d)
	}
	out := strings.Join(strings.Fields(w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color").Output), " ")
	for _, want := range []string{"Integration Flow Not Deployed", "running flow (version 1.0.4)", "retries a failing message without end"} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan leaving 1.0.4 running does not say %q:\n%s", want, out)
		}
	}
}
