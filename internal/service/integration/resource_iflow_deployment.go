package integration

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

var (
	_ resource.Resource                = (*iflowDeploymentResource)(nil)
	_ resource.ResourceWithConfigure   = (*iflowDeploymentResource)(nil)
	_ resource.ResourceWithImportState = (*iflowDeploymentResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*iflowDeploymentResource)(nil)
)

// NewIFlowDeploymentResource returns the sapmessaging_iflow_deployment resource.
func NewIFlowDeploymentResource() resource.Resource {
	return &iflowDeploymentResource{}
}

type iflowDeploymentResource struct {
	data *framework.ProviderData
}

type iflowDeploymentModel struct {
	ID              types.String   `tfsdk:"id"`
	IflowID         types.String   `tfsdk:"iflow_id"`
	Version         types.String   `tfsdk:"version"`
	Triggers        types.Map      `tfsdk:"triggers"`
	DeployPolicy    types.String   `tfsdk:"deploy_policy"`
	DeployOther     types.Bool     `tfsdk:"deploy_other_changes"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
	DeployedVersion types.String   `tfsdk:"deployed_version"`
	RuntimeStatus   types.String   `tfsdk:"runtime_status"`
}

// iflowDeploymentRecipe is the configuration the resource's documentation recommends.
const iflowDeploymentRecipe = "```terraform\n" +
	"resource \"sapmessaging_amqp_sender\" \"c\" {\n" +
	"  for_each              = local.channels # \"FLOW/CHANNEL\" => settings\n" +
	"  iflow_id              = split(\"/\", each.key)[0]\n" +
	"  channel               = split(\"/\", each.key)[1]\n" +
	"  max_number_of_retries = each.value.retries\n" +
	"  deploy                = false # written only; deployed below, once per flow\n" +
	"}\n\n" +
	"resource \"sapmessaging_iflow_deployment\" \"flow\" {\n" +
	"  for_each = toset([for k, s in sapmessaging_amqp_sender.c : s.iflow_id])\n" +
	"  iflow_id = each.key\n" +
	"  triggers = { for k, s in sapmessaging_amqp_sender.c : k => s.revision if s.iflow_id == each.key }\n" +
	"}\n" +
	"```\n"

func (r *iflowDeploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_iflow_deployment"
}

func (r *iflowDeploymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The deployment of one SAP Cloud Integration integration flow (iFlow): deploys the flow when it is created, " +
			"whenever its `triggers` change, and when the flow no longer runs (undeployed or in `ERROR`), and waits until it runs.\n\n" +
			"Use it when a flow has several channel resources (`sapmessaging_amqp_sender`, `sapmessaging_jms_sender`), or when an " +
			"apply changes more channel resources than Terraform's `-parallelism` (10 by default). A channel resource with " +
			"`deploy = true` waits for its flow's deploy inside one of Terraform's parallel slots: with more channel resources " +
			"than slots they run in rounds, and a flow whose channels fall into different rounds is deployed once per round. " +
			"Give the channel resources `deploy = false` and each flow one `sapmessaging_iflow_deployment` whose `triggers` hold " +
			"the `revision` of the flow's channel resources: Terraform then writes all channels first and deploys each flow once, " +
			"after its channels, whatever the parallelism.\n\n" + iflowDeploymentRecipe + "\n" +
			"A channel's `revision` is unknown in the plan whenever the channel is to be written (also when it is written back " +
			"after a change on the tenant), so the plan shows the flow's redeploy exactly then.\n\n" +
			"~> **Destroy leaves the flow deployed.** Removing this resource only forgets it: the flow keeps running.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The integration flow's ID (`iflow_id`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"iflow_id": schema.StringAttribute{
				MarkdownDescription: "The ID of the integration flow to deploy. Changing it manages another flow.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "The design-time version to deploy, as in the channel resources. Defaults to `active`.",
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("active"),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Any change of these values deploys the flow again, in place. Put the `revision` of each channel " +
					"resource of the flow here: `{ for k, s in sapmessaging_amqp_sender.c : k => s.revision if s.iflow_id == each.key }`. " +
					"A changed value, or one known only after apply (a channel written in the same apply), deploys; a key added with a known " +
					"value (wiring the revision of a channel already written, as when a generated configuration moves to this pattern) " +
					"and a key removed do not.",
				ElementType: types.StringType,
				Optional:    true,
			},
			"timeouts": deployTimeoutsAttribute(ctx, "the deploy on create and on update, including the wait until the flow runs"),
			"deployed_version": schema.StringAttribute{
				MarkdownDescription: "The version of the flow that runs on the tenant.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"runtime_status": schema.StringAttribute{
				MarkdownDescription: "The runtime status of the flow: `STARTED`, `STARTING`, `STOPPING`, `ERROR`, or `NOT_DEPLOYED`. " +
					"Anything but `STARTED` plans a redeploy.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
	framework.DeployPolicyAttributes(resp.Schema.Attributes, "Unset, it is `running`: the deployment's create and every change of `triggers` "+
		"are this configuration's changes.")
}

func (r *iflowDeploymentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// triggersChanged reports whether the triggers from prior to planned are a change of this
// configuration: a value unknown in the plan (a channel written in this apply) or a value of a
// key that differs from the prior one. Keys added with known values (wiring the revisions of
// channels already written, as when an adopted configuration moves to the recommended pattern)
// and keys removed change nothing the runtime lacks.
func triggersChanged(prior, planned types.Map) bool {
	if planned.IsUnknown() {
		return true
	}
	before := prior.Elements()
	for k, v := range planned.Elements() {
		if v.IsUnknown() {
			return true
		}
		if old, ok := before[k]; ok && !old.Equal(v) {
			return true
		}
	}
	return false
}

// policy is the deployment's deploy policy: `deploy_policy`, `running` when unset.
func (m *iflowDeploymentModel) policy() cpi.DeployPolicy {
	return framework.DeployPolicy(m.DeployPolicy, true)
}

// decide says whether an update from state to plan deploys the flow: the triggers changed (this
// configuration's changes), or the runtime is not STARTED, or the design time holds another
// version, as the policy says. designVersion is the flow's design-time version as read in this run,
// changed whether it holds other changes under the version the runtime runs.
func (m *iflowDeploymentModel) decide(state *iflowDeploymentModel, designVersion string, changed framework.ContentFinding) (cpi.DeployState, cpi.DeployDecision) {
	s := framework.DeployState(state.RuntimeStatus, state.DeployedVersion, designVersion, triggersChanged(state.Triggers, m.Triggers), changed)
	return s, m.policy().Decide(s, m.DeployOther.ValueBool())
}

// ModifyPlan plans a deploy when the flow does not run its design time, refuses a second
// deployment of the same flow, and warns that destroying forgets only.
func (r *iflowDeploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning("The Integration Flow Stays Deployed",
			"Destroying `sapmessaging_iflow_deployment` only removes it from the Terraform state. The iFlow stays deployed and keeps running. "+
				"To stop it, undeploy the flow in Cloud Integration.")
		return
	}
	var plan iflowDeploymentModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !r.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedCloudIntegration) {
		return
	}
	id, version := plan.IflowID.ValueString(), plan.Version.ValueString()
	if !plan.IflowID.IsUnknown() {
		conflict := r.data.ClaimObject(ctx, framework.OwnedObject{
			Service: framework.ServiceCloudIntegration, Key: "deploy|" + id, TypeName: "sapmessaging_iflow_deployment", InState: !req.State.Raw.IsNull(),
			Manage: fmt.Sprintf("deploy iFlow %q", id),
			Why:    "Each would deploy the flow on its own triggers, and a flow has one runtime.",
			Match:  fmt.Sprintf("`iflow_id = %q`", id),
		}, req, resp)
		if conflict != "" {
			resp.Diagnostics.AddAttributeError(path.Root("iflow_id"), "Integration Flow Deployed Twice", conflict+
				" Keep one deployment per flow and put the revisions of all its channel resources in its triggers. When both come from "+
				"generated configuration (terraform query -generate-config-out) or import blocks, import the deployment only once: "+
				"delete the second resource block with its import block.")
			return
		}
	}
	if req.State.Raw.IsNull() {
		return
	}
	var state iflowDeploymentModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	dv := ""
	if r.data != nil && r.data.Flows != nil {
		var ok bool
		if dv, ok = framework.PlanDesignVersion(ctx, r.data.Flows, id, version, &resp.Diagnostics); !ok {
			return
		}
	}
	var changed framework.ContentFinding
	if r.data != nil {
		changed = framework.ContentChangedAtPlan(ctx, r.data.Flows, id, version, framework.GetDeployedContent(ctx, req.Private))
	}
	resp.Diagnostics.Append(framework.SetPlanContentChanged(ctx, resp.Private, changed)...)
	s, d := plan.decide(&state, dv, changed)
	// A flow that is not deployed, with no change of the triggers, is what `changes` and `never`
	// leave as it is (undeployed on purpose): no warning on every plan, as for the sender resources.
	quiet := !s.Writes && s.RuntimeStatus == cpi.RuntimeNotDeployed && plan.policy() != cpi.DeployRunning
	framework.AddDeployWarning(&resp.Diagnostics, id, plan.policy(), s, d, quiet)
	if !d.Deploy {
		if d.Case == cpi.CaseNone {
			framework.AddStateOnlyUpdate(&resp.Diagnostics, id, "the deployment", framework.StateOnlyChange{Name: "triggers", Before: state.Triggers, After: plan.Triggers},
				framework.StateOnlyChange{Name: "deploy_policy", Before: state.DeployPolicy, After: plan.DeployPolicy},
				framework.StateOnlyChange{Name: "deploy_other_changes", Before: state.DeployOther, After: plan.DeployOther}, framework.StateOnlyChange{Name: "timeouts", Before: state.Timeouts, After: plan.Timeouts})
		}
		return
	}
	// A deploy is planned: what runs afterwards is known only then. A runtime status other than
	// STARTED, or another version running, makes this plan an update (a deploy) even when nothing
	// in the configuration changed.
	plan.RuntimeStatus, plan.DeployedVersion = types.StringUnknown(), types.StringUnknown()
	resp.Diagnostics.Append(framework.SetPlan(ctx, &resp.Plan, &plan)...)
}

