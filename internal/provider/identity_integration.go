package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*amqpSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*jmsSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*iflowDeploymentResource)(nil)
)

var (
	senderIdentity = resourceIdentity{parts: []identityPart{
		{attr: "iflow_id", description: "The ID of the integration flow.", example: "Orders_Inbound"},
		{attr: "channel", description: "The sender's message flow name; only when the resource sets `channel`.", optional: true, example: "FromBroker"},
	}}
	deploymentIdentity = resourceIdentity{parts: []identityPart{
		{attr: "iflow_id", description: "The ID of the deployed integration flow.", example: "Orders_Inbound"},
	}}
)

func (r *amqpSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = senderIdentity.schema()
}

func (r *jmsSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = senderIdentity.schema()
}

func (r *aemSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = senderIdentity.schema()
}

func (r *iflowDeploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = deploymentIdentity.schema()
}
