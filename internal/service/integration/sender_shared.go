package integration

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/audit"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The sender resources of Cloud Integration (sapmessaging_amqp_sender, sapmessaging_jms_sender,
// sapmessaging_aem_sender) manage the retry settings of one sender channel of an integration flow
// in the same way; this file holds what they share (senderGlue, and senderMethods, the CRUD methods
// they embed), and each resource supplies what differs in a senderGlue.

// defaultDeployTimeout is how long a sender resource waits for the deploy unless its timeouts say otherwise.
const defaultDeployTimeout = 10 * time.Minute

// deployTimeoutsAttribute is the `timeouts` attribute of a resource that deploys a flow: `create`
// and `update`, each bounding what (a phrase).
func deployTimeoutsAttribute(ctx context.Context, what string) schema.Attribute {
	unit := "A duration such as `\"20m\"` (units `s`, `m`, `h`); " + fmt.Sprintf("%d minutes", int(defaultDeployTimeout.Minutes())) + " when unset."
	a, ok := timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true,
		CreateDescription: "How long a create may take. " + unit,
		UpdateDescription: "How long an update may take. " + unit,
	}).(schema.SingleNestedAttribute)
	if !ok {
		panic("timeouts.Attributes returned no resource SingleNestedAttribute")
	}
	a.MarkdownDescription = "Time limits of " + what + ". Raise them when the tenant deploys more slowly."
	return a
}

// privateImported marks a state that ImportState has just made and no read has confirmed yet.
const privateImported = "imported"

