package provider

import (
	"context"
	"math"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/rules"
)

var (
	_ resource.Resource                   = (*queueResource)(nil)
	_ resource.ResourceWithConfigure      = (*queueResource)(nil)
	_ resource.ResourceWithImportState    = (*queueResource)(nil)
	_ resource.ResourceWithValidateConfig = (*queueResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*queueResource)(nil)
)

// NewQueueResource returns the sapmessaging_queue resource.
func NewQueueResource() resource.Resource {
	return &queueResource{}
}

type queueResource struct {
	data *providerData
}

type queueModel struct {
	ID                             types.String `tfsdk:"id"`
	Name                           types.String `tfsdk:"name"`
	AccessType                     types.String `tfsdk:"access_type"`
	MaxRedeliveryCount             types.Int64  `tfsdk:"max_redelivery_count"`
	DeadMessageQueue               types.String `tfsdk:"dead_message_queue"`
	RespectTTL                     types.Bool   `tfsdk:"respect_ttl"`
	MaxTTL                         types.Int64  `tfsdk:"max_ttl"`
	MaxQueueSizeInBytes            types.Int64  `tfsdk:"max_queue_size_in_bytes"`
	MaxMessageSizeInBytes          types.Int64  `tfsdk:"max_message_size_in_bytes"`
	MaxQueueMessageCount           types.Int64  `tfsdk:"max_queue_message_count"`
	MaxDeliveredUnackedMsgsPerFlow types.Int64  `tfsdk:"max_delivered_unacked_msgs_per_flow"`
	ForceDestroy                   types.Bool   `tfsdk:"force_destroy"`
}

func (r *queueResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_queue"
}

func (r *queueResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An SAP Event Mesh queue with its redelivery and dead-letter settings. " +
			"The plan refuses the settings that make a poison message loop for ever: a `max_redelivery_count` of 0 or none " +
			"(Event Mesh reads both as *unlimited*), a dead message queue that is the queue itself or lies outside its namespace, " +
			"and a time to live without `respect_ttl`. A queue without a dead message queue gets a warning.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The queue name.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "The full queue name including the namespace, for example `acme/crm/prod/orders`. " +
					"Up to 20 segments of letters, digits, `-`, `_` and `.`. Changing it replaces the queue.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"access_type": accessTypeAttribute(),
			"max_redelivery_count": schema.Int64Attribute{
				CustomType: wholeNumber(1, rules.MaxRedeliveryCountLimit),
				MarkdownDescription: "How often Event Mesh redelivers a message that was not acknowledged before it moves it to " +
					"`dead_message_queue`: 1 to 255. **Must be set**: in Event Mesh 0 and an empty value both mean *unlimited* " +
					"redelivery, so the plan refuses them. With an AMQP sender the worst case per message is " +
					"`(max_redelivery_count + 1) × retries + 1` executions.",
				Optional: true,
			},
			"dead_message_queue": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue that receives messages whose redeliveries are used up or whose " +
					"time to live expired, usually `sapmessaging_dead_message_queue.<name>.name`. It must be in the same namespace " +
					"(first three segments) and must not be the queue itself.",
				Optional: true,
			},
			"respect_ttl": schema.BoolAttribute{
				MarkdownDescription: "Whether messages whose time to live expired move to the dead message queue. Needs `max_ttl`. Defaults to `false`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(false),
			},
			"max_ttl": schema.Int64Attribute{
				CustomType:          wholeNumber(1, rules.MaxTTLLimit),
				MarkdownDescription: "The maximum time to live of a message in seconds, 1 to 604800 (7 days). Needs `respect_ttl = true`.",
				Optional:            true,
			},
			"max_queue_size_in_bytes":             sizeAttribute("The maximum size of the queue in bytes, up to 1572864000 (1.5 GB). Defaults to the service's value.", rules.MaxQueueSizeInBytes),
			"max_message_size_in_bytes":           sizeAttribute("The maximum size of one message in bytes. Defaults to the service's value.", rules.MaxMessageSizeInBytes),
			"max_queue_message_count":             sizeAttribute("The maximum number of messages in the queue. Defaults to the service's value.", math.MaxInt64),
			"max_delivered_unacked_msgs_per_flow": sizeAttribute("The maximum number of delivered but unacknowledged messages per consumer flow. Defaults to the service's value.", math.MaxInt64),
			"force_destroy":                       forceDestroyAttribute(),
		},
	}
}

func accessTypeAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "`NON_EXCLUSIVE` (default: consumers share the messages) or `EXCLUSIVE` (one consumer at a time).",
		Optional:            true,
		Computed:            true,
		Default:             stringdefault.StaticString("NON_EXCLUSIVE"),
	}
}

func sizeAttribute(description string, hi int64) schema.Int64Attribute {
	return schema.Int64Attribute{
		CustomType:          wholeNumber(1, hi),
		MarkdownDescription: description,
		Optional:            true,
		Computed:            true,
		PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
	}
}

func forceDestroyAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether `terraform destroy` (or a replacement) may delete the queue while it holds messages. " +
			"Defaults to `false`: deleting a queue with messages then fails and the messages stay. Apply `true` before destroying to discard them.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(false),
	}
}

func (r *queueResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

func (r *queueResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m queueModel
	resp.Diagnostics.Append(getConfig(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	appendFindings(&resp.Diagnostics, rules.CheckQueue(rules.Queue{
		Name:                           stringValue(m.Name),
		AccessType:                     stringValue(m.AccessType),
		DeadMessageQueue:               stringValue(m.DeadMessageQueue),
		MaxRedeliveryCount:             int64Value(m.MaxRedeliveryCount),
		MaxTTL:                         int64Value(m.MaxTTL),
		RespectTTL:                     boolValue(m.RespectTTL),
		MaxQueueSizeInBytes:            int64Value(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          int64Value(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           int64Value(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: int64Value(m.MaxDeliveredUnackedMsgsPerFlow),
	}))
}

// ModifyPlan refuses a dead message queue that leads back to the queue, across the queues the
// service holds and the other queues of the plan, and warns about a dead message queue that has
// one of its own.
func (r *queueResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan queueModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || plan.Name.IsUnknown() || plan.DeadMessageQueue.IsUnknown() {
		return
	}
	if !req.State.Raw.IsNull() {
		var state queueModel
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if state.Name.Equal(plan.Name) && state.DeadMessageQueue.Equal(plan.DeadMessageQueue) {
			r.data.recordDMQLink(plan.Name.ValueString(), plan.DeadMessageQueue.ValueString())
			return
		}
	}
	r.data.checkDMQLinks(ctx, plan.Name.ValueString(), plan.DeadMessageQueue.ValueString(), true, &resp.Diagnostics)
}

func (m *queueModel) settings() eventmesh.QueueSettings {
	return eventmesh.QueueSettings{
		AccessType:                     stringPtr(m.AccessType),
		MaxQueueSizeInBytes:            int64Ptr(m.MaxQueueSizeInBytes),
		MaxMessageSizeInBytes:          int64Ptr(m.MaxMessageSizeInBytes),
		MaxQueueMessageCount:           int64Ptr(m.MaxQueueMessageCount),
		MaxDeliveredUnackedMsgsPerFlow: int64Ptr(m.MaxDeliveredUnackedMsgsPerFlow),
		MaxRedeliveryCount:             int64Ptr(m.MaxRedeliveryCount),
		DeadMsgQueue:                   stringPtr(m.DeadMessageQueue),
		RespectTTL:                     boolPtr(m.RespectTTL),
		MaxTTL:                         int64Ptr(m.MaxTTL),
	}
}

// fromAPI copies what the service holds into the model; null and absent fields read alike.
func (m *queueModel) fromAPI(q *eventmesh.Queue) {
	m.ID = types.StringValue(q.Name)
	m.Name = types.StringValue(q.Name)
	m.AccessType = stringOr(q.AccessType, "NON_EXCLUSIVE")
	m.MaxRedeliveryCount = int64OrNull(q.MaxRedeliveryCount)
	m.DeadMessageQueue = nonEmptyStringOrNull(q.DeadMsgQueue)
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

func (m *queueModel) queueName() string  { return m.Name.ValueString() }
func (m *queueModel) forceDestroy() bool { return m.ForceDestroy.ValueBool() }

func (r *queueResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createQueueResource[queueModel](ctx, r.data, "sapmessaging_queue", req, resp)
}

func (r *queueResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	readQueueResource[queueModel](ctx, r.data, req, resp)
}

func (r *queueResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateQueueResource[queueModel](ctx, r.data, req, resp)
}

func (r *queueResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteQueueResource[queueModel](ctx, r.data, req, resp)
}

func (r *queueResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importQueueByName(ctx, req, resp)
}

func importQueueByName(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if err := rules.ValidQueueName(req.ID); err != nil {
		resp.Diagnostics.AddError("Invalid Import ID",
			"The import ID must be the full queue name, for example acme/crm/prod/orders: "+err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("force_destroy"), false)...)
}
