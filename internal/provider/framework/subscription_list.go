package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ list.ListResource                   = (*SubscriptionList[string])(nil)
	_ list.ListResourceWithConfigure      = (*SubscriptionList[string])(nil)
	_ list.ListResourceWithValidateConfig = (*SubscriptionList[string])(nil)
)

// SubscriptionList is the one implementation of the topic subscription list resources of both brokers
// (sapmessaging_queue_subscription, sapmessaging_aem_queue_subscription): the subscriptions of one queue
// (queue_name), of every queue whose name starts with queue_name_prefix, or of every queue. The broker
// configures the connection (Connected), the checks of the two filters, the client's listing
// (Subscriptions) and what a result holds (Result).
type SubscriptionList[S any] struct {
	TypeSuffix string
	// Schema is the schema of a list block, with the attributes queue_name and queue_name_prefix.
	Schema func() schema.Schema
	// CheckQueueName and CheckQueueNamePrefix report a known value that no queue name can be or start with.
	CheckQueueName, CheckQueueNamePrefix func(value string, diags *diag.Diagnostics)
	// Connected reports, when the configuration leaves the broker's connection out, that it is needed.
	Connected func(d *ProviderData, diags *diag.Diagnostics) bool
	// Subscriptions lists the subscriptions of the queue queueName when it is not null, else of the queues
	// whose name starts with prefix, by queue in the order of the queue list; a queue that does not exist
	// lists nothing.
	Subscriptions func(ctx context.Context, d *ProviderData, queueName types.String, prefix string) ([]S, error)
	// ListError reports the error of Subscriptions.
	ListError func(err error, diags *diag.Diagnostics)
	// Result is the list result of s (display name, identity, and with include_resource its state).
	Result func(ctx context.Context, req list.ListRequest, d *ProviderData, s S) list.ListResult

	data *ProviderData
}

// SubscriptionListModel is the configuration of a subscription list block.
type SubscriptionListModel struct {
	QueueName       types.String `tfsdk:"queue_name"`
	QueueNamePrefix types.String `tfsdk:"queue_name_prefix"`
}

func (l *SubscriptionList[S]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + l.TypeSuffix
}

func (l *SubscriptionList[S]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.Schema()
}

func (l *SubscriptionList[S]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *SubscriptionList[S]) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg SubscriptionListModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !cfg.QueueName.IsNull() && !cfg.QueueNamePrefix.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("queue_name_prefix"), "Conflicting Queue Filters",
			"`queue_name` and `queue_name_prefix` are both set: the list would hold the subscriptions of one queue or of many, and it cannot be both. "+
				"Keep `queue_name` for one queue, or `queue_name_prefix` for every queue whose name starts with it.")
		return
	}
	if !cfg.QueueName.IsNull() && !cfg.QueueName.IsUnknown() {
		l.CheckQueueName(cfg.QueueName.ValueString(), &resp.Diagnostics)
	}
	if !cfg.QueueNamePrefix.IsNull() && !cfg.QueueNamePrefix.IsUnknown() {
		l.CheckQueueNamePrefix(cfg.QueueNamePrefix.ValueString(), &resp.Diagnostics)
	}
}

func (l *SubscriptionList[S]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg SubscriptionListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.Connected(l.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	subs, err := l.Subscriptions(ctx, l.data, cfg.QueueName, cfg.QueueNamePrefix.ValueString())
	if err != nil {
		l.ListError(err, &diags)
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		lim := LimitedResults{Limit: req.Limit, Total: int64(len(subs)), What: "subscriptions"}
		for _, s := range subs {
			if !lim.Push(push, l.Result(ctx, req, l.data, s)) {
				return
			}
		}
	}
}
