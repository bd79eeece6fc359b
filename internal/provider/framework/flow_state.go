package framework

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// What the Cloud Integration resources (the sender resources and sapmessaging_iflow_deployment)
// share so that their state records what the tenant runs, not only what its design time holds:
// a flow whose runtime does not run the content this configuration asked for plans a deploy.

// privateUndeployed is the private state key of a sender whose settings were written to the
// design time without a deploy that succeeded (deploy = false, or the deploy failed, timed out
// or was interrupted). Its value is an undeployedWrite.
const privateUndeployed = "undeployed"

// UndeployedWrite records a write that the runtime may not run yet: DeployedOn is the runtime's
// deployment time when it was saved (as the tenant writes it, "" when nothing was deployed). A
// deploy after it, by anyone, changes the runtime's DeployedOn and so ends it.
type UndeployedWrite struct {
	DeployedOn string `json:"deployed_on"`
	// DeployedOnUnknown: the runtime could not be read after the write, so a deploy by someone
	// else cannot be told from the deployment that ran before; the record then ends only with a
	// deploy of the resource that succeeds.
	DeployedOnUnknown bool `json:"deployed_on_unknown,omitempty"`
}

// privateDeployedContent is the private state key of what a Cloud Integration resource last saw
// deployed: the runtime's deployment time and the design time's content digest then. Its value
// is a deployedContent.
const privateDeployedContent = "deployed_content"

// privatePlanContentChanged is the private key in which a plan hands its apply what it found of
// other changes in the design time (a contentFinding as JSON), so that the apply decides as the
// plan did.
const privatePlanContentChanged = "plan_content_changed"

// deployedContent records the design time a runtime was deployed from, as far as can be told: the
// Cloud Integration API tells no modification time of the design time, and the runtime artifact
// tells its version and DeployedOn but not its content. Digest is cpi.Flow.ContentDigest of the
// design time read right after a deploy of this provider, or when a read first finds the runtime
// with this DeployedOn (a deploy by anyone else, an import, or a state written before the record
// existed: the runtime is then taken to run the design time as read). Version is the version the
// runtime ran. The record is kept while the flow is not deployed: it is then what the runtime
// last ran.
type DeployedContent struct {
	DeployedOn string `json:"deployed_on"`
	Digest     string `json:"digest"`
	Version    string `json:"version,omitempty"`
	// Runs says what the retry settings of the resource's channel do, as read when the record
	// was taken (what the runtime runs), "" when unknown or unremarkable.
	Runs string `json:"runs,omitempty"`
	// Unconfirmed counts the saved Terraform runs still needed before Digest is taken for what
	// the runtime runs: a read that finds a deploy by someone else since the record sets 1 (the
	// design time may have changed after that deploy, under the same version, before this read);
	// an apply that held a deploy back for it sets 2; each read of a saved state that finds the
	// same deployment lowers it by one. So an apply -refresh-only after the pipeline's deploy job
	// (or any apply that changes nothing of the resource) confirms it, and a plan alone never does.
	Unconfirmed int `json:"unconfirmed,omitempty"`
}

// getDeployedContent returns the record in private, nil for none.
func GetDeployedContent(ctx context.Context, private privateGetter) *DeployedContent {
	if private == nil {
		return nil
	}
	b, d := private.GetKey(ctx, privateDeployedContent)
	if d.HasError() || len(b) == 0 {
		return nil
	}
	var c DeployedContent
	if json.Unmarshal(b, &c) != nil || c.Digest == "" {
		return nil
	}
	return &c
}

// setDeployedContent records c in private, or removes the record when c is nil.
func SetDeployedContent(ctx context.Context, private PrivateSetter, c *DeployedContent) diag.Diagnostics {
	if c == nil {
		return private.SetKey(ctx, privateDeployedContent, nil)
	}
	b, err := json.Marshal(c)
	if err != nil {
		// A struct of strings and an int always marshals.
		return nil
	}
	return private.SetKey(ctx, privateDeployedContent, b)
}

