package integration

import (
	"context"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var (
	_ resource.ResourceWithIdentity = (*amqpSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*jmsSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*iflowDeploymentResource)(nil)
)

var (
	SenderIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
		{Attr: "iflow_id", Description: "The ID of the integration flow.", Example: "Orders_Inbound"},
		{Attr: "channel", Description: "The sender's message flow name; only when the resource sets `channel`.", Optional: true, Example: "FromBroker"},
	}}
	DeploymentIdentity = framework.ResourceIdentity{Parts: []framework.IdentityPart{
		{Attr: "iflow_id", Description: "The ID of the deployed integration flow.", Example: "Orders_Inbound"},
	}}
)

func (r *amqpSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = SenderIdentity.Schema()
}

func (r *jmsSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = SenderIdentity.Schema()
}

func (r *aemSenderResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = SenderIdentity.Schema()
}

func (r *iflowDeploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = DeploymentIdentity.Schema()
}