// senderCommon is the part of every sender resource's model that senderAttributes describes;
// the models embed it.
type senderCommon struct {
	ID                 types.String   `tfsdk:"id"`
	IflowID            types.String   `tfsdk:"iflow_id"`
	Version            types.String   `tfsdk:"version"`
	Channel            types.String   `tfsdk:"channel"`
	Deploy             types.Bool     `tfsdk:"deploy"`
	DeployPolicy       types.String   `tfsdk:"deploy_policy"`
	DeployOtherChanges types.Bool     `tfsdk:"deploy_other_changes"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
	DeployedVersion    types.String   `tfsdk:"deployed_version"`
	Revision           types.String   `tfsdk:"revision"`
	RuntimeStatus      types.String   `tfsdk:"runtime_status"`
	ExceptionEndEvents types.List     `tfsdk:"exception_end_events"`
}

// channelID is the resource's id: IFLOW_ID, or IFLOW_ID,CHANNEL when channel is set.
func (c *senderCommon) channelID() string {
	if c.Channel.IsNull() || c.Channel.ValueString() == "" {
		return c.IflowID.ValueString()
	}
	return c.IflowID.ValueString() + "," + c.Channel.ValueString()
}

// policy is the resource's deploy policy: `deploy_policy`, else from `deploy`.
func (c *senderCommon) policy() cpi.DeployPolicy {
	return framework.DeployPolicy(c.DeployPolicy, c.Deploy.ValueBool())
}

// common returns the attributes every sender resource has; the models get it by embedding.
func (c *senderCommon) common() *senderCommon { return c }

// senderModel is a pointer to the model of a sender resource.
type senderModel[M any] interface {
	*M
	common() *senderCommon
}

// senderGlue is the Create, Update, Read, ModifyPlan and ImportState handling of a sender
// resource with model M and channel settings S.
type senderGlue[M any, P senderModel[M], S any] struct {
	data *framework.ProviderData
	// kind names the adapter in messages: "AMQP", "JMS" or "AEM".
	kind string
	// read fills the model's channel settings from the tenant and returns the channel's message
	// flow ID; found is false when the flow no longer exists. The glue reads the runtime.
	read func(ctx context.Context, m P, diags *diag.Diagnostics) (channel string, found bool)
	// settings returns the channel settings of a model.
	settings func(m P) S
	// edit is the cpi.Flow method that changes the channel's settings to desired, failing when
	// they are no longer expected (nil: not checked).
	edit func(f *cpi.Flow, channel string, desired S, expected *S) (*cpi.Edit, error)
	// addError reports an error of reading or editing the channel.
	addError func(diags *diag.Diagnostics, iflowID string, err error)
	// importIDProblem follows the expected forms in the detail of an invalid import ID.
	importIDProblem string
	// importDefaults sets what ImportState sets beyond the ID, the flow, version and deploy.
	importDefaults func(ctx context.Context, state *tfsdk.State) diag.Diagnostics
	// runs says what the channel settings of a model do when they are remarkable (a message
	// retried without end), for the warning of a plan that leaves them running; nil: nothing.
	runs func(m P) string
}

// runsOf is what the channel settings of m, as read or deployed, do in the runtime rt: "" when
// unremarkable or not told, and when m was read from a design time of another version than the
// runtime runs (deployed: m is what this resource just deployed).
func (g senderGlue[M, P, S]) runsOf(ctx context.Context, m P, rt *cpi.RuntimeArtifact, deployed bool) string {
	if g.runs == nil || rt == nil {
		return ""
	}
	c := m.common()
	if !deployed && framework.DesignVersion(ctx, g.data.Flows, c.IflowID.ValueString(), c.Version.ValueString()) != rt.Version {
		return ""
	}
	return g.runs(m)
}

func (g senderGlue[M, P, S]) create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer SenderIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !g.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	timeout, d := P(&plan).common().Timeouts.Create(ctx, defaultDeployTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A create deploys the settings it makes sure of, as far as the policy lets it.
	c := P(&plan).common()
	decision := c.policy().Decide(g.applyState(ctx, c, nil, true, framework.ContentFinding{}), c.DeployOtherChanges.ValueBool())
	w := g.write(ctx, &plan, nil, timeout, "create", decision.Deploy, decision.Deploy, &resp.Diagnostics)
	g.saveAfterWrite(ctx, &plan, "", w, nil, nil, false, &resp.Diagnostics, &resp.State, resp.Private)
}

func (g senderGlue[M, P, S]) update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer SenderIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan, state M
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !g.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	timeout, d := P(&plan).common().Timeouts.Update(ctx, defaultDeployTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The flow is deployed as the policy says: with a write, and even when no setting changes
	// while the runtime lacks what this configuration asked for (a write recorded as not
	// deployed, or, under `running`, a runtime that is not STARTED). Other changes the design
	// time holds are shipped only with deploy_other_changes.
	undeployed := framework.GetUndeployed(ctx, req.Private)
	c := P(&plan).common()
	policy, other := c.policy(), c.DeployOtherChanges.ValueBool()
	// Other changes under the version the runtime runs, as the plan found them.
	changed := framework.PlanContentChanged(ctx, req.Private)
	onWrite := policy.Decide(g.applyState(ctx, c, P(&state).common(), true, changed), other)
	always := policy.Decide(g.applyState(ctx, c, P(&state).common(), undeployed != nil, changed), other)
	w := g.write(ctx, &plan, &state, timeout, "update", onWrite.Deploy || always.Deploy, always.Deploy, &resp.Diagnostics)
	resp.Diagnostics.Append(framework.SetPlanContentChanged(ctx, resp.Private, framework.ContentFinding{})...)
	g.saveAfterWrite(ctx, &plan, P(&state).common().Revision.ValueString(), w, undeployed, framework.GetDeployedContent(ctx, req.Private),
		changed.Unconfirmed, &resp.Diagnostics, &resp.State, resp.Private)
}

// applyState is the cpi.DeployState at apply of the planned sender c: the runtime as the prior
// state recorded it (as the plan saw it), or, for a create (prior nil), as read now. changed is
// what the plan found of other changes under the version the runtime runs.
func (g senderGlue[M, P, S]) applyState(ctx context.Context, c, prior *senderCommon, writes bool, changed framework.ContentFinding) cpi.DeployState {
	id, version := c.IflowID.ValueString(), c.Version.ValueString()
	dv := framework.DesignVersion(ctx, g.data.Flows, id, version)
	if prior != nil {
		return framework.DeployState(prior.RuntimeStatus, prior.DeployedVersion, dv, writes, changed)
	}
	var status, deployed types.String
	var d diag.Diagnostics
	framework.ReadDeployment(ctx, g.data.Flows, id, &status, &deployed, &d)
	return framework.DeployState(status, deployed, dv, writes, changed)
}

// runtime returns what the state m says about the flow's runtime, with the design-time version
// of the flow as read in this run.
func (g senderGlue[M, P, S]) runtime(ctx context.Context, m P, undeployed *framework.UndeployedWrite) framework.RuntimeView {
	c := m.common()
	return framework.RuntimeView{Status: c.RuntimeStatus, DeployedVersion: c.DeployedVersion, Undeployed: undeployed,
		DesignVersion: framework.DesignVersion(ctx, g.data.Flows, c.IflowID.ValueString(), c.Version.ValueString())}
}

// senderWrite is what a write of a sender's settings did.
type senderWrite struct {
	// written is true when the write changed the flow's design time, or may have: a write
	// that failed part way.
	written bool
	// deployed is true when a deploy for the write succeeded.
	deployed bool
	// deployAsked is true when this resource asked for a deploy, whatever came of it: a new
	// DeployedOn after it is this deploy's, of the design time as written.
	deployAsked bool
}

// write applies the plan to the flow and deploys it, through the per-flow writer shared with
// the other channel resources (cpi.Flows): the writes of the channels of one flow that arrive
// together are made at once, with one deploy, and never undo each other. prior is the state the
// plan was made from, nil for a create: a setting changed on the tenant since then fails the
// write instead of being overwritten. The timeout bounds the whole operation: waiting behind
// other writes of the flow, the read, the writes and the deploy.
func (g senderGlue[M, P, S]) write(ctx context.Context, plan, prior P, timeout time.Duration, op string, deploy, forceDeploy bool, diags *diag.Diagnostics) senderWrite {
	f := plan.common()
	id, version, channel := f.IflowID.ValueString(), f.Version.ValueString(), f.Channel.ValueString()
	desired := g.settings(plan)
	var expected *S
	if prior != nil {
		s := g.settings(prior)
		expected = &s
	}
	wctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := g.data.Flows.Change(wctx, id, version, cpi.Change{
		Edit: func(f *cpi.Flow) (*cpi.Edit, error) {
			return g.edit(f, channel, desired, expected)
		},
		Deploy:        deploy,
		ForceDeploy:   forceDeploy,
		DeployTimeout: timeout,
	})
	var writeErr *cpi.WriteError
	w := senderWrite{
		written:     res.ContentChanged || res.ParametersChanged || errors.As(err, &writeErr),
		deployed:    res.Deployed && res.DeployErr == nil,
		deployAsked: res.Deployed,
	}
	if err != nil {
		if !framework.AddOperationError(diags, fmt.Sprintf("Writing the %s sender settings of iFlow %q", g.kind, id), timeout, op, err) {
			g.addError(diags, id, err)
		}
		return w
	}
	tflog.Debug(ctx, g.kind+" sender written", map[string]any{"iflow": id, "content_changed": res.ContentChanged,
		"parameters_changed": res.ParametersChanged, "deployed": res.Deployed, "batch": res.Batch})
	if res.DeployErr != nil {
		framework.AddDeployError(diags, id, fmt.Sprintf("The %s sender settings of iFlow %q are saved in its design time, but the runtime does not run them yet.", g.kind, id),
			timeout, op, res.DeployErr)
	}
	return w
}

// saveAfterWrite reads the flow back so that the state matches the tenant, also after a failure
// or an interrupted run. priorRevision is the revision in the state before the write, "" for a
// create; undeployed is the write recorded as not deployed before this one, deployed the record
// of what the runtime was deployed from (nil for none), unconfirmed whether the plan found that
// record unconfirmed. A write the runtime does not run yet is recorded in private, so that the
// next plan of a resource with deploy = true deploys it.
func (g senderGlue[M, P, S]) saveAfterWrite(ctx context.Context, plan P, priorRevision string, w senderWrite, undeployed *framework.UndeployedWrite,
	deployed *framework.DeployedContent, unconfirmed bool, diags *diag.Diagnostics, state *tfsdk.State, private framework.PrivateSetter) {
	rctx, cancel := framework.AfterCancel(ctx)
	defer cancel()
	var readDiags diag.Diagnostics
	rt, found := g.readRevision(rctx, plan, priorRevision, &readDiags)
	if !found && diags.HasError() {
		// The write failed, most likely for the same reason (reported).
		return
	}
	if !found {
		diags.AddAttributeError(path.Root("iflow_id"), "Integration Flow Disappeared",
			"The integration flow no longer exists after writing its settings. Check whether someone deleted it, then apply again.")
		return
	}
	diags.Append(readDiags...)
	switch {
	case w.deployed:
		undeployed = nil
	case readDiags.HasError() && (w.written || undeployed != nil):
		// The write is recorded whatever failed after it: without the runtime's deployment
		// time, the record ends only with a deploy of this resource that succeeds.
		undeployed = &framework.UndeployedWrite{DeployedOnUnknown: true}
	case w.written || undeployed != nil:
		undeployed = &framework.UndeployedWrite{DeployedOn: framework.DeployedOn(rt)}
	}
	diags.Append(framework.SetUndeployed(ctx, private, undeployed)...)
	if readDiags.HasError() {
		if w.deployAsked {
			// The deployment this resource asked for could not be read: the next read takes the
			// runtime it finds as this deploy's, not as a deploy by someone else.
			diags.Append(framework.SetDeployedContent(ctx, private, nil)...)
		}
		return
	}
	c := plan.common()
	by := framework.ByApply
	if w.deployed || w.deployAsked {
		by = framework.ByDeploy
	}
	diags.Append(framework.SetDeployedContent(ctx, private,
		framework.NextDeployedContent(deployed, rt, framework.FlowDigest(rctx, g.data.Flows, c.IflowID.ValueString(), c.Version.ValueString()), by, unconfirmed, g.runsOf(rctx, plan, rt, by == framework.ByDeploy)))...)
	diags.Append(framework.SetState(ctx, state, (*M)(plan))...)
}

// readRevision fills the model from the tenant like read, with the flow's runtime, and sets its
// revision to the one that follows prior for the channel and settings read (cpi.NextRevision):
// the same channel with unchanged settings keeps it. It returns the runtime artifact, nil when
// the flow is not deployed.
func (g senderGlue[M, P, S]) readRevision(ctx context.Context, m P, prior string, diags *diag.Diagnostics) (rt *cpi.RuntimeArtifact, found bool) {
	var d diag.Diagnostics
	channel, found := g.read(ctx, m, &d)
	if found && !d.HasError() {
		c := m.common()
		id, version := c.IflowID.ValueString(), c.Version.ValueString()
		rt = framework.ReadDeployment(ctx, g.data.Flows, id, &c.RuntimeStatus, &c.DeployedVersion, &d)
		if c.Deploy.IsNull() || c.Deploy.IsUnknown() {
			// After an import by ID: deploy = true when the flow runs its design time, false when
			// it is not deployed or runs another version, so that a configuration adopting the
			// flow as it is plans no deploy. (An import by identity, as terraform query writes
			// it, sets deploy = false: importState.)
			c.Deploy = types.BoolValue(g.runtime(ctx, m, nil).NotRunningReason() == "")
		}
		// The version as addressed, not as resolved: a version a pipeline uploads under "active"
		// is not this configuration's change, and a deployment whose triggers hold the revision
		// must not ship it (a write-back of reverted settings still gets a new revision).
		if version == "" {
			version = "active"
		}
		ref := cpi.ChannelRef{IFlowID: id, Version: version, Kind: g.kind, Channel: channel}
		c.Revision = types.StringValue(cpi.NextRevision(prior, ref, g.settings(m)))
	}
	diags.Append(d...)
	return rt, found
}

func (g senderGlue[M, P, S]) readResource(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	SenderIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the flow is gone
	var state M
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !g.data.CloudIntegrationOrError(&resp.Diagnostics) {
		return
	}
	rt, found := g.readRevision(ctx, &state, P(&state).common().Revision.ValueString(), &resp.Diagnostics)
	if !found {
		if imported, d := req.Private.GetKey(ctx, privateImported); len(imported) > 0 && !d.HasError() {
			// Importing a flow that does not exist: no state, so Terraform reports that it
			// cannot import a non-existent remote object.
			resp.State.RemoveResource(ctx)
			return
		}
		// A flow deleted outside Terraform (by a pipeline, in Cloud Integration) is drift: the
		// State forgets it, so that the plan shows it to be created and exits 2.
		resp.State.RemoveResource(ctx)
		sc := P(&state).common()
		framework.AddFlowDeleted(ctx, &resp.Diagnostics, g.data.Flows, sc.IflowID.ValueString(), sc.Version.ValueString(), "its "+g.kind+" sender settings")
		return
	}
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, nil)...)
	// A write recorded as not deployed ends when the flow was deployed since, by anyone.
	if u := framework.GetUndeployed(ctx, req.Private); u != nil && framework.StillUndeployed(u, rt) == nil {
		resp.Diagnostics.Append(framework.SetUndeployed(ctx, resp.Private, nil)...)
	}
	// What the runtime was deployed from: recorded again when it was deployed since, by anyone.
	sc := P(&state).common()
	resp.Diagnostics.Append(framework.SetDeployedContent(ctx, resp.Private, framework.NextDeployedContent(framework.GetDeployedContent(ctx, req.Private), rt,
		framework.FlowDigest(ctx, g.data.Flows, sc.IflowID.ValueString(), sc.Version.ValueString()), framework.ByRead, false, g.runsOf(ctx, &state, rt, false)))...)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
}

// modifyPlan is the plan handling every sender resource shares, after the resource's own: it
// refuses a second resource of this configuration on the same channel (channel is its message
// flow ID as read at plan, "" when not read), and plans a deploy of a flow that does not run
// what this configuration asked for.
func (g senderGlue[M, P, S]) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan P, channel string) {
	c := plan.common()
	id := c.IflowID.ValueString()
	if channel != "" {
		conflict := g.data.ClaimObject(ctx, framework.OwnedObject{
			Service: framework.ServiceCloudIntegration, Key: strings.ToLower(g.kind) + "|" + id + "|" + channel,
			TypeName: "sapmessaging_" + strings.ToLower(g.kind) + "_sender", InState: !req.State.Raw.IsNull(),
			Manage: fmt.Sprintf("manage the %s sender channel %q of iFlow %q", g.kind, channel, id),
			Why:    "Two resources on one channel overwrite each other's settings on every apply, and the plan never settles.",
			Match:  fmt.Sprintf("`iflow_id = %q` (and channel = %q, or no channel)", id, channel),
		}, req, resp)
		if conflict != "" {
			resp.Diagnostics.AddAttributeError(path.Root("channel"), "Channel Managed Twice", conflict+
				fmt.Sprintf(" Set `channel` to a different %s sender, or remove one of the two resources. When both come from generated "+
					"configuration (terraform query -generate-config-out) or import blocks, import the channel only once: "+
					"delete the second resource block with its import block.", g.kind))
			return
		}
	}
	if !checkDeployPolicy(ctx, req.Config, c.DeployPolicy, &resp.Diagnostics) {
		return
	}
	if req.State.Raw.IsNull() || g.data == nil || g.data.Flows == nil {
		return
	}
	var state M
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	sc := P(&state).common()
	dv, ok := framework.PlanDesignVersion(ctx, g.data.Flows, sc.IflowID.ValueString(), sc.Version.ValueString(), &resp.Diagnostics)
	if !ok {
		return
	}
	undeployed := framework.GetUndeployed(ctx, req.Private)
	writes := !reflect.DeepEqual(g.settings(plan), g.settings(&state))
	changed := framework.ContentChangedAtPlan(ctx, g.data.Flows, sc.IflowID.ValueString(), sc.Version.ValueString(), framework.GetDeployedContent(ctx, req.Private))
	resp.Diagnostics.Append(framework.SetPlanContentChanged(ctx, resp.Private, changed)...)
	s := framework.DeployState(sc.RuntimeStatus, sc.DeployedVersion, dv, writes || undeployed != nil, changed)
	policy := c.policy()
	d := policy.Decide(s, c.DeployOtherChanges.ValueBool())
	// A write recorded as not deployed into a flow that is not deployed is what `changes` and
	// `never` leave as it is: no warning on every plan.
	quiet := !writes && sc.RuntimeStatus.ValueString() == cpi.RuntimeNotDeployed && policy != cpi.DeployRunning
	framework.AddDeployWarning(&resp.Diagnostics, id, policy, s, d, quiet)
	switch {
	case d.Deploy && !writes:
		// Nothing to write, but a deploy: the plan is an update all the same.
		c.RuntimeStatus, c.DeployedVersion, c.Revision = types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	case !d.Deploy && !writes && !sc.Revision.IsNull():
		// Neither a write nor a deploy (only deploy, deploy_policy or the timeouts change): the
		// revision stays, so that a deployment whose triggers hold it does not deploy the flow.
		c.Revision = sc.Revision
		if d.Case == cpi.CaseNone {
			framework.AddStateOnlyUpdate(&resp.Diagnostics, id, "the "+g.kind+" sender settings",
				framework.StateOnlyChange{Name: "deploy", Before: sc.Deploy, After: c.Deploy}, framework.StateOnlyChange{Name: "deploy_policy", Before: sc.DeployPolicy, After: c.DeployPolicy},
				framework.StateOnlyChange{Name: "deploy_other_changes", Before: sc.DeployOtherChanges, After: c.DeployOtherChanges},
				framework.StateOnlyChange{Name: "timeouts", Before: sc.Timeouts, After: c.Timeouts})
		}
	}
}

// checkDeployPolicy refuses `deploy = false` with a `deploy_policy` that deploys, warns that
// `deploy = true` beside a policy other than `running` says nothing (the policy decides), and
// returns whether the configuration is consistent.
func checkDeployPolicy(ctx context.Context, config tfsdk.Config, policy types.String, diags *diag.Diagnostics) bool {
	var deploy types.Bool
	diags.Append(config.GetAttribute(ctx, path.Root("deploy"), &deploy)...)
	if !deploy.IsNull() && !deploy.IsUnknown() && deploy.ValueBool() && !policy.IsNull() && !policy.IsUnknown() &&
		policy.ValueString() != string(cpi.DeployRunning) {
		// deploy = true is the `running` policy; a policy set beside it decides, so deploy says
		// nothing the configuration does.
		diags.AddAttributeWarning(path.Root("deploy"), "Deploy Setting Ignored",
			fmt.Sprintf("`deploy = true` keeps the flow running (the `running` policy: it would deploy a flow that is not deployed), but "+
				"`deploy_policy = %q` is set and decides: %s. Remove `deploy`, so that the configuration says what the policy does.",
				policy.ValueString(), policyDoes(cpi.DeployPolicy(policy.ValueString()))))
	}
	if deploy.IsNull() || deploy.IsUnknown() || deploy.ValueBool() || policy.IsNull() || policy.IsUnknown() ||
		policy.ValueString() == string(cpi.DeployNever) {
		return !diags.HasError()
	}
	diags.AddAttributeError(path.Root("deploy_policy"), "Conflicting Deploy Settings",
		fmt.Sprintf("`deploy = false` never deploys, while `deploy_policy = %q` deploys. Remove `deploy` (the policy decides), "+
			"or set `deploy_policy = \"never\"`.", policy.ValueString()))
	return false
}

