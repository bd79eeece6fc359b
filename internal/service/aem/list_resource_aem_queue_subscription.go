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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resource of Advanced Event Mesh topic subscriptions (Terraform 1.14 and later, `terraform query`):
// the subscriptions of one queue, or of every queue whose name starts with a prefix. SEMP lists the
// subscriptions of one queue per request (GET .../queues/{queue}/subscriptions, paged): one queue costs its
// pages; a prefix costs the paged queue list and the subscription pages of each matching queue,
// aemSubscriptionListParallel queues at a time.

// aemSubscriptionListParallel is how many queues' subscription lists are read at a time.
const aemSubscriptionListParallel = 8

// NewAEMQueueSubscriptionListResource returns the sapmessaging_aem_queue_subscription list resource: the
// shared skeleton (framework.SubscriptionList) given the SEMP client and the AEM queue name rules.
func NewAEMQueueSubscriptionListResource() list.ListResource {
	return &framework.SubscriptionList[aem.Subscription]{
		TypeSuffix:           "_aem_queue_subscription",
		Schema:               aemQueueSubscriptionListSchema,
		CheckQueueName:       checkAEMSubscriptionQueueName,
		CheckQueueNamePrefix: checkAEMSubscriptionQueueNamePrefix,
		Connected:            func(d *framework.ProviderData, diags *diag.Diagnostics) bool { return d.AEMOrError(diags) },
		Subscriptions:        aemSubscriptions,
		ListError: func(err error, diags *diag.Diagnostics) {
			diags.AddError("Cannot List AEM Subscriptions", aemListErrorDetail("listing the subscriptions", err))
		},
		Result: aemSubscriptionResult,
	}
}

func aemQueueSubscriptionListSchema() schema.Schema {
	return schema.Schema{
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

// checkAEMSubscriptionQueueName reports a queue_name no AEM queue can have.
func checkAEMSubscriptionQueueName(name string, diags *diag.Diagnostics) {
	if err := rules.ValidAEMQueueName(name); err != nil {
		diags.AddAttributeError(path.Root("queue_name"), "Invalid AEM Queue Name",
			fmt.Sprintf("No AEM queue can have this name: %s. The list would be empty. Use the queue's name as the cloud console shows it.", framework.Clause(err)))
	}
}

// checkAEMSubscriptionQueueNamePrefix reports a queue_name_prefix no AEM queue name can start with.
func checkAEMSubscriptionQueueNamePrefix(prefix string, diags *diag.Diagnostics) {
	if err := rules.ValidAEMQueueNamePrefix(prefix); err != nil {
		diags.AddAttributeError(path.Root("queue_name_prefix"), "Invalid AEM Queue Name Prefix",
			fmt.Sprintf("The name prefix cannot start any AEM queue name: %s. No queue could match it, so the list would be empty. "+
				"Use the start of a queue name, without the characters * ? ' < > & ;.", framework.Clause(err)))
	}
}

// aemSubscriptions returns the subscriptions of queue queueName, or of the queues whose name starts with prefix, by queue in the order of the queue list
// (sorted by the broker), and in the order the broker lists them for each queue.
func aemSubscriptions(ctx context.Context, d *framework.ProviderData, queueName types.String, prefix string) ([]aem.Subscription, error) {
	c := d.AEM
	if !queueName.IsNull() {
		q := queueName.ValueString()
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

// aemSubscriptionResult is the list result of subscription s.
func aemSubscriptionResult(ctx context.Context, req list.ListRequest, d *framework.ProviderData, s aem.Subscription) list.ListResult {
	vpn := d.AEM.MsgVpnName()
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
