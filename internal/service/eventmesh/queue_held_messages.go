package eventmesh

import (
	"context"
	"errors"
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// refuseHeldAtPlan refuses at plan the destroy (req.Plan null) or the replacement (a new `name`) of
// a queue that holds messages, unless the state has force_destroy = true. Terraform applies such a
// plan in dependency order: it deletes what depends on the queue first (its subscriptions, the
// queues that name it as dead message queue), and only then would the queue's Delete refuse
// (deleteQueue), leaving the queue without its subscriptions. So the plan stops, and nothing is
// deleted. The Delete keeps its own check, for messages that arrive between plan and apply.
//
// The message count comes from the run's queue list, which the refresh of the plan has read
// already (eventmesh.Client.QueueCounters): no request beyond it while the list holds the counters,
// one GET per queue planned for destroy or replacement when it does not. A read that fails fails
// the plan. With force_destroy nothing is read.
func refuseHeldAtPlan[M any, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	if req.State.Raw.IsNull() || d == nil || d.EventMesh == nil {
		return
	}
	var state M
	diags.Append(framework.GetState(ctx, req.State, &state)...)
	if diags.HasError() {
		return
	}
	sp := P(&state)
	name := sp.queueName()
	if sp.forceDestroy() || name == "" {
		return
	}
	replaced := !req.Plan.Raw.IsNull()
	var planned types.String
	if replaced {
		diags.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &planned)...)
		if diags.HasError() || planned.Equal(types.StringValue(name)) {
			return
		}
	}
	q, err := d.EventMesh.QueueCounters(ctx, name)
	if errors.Is(err, eventmesh.ErrNotFound) {
		return // gone: the apply has nothing to refuse
	}
	if err != nil {
		diags.AddError("Cannot Read Queue Messages", fmt.Sprintf("This plan destroys or replaces the queue %q, and the provider reads "+
			"whether it holds messages first, because the apply would delete what depends on the queue before it refuses to delete a "+
			"queue with messages. That read failed: %s. The plan cannot tell whether the queue holds messages, so it stops here. "+
			"Check the provider's connection and the service's status, then run terraform plan again; TF_LOG=debug shows each request.",
			name, framework.Clause(err)))
		return
	}
	held, unacked := heldMessages(q)
	if held == 0 {
		return
	}
	counted := fmt.Sprintf("The queue %q holds %d message(s), %d of them delivered and not yet acknowledged. Deleting it would discard them", name, held, unacked)
	if !replaced {
		diags.AddError("Queue Holds Messages", counted+", and this plan destroys it. "+heldAtPlanConsequence("sapmessaging_queue_subscription", "sapmessaging_redrive"))
		return
	}
	diags.AddAttributeError(path.Root("name"), "Queue Holds Messages", counted+". Changing `name` replaces it"+newName(planned)+". "+
		heldAtPlanConsequence("sapmessaging_queue_subscription", "sapmessaging_redrive"))
}

// newName is ", with the new name …" for a planned name that is known, else "".
func newName(planned types.String) string {
	if planned.IsUnknown() || planned.IsNull() {
		return ""
	}
	return fmt.Sprintf(" (the new name is %q)", planned.ValueString())
}

// heldAtPlanConsequence says what the apply of a destroy or replacement of a queue that holds
// messages would do, and the fix; subscription and redrive are the resource and action types of
// the broker.
func heldAtPlanConsequence(subscription, redrive string) string {
	return fmt.Sprintf("The apply would first delete what depends on the queue (its `%s` resources, queues that name it as "+
		"their dead message queue), then refuse to delete the queue because it holds messages: the queue would be left without "+
		"its subscriptions, and messages published to their topics meanwhile would be stored on no queue. So the plan stops here, "+
		"and nothing is deleted. Consume or move the messages first (the `%s` action moves them to another queue), or set "+
		"`force_destroy = true` and apply it before destroying or renaming the queue.", subscription, redrive)
}