// policyDoes says what deploy policy p does, for a message.
func policyDoes(p cpi.DeployPolicy) string {
	switch p {
	case cpi.DeployNever:
		return "the flow is never deployed from this resource"
	case cpi.DeployChanges:
		return "only this configuration's changes are deployed, and a flow that is not deployed stays undeployed"
	}
	return "the flow is kept running"
}

func (g senderGlue[M, P, S]) importState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	byIdentity := req.ID == ""
	if !SenderIdentity.ResolveImport(&req, resp) { // identity.go
		return
	}
	id, channel, hasChannel := strings.Cut(req.ID, ",")
	if strings.TrimSpace(id) == "" || (hasChannel && strings.TrimSpace(channel) == "") {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("The import ID %q is not of the form IFLOW_ID or IFLOW_ID,CHANNEL%s. Use the integration flow's ID, "+
				"followed by a comma and the %s sender's message flow name when the flow has more than one.", req.ID, g.importIDProblem, g.kind))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("iflow_id"), id)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("version"), "active")...)
	// An import by identity is what terraform query -generate-config-out writes, with deploy =
	// false beside the flow's sapmessaging_iflow_deployment (the recommended pattern). An import
	// by ID leaves deploy null: the read sets it from the flow's runtime (readRevision).
	if byIdentity {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("deploy"), false)...)
	}
	if g.importDefaults != nil {
		resp.Diagnostics.Append(g.importDefaults(ctx, &resp.State)...)
	}
	if hasChannel {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("channel"), channel)...)
	}
	// Read removes the state it made when the flow does not exist, so that Terraform reports
	// that it cannot import a non-existent remote object.
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateImported, []byte("true"))...)
}

