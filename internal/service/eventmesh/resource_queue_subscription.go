package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
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

// NewQueueSubscriptionResource returns the sapmessaging_queue_subscription resource: the shared skeleton
// (framework.SubscriptionResource) given the Event Mesh client, the schema and the import ID QUEUE,TOPIC.
func NewQueueSubscriptionResource() resource.Resource {
	return &queueSubscriptionResource{framework.SubscriptionResource[QueueSubscriptionModel]{
		TypeSuffix:     "_queue_subscription",
		ResourceSchema: queueSubscriptionSchema,
		Identity:       &SubscriptionIdentity,
		TopicAttr:      "topic_pattern",
		Need:           framework.NeedEventMesh,
		Connected:      func(d *framework.ProviderData, diags *diag.Diagnostics) bool { return d.EventMeshOrError(diags) },
		Names: func(m *QueueSubscriptionModel) (string, string) {
			return m.QueueName.ValueString(), m.TopicPattern.ValueString()
		},
		SetID: func(m *QueueSubscriptionModel, id string) { m.ID = types.StringValue(id) },
		Owned: func(q, t string) framework.OwnedObject {
			return framework.OwnedObject{
				Service: framework.ServiceEventMesh, Key: "subscription|" + q + "|" + t,
				TypeName: "sapmessaging_queue_subscription",
				Manage:   fmt.Sprintf("manage the subscription of queue %q to topic %q", q, t),
				Why: "Event Mesh holds the subscription once, so both states would record it, and destroying either resource would " +
					"unsubscribe the queue that the other still manages.",
				Match: fmt.Sprintf("`queue_name = %q` and `topic_pattern = %q`", q, t),
			}
		},
		QueueKey:  framework.QueueClaimKey,
		PlanQueue: planSubscriptionQueue,
		Subscribe: func(ctx context.Context, d *framework.ProviderData, queue, topic string) error {
			// The PUT of a subscription that exists succeeds as well (idempotent), so the create looks first: a
			// subscription made outside this configuration is imported, not taken over.
			subs, err := d.EventMesh.ListSubscriptions(ctx, queue)
			if err != nil {
				return err
			}
			if slices.ContainsFunc(subs, func(s eventmesh.Subscription) bool { return s.TopicPattern == topic }) {
				return errSubscriptionExists
			}
			err = d.EventMesh.PutSubscription(ctx, queue, topic)
			if err != nil && subscribedAfterLostAnswer(ctx, d.EventMesh, queue, topic, err) {
				return nil
			}
			return err
		},
		Subscribed: func(ctx context.Context, d *framework.ProviderData, queue, topic string) (bool, error) {
			subs, err := d.EventMesh.ListSubscriptions(ctx, queue)
			return slices.ContainsFunc(subs, func(s eventmesh.Subscription) bool { return s.TopicPattern == topic }), err
		},
		Unsubscribe: func(ctx context.Context, d *framework.ProviderData, queue, topic string) error {
			return d.EventMesh.DeleteSubscription(ctx, queue, topic)
		},
		NotFound: func(err error) bool { return errors.Is(err, eventmesh.ErrNotFound) },
		Failed: func(op framework.SubscriptionOp, queue, topic string, err error, diags *diag.Diagnostics) {
			create := op == framework.SubscriptionCreate
			switch {
			case create && errors.Is(err, errSubscriptionExists):
				diags.AddAttributeError(path.Root("topic_pattern"), "Subscription Already Exists",
					fmt.Sprintf("The queue %q is subscribed to %q already, by someone outside this configuration - to be managed via "+
						"Terraform this resource needs to be imported into the State. Creating it here would make this configuration own "+
						"what it did not make, and its destroy would unsubscribe the queue for everyone, so nothing was changed. "+
						"Import it instead: an import block with `id = %q`, or terraform import with that ID.", queue, topic, subscriptionID(queue, topic)))
			case create && errors.Is(err, eventmesh.ErrNotFound):
				diags.AddAttributeError(path.Root("queue_name"), "Queue Does Not Exist",
					fmt.Sprintf("The Event Mesh instance has no queue %q, so it cannot be subscribed to %q (%s); it was deleted after the plan. "+
						"Create the queue, or set `queue_name` to a queue that exists, then apply again.", queue, topic, framework.Clause(err)))
			case create:
				diags.AddError("Cannot Subscribe Queue", subscriptionErrorDetail(queue, topic, err))
			case op == framework.SubscriptionRead:
				diags.AddError("Cannot Read Subscriptions", subscriptionErrorDetail(queue, topic, err))
			default:
				diags.AddError("Cannot Unsubscribe Queue", subscriptionErrorDetail(queue, topic, err))
			}
		},
		ImportNames: subscriptionImportNames,
	}}
}

