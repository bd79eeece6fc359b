package integration

import (
	"context"
	"fmt"
	"sort"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
)

// The list resource of deployments (Terraform 1.14 and later, `terraform query`): every
// integration flow deployed on the tenant, from one call (GET IntegrationRuntimeArtifacts,
// cpi.Client.ListRuntimeArtifacts), and with a package filter one more for the flows' packages
// (GET IntegrationDesigntimeArtifacts).

var (
	_ list.ListResource                   = (*iflowDeploymentListResource)(nil)
	_ list.ListResourceWithConfigure      = (*iflowDeploymentListResource)(nil)
	_ list.ListResourceWithValidateConfig = (*iflowDeploymentListResource)(nil)
)

// NewIFlowDeploymentListResource returns the sapmessaging_iflow_deployment list resource.
func NewIFlowDeploymentListResource() list.ListResource {
	return &iflowDeploymentListResource{}
}

type iflowDeploymentListResource struct {
	data *framework.ProviderData
}

func (l *iflowDeploymentListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_iflow_deployment"
}

func (l *iflowDeploymentListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every integration flow deployed on the Cloud Integration tenant (in any runtime status), or those of " +
			"one package or whose ID starts with a prefix. Each result is named `FLOW (version V, STATUS)`. With `include_resource` " +
			"(and `terraform query -generate-config-out`) each result carries the flow, `version = \"active\"` and no triggers, so that " +
			"the generated resource block plans no change after its import while the flow runs; a flow in `ERROR` plans a redeploy " +
			"(`deploy_policy` unset is `running`), and a flow whose design time holds another version than it runs is left to its release. " +
			"Put the `revision` of the flow's channel resources into `triggers` afterwards: wiring them deploys nothing.\n\n" +
			"One call lists the deployed flows; a `package_id` adds one call for the flows' packages. " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; a block whose results stop at its " +
			"`limit` warns with the number of deployed flows it selects.",
		Attributes: flowListAttributes("the deployments"),
	}
}

func (l *iflowDeploymentListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *iflowDeploymentListResource) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	validateFlowListConfig(ctx, req, resp)
}

func (l *iflowDeploymentListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg flowListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.data.CloudIntegrationOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	rts, err := l.data.CloudIntegration.ListRuntimeArtifacts(ctx)
	if err != nil {
		addFlowListError(&diags, "the deployed integration flows", err)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	packages := map[string]string{}
	if !cfg.PackageID.IsNull() {
		arts, err := l.data.CloudIntegration.ListArtifacts(ctx)
		if err != nil {
			addFlowListError(&diags, "the integration flows and their packages", err)
			stream.Results = list.ListResultsStreamDiagnostics(diags)
			return
		}
		for _, a := range arts {
			packages[a.ID] = a.PackageID
		}
	}
	// A deployed flow whose design time is gone has no package: a package filter leaves it out.
	var deployed []cpi.RuntimeArtifact
	for _, rt := range rts {
		if (rt.Type == "" || rt.Type == cpi.TypeIntegrationFlow) && cfg.matches(rt.ID, packages[rt.ID]) {
			deployed = append(deployed, rt)
		}
	}
	sort.Slice(deployed, func(i, j int) bool { return deployed[i].ID < deployed[j].ID })
	stream.Results = func(push func(list.ListResult) bool) {
		lim := framework.LimitedResults{Limit: req.Limit, Total: int64(len(deployed)), What: "deployed integration flows"}
		for _, rt := range deployed {
			if !lim.Push(push, l.result(ctx, req, rt)) {
				return
			}
		}
	}
}

// result is the list result of the deployed flow rt.
func (l *iflowDeploymentListResource) result(ctx context.Context, req list.ListRequest, rt cpi.RuntimeArtifact) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = fmt.Sprintf("%s (version %s, %s)", rt.ID, rt.Version, rt.Status)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("iflow_id"), rt.ID)...)
	if !req.IncludeResource {
		return r
	}
	// What an import and its read make: the flow, the active version, no triggers, the runtime as listed.
	m := iflowDeploymentModel{
		ID:              types.StringValue(rt.ID),
		IflowID:         types.StringValue(rt.ID),
		Version:         types.StringValue("active"),
		Triggers:        types.MapNull(types.StringType),
		Timeouts:        nullTimeouts(),
		DeployedVersion: types.StringValue(rt.Version),
		RuntimeStatus:   types.StringValue(rt.Status),
	}
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}
