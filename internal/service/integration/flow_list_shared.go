package integration

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// What the list resources of Cloud Integration (sapmessaging_amqp_sender,
// sapmessaging_jms_sender, sapmessaging_aem_sender, sapmessaging_iflow_deployment) share: the filters by package and by
// flow ID prefix, and the tenant's list of integration flows, one call for the whole tenant
// (GET IntegrationDesigntimeArtifacts, cpi.Client.ListArtifacts).

// flowListParallel is how many flows the sender list resources download at a time.
const flowListParallel = 8

// flowListModel is the configuration of a Cloud Integration list resource.
type flowListModel struct {
	PackageID     types.String `tfsdk:"package_id"`
	IflowIDPrefix types.String `tfsdk:"iflow_id_prefix"`
}

// flowListAttributes are the filters of a Cloud Integration list resource; what names what it lists.
func flowListAttributes(what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"package_id": schema.StringAttribute{
			MarkdownDescription: "Only " + what + " of the flows in this integration package (its ID, the package's technical name, " +
				"for example `AcmeCRM`). A package without such flows lists nothing.",
			Optional: true,
		},
		"iflow_id_prefix": schema.StringAttribute{
			MarkdownDescription: "Only " + what + " of the flows whose ID starts with this prefix, for example `Orders_`. " +
				"A prefix that matches no flow lists nothing.",
			Optional: true,
		},
	}
}

// validateFlowListConfig refuses a package ID or flow ID prefix that no flow can match.
func validateFlowListConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg flowListModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !cfg.PackageID.IsNull() && !cfg.PackageID.IsUnknown() {
		if err := rules.ValidPackageID(cfg.PackageID.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("package_id"), "Invalid Package ID",
				fmt.Sprintf("No integration package can have this ID: %s. No flow could match it, so the list would be empty. "+
					"Use the package's technical name as Cloud Integration shows it, or leave `package_id` out to list every package.", framework.Clause(err)))
		}
	}
	if !cfg.IflowIDPrefix.IsNull() && !cfg.IflowIDPrefix.IsUnknown() {
		if err := rules.ValidIFlowIDPrefix(cfg.IflowIDPrefix.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("iflow_id_prefix"), "Invalid Integration Flow ID Prefix",
				fmt.Sprintf("The prefix cannot start any integration flow ID: %s. No flow could match it, so the list would be empty. "+
					"Use the start of a flow ID as Cloud Integration shows it, for example Orders_.", framework.Clause(err)))
		}
	}
}

// matches reports whether a flow with id in package pkg passes the filters of cfg.
func (cfg flowListModel) matches(id, pkg string) bool {
	if !cfg.PackageID.IsNull() && pkg != cfg.PackageID.ValueString() {
		return false
	}
	return strings.HasPrefix(id, cfg.IflowIDPrefix.ValueString())
}

// listFlows returns the integration flows of the tenant that pass the filters of cfg, by ID.
func listFlows(ctx context.Context, c *cpi.Client, cfg flowListModel) ([]cpi.Artifact, error) {
	all, err := c.ListArtifacts(ctx)
	if err != nil {
		return nil, err
	}
	var out []cpi.Artifact
	for _, a := range all {
		if cfg.matches(a.ID, a.PackageID) {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// addFlowListError reports a failed list call of the Cloud Integration API.
func addFlowListError(diags *diag.Diagnostics, what string, err error) {
	diags.AddError("Cannot List Integration Flows", fmt.Sprintf("The Cloud Integration API failed listing %s: %s. "+
		"Check the provider's `cloud_integration` connection and the tenant's status, then run the command again; TF_LOG=debug shows each request.",
		what, framework.Clause(err)))
}

// nullTimeouts is the timeouts block of a Cloud Integration resource that sets none.
func nullTimeouts() timeouts.Value {
	return timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType, "update": types.StringType})}
}

// senderListResource lists the sender channels of one kind of the tenant's flows as the sender
// resource with model M and channel settings S: a result per channel, with the channel in the
// identity when the flow has more than one of that kind. The flows that pass the filters are
// downloaded flowListParallel at a time, each once in the run however many list blocks ask
// (cpi.Flows.ReadFlows); with include_resource one more call lists the deployed flows, so that
// each result's runtime needs no call of its own (cpi.Flows.PrimeRuntimes).
type senderListResource[M any, P senderModel[M], S any] struct {
	typeSuffix string
	// kind names the adapter: "AMQP", "JMS" or "AEM".
	kind string
	// channels returns the channel values that select each sender of the kind in a flow.
	channels func(f *cpi.Flow) []string
	// queue returns the queue the channel reads, for the display name.
	queue func(f *cpi.Flow, channel string) (string, error)
	// glue returns the sender resource's handling, whose read fills a result's resource.
	glue func(data *framework.ProviderData) senderGlue[M, P, S]
	data *framework.ProviderData
}

func (l *senderListResource[M, P, S]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + l.typeSuffix
}