func (r *iflowDeploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer DeploymentIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan iflowDeploymentModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !r.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultDeployTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.ID = plan.IflowID
	// A create deploys as the policy says; when it does not, the state records the runtime as it is.
	var status, deployed types.String
	rt := framework.ReadDeployment(ctx, r.data.Flows, plan.IflowID.ValueString(), &status, &deployed, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	f, err := r.data.Flows.Flow(ctx, plan.IflowID.ValueString(), plan.Version.ValueString())
	if err != nil {
		r.addFlowError(&resp.Diagnostics, plan.IflowID.ValueString(), err)
		return
	}
	if d := plan.policy().Decide(framework.DeployState(status, deployed, f.DesignVersion, true, framework.ContentFinding{}), plan.DeployOther.ValueBool()); !d.Deploy {
		plan.RuntimeStatus, plan.DeployedVersion = status, deployed
		r.recordDeployedContent(ctx, &plan, nil, rt, framework.ByApply, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		return
	}
	outcome, rt := r.deploy(ctx, &plan, timeout, "create", &resp.Diagnostics)
	if outcome == deployNotStarted {
		return
	}
	r.recordDeployedContent(ctx, &plan, nil, rt, framework.ByDeploy, resp.Private, &resp.Diagnostics)
	// After a failed deploy the state (tainted by the error) shows the runtime as it is.
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
}

func (r *iflowDeploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer DeploymentIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan, state iflowDeploymentModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	plan.ID = state.ID
	// Other changes under the version the runtime runs, as the plan found them.
	changed := framework.PlanContentChanged(ctx, req.Private)
	resp.Diagnostics.Append(framework.SetPlanContentChanged(ctx, resp.Private, framework.ContentFinding{})...)
	prior := framework.GetDeployedContent(ctx, req.Private)
	if _, d := plan.decide(&state, framework.DesignVersion(ctx, r.data.Flows, plan.IflowID.ValueString(), plan.Version.ValueString()), changed); !d.Deploy {
		// Nothing to deploy (only the timeouts or the policy changed, or the policy holds the
		// deploy back, as the plan warned).
		plan.RuntimeStatus, plan.DeployedVersion = state.RuntimeStatus, state.DeployedVersion
		if prior != nil && changed.Unconfirmed {
			// A deploy held back for an unconfirmed record: a read of this state does not confirm it.
			next := *prior
			next.Unconfirmed = 2
			resp.Diagnostics.Append(framework.SetDeployedContent(ctx, resp.Private, &next)...)
		}
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultDeployTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	switch outcome, rt := r.deploy(ctx, &plan, timeout, "update", &resp.Diagnostics); outcome {
	case deployNotStarted:
		// Nothing was deployed: the state stays as it was.
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
	case deployFailed:
		// The triggers are saved only with a deploy that succeeded: the state keeps the old ones,
		// with the runtime as it is, so that the next plan deploys again.
		plan.Triggers = state.Triggers
		// A new DeployedOn is this failed deploy's, of the design time as it is.
		r.recordDeployedContent(ctx, &plan, prior, rt, framework.ByDeploy, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
	default:
		r.recordDeployedContent(ctx, &plan, prior, rt, framework.ByDeploy, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
	}
}

// deployOutcome is how a deploy of the resource ended.
type deployOutcome int

const (
	deploySucceeded deployOutcome = iota
	// deployFailed: the deploy was asked for and did not succeed; the model shows the runtime.
	deployFailed
	// deployNotStarted: nothing was deployed, and the model is not to be saved.
	deployNotStarted
)

// deploy deploys the flow and waits until it runs, through the per-flow writer the channel
// resources write through (cpi.Flows), so that it is serialized with their writes and shares one
// deploy with those of them that deploy too. It then sets the runtime status and deployed version
// as the tenant shows them. The timeout bounds the whole operation, also the wait behind other
// writes of the flow.
func (r *iflowDeploymentResource) deploy(ctx context.Context, m *iflowDeploymentModel, timeout time.Duration, op string,
	diags *diag.Diagnostics) (deployOutcome, *cpi.RuntimeArtifact) {
	id, version := m.IflowID.ValueString(), m.Version.ValueString()
	dctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := r.data.Flows.Change(dctx, id, version, cpi.Change{
		// No Edit: the deployment changes nothing in the flow's design time, and
		// downloads nothing unless channel writes of the flow join its batch.
		Deploy:        true,
		ForceDeploy:   true,
		DeployTimeout: timeout,
	})
	rctx, rcancel := framework.AfterCancel(ctx)
	defer rcancel()
	switch {
	case errors.Is(err, cpi.ErrNotFound) || res.DeployErr != nil && r.flowMissing(rctx, id, version):
		framework.AddFlowNotFound(diags, id)
		return deployNotStarted, nil
	case err != nil:
		if !framework.AddOperationError(diags, fmt.Sprintf("Deploying iFlow %q", id), timeout, op, err) {
			diags.AddError("Cannot Deploy Integration Flow",
				fmt.Sprintf("Deploying iFlow %q failed before it started: %s. Check the flow and the provider's `cloud_integration` connection, then apply again.", id, framework.Clause(err)))
		}
		return deployNotStarted, nil
	}
	tflog.Debug(ctx, "iFlow deployed", map[string]any{"iflow": id, "batch": res.Batch})
	if res.DeployErr == nil && res.Runtime != nil {
		// The deploy's last status read shows the flow running: no need to read it again.
		m.RuntimeStatus, m.DeployedVersion = types.StringValue(res.Runtime.Status), types.StringValue(res.Runtime.Version)
		return deploySucceeded, res.Runtime
	}
	rt := framework.ReadDeployment(rctx, r.data.Flows, id, &m.RuntimeStatus, &m.DeployedVersion, diags)
	if m.RuntimeStatus.IsUnknown() {
		// The runtime could not be read (reported above): record that the flow's state is not known to be running.
		m.RuntimeStatus, m.DeployedVersion = types.StringValue("UNKNOWN"), types.StringNull()
	}
	if res.DeployErr != nil {
		framework.AddDeployError(diags, id, "The flow's design time is unchanged; the state shows the runtime as the tenant reports it.", timeout, op, res.DeployErr)
		return deployFailed, rt
	}
	return deploySucceeded, rt
}

// recordDeployedContent records in private what the runtime rt of m's flow (nil: not deployed, or
// not read) was deployed from, after a create or update: by framework.ByDeploy when this resource deployed
// (a new DeployedOn is its deploy's), prior the record before. A runtime that could not be read
// leaves prior, or, after this resource's deploy, no record.
func (r *iflowDeploymentResource) recordDeployedContent(ctx context.Context, m *iflowDeploymentModel, prior *framework.DeployedContent, rt *cpi.RuntimeArtifact,
	by framework.RecordBy, private framework.PrivateSetter, diags *diag.Diagnostics) {
	if rt == nil && m.RuntimeStatus.ValueString() != cpi.RuntimeNotDeployed {
		if by == framework.ByDeploy {
			// The deployment this resource asked for could not be read: the next read takes the
			// runtime it finds as this deploy's, not as a deploy by someone else.
			prior = nil
		}
		diags.Append(framework.SetDeployedContent(ctx, private, prior)...)
		return
	}
	rctx, cancel := framework.AfterCancel(ctx)
	defer cancel()
	digest := framework.FlowDigest(rctx, r.data.Flows, m.IflowID.ValueString(), m.Version.ValueString())
	diags.Append(framework.SetDeployedContent(ctx, private, framework.NextDeployedContent(prior, rt, digest, by, false, ""))...)
}

// addFlowError reports an error of reading iFlow id before a deploy: a flow that does not exist
// must be uploaded first, as this resource deploys flows and creates none.
func (r *iflowDeploymentResource) addFlowError(diags *diag.Diagnostics, id string, err error) {
	if errors.Is(err, cpi.ErrNotFound) {
		framework.AddFlowNotFound(diags, id)
		return
	}
	diags.AddError("Cannot Read Integration Flow",
		fmt.Sprintf("Reading iFlow %q failed: %s. Check the flow and the provider's `cloud_integration` connection, then run the command again.", id, framework.Clause(err)))
}

// flowMissing reports whether the tenant has no integration flow id in version: a deploy that
// failed may have failed for that reason (the deploy reads nothing first).
func (r *iflowDeploymentResource) flowMissing(ctx context.Context, id, version string) bool {
	_, err := r.data.Flows.Flow(ctx, id, version)
	return errors.Is(err, cpi.ErrNotFound)
}

func (r *iflowDeploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	DeploymentIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the flow is gone
	var state iflowDeploymentModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	id, version := state.IflowID.ValueString(), state.Version.ValueString()
	// The flow as read once in this run, shared with its channel resources.
	_, err := r.data.Flows.Flow(ctx, id, version)
	switch {
	case errors.Is(err, cpi.ErrNotFound):
		if imported, d := req.Private.GetKey(ctx, privateImported); len(imported) > 0 && !d.HasError() {
			// Importing a flow that does not exist: no state, so Terraform reports that it
			// cannot import a non-existent remote object.
			resp.State.RemoveResource(ctx)
			return
		}
		resp.State.RemoveResource(ctx)
		framework.AddFlowDeleted(ctx, &resp.Diagnostics, r.data.Flows, id, version, "its deployment")
		return
	case err != nil:
		resp.Diagnostics.AddError("Cannot Read Integration Flow",
			fmt.Sprintf("Reading iFlow %q failed: %s. Check the flow and the provider's `cloud_integration` connection, then run the command again.", id, framework.Clause(err)))
		return
	}
	rt := framework.ReadDeployment(ctx, r.data.Flows, id, &state.RuntimeStatus, &state.DeployedVersion, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// What the runtime was deployed from: recorded again when it was deployed since, by anyone.
	resp.Diagnostics.Append(framework.SetDeployedContent(ctx, resp.Private,
		framework.NextDeployedContent(framework.GetDeployedContent(ctx, req.Private), rt, framework.FlowDigest(ctx, r.data.Flows, id, version), framework.ByRead, false, ""))...)
	state.ID = state.IflowID
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
}

func (r *iflowDeploymentResource) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	tflog.Info(ctx, "`sapmessaging_iflow_deployment` removed from state; the iFlow stays deployed")
}

func (r *iflowDeploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !DeploymentIdentity.ResolveImport(&req, resp) { // identity.go
		return
	}
	if strings.TrimSpace(req.ID) == "" || strings.Contains(req.ID, ",") {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("The import ID %q is not an integration flow ID. Use the flow's ID alone (IFLOW_ID), without a channel.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("iflow_id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("version"), "active")...)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte("true"))...)
}