// flowDigest returns the content digest of flow id in version as read once in this run, "" when
// it cannot be read.
func FlowDigest(ctx context.Context, flows *cpi.Flows, id, version string) string {
	f, err := flows.Flow(ctx, id, version)
	if err != nil {
		return ""
	}
	d, err := f.ContentDigest()
	if err != nil {
		return ""
	}
	return d
}

// recordBy says who takes a deployedContent record.
type RecordBy int

const (
	// byRead: a refresh (its state is saved by an apply, including -refresh-only).
	ByRead RecordBy = iota
	// byApply: an apply of the resource that did not deploy.
	ByApply
	// byDeploy: an apply that deployed the flow (a new DeployedOn after it is that deploy's).
	ByDeploy
)

// nextDeployedContent is the record after reading runtime rt (nil: not deployed) and a design
// time of digest: a new record when the runtime was deployed since prior (by anyone; byDeploy:
// by this resource, just now) or none was kept, prior otherwise (also while the flow is not
// deployed: it then tells what the runtime last ran). heldUnconfirmed is true when this apply
// held a deploy back because the record was unconfirmed. runs is what the channel's settings as
// read now do, kept in a new record.
func NextDeployedContent(prior *DeployedContent, rt *cpi.RuntimeArtifact, digest string, by RecordBy, heldUnconfirmed bool, runs string) *DeployedContent {
	switch {
	case rt == nil || digest == "":
		return prior
	case by == ByDeploy || prior == nil:
		// After this resource's deploy, or the first record (an import, a state from before
		// records were kept): the runtime is taken to run the design time as read.
		return &DeployedContent{DeployedOn: rt.DeployedOn, Digest: digest, Version: rt.Version, Runs: runs}
	case prior.DeployedOn != rt.DeployedOn:
		// A deploy by someone else since the record: the design time may have changed after it.
		n := 1
		if by == ByApply {
			n = 2
		}
		return &DeployedContent{DeployedOn: rt.DeployedOn, Digest: digest, Version: rt.Version, Unconfirmed: n, Runs: runs}
	}
	next := *prior
	switch {
	case by == ByApply && heldUnconfirmed:
		next.Unconfirmed = 2
	case by == ByRead && next.Unconfirmed > 0:
		next.Unconfirmed--
	}
	if next.Version == "" {
		next.Version = rt.Version
	}
	return &next
}

// contentFinding is what a plan found of other changes in the design time of a flow: changes
// under the version the runtime runs (or, for a flow that is not deployed, changes since what the
// runtime last ran), or a deploy by someone else that makes the record unconfirmed.
type ContentFinding struct {
	Changed     bool   `json:"changed,omitempty"`
	Unconfirmed bool   `json:"unconfirmed,omitempty"`
	LastVersion string `json:"last_version,omitempty"`
	// Runs is what the runtime's retry settings do, as recorded (deployedContent.Runs).
	Runs string `json:"runs,omitempty"`
}

// contentChangedAtPlan returns what the design time of flow id holds beyond what the runtime runs
// as rec records it: the runtime is still the deployment rec was recorded for (its DeployedOn,
// read once in this run) and the design time's digest differs from rec's, or rec is unconfirmed;
// for a flow that is not deployed, the design time differs from what the runtime last ran.
func ContentChangedAtPlan(ctx context.Context, flows *cpi.Flows, id, version string, rec *DeployedContent) ContentFinding {
	if rec == nil || flows == nil {
		return ContentFinding{}
	}
	rt, err := flows.RuntimeArtifact(ctx, id)
	switch {
	case errors.Is(err, cpi.ErrNotFound):
		d := FlowDigest(ctx, flows, id, version)
		return ContentFinding{Changed: d != "" && d != rec.Digest, LastVersion: rec.Version, Runs: rec.Runs}
	case err != nil || rt.DeployedOn != rec.DeployedOn:
		return ContentFinding{}
	}
	d := FlowDigest(ctx, flows, id, version)
	return ContentFinding{Changed: d != "" && d != rec.Digest, Unconfirmed: rec.Unconfirmed > 0, Runs: rec.Runs}
}

