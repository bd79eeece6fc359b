package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

var (
	_ resource.Resource                = (*queueSubscriptionResource)(nil)
	_ resource.ResourceWithConfigure   = (*queueSubscriptionResource)(nil)
	_ resource.ResourceWithImportState = (*queueSubscriptionResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*queueSubscriptionResource)(nil)
)

// NewQueueSubscriptionResource returns the sapmessaging_queue_subscription resource.
func NewQueueSubscriptionResource() resource.Resource {
	return &queueSubscriptionResource{}
}

type queueSubscriptionResource struct {
	data *framework.ProviderData
}

type QueueSubscriptionModel struct {
	ID           types.String `tfsdk:"id"`
	QueueName    types.String `tfsdk:"queue_name"`
	TopicPattern types.String `tfsdk:"topic_pattern"`
}

func (r *queueSubscriptionResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_queue_subscription"
}

func (r *queueSubscriptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Subscribes an SAP Event Mesh queue to a topic pattern, so that events published to matching topics land in the queue.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "`QUEUE,TOPIC`, the form `terraform import` takes.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"queue_name": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue, usually `sapmessaging_queue.<name>.name`. Changing it replaces the subscription.",
				Required:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:          []validator.String{framework.QueueName()},
			},
			"topic_pattern": schema.StringAttribute{
				MarkdownDescription: "The topic or topic pattern, for example `acme/crm/prod/ce/sap/s4/BusinessPartner/*`. " +
					"Changing it replaces the subscription.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{framework.TopicPattern()},
			},
		},
	}
}

func (r *queueSubscriptionResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

func subscriptionID(queue, topic string) string { return queue + "," + topic }

// ModifyPlan requires the Event Mesh connection and proves its credentials at plan, so that a
// plan without them fails instead of the apply, and refuses a subscription that another resource of this run manages too (see owners):
// a second resource on one queue and topic, for example one generated again by a later terraform
// query, would record the subscription the first one owns, and destroying either unsubscribes both.
func (r *queueSubscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.RequireAtPlan(ctx, &resp.Diagnostics, framework.NeedEventMesh) || req.Plan.Raw.IsNull() {
		return
	}
	var queue, topic types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("queue_name"), &queue)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("topic_pattern"), &topic)...)
	if resp.Diagnostics.HasError() || queue.IsUnknown() || topic.IsUnknown() {
		return
	}
	q, t := queue.ValueString(), topic.ValueString()
	conflict := r.data.ClaimObject(ctx, framework.OwnedObject{
		Service: framework.ServiceEventMesh, Key: "subscription|" + q + "|" + t,
		TypeName: "sapmessaging_queue_subscription", InState: !req.State.Raw.IsNull(),
		Manage: fmt.Sprintf("manage the subscription of queue %q to topic %q", q, t),
		Why: "Event Mesh holds the subscription once, so both states would record it, and destroying either resource would " +
			"unsubscribe the queue that the other still manages.",
		Match: fmt.Sprintf("`queue_name = %q` and `topic_pattern = %q`", q, t),
	}, req, resp)
	if conflict != "" {
		resp.Diagnostics.AddAttributeError(path.Root("topic_pattern"), "Subscription Managed Twice", conflict+
			" Remove one of the two resources. When both come from generated configuration (terraform query -generate-config-out) "+
			"or import blocks, import the subscription only once: delete the second resource block with its import block.")
	}
}

func (r *queueSubscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer SubscriptionIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan QueueSubscriptionModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() || !r.data.EventMeshOrError(&resp.Diagnostics) {
		return
	}
	queue, topic := plan.QueueName.ValueString(), plan.TopicPattern.ValueString()
	if err := r.data.EventMesh.PutSubscription(ctx, queue, topic); err != nil && !subscribedAfterLostAnswer(ctx, r.data.EventMesh, queue, topic, err) {
		resp.Diagnostics.AddError("Cannot Subscribe Queue", subscriptionErrorDetail(queue, topic, err))
		return
	}
	plan.ID = types.StringValue(subscriptionID(queue, topic))
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
}

func (r *queueSubscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	SubscriptionIdentity.Set(ctx, &req.State, resp.Identity, &resp.Diagnostics) // identity.go: first, also when the subscription is gone
	var state QueueSubscriptionModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.EventMeshOrError(&resp.Diagnostics) {
		return
	}
	queue, topic := state.QueueName.ValueString(), state.TopicPattern.ValueString()
	subs, err := r.data.EventMesh.ListSubscriptions(ctx, queue)
	if errors.Is(err, eventmesh.ErrNotFound) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Subscriptions", subscriptionErrorDetail(queue, topic, err))
		return
	}
	for _, s := range subs {
		if s.TopicPattern == topic {
			state.ID = types.StringValue(subscriptionID(queue, topic))
			resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &state)...)
			return
		}
	}
	resp.State.RemoveResource(ctx)
}

// Update is never called: every argument forces replacement.
func (r *queueSubscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer SubscriptionIdentity.Set(ctx, &resp.State, resp.Identity, &resp.Diagnostics) // identity.go
	var plan QueueSubscriptionModel
	resp.Diagnostics.Append(framework.GetPlan(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(framework.SetState(ctx, &resp.State, &plan)...)
}

func (r *queueSubscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state QueueSubscriptionModel
	resp.Diagnostics.Append(framework.GetState(ctx, req.State, &state)...)
	if resp.Diagnostics.HasError() || !r.data.EventMeshOrError(&resp.Diagnostics) {
		return
	}
	queue, topic := state.QueueName.ValueString(), state.TopicPattern.ValueString()
	if err := r.data.EventMesh.DeleteSubscription(ctx, queue, topic); err != nil && !errors.Is(err, eventmesh.ErrNotFound) {
		resp.Diagnostics.AddError("Cannot Unsubscribe Queue", subscriptionErrorDetail(queue, topic, err))
	}
}

func (r *queueSubscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if !SubscriptionIdentity.ResolveImport(&req, resp) { // identity.go
		return
	}
	queue, topic, ok := strings.Cut(req.ID, ",")
	if !ok || queue == "" || topic == "" {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("The import ID %q is not of the form QUEUE,TOPIC. Use the full queue name and the topic pattern separated by a comma, "+
				"for example acme/crm/prod/orders,acme/crm/prod/ce/orders/*.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("queue_name"), queue)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("topic_pattern"), topic)...)
}

// subscribedAfterLostAnswer reports whether a subscription PUT that got no answer (err is a
// transport failure after all attempts) was carried out all the same: the queue lists the topic.
func subscribedAfterLostAnswer(ctx context.Context, c *eventmesh.Client, queue, topic string, err error) bool {
	var reqErr *httpx.RequestError
	if !errors.As(err, &reqErr) {
		return false
	}
	subs, listErr := c.ListSubscriptions(ctx, queue)
	if listErr != nil {
		return false
	}
	for _, s := range subs {
		if s.TopicPattern == topic {
			tflog.Warn(ctx, "the subscription write got no answer, but the queue is subscribed; adopting the subscription",
				map[string]any{"queue": queue, "topic": topic, "error": err.Error()})
			return true
		}
	}
	return false
}

func subscriptionErrorDetail(queue, topic string, err error) string {
	return fmt.Sprintf("The Event Mesh management API failed for the subscription of queue %q to %q: %s. "+
		"Check that the queue exists and the provider's connection works, then run the command again.", queue, topic, framework.Clause(err))
}