// senderMethods are the Create, Update, Read, Delete and ImportState of a sender resource, which embeds
// them: glue returns the resource's senderGlue (called at each use, after Configure), typeName is the
// resource type, and refresh, when set, is what a refresh reads beyond the channel (the queue), which
// an apply keeps as its plan showed it.
type senderMethods[M any, P senderModel[M], S any] struct {
	glue     func() senderGlue[M, P, S]
	typeName string
	refresh  func(ctx context.Context, m P)
}

func (s senderMethods[M, P, S]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	s.glue().create(ctx, req, resp)
}

func (s senderMethods[M, P, S]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	s.glue().update(ctx, req, resp)
}

// refreshedGlue is the glue whose read also does the refresh: what a Read, and a list result
// (what an import and its read make), read.
func (s senderMethods[M, P, S]) refreshedGlue() senderGlue[M, P, S] {
	g := s.glue()
	if s.refresh != nil {
		read := g.read
		g.read = func(ctx context.Context, m P, diags *diag.Diagnostics) (string, bool) {
			channel, found := read(ctx, m, diags)
			if found {
				s.refresh(ctx, m)
			}
			return channel, found
		}
	}
	return g
}

func (s senderMethods[M, P, S]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	s.refreshedGlue().readResource(ctx, req, resp)
}

