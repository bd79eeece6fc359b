package aem

import (
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*aemQueueResourceBase[AEMQueueModel, *AEMQueueModel])(nil)
	_ resource.ResourceWithIdentity = (*aemQueueSubscriptionResource)(nil)
)

var (
	// AEMQueueIdentity is the identity of sapmessaging_aem_queue and sapmessaging_aem_dead_message_queue: the
	// Message VPN and the queue name, SEMP's identifying attributes of a queue (msgVpnName, queueName). The
	// import ID is the queue name alone (the provider configuration names the Message VPN).
	AEMQueueIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
		{Attr: "msg_vpn_name", Description: "The Message VPN of the broker service.", Example: "acme-prod"},
		{Attr: "name", Description: "The queue name.", Example: "acme/aem/prod/orders"},
	}}
	// AEMSubscriptionIdentity joins its parts with ";", which no Message VPN name and no AEM queue name holds
	// (resource_aem_queue_subscription.go). Version 1 added msg_vpn_name, as the queue's identity has it.
	AEMSubscriptionIdentity = framework.ResourceIdentity{Sep: aemSubscriptionIDSep, Version: 1, Parts: []framework.IdentityPart{
		{Attr: "msg_vpn_name", Description: "The Message VPN of the broker service.", Example: "acme-prod"},
		{Attr: "queue_name", Description: "The name of the subscribed Advanced Event Mesh queue.", Example: "acme/orders"},
		{Attr: "topic", Description: "The topic subscription of the queue.", Example: "acme/orders/>"},
	}}
)
