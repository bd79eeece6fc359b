package provider

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Resource identity (Terraform 1.12 and later, see the reference note terraform-1.14.md): every
// resource's identity is made of the parts of its import ID, each a string attribute of the
// state with the same name. Terraform stores it next to the state, import blocks can name an
// object by it (identity = { ... }) instead of by the ID, and list resources return it.
//
// Each resource sets its identity from its state in Create, Read and Update, and turns an
// identity given to ImportState into the import ID it already parses. Read sets it from the
// prior state before anything else: a state written before identities existed has none, and a
// Read that removes the resource (deleted out of band) must still return one, or the framework
// reports "Missing Resource Identity After Read".

var (
	_ resource.ResourceWithIdentity = (*queueResource)(nil)
	_ resource.ResourceWithIdentity = (*deadMessageQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*queueSubscriptionResource)(nil)
	_ resource.ResourceWithIdentity = (*amqpSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*jmsSenderResource)(nil)
	_ resource.ResourceWithIdentity = (*iflowDeploymentResource)(nil)
	_ resource.ResourceWithIdentity = (*aemQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*aemDeadMessageQueueResource)(nil)
	_ resource.ResourceWithIdentity = (*aemQueueSubscriptionResource)(nil)
)

// identityPart is one part of a resource's identity: a string attribute of its state of the
// same name.
type identityPart struct {
	attr        string
	description string
	// optional parts may be left out (null); no part may be empty.
	optional bool
	// example is the value the expected form shows for the part.
	example string
}

// resourceIdentity is the identity of a resource type: the parts of its import ID, in the
// order the import ID joins them with commas (or with sep, when set).
type resourceIdentity struct {
	parts []identityPart
	// sep joins the parts in the import ID instead of a comma, for names that may hold commas.
	sep string
	// version is the identity schema's version: raised when a part is added, with an upgrade of the
	// identities stored before (UpgradeIdentity of the resource).
	version int64
}