func (s senderMethods[M, P, S]) Delete(ctx context.Context, _ resource.DeleteRequest, _ *resource.DeleteResponse) {
	tflog.Info(ctx, "`"+s.typeName+"` removed from state; the iFlow and its deployment stay as they are")
}

func (s senderMethods[M, P, S]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	s.glue().importState(ctx, req, resp)
}

// startPlan begins the ModifyPlan of a sender resource of type typeName: on destroy it warns that the
// flow stays as it is and returns false; otherwise it reads the plan into plan, sets its id when known
// and returns whether the plan goes on (the Cloud Integration connection is there or known only at apply).
func startPlan[M any, P senderModel[M]](ctx context.Context, data *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	typeName, kind string, plan P) bool {
	if req.Plan.Raw.IsNull() {
		senderDestroyWarning(&resp.Diagnostics, typeName, kind)
		return false
	}
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, (*M)(plan))...)
	if resp.Diagnostics.HasError() || !data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedCloudIntegration) {
		return false
	}
	if c := plan.common(); !c.IflowID.IsUnknown() && !c.Channel.IsUnknown() {
		c.ID = types.StringValue(c.channelID())
	}
	return true
}

// planChannel reads, at plan, the channel of the planned sender c with pick, from the flow as read once
// in this run: this finds an ambiguous channel and dangerous end events before apply. It sets the
// exception subprocesses' end events (from subprocesses) and reports what they do. s is nil when the flow
// is not known yet; ok is false after an error.
func planChannel[C any](ctx context.Context, data *framework.ProviderData, c *senderCommon, pick func(*cpi.Flow, string) (*C, error),
	addError func(*diag.Diagnostics, string, error), subprocesses func(*C) []cpi.ExceptionSubprocess, diags *diag.Diagnostics) (s *C, ok bool) {
	if data == nil || data.CloudIntegration == nil || c.IflowID.IsUnknown() || c.Version.IsUnknown() || c.Channel.IsUnknown() {
		return nil, true
	}
	s, err := readChannel(ctx, data, c.IflowID.ValueString(), c.Version.ValueString(), c.Channel.ValueString(), pick)
	if errors.Is(err, cpi.ErrNotFound) {
		// A flow deleted outside Terraform, or not uploaded yet: the plan creates the resource,
		// and the apply fails until the flow is uploaded.
		framework.AddFlowMissingAtPlan(diags, c.IflowID.ValueString())
		return nil, true
	}
	if err != nil {
		addError(diags, c.IflowID.ValueString(), err)
		return nil, false
	}
	events, d := endEventList(subprocesses(s))
	diags.Append(d...)
	c.ExceptionEndEvents = events
	framework.AppendFindings(diags, rules.CheckExceptionSubprocesses(audit.RuleSubprocesses(subprocesses(s))))
	return s, true
}