// queueSubscriptionResource is the skeleton configured for Event Mesh (identity_eventmesh.go asserts its identity).
type queueSubscriptionResource struct {
	framework.SubscriptionResource[QueueSubscriptionModel]
}

type QueueSubscriptionModel struct {
	ID           types.String `tfsdk:"id"`
	QueueName    types.String `tfsdk:"queue_name"`
	TopicPattern types.String `tfsdk:"topic_pattern"`
}

func queueSubscriptionSchema(context.Context) schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Subscribes an SAP Event Mesh queue to a topic pattern, so that events published to matching topics land in the queue. " +
			"The create looks at the queue's subscriptions first (one management call) and refuses a subscription that the queue holds " +
			"already, made outside this configuration: import it instead (`QUEUE,TOPIC`).",
		Attributes: map[string]schema.Attribute{
			"id": framework.ComputedKept("`QUEUE,TOPIC`, the form `terraform import` takes."),
			"queue_name": schema.StringAttribute{
				MarkdownDescription: "The full name of the queue, usually `sapmessaging_queue.<name>.name`. The plan fails when the Event Mesh " +
					"instance has no such queue and this configuration does not create it. Changing it replaces the subscription. " +
					"A replacement of the queue under the same name (`terraform apply -replace`, a tainted queue) planned before this " +
					"subscription, as it is when `queue_name` refers to the queue resource, updates it in place: the broker deletes a queue's " +
					"subscriptions with it, and the apply subscribes the new queue again.",
				Required:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{framework.QueueName()},
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

func subscriptionID(queue, topic string) string { return queue + "," + topic }

// errSubscriptionExists is the create's finding that the queue holds the subscription already.
var errSubscriptionExists = errors.New("the queue holds the subscription already")

// planSubscriptionQueue refuses, for a subscription to create (or moved to another queue), a queue that the
// Event Mesh instance does not hold and this run does not plan, from the run's queue list.
func planSubscriptionQueue(ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, q string) {
	if framework.SubscriptionQueueKept(ctx, req, q, &resp.Diagnostics) {
		return // the subscription exists already; its queue was checked when it was planned
	}
	if d == nil || d.EventMesh == nil {
		return // the connection is known only at apply (RequireAtPlan): the apply finds a missing queue
	}
	exists, err := d.EventMeshQueueExistsOrPlanned(ctx, q)
	switch {
	case err != nil:
		if !d.EventMeshCredential.AddRefused(&resp.Diagnostics, path.Root("queue_name"), err) {
			resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "Cannot Check Queue",
				framework.ListErrorDetail(fmt.Sprintf("checking that the queue %q of the subscription exists", q), err))
		}
	case !exists:
		resp.Diagnostics.AddAttributeError(path.Root("queue_name"), "Queue Does Not Exist",
			fmt.Sprintf("The Event Mesh instance has no queue %q, and this configuration plans none, so the subscription could not be "+
				"created: the apply would fail. Terraform plans a resource after those it refers to, so a queue this configuration "+
				"creates counts only when `queue_name` refers to it. "+
				"Set `queue_name` to `sapmessaging_queue.<name>.name`, or create the queue first.", q))
	}
}

// subscriptionImportNames reads the import ID QUEUE,TOPIC, or the import identity that stands for it.
func subscriptionImportNames(_ context.Context, _ *framework.ProviderData, req resource.ImportStateRequest, resp *resource.ImportStateResponse) (string, string, bool) {
	if !SubscriptionIdentity.ResolveImport(&req, resp) { // identity.go
		return "", "", false
	}
	queue, topic, ok := strings.Cut(req.ID, ",")
	if !ok || queue == "" || topic == "" {
		resp.Diagnostics.AddError("Invalid Import ID",
			fmt.Sprintf("The import ID %q is not of the form QUEUE,TOPIC. Use the full queue name and the topic pattern separated by a comma, "+
				"for example acme/crm/prod/orders,acme/crm/prod/ce/orders/*.", req.ID))
		return "", "", false
	}
	return queue, topic, true
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
