package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*queueResource)(nil)
	_ resource.ResourceWithIdentity = (*deadMessageQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*queueSubscriptionResource)(nil)
)

var (
	queueIdentity = resourceIdentity{parts: []identityPart{
		{attr: "name", description: "The full queue name including the namespace.", example: "acme/crm/prod/orders"},
	}}
	subscriptionIdentity = resourceIdentity{parts: []identityPart{
		{attr: "queue_name", description: "The full name of the subscribed queue.", example: "acme/crm/prod/orders"},
		{attr: "topic_pattern", description: "The topic or topic pattern the queue is subscribed to.", example: "acme/crm/prod/ce/orders/*"},
	}}
)

func (r *queueResourceBase[M, P]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = queueIdentity.schema()
}

func (r *queueSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = subscriptionIdentity.schema()
}