// readModelChannel reads the channel of the sender c with pick and sets its id and end events; found is
// false when the flow no longer exists, s nil after an error (added to diags).
func readModelChannel[C any](ctx context.Context, data *framework.ProviderData, c *senderCommon, pick func(*cpi.Flow, string) (*C, error),
	addError func(*diag.Diagnostics, string, error), subprocesses func(*C) []cpi.ExceptionSubprocess, diags *diag.Diagnostics) (s *C, found bool) {
	id := c.IflowID.ValueString()
	s, err := readChannel(ctx, data, id, c.Version.ValueString(), c.Channel.ValueString(), pick)
	if errors.Is(err, cpi.ErrNotFound) {
		return nil, false
	}
	if err != nil {
		addError(diags, id, err)
		return nil, true
	}
	c.ID = types.StringValue(c.channelID())
	events, d := endEventList(subprocesses(s))
	diags.Append(d...)
	c.ExceptionEndEvents = events
	return s, true
}

// readChannel reads a sender channel, picked by pick, from the flow as read once in this run.
func readChannel[C any](ctx context.Context, data *framework.ProviderData, iflowID, version, channel string, pick func(*cpi.Flow, string) (C, error)) (C, error) {
	f, err := data.Flows.Flow(ctx, iflowID, version)
	if err != nil {
		var none C
		return none, err
	}
	return pick(f, channel)
}