func (l *senderListResource[M, P, S]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	// The AMQP sender's adoption attributes are described with the values they adopt; the others' from the catalogue.
	adopt := framework.AdoptionSentence("sapmessaging" + l.typeSuffix)
	if l.kind == "AMQP" {
		adopt = " An AMQP channel that sets `MODIFIED_FAILED_UNDELIVERABLE` gets `allow_cancelled_redelivery = true`, " +
			"one whose Max. Number of Retries is empty or 0 gets `allow_unsafe_retries = true`: the resource refuses those settings, and " +
			"with the attribute the plan warns instead."
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every " + l.kind + " sender channel of the Cloud Integration tenant's integration flows, or those of the " +
			"flows of one package or whose ID starts with a prefix: a result per channel, named `FLOW: " + l.kind + " sender of queue QUEUE " +
			"(package PACKAGE)`, or `FLOW / CHANNEL: ...` with the channel in the identity when the flow has more than one " + l.kind + " sender. " +
			"With `include_resource` (and `terraform query -generate-config-out`) each result carries every setting of the channel as " +
			"the flow holds it and `version = \"active\"`, as an import does, and `deploy = false`: the pattern the documentation " +
			"recommends, where the channel is written only and one `sapmessaging_iflow_deployment` per flow deploys it (list those with the " +
			"deployments' list resource, then put the channels' `revision` in their `triggers`: wiring them deploys nothing)." + adopt + " So the generated resource block plans no change after its import.\n\n" +
			"The plan-time rules apply to the generated blocks as to any other: their warnings show in the plan. An adopted flow is " +
			"deployed by nothing until a channel changes.\n\n" +
			"One call lists the flows, each flow that passes the filters is downloaded once (8 at a time, shared with the other sender list " +
			"blocks of the same provider configuration), and `include_resource` adds one call for the deployed flows. A flow that cannot be " +
			"read is left out with a warning that says why. " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; a block whose results stop at its " +
			"`limit` warns with the number of channels it selects.",
		Attributes: flowListAttributes("the " + l.kind + " sender channels"),
	}
}

func (l *senderListResource[M, P, S]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *senderListResource[M, P, S]) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	validateFlowListConfig(ctx, req, resp)
}

func (l *senderListResource[M, P, S]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg flowListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.data.CloudIntegrationOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	arts, err := listFlows(ctx, l.data.CloudIntegration, cfg)
	if err != nil {
		addFlowListError(&diags, "the integration flows", err)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	ids := make([]string, len(arts))
	for i, a := range arts {
		ids[i] = a.ID
	}
	if req.IncludeResource && len(ids) > 0 {
		rts, err := l.data.CloudIntegration.ListRuntimeArtifacts(ctx)
		if err != nil {
			addFlowListError(&diags, "the deployed integration flows", err)
			stream.Results = list.ListResultsStreamDiagnostics(diags)
			return
		}
		l.data.Flows.PrimeRuntimes(rts, ids)
	}
	reads := l.data.Flows.ReadFlows(ctx, ids, "active", flowListParallel)
	var total int64
	for _, rd := range reads {
		if rd.Err == nil {
			total += int64(len(l.channels(rd.Flow)))
		}
	}
	stream.Results = func(push func(list.ListResult) bool) {
		lim := framework.LimitedResults{Limit: req.Limit, Total: total, What: l.kind + " sender channels"}
		for i, rd := range reads {
			if errors.Is(rd.Err, cpi.ErrNotFound) {
				continue // deleted since it was listed
			}
			if rd.Err != nil {
				if !push(l.leftOut(rd.ID, "", rd.Err)) {
					return
				}
				continue
			}
			channels := l.channels(rd.Flow)
			for _, ch := range channels {
				channel := ch
				if len(channels) == 1 {
					channel = "" // the flow's only sender of the kind: no channel, as the resource is written for it
				}
				r, ok := l.result(ctx, req, rd.Flow, arts[i].PackageID, channel, ch)
				if !ok {
					if !push(r) {
						return
					}
					continue
				}
				if !lim.Push(push, r) {
					return
				}
			}
		}
	}
}

// result is the list result of the channel of flow f in package pkg (channel "" for the flow's
// only sender of the kind, label its name for the display); ok is false for a warning that
// leaves the channel out.
func (l *senderListResource[M, P, S]) result(ctx context.Context, req list.ListRequest, f *cpi.Flow, pkg, channel, label string) (list.ListResult, bool) {
	queue, err := l.queue(f, channel)
	if err != nil {
		return l.leftOut(f.ID, label, err), false
	}
	r := req.NewListResult(ctx)
	name := f.ID
	if channel != "" {
		name += " / " + label
	}
	reads := "queue " + queue
	if queue == "" {
		reads = "a queue its flow does not resolve (an externalized parameter without a value)"
	}
	r.DisplayName = fmt.Sprintf("%s: %s sender of %s (package %s)", name, l.kind, reads, pkg)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("iflow_id"), f.ID)...)
	channelValue := types.StringNull()
	if channel != "" {
		channelValue = types.StringValue(channel)
	}
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("channel"), channelValue)...)
	if !req.IncludeResource {
		return r, true
	}
	// What an import by this identity and its read make.
	var m M
	c := P(&m).common()
	c.IflowID, c.Version, c.Channel = types.StringValue(f.ID), types.StringValue("active"), channelValue
	// deploy = false after the read, as an import by identity sets it: the recommended pattern
	// (written only; the flow's sapmessaging_iflow_deployment deploys it).
	c.Deploy, c.Timeouts = types.BoolNull(), nullTimeouts()
	if _, found := l.glue(l.data).readRevision(ctx, &m, "", &r.Diagnostics); !found {
		return l.leftOut(f.ID, label, cpi.ErrNotFound), false
	}
	c.Deploy = types.BoolValue(false) // as an import by identity sets it
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r, true
}

// leftOut is the warning of a flow, or of its channel label, that cannot be read and is not listed.
func (l *senderListResource[M, P, S]) leftOut(iflowID, label string, err error) list.ListResult {
	what := fmt.Sprintf("iFlow %q", iflowID)
	if label != "" {
		what = fmt.Sprintf("the %s sender channel %q of iFlow %q", l.kind, label, iflowID)
	}
	var d diag.Diagnostics
	d.AddWarning("Integration Flow Left Out",
		fmt.Sprintf("The list leaves out %s: %s. The other flows are listed. Fix the flow in Cloud Integration, or import the channel by hand "+
			"once it can be read, then run the query again.", what, framework.Clause(err)))
	return list.ListResult{Diagnostics: d}
}