// setPlanContentChanged hands the apply what the plan found (contentChangedAtPlan).
func SetPlanContentChanged(ctx context.Context, private PrivateSetter, f ContentFinding) diag.Diagnostics {
	if f == (ContentFinding{}) {
		return private.SetKey(ctx, privatePlanContentChanged, nil)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	return private.SetKey(ctx, privatePlanContentChanged, b)
}

// planContentChanged returns what the plan handed the apply in private.
func PlanContentChanged(ctx context.Context, private privateGetter) ContentFinding {
	if private == nil {
		return ContentFinding{}
	}
	b, d := private.GetKey(ctx, privatePlanContentChanged)
	var f ContentFinding
	if d.HasError() || len(b) == 0 || json.Unmarshal(b, &f) != nil {
		return ContentFinding{}
	}
	return f
}

// privateGetter is the part of the framework's private state that reads.
type privateGetter interface {
	GetKey(ctx context.Context, Key string) ([]byte, diag.Diagnostics)
}

// PrivateSetter is the part of the framework's private state that writes.
type PrivateSetter interface {
	SetKey(ctx context.Context, Key string, value []byte) diag.Diagnostics
}

// GetUndeployed returns the undeployed write recorded in private, nil for none.
func GetUndeployed(ctx context.Context, private privateGetter) *UndeployedWrite {
	if private == nil {
		return nil
	}
	b, d := private.GetKey(ctx, privateUndeployed)
	if d.HasError() || len(b) == 0 {
		return nil
	}
	var u UndeployedWrite
	if json.Unmarshal(b, &u) != nil {
		return nil
	}
	return &u
}

// SetUndeployed records u in private, or removes the record when u is nil.
func SetUndeployed(ctx context.Context, private PrivateSetter, u *UndeployedWrite) diag.Diagnostics {
	if u == nil {
		return private.SetKey(ctx, privateUndeployed, nil)
	}
	b, err := json.Marshal(u)
	if err != nil {
		// A struct of one string always marshals.
		return nil
	}
	return private.SetKey(ctx, privateUndeployed, b)
}

// RuntimeView is what a Cloud Integration resource's state says about the flow's runtime.
type RuntimeView struct {
	Status, DeployedVersion types.String
	// DesignVersion is the design-time version of the flow as read in this run, "" when unknown.
	DesignVersion string
	Undeployed    *UndeployedWrite
}

// NotRunningReason says why the flow does not run the content the configuration asked for, ""
// when it does: a runtime that is not STARTED, a write recorded as not deployed, or a deployed
// version other than the design time's.
func (v RuntimeView) NotRunningReason() string {
	Status := v.Status.ValueString()
	switch {
	case v.Status.IsNull() || v.Status.IsUnknown():
		return ""
	case Status != "STARTED":
		return fmt.Sprintf("its runtime status is %s", Status)
	case v.Undeployed != nil:
		return "the settings an earlier apply wrote were never deployed (that deploy failed, timed out or was interrupted, or the resource had deploy = false)"
	case v.DesignVersion != "" && !v.DeployedVersion.IsNull() && !v.DeployedVersion.IsUnknown() &&
		v.DeployedVersion.ValueString() != v.DesignVersion:
		return fmt.Sprintf("the runtime runs version %s while the design time holds version %s", v.DeployedVersion.ValueString(), v.DesignVersion)
	}
	return ""
}

// DesignVersion returns the design-time version of flow id in version as read once in this run,
// "" when it cannot be read (the caller's other reads report that).
func DesignVersion(ctx context.Context, flows *cpi.Flows, id, version string) string {
	f, err := flows.Flow(ctx, id, version)
	if err != nil {
		return ""
	}
	return f.DesignVersion
}

// PlanDesignVersion is designVersion at plan, where a flow that cannot be read is an error (a
// plan that cannot read fails): it returns false after adding it. A flow that does not exist
// has no design version ("").
func PlanDesignVersion(ctx context.Context, flows *cpi.Flows, id, version string, diags *diag.Diagnostics) (string, bool) {
	f, err := flows.Flow(ctx, id, version)
	switch {
	case errors.Is(err, cpi.ErrNotFound):
		return "", true
	case err != nil:
		diags.AddError("Cannot Read Integration Flow", fmt.Sprintf("Reading iFlow %q to plan whether it runs its design time failed: %s. "+
			"Check the provider's `cloud_integration` connection and the service's status, then run the command again.", id, Clause(err)))
		return "", false
	}
	return f.DesignVersion, true
}

// ReadDeployment sets the runtime status and deployed version of iFlow id and returns the runtime
// artifact (nil when none is deployed); they stay as they are when reading fails.
// The status is read once per run for all channel resources of the flow (Flows.RuntimeArtifact).
func ReadDeployment(ctx context.Context, flows *cpi.Flows, id string, Status, deployed *types.String, diags *diag.Diagnostics) *cpi.RuntimeArtifact {
	rt, err := flows.RuntimeArtifact(ctx, id)
	switch {
	case errors.Is(err, cpi.ErrNotFound):
		*Status, *deployed = types.StringValue("NOT_DEPLOYED"), types.StringNull()
	case err != nil:
		diags.AddError("Cannot Read Deployment", fmt.Sprintf("Reading the runtime state of iFlow %q failed: %s. Run the command again.", id, Clause(err)))
	default:
		*Status, *deployed = types.StringValue(rt.Status), types.StringValue(rt.Version)
		return rt
	}
	return nil
}

// DeployedOn is the runtime's deployment time, "" without a runtime.
func DeployedOn(rt *cpi.RuntimeArtifact) string {
	if rt == nil {
		return ""
	}
	return rt.DeployedOn
}

// StillUndeployed returns u unless the runtime rt was deployed since u was recorded.
func StillUndeployed(u *UndeployedWrite, rt *cpi.RuntimeArtifact) *UndeployedWrite {
	if u == nil || (!u.DeployedOnUnknown && rt != nil && rt.Status == "STARTED" && rt.DeployedOn != u.DeployedOn) {
		return nil
	}
	return u
}

// AfterCancel returns a context for the reads that make the state match the tenant after an
// operation: ctx itself, or, when ctx was cancelled (an interrupted run) or its time ran out, a
// context of its values that ends after a short while, so that the state still records what the
// tenant holds.
func AfterCancel(ctx context.Context) (context.Context, context.CancelFunc) {
	if ctx.Err() == nil {
		return ctx, func() {}
	}
	return context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
}

// AddOperationError reports err when it is the end of the operation's context: cancelled (an
// interrupted run) or out of time (the resource's timeout for op, "create" or "update"). It
// returns false for any other error.
func AddOperationError(diags *diag.Diagnostics, what string, timeout time.Duration, op string, err error) bool {
	switch {
	case errors.Is(err, context.Canceled):
		diags.AddError("Operation Cancelled",
			fmt.Sprintf("%s was cancelled before it finished: %s. The state records what the tenant holds now, and the next plan shows what is left. "+
				"Run terraform apply again to finish it.", what, Clause(err)))
	case errors.Is(err, context.DeadlineExceeded):
		diags.AddError("Operation Timed Out",
			fmt.Sprintf("%s did not finish within its %s timeout of %s: %s. The state records what the tenant holds now, and the next plan shows what is left. "+
				"Raise timeouts.%s, or apply again.", what, op, timeout, Clause(err), op))
	default:
		return false
	}
	return true
}

// AddDeployError reports a deploy of iFlow id that did not succeed. saved says what was saved
// before it.
func AddDeployError(diags *diag.Diagnostics, id, saved string, timeout time.Duration, op string, err error) {
	var wait *cpi.DeployTimeoutError
	switch {
	case errors.As(err, &wait) && wait.Cancelled() || errors.Is(err, context.Canceled):
		diags.AddError("Deployment Cancelled",
			fmt.Sprintf("%s The deploy of iFlow %q was interrupted: %s. The next plan shows the deploy again. Run terraform apply again to finish it.",
				saved, id, Clause(err)))
	case errors.As(err, &wait) || errors.Is(err, context.DeadlineExceeded):
		diags.AddError("Deployment Timed Out",
			fmt.Sprintf("%s The deploy of iFlow %q did not finish within the %s timeout of %s: %s. The next plan shows the deploy again. "+
				"Raise timeouts.%s and apply again.", saved, id, op, timeout, Clause(err), op))
	default:
		diags.AddError("Deployment Failed",
			fmt.Sprintf("%s Deploying iFlow %q failed: %s. The next plan shows the deploy again. Fix the cause in Cloud Integration and apply again.",
				saved, id, Clause(err)))
	}
}

// DeployPolicyAttributes adds `deploy_policy` and `deploy_other_changes` to attrs. deployNote
// says how the resource's other attributes map onto the policy when it is unset.
func DeployPolicyAttributes(attrs map[string]schema.Attribute, deployNote string) {
	names := make([]string, len(cpi.DeployPolicies))
	for i, p := range cpi.DeployPolicies {
		names[i] = string(p)
	}
	attrs["deploy_policy"] = schema.StringAttribute{
		MarkdownDescription: "When the flow is deployed: `changes` deploys the changes of this configuration only (its writes; a flow " +
			"that is not deployed stays undeployed), `running` keeps the flow running (deploys this configuration's changes and the flow " +
			"whenever its runtime is not `STARTED`), `never` never deploys. " + deployNote + " Under every policy, a design time that holds " +
			"other changes than the runtime runs (another version a pipeline uploaded without deploying, or changes uploaded under the " +
			"version the runtime runs) is deployed only with `deploy_other_changes = true`; the plan warns which case it is. Changes under " +
			"the same version are told by a digest of the design time (apart from the settings the provider writes) that the resource " +
			"keeps in its private state with the runtime's `DeployedOn`: taken after its own deploys, and by the first refresh that sees " +
			"a deploy by someone else. After such a deploy, until a saved run (`terraform apply -refresh-only` right after the " +
			"pipeline's deploy job, or any apply that changes nothing of the resource) has read it, the provider cannot tell whether " +
			"the design time changed since, and holds deploys back as for other changes. Under `running`, a flow that is not " +
			"deployed is not deployed again while its design time holds what the runtime never ran (a version staged after its " +
			"last deploy). A flow left undeployed is not warned about under `changes` and `never` (it is what they keep); the plan " +
			"warns when `changes` holds back a deploy of this configuration's writes and when `running` holds one back, while " +
			"`never`, which never deploys, does not warn.",
		Optional:   true,
		Validators: []validator.String{stringvalidator.OneOf(names...)},
	}
	attrs["deploy_other_changes"] = schema.BoolAttribute{
		MarkdownDescription: "Whether a deploy may ship other changes the design time holds: a version the runtime does not run, such as " +
			"one a pipeline uploaded without deploying, or changes uploaded under the version the runtime runs. Defaults to `false`: such a flow is not deployed by this resource, also when it " +
			"writes settings into it; the runtime gets them when that version is released. The plan warns when it holds a deploy back.",
		Optional: true,
	}
}

// DeployPolicy is the policy of a resource: policy when set, else `running` with deploy and
// `never` without.
func DeployPolicy(policy types.String, deploy bool) cpi.DeployPolicy {
	if !policy.IsNull() && !policy.IsUnknown() {
		return cpi.DeployPolicy(policy.ValueString())
	}
	if deploy {
		return cpi.DeployRunning
	}
	return cpi.DeployNever
}

// deployState is the cpi.DeployState of a runtime status and deployed version (as the state holds
// them), the design version read in this run, and whether the design time holds other changes
// under the version the runtime runs.
func DeployState(Status, deployed types.String, DesignVersion string, writes bool, found ContentFinding) cpi.DeployState {
	return cpi.DeployState{RuntimeStatus: Status.ValueString(), DeployedVersion: deployed.ValueString(), DesignVersion: DesignVersion,
		Writes: writes, ContentChanged: found.Changed, Unconfirmed: found.Unconfirmed, LastVersion: found.LastVersion, Runs: found.Runs}
}

// AddDeployWarning warns at plan about decision d of policy p for iFlow id in state s: what is
// deployed and why, or what is held back and what to set instead.
// quiet leaves the warning out.
func AddDeployWarning(diags *diag.Diagnostics, id string, p cpi.DeployPolicy, s cpi.DeployState, d cpi.DeployDecision, quiet bool) {
	switch {
	case d.Case == cpi.CaseNone || quiet:
	case d.Deploy:
		diags.AddWarning("Integration Flow Will Be Deployed",
			fmt.Sprintf("This plan deploys iFlow %q: %s. It deploys because `deploy_policy` is %q%s. Apply it to run them.",
				id, s.Describe(d.Case), p, otherChangesNote(s)))
	case d.Held && p != cpi.DeployNever:
		Why := fmt.Sprintf("`deploy_policy` is %q", p)
		what := "set `deploy_policy = \"running\"` to keep the flow running, or deploy it in Cloud Integration"
		switch {
		case s.Staged() && s.RuntimeStatus == cpi.RuntimeNotDeployed:
			Why = "`deploy_other_changes` is not true, and a deploy would ship what the runtime never ran"
			what = fmt.Sprintf("set `deploy_other_changes = true` to ship version %s from here, or let the team's pipeline deploy it", s.DesignVersion)
		case s.Staged() && s.Unconfirmed && !s.ContentChanged && s.DeployedVersion == s.DesignVersion:
			Why = "`deploy_other_changes` is not true, and a deploy might ship changes the team has not released"
			what = "run terraform apply -refresh-only right after the pipeline's deploy job (it records the design time as what the " +
				"runtime runs, and the next plan decides from it), or set `deploy_other_changes = true` to deploy it from here"
		case s.Staged():
			Why = "`deploy_other_changes` is not true, and a deploy would ship them"
			what = fmt.Sprintf("release version %s with the team's pipeline, or set `deploy_other_changes = true` to deploy it from here", s.DesignVersion)
		}
		meanwhile := ""
		switch {
		case s.RuntimeStatus != cpi.RuntimeStarted:
		case s.Runs != "":
			meanwhile = fmt.Sprintf(" Meanwhile the running flow (version %s) keeps the settings it was deployed with: %s.", s.DeployedVersion, s.Runs)
		case s.DeployedVersion != "" && s.DesignVersion != "" && s.DeployedVersion != s.DesignVersion:
			meanwhile = fmt.Sprintf(" Meanwhile the running flow (version %s) keeps the settings it was released with, which the provider cannot read "+
				"(the API serves the design time's content only): where that release left a retry setting empty (an externalized parameter "+
				"without a value, as an upload without parameters.prop leaves it), it retries a failing message without end.", s.DeployedVersion)
		}
		diags.AddWarning("Integration Flow Not Deployed",
			fmt.Sprintf("This plan does not deploy iFlow %q: %s.%s It does not deploy because %s; written settings stay in the design time "+
				"and run from the next deploy of the flow. To deploy it, %s.", id, s.Describe(d.Case), meanwhile, Why, what))
	}
}

// otherChangesNote is what a deploy of s ships beyond this configuration's changes.
func otherChangesNote(s cpi.DeployState) string {
	if !s.Staged() {
		return ""
	}
	return fmt.Sprintf("; the deploy also ships the other changes of version %s", s.DesignVersion)
}

// stateOnlyChange is an attribute whose planned value differs from the state's in an update that
// neither writes nor deploys.
type StateOnlyChange struct {
	Name          string
	Before, After attr.Value
}

// addStateOnlyUpdate warns at plan that the update of what (a phrase: "the AMQP sender settings")
// of iFlow id changes only attributes the provider keeps in the state, among changes: the apply
// sends no request that writes or deploys. Terraform shows a changed configuration value as an
// update; the warning says what that update does. No changed attribute, no warning.
func AddStateOnlyUpdate(diags *diag.Diagnostics, id, what string, changes ...StateOnlyChange) {
	var names []string
	for _, c := range changes {
		if !c.Before.Equal(c.After) {
			names = append(names, "`"+c.Name+"`")
		}
	}
	if len(names) == 0 {
		return
	}
	diags.AddWarning("Update Changes the State Only",
		fmt.Sprintf("This plan updates %s of iFlow %q in place, but only %s changes, which the provider keeps in the Terraform state: the apply "+
			"writes nothing to the flow's design time and deploys nothing. Apply it to record the new %s.",
			what, id, strings.Join(names, ", "), plural(len(names), "value", "values")))
}

// plural returns one for n == 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// addFlowDeleted warns, at refresh, that iFlow id in version (as the configuration addresses it)
// is gone from the tenant and the state forgot what (a phrase: "its AMQP sender settings"). It
// says what happened, as far as the tenant tells: a pinned version replaced by an upload of
// another one, a design time deleted while the runtime still runs, or a flow deleted.
func AddFlowDeleted(ctx context.Context, diags *diag.Diagnostics, flows *cpi.Flows, id, version, what string) {
	if flows != nil && version != "" && version != "active" {
		if f, err := flows.Flow(ctx, id, "active"); err == nil && f.DesignVersion != "" && f.DesignVersion != version {
			diags.AddWarning("Integration Flow Version Replaced",
				fmt.Sprintf("Version %s of iFlow %q no longer exists on the tenant: its design time now holds version %s. Cloud Integration keeps "+
					"one design time per flow, so an upload of a new version (by a pipeline, or in Cloud Integration) replaces the one before; "+
					"the flow was not deleted. The state forgets %s, so the plan shows them to be created again against version %s, which "+
					"that apply cannot find. Set `version = %q` (or leave `version` out to follow the uploads), or remove the resource from "+
					"the configuration.", version, id, f.DesignVersion, what, version, f.DesignVersion))
			return
		}
	}
	if flows != nil {
		if rt, err := flows.RuntimeArtifact(ctx, id); err == nil && rt != nil {
			diags.AddWarning("Integration Flow Design Time Deleted",
				fmt.Sprintf("The design time of iFlow %q no longer exists on the tenant, while its runtime still runs version %s (status %s): "+
					"only the design time was deleted outside Terraform (by a pipeline, or in Cloud Integration), and the flow keeps running. "+
					"The state forgets %s, so the plan shows them to be created again; that apply fails until the flow is uploaded. "+
					"Upload the flow again, or undeploy it in Cloud Integration and remove the resource from the configuration.",
					id, rt.Version, rt.Status, what))
			return
		}
	}
	diags.AddWarning("Integration Flow Deleted",
		fmt.Sprintf("The iFlow %q no longer exists on the tenant: it was deleted outside Terraform (by a pipeline, or in Cloud Integration). "+
			"The state forgets %s, so the plan shows them to be created again; that apply fails until the flow is uploaded. "+
			"Upload the flow again, or remove the resource from the configuration.", id, what))
}

// AddFlowMissingAtPlan warns at plan that iFlow id does not exist, so that its apply will fail.
func AddFlowMissingAtPlan(diags *diag.Diagnostics, id string) {
	diags.AddAttributeWarning(path.Root("iflow_id"), "Integration Flow Not Found",
		fmt.Sprintf("Cloud Integration has no integration flow %q in that version. This resource changes an existing flow and creates "+
			"none, so applying this plan fails until the flow exists. Upload the flow first (with the team's pipeline, or in Cloud "+
			"Integration), or check `iflow_id` and `version`.", id))
}

// AddFlowNotFound reports a write or deploy that found no iFlow id.
func AddFlowNotFound(diags *diag.Diagnostics, id string) {
	diags.AddAttributeError(path.Root("iflow_id"), "Integration Flow Not Found",
		fmt.Sprintf("Cloud Integration has no integration flow %q in that version. This resource changes and deploys an existing flow "+
			"and creates none: the flow must be uploaded first (with the team's pipeline, or in Cloud Integration). Upload it, or check "+
			"`iflow_id` and `version`, then apply again.", id))
}