// addChannelError reports an error of reading or editing the kind sender channel of iflowID. more
// reports the errors only one kind of channel has, after a change and an ambiguous channel and
// before a missing flow, and returns whether it reported err.
func addChannelError(diags *diag.Diagnostics, kind, iflowID string, err error, more func() bool) {
	var ambiguous *cpi.AmbiguousChannelError
	var changed *cpi.ChannelChangedError
	var writeErr *cpi.WriteError
	switch {
	case errors.As(err, &changed):
		diags.AddError(kind+" Sender Changed Since Plan",
			fmt.Sprintf("Nothing was written: %s. Run terraform plan again to see the change, then apply the new plan.", framework.Clause(err)))
	case errors.As(err, &ambiguous):
		diags.AddAttributeError(path.Root("channel"), "Ambiguous "+kind+" Sender Channel",
			fmt.Sprintf("The iFlow %q has more than one %s sender channel: %s. Set `channel` to the one whose retry settings this resource manages.",
				iflowID, kind, strings.Join(ambiguous.Candidates, ", ")))
	case more != nil && more():
	case errors.As(err, &writeErr):
		diags.AddError("Cannot Write Integration Flow",
			fmt.Sprintf("Writing the %s sender settings of iFlow %q failed: %s. The state records what the tenant holds now. "+
				"Check the flow and the provider's `cloud_integration` connection, then apply again.", kind, iflowID, framework.Clause(err)))
	case errors.Is(err, cpi.ErrNotFound):
		framework.AddFlowNotFound(diags, iflowID)
	default:
		diags.AddError("Cannot Read Integration Flow",
			fmt.Sprintf("Reading the %s sender of iFlow %q failed: %s. Check the flow and the provider's `cloud_integration` connection, then run the command again.", kind, iflowID, framework.Clause(err)))
	}
}

// addChannelMissing reports, for addChannelError, a channel that the flow does not have: one named
// `channel` that is not there, or none of the kind at all (none is the cpi error of that). queue names
// what such a sender reads ("JMS queue"), adapter the adapter to add ("JMS sender adapter"). It returns
// whether it reported err.
func addChannelMissing(diags *diag.Diagnostics, kind, iflowID string, err, none error, queue, adapter string) bool {
	var notFound *cpi.ChannelNotFoundError
	switch {
	case errors.As(err, &notFound):
		diags.AddAttributeError(path.Root("channel"), kind+" Sender Channel Not Found",
			fmt.Sprintf("The iFlow %q has no %s sender channel %q; its %s sender channels are %s. Set `channel` to one of them.",
				iflowID, kind, notFound.Channel, kind, strings.Join(notFound.Candidates, ", ")))
	case errors.Is(err, none):
		diags.AddAttributeError(path.Root("iflow_id"), "No "+kind+" Sender Channel",
			fmt.Sprintf("The iFlow %q has no %s sender channel, so it consumes no %s. Set `iflow_id` to the flow whose %s sender "+
				"reads the queue, or add a %s to this flow in Cloud Integration.", iflowID, kind, queue, kind, adapter))
	default:
		return false
	}
	return true
}

