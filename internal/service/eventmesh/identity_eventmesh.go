package eventmesh

import (
	"context"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*queueResourceBase[QueueModel, *QueueModel])(nil)
	_ resource.ResourceWithIdentity = (*queueSubscriptionResource)(nil)
)

var (
	QueueIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
		{Attr: "name", Description: "The full queue name including the namespace.", Example: "acme/crm/prod/orders"},
	}}
	SubscriptionIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
		{Attr: "queue_name", Description: "The full name of the subscribed queue.", Example: "acme/crm/prod/orders"},
		{Attr: "topic_pattern", Description: "The topic or topic pattern the queue is subscribed to.", Example: "acme/crm/prod/ce/orders/*"},
	}}
)

func (r *queueResourceBase[M, P]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = QueueIdentity.Schema()
}