var (
	queueIdentity = resourceIdentity{parts: []identityPart{
		{attr: "name", description: "The full queue name including the namespace.", example: "acme/crm/prod/orders"},
	}}
	subscriptionIdentity = resourceIdentity{parts: []identityPart{
		{attr: "queue_name", description: "The full name of the subscribed queue.", example: "acme/crm/prod/orders"},
		{attr: "topic_pattern", description: "The topic or topic pattern the queue is subscribed to.", example: "acme/crm/prod/ce/orders/*"},
	}}
	senderIdentity = resourceIdentity{parts: []identityPart{
		{attr: "iflow_id", description: "The ID of the integration flow.", example: "Orders_Inbound"},
		{attr: "channel", description: "The sender's message flow name; only when the resource sets `channel`.", optional: true, example: "FromBroker"},
	}}
	deploymentIdentity = resourceIdentity{parts: []identityPart{
		{attr: "iflow_id", description: "The ID of the deployed integration flow.", example: "Orders_Inbound"},
	}}
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

// schema is the identity schema: the parts as string attributes.
func (ri resourceIdentity) schema() identityschema.Schema {
	attrs := make(map[string]identityschema.Attribute, len(ri.parts))
	for _, p := range ri.parts {
		attrs[p.attr] = identityschema.StringAttribute{
			Description:       p.description,
			RequiredForImport: !p.optional,
			OptionalForImport: p.optional,
		}
	}
	return identityschema.Schema{Attributes: attrs, Version: ri.version}
}

// form is the expected identity block, with an example value for each part.
func (ri resourceIdentity) form() string {
	var b strings.Builder
	b.WriteString("identity = {")
	for i, p := range ri.parts {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s = %q", p.attr, p.example)
	}
	b.WriteString(" }")
	for _, p := range ri.parts {
		if p.optional {
			fmt.Fprintf(&b, " (%s only when the resource sets it)", p.attr)
		}
	}
	return b.String()
}

// set sets identity from the parts in state. A null state (nothing created, or removed) and a
// resource without identity (a CLI older than 1.12 sends none, the framework then makes it
// null) are left as they are.
func (ri resourceIdentity) set(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || state == nil || state.Raw.IsNull() || !state.Raw.IsKnown() {
		return
	}
	var attrs map[string]tftypes.Value
	if err := state.Raw.As(&attrs); err != nil {
		diags.AddError("Cannot Set Resource Identity", fmt.Sprintf("The state could not be read for the resource identity: %s. "+
			"Report this as a bug of the provider.", clause(err)))
		return
	}
	parts := make(map[string]tftypes.Value, len(ri.parts))
	for _, p := range ri.parts {
		if v, ok := attrs[p.attr]; ok && v.IsKnown() {
			parts[p.attr] = v
		} else {
			parts[p.attr] = tftypes.NewValue(tftypes.String, nil)
		}
	}
	identity.Raw = tftypes.NewValue(ri.terraformType(ctx, identity.Schema), parts)
}

// identityTypes holds the Terraform type of each resource identity's schema, by the first part of the
// identity (shared by every copy of a resourceIdentity): the framework builds the type from the schema's
// attributes on every call, which was most of the CPU and allocations of setting an identity, once per
// resource in every create, read and update.
var identityTypes sync.Map

// terraformType returns the Terraform type of s, the identity schema of ri (ri.schema()).
func (ri resourceIdentity) terraformType(ctx context.Context, s schemaTyped) tftypes.Type {
	if len(ri.parts) == 0 {
		return s.Type().TerraformType(ctx)
	}
	key := &ri.parts[0]
	if t, ok := identityTypes.Load(key); ok {
		if typ, ok := t.(tftypes.Type); ok {
			return typ
		}
	}
	t := s.Type().TerraformType(ctx)
	identityTypes.Store(key, t)
	return t
}

// importID returns the import ID that the identity of an import block stands for, or the
// import ID given; ok is false, with an error, when a part of the identity is missing or empty.
func (ri resourceIdentity) importID(req resource.ImportStateRequest, diags *diag.Diagnostics) (id string, ok bool) {
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		return req.ID, true
	}
	var attrs map[string]tftypes.Value
	if err := req.Identity.Raw.As(&attrs); err != nil {
		diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity could not be read: %s. "+
			"Write it in the form %s.", clause(err), ri.form()))
		return "", false
	}
	values := make([]string, 0, len(ri.parts))
	for _, p := range ri.parts {
		var s *string
		v := attrs[p.attr]
		if !v.IsKnown() {
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is not known before the import. "+
				"Write it as a value known at plan time, in the form %s.", p.attr, ri.form()))
			return "", false
		}
		if err := v.As(&s); err != nil {
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is not a string: %s. "+
				"Write it in the form %s.", p.attr, clause(err), ri.form()))
			return "", false
		}
		switch {
		case s == nil && p.optional:
			continue
		case s == nil:
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity has no %s, so it names no object to import. "+
				"Write it in the form %s.", p.attr, ri.form()))
			return "", false
		case strings.TrimSpace(*s) == "":
			diags.AddError("Invalid Import Identity", fmt.Sprintf("The import identity's %s is empty, so it names no object to import. "+
				"Write it in the form %s.", p.attr, ri.form()))
			return "", false
		}
		values = append(values, *s)
	}
	sep := ri.sep
	if sep == "" {
		sep = ","
	}
	return strings.Join(values, sep), true
}

// resolveImport turns an import by identity into an import by the ID the identity stands for,
// so that ImportState parses one form; false, with an error, when the identity is invalid.
func (ri resourceIdentity) resolveImport(req *resource.ImportStateRequest, resp *resource.ImportStateResponse) bool {
	id, ok := ri.importID(*req, &resp.Diagnostics)
	req.ID = id
	return ok
}

func (r *queueResourceBase[M, P]) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = queueIdentity.schema()
}

func (r *queueSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = subscriptionIdentity.schema()
}

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

func (r *aemQueueSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = aemSubscriptionIdentity.schema()
}
