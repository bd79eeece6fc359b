package aem

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resource of Advanced Event Mesh topic subscriptions (Terraform 1.14 and later, `terraform query`):
// the subscriptions of one queue, or of every queue whose name starts with a prefix. SEMP lists the
// subscriptions of one queue per request (GET .../queues/{queue}/subscriptions, paged): one queue costs its
// pages; a prefix costs the paged queue list and the subscription pages of each matching queue,
// aemSubscriptionListParallel queues at a time.

var (
	_ list.ListResource                   = (*aemQueueSubscriptionListResource)(nil)
	_ list.ListResourceWithConfigure      = (*aemQueueSubscriptionListResource)(nil)
	_ list.ListResourceWithValidateConfig = (*aemQueueSubscriptionListResource)(nil)
)

// aemSubscriptionListParallel is how many queues' subscription lists are read at a time.
const aemSubscriptionListParallel = 8

// NewAEMQueueSubscriptionListResource returns the sapmessaging_aem_queue_subscription list resource.
func NewAEMQueueSubscriptionListResource() list.ListResource {
	return &aemQueueSubscriptionListResource{}
}

type aemQueueSubscriptionListResource struct {
	data *framework.ProviderData
}

type aemQueueSubscriptionListModel struct {
	QueueName       types.String `tfsdk:"queue_name"`
	QueueNamePrefix types.String `tfsdk:"queue_name_prefix"`
}

func (l *aemQueueSubscriptionListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_aem_queue_subscription"
}

func (l *aemQueueSubscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the topic subscriptions of one Advanced Event Mesh queue (`queue_name`), of every queue whose name starts " +
			"with `queue_name_prefix`, or of every queue of the Message VPN. Each result is one subscription, named `QUEUE subscribed to TOPIC`, " +
			"with the identity `queue_name` and `topic`. With `include_resource` (and `terraform query -generate-config-out`) each result " +
			"carries the queue and the topic, so that the generated resource block plans its import and no change.\n\n" +
			"SEMP lists the subscriptions of one queue per request: one queue costs its subscription pages, a prefix the paged queue list " +
			"and the subscription pages of each matching queue (8 queues at a time). " +
			"Terraform returns at most `limit` results per list block, 100 unless the block sets `limit`; a block whose results stop at its " +
			"`limit` warns with the number of subscriptions it selects.",
		Attributes: map[string]schema.Attribute{
			"queue_name": schema.StringAttribute{
				MarkdownDescription: "Only the subscriptions of this queue. A queue that does not exist lists nothing. Conflicts with `queue_name_prefix`.",
				Optional:            true,
			},
			"queue_name_prefix": schema.StringAttribute{
				MarkdownDescription: "Only the subscriptions of queues whose name starts with this prefix, for example `acme/`. " +
					"A prefix that matches no queue lists nothing. Conflicts with `queue_name`.",
				Optional: true,
			},
		},
	}
}

func (l *aemQueueSubscriptionListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	l.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (l *aemQueueSubscriptionListResource) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	var cfg aemQueueSubscriptionListModel
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
		if err := rules.ValidAEMQueueName(cfg.QueueName.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "Invalid AEM Queue Name",
				fmt.Sprintf("No AEM queue can have this name: %s. The list would be empty. Use the queue's name as the cloud console shows it.", framework.Clause(err)))
		}
	}
	if !cfg.QueueNamePrefix.IsNull() && !cfg.QueueNamePrefix.IsUnknown() {
		if err := rules.ValidAEMQueueNamePrefix(cfg.QueueNamePrefix.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("queue_name_prefix"), "Invalid AEM Queue Name Prefix",
				fmt.Sprintf("The name prefix cannot start any AEM queue name: %s. No queue could match it, so the list would be empty. "+
					"Use the start of a queue name, without the characters * ? ' < > & ;.", framework.Clause(err)))
		}
	}
}

