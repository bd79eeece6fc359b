package eventmesh

import (
	"context"
	"errors"
	"fmt"
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

// The list resource of topic subscriptions (Terraform 1.14 and later, `terraform query`): the
// subscriptions of one queue, or of every queue whose name starts with a prefix. The management
// API lists the subscriptions of one queue per call (GET /queues/{queue}/subscriptions,
// reference note sap-apis.md section 1): one queue costs one call; a prefix costs the run's one
// queue list (GET /queues) and one call per matching queue, subscriptionListParallel at a time.

var (
	_ list.ListResource                   = (*queueSubscriptionListResource)(nil)
	_ list.ListResourceWithConfigure      = (*queueSubscriptionListResource)(nil)
	_ list.ListResourceWithValidateConfig = (*queueSubscriptionListResource)(nil)
)

// subscriptionListParallel is how many subscription lists of queues are read at a time.
const subscriptionListParallel = 8

// NewQueueSubscriptionListResource returns the sapmessaging_queue_subscription list resource.
func NewQueueSubscriptionListResource() list.ListResource {
	return &queueSubscriptionListResource{}
}

type queueSubscriptionListResource struct {
	data *framework.ProviderData
}

type queueSubscriptionListModel struct {
	QueueName       types.String `tfsdk:"queue_name"`
	QueueNamePrefix types.String `tfsdk:"queue_name_prefix"`
}

func (l *queueSubscriptionListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_queue_subscription"
}

func (l *queueSubscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the topic subscriptions of one Event Mesh queue (`queue_name`), of every queue whose name starts with " +
			"`queue_name_prefix`, or of every queue of the instance. Each result is one subscription, named `QUEUE subscribed to TOPIC`. " +
			"With `include_resource` (and `terraform query -generate-config-out`) each result carries the queue and the topic pattern, " +
			"so that the generated resource block plans no change after its import.\n\n" +
			"Event Mesh lists the subscriptions of one queue per call: one queue costs one call, a prefix one queue list and one call " +
			"per matching queue (8 at a time). " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; a block whose results stop at its " +
			"`limit` warns with the number of subscriptions it selects (Event Mesh allows 3000 per instance).",
		Attributes: map[string]schema.Attribute{
			"queue_name": schema.StringAttribute{
				MarkdownDescription: "Only the subscriptions of this queue (its full name, for example `acme/crm/prod/orders`). " +
					"A queue that does not exist lists nothing. Conflicts with `queue_name_prefix`.",
				Optional: true,
			},
			"queue_name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only the subscriptions of queues whose full name starts with this prefix, for example `acme/crm/prod/`. " +
					"A prefix that matches no queue lists nothing. Conflicts with `queue_name`.",
				Optional: true,
			},
		},
	}
}

func (l *queueSubscriptionListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *queueSubscriptionListResource) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg queueSubscriptionListModel
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
		if err := rules.ValidQueueName(cfg.QueueName.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "Invalid Queue Name",
				fmt.Sprintf("No queue can have this name: %s. The list would be empty. Use the queue's full name, for example acme/crm/prod/orders.", framework.Clause(err)))
		}
	}
	if !cfg.QueueNamePrefix.IsNull() && !cfg.QueueNamePrefix.IsUnknown() {
		if err := rules.ValidQueueNamePrefix(cfg.QueueNamePrefix.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("queue_name_prefix"), "Invalid Queue Name Prefix",
				fmt.Sprintf("The name prefix cannot start any queue name: %s. No queue could match it, so the list would be empty. "+
					"Use the start of a full queue name, for example acme/crm/prod/.", framework.Clause(err)))
		}
	}
}

func (l *queueSubscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg queueSubscriptionListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.data.EventMeshOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	subs, err := l.subscriptions(ctx, cfg)
	if err != nil {
		diags.AddError("Cannot List Subscriptions", fmt.Sprintf("The Event Mesh management API failed listing the subscriptions: %s. "+
			"Check the provider's connection and the service's status, then run the command again; TF_LOG=debug shows each request.", framework.Clause(err)))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		lim := framework.LimitedResults{Limit: req.Limit, Total: int64(len(subs)), What: "subscriptions"}
		for _, s := range subs {
			if !lim.Push(push, l.result(ctx, req, s)) {
				return
			}
		}
	}
}

// subscriptions returns the subscriptions the filters of cfg select, by queue in the order of
// the queue list, and in the order the API lists them for each queue.
func (l *queueSubscriptionListResource) subscriptions(ctx context.Context, cfg queueSubscriptionListModel) ([]eventmesh.Subscription, error) {
	em := l.data.EventMesh
	if !cfg.QueueName.IsNull() {
		subs, err := em.ListSubscriptions(ctx, cfg.QueueName.ValueString())
		if errors.Is(err, eventmesh.ErrNotFound) {
			return nil, nil
		}
		return subs, err
	}
	snap, err := em.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	prefix := cfg.QueueNamePrefix.ValueString()
	var names []string
	for _, q := range snap.Queues() {
		if strings.HasPrefix(q.Name, prefix) {
			names = append(names, q.Name)
		}
	}
	perQueue, err := em.SubscriptionsOf(ctx, names, subscriptionListParallel)
	if err != nil {
		return nil, err
	}
	var out []eventmesh.Subscription
	for _, subs := range perQueue {
		out = append(out, subs...)
	}
	return out, nil
}

// result is the list result of subscription s.
func (l *queueSubscriptionListResource) result(ctx context.Context, req list.ListRequest, s eventmesh.Subscription) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = s.QueueName + " subscribed to " + s.TopicPattern
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("queue_name"), s.QueueName)...)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("topic_pattern"), s.TopicPattern)...)
	if !req.IncludeResource {
		return r
	}
	m := QueueSubscriptionModel{
		ID:           types.StringValue(subscriptionID(s.QueueName, s.TopicPattern)),
		QueueName:    types.StringValue(s.QueueName),
		TopicPattern: types.StringValue(s.TopicPattern),
	}
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}
