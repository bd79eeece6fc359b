package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*aemQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*aemDeadMessageQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*aemQueueSubscriptionResource)(nil)
)

var (
	// aemQueueIdentity is the identity of sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue: the
	// Message VPN and the queue name, SEMP's identifying attributes of a queue (msgVpnName, queueName). The
	// import ID is the queue name alone (the provider configuration names the Message VPN).
	aemQueueIdentity = resourceIdentity{parts: []identityPart{
		{attr: "msg_vpn_name", description: "The Message VPN of the broker service.", example: "acme-prod"},
		{attr: "name", description: "The queue name.", example: "acme/aem/prod/orders"},
	}}
	// aemSubscriptionIdentity joins its parts with ";", which no Message VPN name and no AEM queue name holds
	// (resource_aem_queue_subscription.go). Version 1 added msg_vpn_name, as the queue's identity has it.
	aemSubscriptionIdentity = resourceIdentity{sep: aemSubscriptionIDSep, version: 1, parts: []identityPart{
		{attr: "msg_vpn_name", description: "The Message VPN of the broker service.", example: "acme-prod"},
		{attr: "queue_name", description: "The name of the subscribed Advanced Event Mesh queue.", example: "acme/orders"},
		{attr: "topic", description: "The topic subscription of the queue.", example: "acme/orders/>"},
	}}
)

func (r *aemQueueSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = aemSubscriptionIdentity.schema()
}