// senderDestroyWarning is the plan's warning that destroying a sender resource leaves the flow as it is.
func senderDestroyWarning(diags *diag.Diagnostics, typeName, kind string) {
	diags.AddWarning("The Integration Flow Stays As It Is",
		fmt.Sprintf("Destroying %s only removes it from the Terraform state. The iFlow, its %s sender settings and "+
			"its deployment stay unchanged on the tenant. Change or undeploy the flow in Cloud Integration if that is what you want.", typeName, kind))
}

// senderAttributes returns attrs with the attributes every sender resource has added. kind names
// the adapter; endEventsEffect says what the exception subprocesses' end events do to a message.
func senderAttributes(ctx context.Context, kind, endEventsEffect string, attrs map[string]schema.Attribute) map[string]schema.Attribute {
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: "`IFLOW_ID`, or `IFLOW_ID,CHANNEL` when `channel` is set.",
		Computed:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
	}
	attrs["iflow_id"] = schema.StringAttribute{
		MarkdownDescription: "The ID of the integration flow. Changing it manages another flow.",
		Required:            true,
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attrs["version"] = schema.StringAttribute{
		MarkdownDescription: "The design-time version to change and deploy. Defaults to `active`.",
		Optional:            true,
		Computed:            true,
		Default:             stringdefault.StaticString("active"),
		PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attrs["channel"] = schema.StringAttribute{
		MarkdownDescription: "The name (or ID) of the " + kind + " sender's message flow. Needed only when the flow has more than one " + kind + " sender; " +
			"the error then lists the candidates.",
		Optional:      true,
		PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
	}
	attrs["deploy"] = schema.BoolAttribute{
		MarkdownDescription: "Whether to deploy the flow after a change and wait until it runs. Defaults to `true`; " +
			"without a deployment the new settings do not take effect. Set it to `false` when a flow has several channel " +
			"resources, or an apply changes more channel resources than Terraform's `-parallelism` (10 by default), and deploy each " +
			"flow once with a `sapmessaging_iflow_deployment` whose `triggers` hold the `revision` of the flow's channel resources: " +
			"then each flow is deployed once per apply, after all its channels were written. Without `deploy_policy`, `true` is " +
			"`deploy_policy = \"running\"` and `false` is `deploy_policy = \"never\"`; with `deploy_policy` set, leave `deploy` out.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
	}
	framework.DeployPolicyAttributes(attrs, "Unset, `deploy` decides: `true` (the default) is `running`, `false` is `never`.")
	attrs["timeouts"] = deployTimeoutsAttribute(ctx, "the whole create or update: waiting behind other writes of the same flow, "+
		"reading it, writing the channel and, with `deploy = true`, deploying the flow and waiting until it runs")
	attrs["revision"] = schema.StringAttribute{
		MarkdownDescription: "A short name of the channel (flow, design-time version, message flow) and its settings as last read from the tenant. " +
			"It stays the same while they do, is known only after apply whenever this resource's create or update is planned, and is then new " +
			"when the apply changes the settings on the tenant (also when it writes back values changed there) or the resource moved to " +
			"another channel, flow or version, even with equal settings. Use it in the `triggers` of a " +
			"`sapmessaging_iflow_deployment` so that the flow is deployed once after its channels (with `deploy = false`) were written: " +
			"`triggers = { for k, s in sapmessaging_" + strings.ToLower(kind) + "_sender.c : k => s.revision if s.iflow_id == each.key }`.",
		Computed: true,
		// No UseStateForUnknown: the framework marks it unknown whenever an update is planned, so
		// a deployment that reads it plans a redeploy exactly then.
	}
	attrs["deployed_version"] = schema.StringAttribute{
		MarkdownDescription: "The version of the flow that runs on the tenant.",
		Computed:            true,
	}
	attrs["runtime_status"] = schema.StringAttribute{
		MarkdownDescription: "The runtime status of the flow: `STARTED`, `STARTING`, `STOPPING`, `ERROR`, or `NOT_DEPLOYED`.",
		Computed:            true,
	}
	attrs["exception_end_events"] = schema.ListAttribute{
		MarkdownDescription: "How each exception subprocess of the flow ends, as `SUBPROCESS: KIND` with KIND `error`, `escalation`, " +
			"`message` or `none`. " + endEventsEffect,
		ElementType:   types.StringType,
		Computed:      true,
		PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
	}
	return attrs
}
