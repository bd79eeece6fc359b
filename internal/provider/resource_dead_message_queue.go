package provider

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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
	_ resource.ResourceWithModifyPlan     = (*deadMessageQueueResource)(nil)
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
	MaxRedeliveryCount             types.Int64  `tfsdk:"max_redelivery_count"`
	DeadMessageQueue               types.String `tfsdk:"dead_message_queue"`
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
				CustomType: wholeNumber(1, rules.MaxTTLLimit),
				MarkdownDescription: "How long a dead message is kept, in seconds, 1 to 604800. Defaults to 604800 (7 days). " +
					"Someone must inspect the DMQ within this time, or the messages are gone.",
				Optional: true,
				Computed: true,
				Default:  int64default.StaticInt64(rules.DefaultDMQTTL),
			},
			"max_redelivery_count": schema.Int64Attribute{
				MarkdownDescription: "Read-only, always `0` after an apply: a dead message queue is inspected, not consumed, so the apply leaves " +
					"the redelivery count at the Event Mesh default. A queue imported with another value shows the change to `0` in the plan.",
				Computed: true,
			},
			"dead_message_queue": schema.StringAttribute{
				MarkdownDescription: "Read-only, always empty after an apply: a dead message queue names no dead message queue of its own. " +
					"A queue imported with one shows its removal in the plan.",
				Computed: true,
			},
			"max_queue_size_in_bytes":             sizeAttribute("The maximum size of the queue in bytes, up to 1572864000 (1.5 GB). Defaults to the service's value.", rules.MaxQueueSizeInBytes),
			"max_message_size_in_bytes":           sizeAttribute("The maximum size of one message in bytes. Defaults to the service's value.", rules.MaxMessageSizeInBytes),
			"max_queue_message_count":             sizeAttribute("The maximum number of messages in the queue. Defaults to the service's value.", math.MaxInt64),
			"max_delivered_unacked_msgs_per_flow": sizeAttribute("The maximum number of delivered but unacknowledged messages per consumer flow. Defaults to the service's value.", math.MaxInt64),
			"force_destroy":                       forceDestroyAttribute(),
		},
	}
}

// ModifyPlan plans the two settings that the apply always writes although the configuration
// cannot set them: max_redelivery_count 0 and no dead message queue. An ordinary queue imported
// as a dead message queue (with a redelivery count or a dead message queue of its own) then
// shows both changes in the plan, with a warning, instead of losing them silently.
func (r *deadMessageQueueResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan deadMessageQueueModel
	resp.Diagnostics.Append(getPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan.MaxRedeliveryCount = types.Int64Value(0)
	plan.DeadMessageQueue = types.StringNull()
	resp.Diagnostics.Append(setPlan(ctx, &resp.Plan, &plan)...)
	if !req.State.Raw.IsNull() {
		var state deadMessageQueueModel
		resp.Diagnostics.Append(getState(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		warnOrdinaryQueue(&resp.Diagnostics, state)
	}
	if !plan.Name.IsUnknown() {
		r.data.checkDMQLinks(ctx, plan.Name.ValueString(), "", true, &resp.Diagnostics)
	}
}

// warnOrdinaryQueue warns when the queue in state has settings of an ordinary queue that the
// apply of a sapmessaging_dead_message_queue resets.
func warnOrdinaryQueue(diags *diag.Diagnostics, state deadMessageQueueModel) {
	var held []string
	if n := state.MaxRedeliveryCount; !n.IsNull() && !n.IsUnknown() && n.ValueInt64() != 0 {
		held = append(held, fmt.Sprintf("max_redelivery_count = %d, which the apply sets to 0 (the Event Mesh default: unlimited redelivery)", n.ValueInt64()))
	}
	if q := state.DeadMessageQueue; !q.IsNull() && !q.IsUnknown() && q.ValueString() != "" {
		held = append(held, fmt.Sprintf("dead_message_queue = %q, which the apply removes", q.ValueString()))
	}
	if len(held) == 0 {
		return
	}
	diags.AddWarning("Ordinary Queue Settings Will Be Reset",
		fmt.Sprintf("The queue %q holds settings of an ordinary queue: %s. As a sapmessaging_dead_message_queue it keeps neither, so a consumer of this queue "+
			"would get every failing message redelivered without limit and never dead-lettered. The plan shows both changes. "+
			"If consumers read from this queue, manage it as sapmessaging_queue instead: terraform state rm this resource, then import the queue "+
			"into a sapmessaging_queue; if it is only a dead message queue, apply the plan.",
			state.Name.ValueString(), strings.Join(held, " and ")))
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
	// Event Mesh stores no redelivery count as 0; null and absent read as 0 too.
	m.MaxRedeliveryCount = types.Int64Value(deref(q.MaxRedeliveryCount))
	m.DeadMessageQueue = nonEmptyStringOrNull(q.DeadMsgQueue)
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
	createQueueResource[deadMessageQueueModel](ctx, r.data, "sapmessaging_dead_message_queue", req, resp)
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
