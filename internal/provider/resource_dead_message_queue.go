package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64default"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                   = (*deadMessageQueueResource)(nil)
	_ resource.ResourceWithConfigure      = (*deadMessageQueueResource)(nil)
	_ resource.ResourceWithImportState    = (*deadMessageQueueResource)(nil)
	_ resource.ResourceWithValidateConfig = (*deadMessageQueueResource)(nil)
)

// NewDeadMessageQueueResource returns the sapmessaging_dead_message_queue resource.
func NewDeadMessageQueueResource() resource.Resource {
	return &deadMessageQueueResource{}
}

type deadMessageQueueResource struct {
	data *providerData
}

type deadMessageQueueModel struct {
	ID                             types.String `tfsdk:"id"`
	Name                           types.String `tfsdk:"name"`
	AccessType                     types.String `tfsdk:"access_type"`
	RespectTTL                     types.Bool   `tfsdk:"respect_ttl"`
	MaxTTL                         types.Int64  `tfsdk:"max_ttl"`
	MaxQueueSizeInBytes            types.Int64  `tfsdk:"max_queue_size_in_bytes"`
	MaxMessageSizeInBytes          types.Int64  `tfsdk:"max_message_size_in_bytes"`
	MaxQueueMessageCount           types.Int64  `tfsdk:"max_queue_message_count"`
	MaxDeliveredUnackedMsgsPerFlow types.Int64  `tfsdk:"max_delivered_unacked_msgs_per_flow"`
	ForceDestroy                   types.Bool   `tfsdk:"force_destroy"`
}

func (r *deadMessageQueueResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_dead_message_queue"
}

func (r *deadMessageQueueResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An SAP Event Mesh queue used as dead message queue (DMQ) of other queues. It is an ordinary queue " +
			"with the DMQ rules built in: time to live is always respected, so the DMQ cannot grow for ever (`max_ttl` defaults " +
			"to 7 days), and it has no redelivery count, because a DMQ is inspected, not consumed. Destroying it is refused " +
			"while it holds messages (unless `force_destroy`) or while another queue still names it as `dead_message_queue`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The queue name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The full queue name, in the same namespace as the queues that use it, for example " +
					"`acme/crm/prod/orders/dmq`. Changing it replaces the queue.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"access_type": accessTypeAttribute(),
			"respect_ttl": schema.BoolAttribute{
				MarkdownDescription: "Always `true`: dead messages expire after `max_ttl`. A change made outside Terraform shows as drift.",
				Computed:            true,
				Default:             booldefault.StaticBool(true),
			},
			"max_ttl": schema.Int64Attribute{
				MarkdownDescription: "How long a dead message is kept, in seconds, 1 to 604800. Defaults to 604800 (7 days). " +
					"Someone must inspect the DMQ within this time, or the messages are gone.",
				Optional: true,
				Computed: true,
				Default:  int64default.StaticInt64(rules.DefaultDMQTTL),
			},
			"max_queue_size_in_bytes":             sizeAttribute("The maximum size of the queue in bytes, up to 1572864000 (1.5 GB). Defaults to the service's value."),
			"max_message_size_in_bytes":           sizeAttribute("The maximum size of one message in bytes. Defaults to the service's value."),
			"max_queue_message_count":             sizeAttribute("The maximum number of messages in the queue. Defaults to the service's value."),
			"max_delivered_unacked_msgs_per_flow": sizeAttribute("The maximum number of delivered but unacknowledged messages per consumer flow. Defaults to the service's value."),
			"force_destroy":                       forceDestroyAttribute(),
		},
	}
}

func (r *deadMessageQueueResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *deadMessageQueueResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m deadMessageQueueModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ttl := int64Value(m.MaxTTL)
	if ttl.Null {
		ttl = rules.Known[int64](rules.DefaultDMQTTL)
	}
	appendFindings(&resp.Diagnostics, rules.CheckQueue(rules.Queue{
		Name:                           stringValue(m.Name),
		AccessType:                     stringValue(m.AccessType),
		MaxTTL:                         ttl,
		RespectTTL:                     rules.Known(true),
		MaxQueueSizeInBytes:            int64Value(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          int64Value(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           int64Value(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: int64Value(m.MaxDeliveredUnackedMsgsPerFlow),
		IsDeadMessageQueue:             true,
	}))
}

func (m *deadMessageQueueModel) settings() eventmesh.QueueSettings {
	respect := true
	return eventmesh.QueueSettings{
		AccessType:                     stringPtr(m.AccessType),
		MaxQueueSizeInBytes:            int64Ptr(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          int64Ptr(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           int64Ptr(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: int64Ptr(m.MaxDeliveredUnackedMsgsPerFlow),
		RespectTTL:                     &respect,
		MaxTTL:                         int64Ptr(m.MaxTTL),
	}
}

func (m *deadMessageQueueModel) fromAPI(q *eventmesh.Queue) {
	m.ID = types.StringValue(q.Name)
	m.Name = types.StringValue(q.Name)
	m.AccessType = stringOr(q.AccessType, "NON_EXCLUSIVE")
	m.RespectTTL = types.BoolValue(q.RespectTTL != nil && *q.RespectTTL)
	m.MaxTTL = int64OrNull(q.MaxTTL)
	m.MaxQueueSizeInBytes = int64OrNull(q.MaxQueueSizeInBytes)
	m.MaxMessageSizeInBytes = int64OrNull(q.MaxMessageSizeInBytes)
	m.MaxQueueMessageCount = int64OrNull(q.MaxQueueMessageCount)
	m.MaxDeliveredUnackedMsgsPerFlow = int64OrNull(q.MaxDeliveredUnackedMsgsPerFlow)
	if m.ForceDestroy.IsNull() || m.ForceDestroy.IsUnknown() {
		m.ForceDestroy = types.BoolValue(false)
	}
}

func (m *deadMessageQueueModel) queueName() string  { return m.Name.ValueString() }
func (m *deadMessageQueueModel) forceDestroy() bool { return m.ForceDestroy.ValueBool() }

func (r *deadMessageQueueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createQueueResource[deadMessageQueueModel](ctx, r.data, req, resp)
}

func (r *deadMessageQueueResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readQueueResource[deadMessageQueueModel](ctx, r.data, req, resp)
}

func (r *deadMessageQueueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateQueueResource[deadMessageQueueModel](ctx, r.data, req, resp)
}

func (r *deadMessageQueueResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteQueueResource[deadMessageQueueModel](ctx, r.data, req, resp)
}

func (r *deadMessageQueueResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importQueueByName(ctx, req, resp)
}
