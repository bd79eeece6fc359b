package eventmesh

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resource of webhook subscriptions (Terraform 1.14 and later, `terraform query`): every
// webhook subscription of the instance, or those of the queues whose names start with a prefix.
// The messaging API lists them all in one call (GET /messagingrest/v1/subscriptions,
// eventmesh.Messaging.ListWebhooks); each result is what an import by its name and its read make.

var (
	_ list.ListResource                   = (*webhookSubscriptionListResource)(nil)
	_ list.ListResourceWithConfigure      = (*webhookSubscriptionListResource)(nil)
	_ list.ListResourceWithValidateConfig = (*webhookSubscriptionListResource)(nil)
)

// NewWebhookSubscriptionListResource returns the sapmessaging_webhook_subscription list resource.
func NewWebhookSubscriptionListResource() list.ListResource {
	return &webhookSubscriptionListResource{}
}

type webhookSubscriptionListResource struct {
	data *framework.ProviderData
}

type webhookSubscriptionListModel struct {
	QueueNamePrefix types.String `tfsdk:"queue_name_prefix"`
}

func (l *webhookSubscriptionListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_webhook_subscription"
}

func (l *webhookSubscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists every Event Mesh webhook subscription of the instance, or those that push the messages of queues whose name " +
			"starts with `queue_name_prefix`. Each result is one subscription, named `NAME: pushes QUEUE (QoS N, STATE)`, " +
			"with the subscription's name as identity. With `include_resource` (and `terraform query -generate-config-out`) each result carries " +
			"what an import reads: the queue, `qos`, the endpoint, `exempt_handshake`, `default_content_type`, `paused` as the subscription is, " +
			"`accept_message_loss = true` for a QoS 0 subscription, `allow_exempt_handshake_without_auth = true` for one exempted from the " +
			"handshake without authentication and `allow_http_endpoint = true` for one that pushes to an `http://` endpoint (which the resource " +
			"refuses without them; the plan warns instead), so that " +
			"the generated resource block plans no change after its import. Event Mesh never shows an OAuth2 client secret: a subscription " +
			"with OAuth2 is generated with its `client_id` and `token_url`, and its block needs `client_secret_wo` (or `client_secret`) before it plans.\n\n" +
			"One call of the messaging API lists every subscription. " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; a block whose results stop at its " +
			"`limit` warns with the number of subscriptions it selects.",
		Attributes: map[string]schema.Attribute{
			"queue_name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only the subscriptions of queues whose full name starts with this prefix, for example `acme/crm/prod/`. " +
					"A prefix that matches no queue lists nothing.",
				Optional: true,
			},
		},
	}
}

func (l *webhookSubscriptionListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *webhookSubscriptionListResource) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg webhookSubscriptionListModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() || cfg.QueueNamePrefix.IsNull() || cfg.QueueNamePrefix.IsUnknown() {
		return
	}
	if err := rules.ValidQueueNamePrefix(cfg.QueueNamePrefix.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("queue_name_prefix"), "Invalid Queue Name Prefix",
			fmt.Sprintf("The name prefix cannot start any queue name: %s. No queue could match it, so the list would be empty. "+
				"Use the start of a full queue name, for example acme/crm/prod/.", framework.Clause(err)))
	}
}

func (l *webhookSubscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg webhookSubscriptionListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if !(&webhookSubscriptionResource{data: l.data}).messagingOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	all, err := l.data.Messaging.ListWebhooks(ctx)
	if err != nil {
		diags.AddError("Cannot List Webhook Subscriptions", fmt.Sprintf("The Event Mesh messaging API failed listing the webhook subscriptions: %s. "+
			"Check the provider's messaging connection and the service's status, then run the command again; TF_LOG=debug shows each request.", framework.Clause(err)))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	prefix := cfg.QueueNamePrefix.ValueString()
	var selected []eventmesh.Webhook
	for _, w := range all {
		if w.Name != "" && strings.HasPrefix(w.Queue, prefix) {
			selected = append(selected, w)
		}
	}
	sort.Slice(selected, func(i, j int) bool { return selected[i].Name < selected[j].Name })
	stream.Results = func(push func(list.ListResult) bool) {
		lim := framework.LimitedResults{Limit: req.Limit, Total: int64(len(selected)), What: "webhook subscriptions"}
		for i := range selected {
			if !lim.Push(push, l.result(ctx, req, &selected[i])) {
				return
			}
		}
	}
}

// result is the list result of webhook subscription w.
func (l *webhookSubscriptionListResource) result(ctx context.Context, req list.ListRequest, w *eventmesh.Webhook) list.ListResult {
	r := req.NewListResult(ctx)
	state := w.State
	if state == "" {
		state = "state unknown"
	}
	// The endpoint stays out of the name: its URL may hold credentials.
	r.DisplayName = fmt.Sprintf("%s: pushes %s (QoS %d, %s)", w.Name, w.Queue, w.QoS, state)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("name"), w.Name)...)
	if !req.IncludeResource {
		return r
	}
	// What an import by this identity (id and name) and its read (apply) make.
	m := webhookSubscriptionModel{
		ID: types.StringValue(w.Name), Name: types.StringValue(w.Name),
		Queue: types.StringNull(), QoS: types.Int64Null(), AcceptMessageLoss: types.BoolNull(), Endpoint: types.StringNull(),
		ExemptHandshake: types.BoolNull(), AllowExemptWithoutAuth: types.BoolNull(), AllowHTTPEndpoint: types.BoolNull(), DefaultContentType: types.StringNull(), Paused: types.BoolNull(),
	}
	m.apply(w)
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}