func (l *aemQueueSubscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg aemQueueSubscriptionListModel
	var diags diag.Diagnostics
	diags.Append(req.Config.Get(ctx, &cfg)...)
	if diags.HasError() || !l.data.AEMOrError(&diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	subs, err := l.subscriptions(ctx, cfg)
	if err != nil {
		diags.AddError("Cannot List AEM Subscriptions", aemListErrorDetail("listing the subscriptions", err))
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		lim := framework.LimitedResults{Limit: req.Limit, Total: int64(len(subs)), What: "subscriptions"}
		for _, s := range subs {
			if !lim.Push(push, l.result(ctx, req, l.data.AEM.MsgVpnName(), s)) {
				return
			}
		}
	}
}

// subscriptions returns the subscriptions the filters of cfg select, by queue in the order of the queue list
// (sorted by the broker), and in the order the broker lists them for each queue.
func (l *aemQueueSubscriptionListResource) subscriptions(ctx context.Context, cfg aemQueueSubscriptionListModel) ([]aem.Subscription, error) {
	c := l.data.AEM
	if !cfg.QueueName.IsNull() {
		q := cfg.QueueName.ValueString()
		topics, err := c.ListSubscriptions(ctx, q)
		if errors.Is(err, aem.ErrNotFound) {
			return nil, nil
		}
		out := make([]aem.Subscription, 0, len(topics))
		for _, t := range topics {
			out = append(out, aem.Subscription{QueueName: q, Topic: t})
		}
		return out, err
	}
	queues, err := c.ListQueues(ctx)
	if err != nil {
		return nil, err
	}
	prefix := cfg.QueueNamePrefix.ValueString()
	var names []string
	for _, q := range queues {
		if strings.HasPrefix(q.Name, prefix) {
			names = append(names, q.Name)
		}
	}
	perQueue := make([][]string, len(names))
	errs := make([]error, len(names))
	sem := make(chan struct{}, aemSubscriptionListParallel)
	var wg sync.WaitGroup
	for i, n := range names {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			perQueue[i], errs[i] = c.ListSubscriptions(ctx, n)
			if errors.Is(errs[i], aem.ErrNotFound) {
				perQueue[i], errs[i] = nil, nil // deleted since the queue list
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var out []aem.Subscription
	for i, topics := range perQueue {
		for _, t := range topics {
			out = append(out, aem.Subscription{QueueName: names[i], Topic: t})
		}
	}
	return out, nil
}

// result is the list result of subscription s.
func (l *aemQueueSubscriptionListResource) result(ctx context.Context, req list.ListRequest, vpn string, s aem.Subscription) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = s.QueueName + " subscribed to " + s.Topic
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("msg_vpn_name"), vpn)...)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("queue_name"), s.QueueName)...)
	r.Diagnostics.Append(r.Identity.SetAttribute(ctx, path.Root("topic"), s.Topic)...)
	if !req.IncludeResource {
		return r
	}
	to, ok := r.Resource.Schema.GetAttributes()["timeouts"]
	var ot interface{ AttributeTypes() map[string]attr.Type }
	if ok {
		ot, ok = to.GetType().(interface{ AttributeTypes() map[string]attr.Type })
	}
	if !ok {
		r.Diagnostics.AddError("Cannot List AEM Subscriptions", "The resource schema has no `timeouts` object, so the result cannot be written. Report this as a bug of the provider.")
		return r
	}
	m := AEMQueueSubscriptionModel{
		ID:         types.StringValue(aemSubscriptionID(s.QueueName, s.Topic)),
		QueueName:  types.StringValue(s.QueueName),
		Topic:      types.StringValue(s.Topic),
		MsgVpnName: types.StringValue(vpn),
		Timeouts:   timeouts.Value{Object: types.ObjectNull(ot.AttributeTypes())},
	}
	r.Diagnostics.Append(framework.Set(ctx, r.Resource.Schema, &r.Resource.Raw, r.Resource, &m)...)
	return r
}
