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
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

// The list resource of topic subscriptions (Terraform 1.14 and later, `terraform query`): the
// subscriptions of one queue, or of every queue whose name starts with a prefix. The management
// API lists the subscriptions of one queue per call (GET /queues/{queue}/subscriptions,
// reference note sap-apis.md section 1): one queue costs one call; a prefix costs the run's one
// queue list (GET /queues) and one call per matching queue, subscriptionListParallel at a time.

// subscriptionListParallel is how many subscription lists of queues are read at a time.
const subscriptionListParallel = 8

// NewQueueSubscriptionListResource returns the sapmessaging_queue_subscription list resource: the shared
// skeleton (framework.SubscriptionList) given the Event Mesh client and its queue name rules.
func NewQueueSubscriptionListResource() list.ListResource {
	return &framework.SubscriptionList[eventmesh.Subscription]{
		TypeSuffix:           "_queue_subscription",
		Schema:               queueSubscriptionListSchema,
		CheckQueueName:       checkSubscriptionQueueName,
		CheckQueueNamePrefix: checkQueueNamePrefixOf("queue_name_prefix"),
		Connected:            func(d *framework.ProviderData, diags *diag.Diagnostics) bool { return d.EventMeshOrError(diags) },
		Subscriptions:        subscriptions,
		ListError: func(err error, diags *diag.Diagnostics) {
			diags.AddError("Cannot List Subscriptions", fmt.Sprintf("The Event Mesh management API failed listing the subscriptions: %s. "+
				"Check the provider's connection and the service's status, then run the command again; TF_LOG=debug shows each request.", framework.Clause(err)))
		},
		Result: subscriptionResult,
	}
}

func queueSubscriptionListSchema() schema.Schema {
	return schema.Schema{
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

// checkSubscriptionQueueName reports a queue_name no queue can have.
func checkSubscriptionQueueName(name string, diags *diag.Diagnostics) {
	if err := rules.ValidQueueName(name); err != nil {
		diags.AddAttributeError(path.Root("queue_name"), "Invalid Queue Name",
			fmt.Sprintf("No queue can have this name: %s. The list would be empty. Use the queue's full name, for example acme/crm/prod/orders.", framework.Clause(err)))
	}
}

// subscriptions returns the subscriptions of queue queueName, or of the queues whose name starts with
// prefix, by queue in the order of the queue list, and in the order the API lists them for each queue.
func subscriptions(ctx context.Context, d *framework.ProviderData, queueName types.String, prefix string) ([]eventmesh.Subscription, error) {
	em := d.EventMesh
	if !queueName.IsNull() {
		subs, err := em.ListSubscriptions(ctx, queueName.ValueString())
		if errors.Is(err, eventmesh.ErrNotFound) {
			return nil, nil
		}
		return subs, err
	}
	snap, err := em.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
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

// subscriptionResult is the list result of subscription s.
func subscriptionResult(ctx context.Context, req list.ListRequest, _ *framework.ProviderData, s eventmesh.Subscription) list.ListResult {
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
