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
// deleted. The Delete keeps its own check, for messages that arrive between plan and apply. A
// replacement under the same name (terraform apply -replace, a tainted queue) is refused by
// refuseHeldReplacement, at its plan as a create.
//
// The message count is read at this plan, from the queue list of this provider process
// (eventmesh.Client.QueueCounters): the one GET /queues the refresh took when the plan refreshed in
// this process, one GET /queues per process otherwise (the plan of terraform destroy runs in another
// process than its refresh), or one GET of the queue when the list leaves the counters out. A count
// recorded by an earlier command is not taken: with -refresh=false it may be minutes old, and a
// queue empty then may hold messages now. A read that fails fails the plan. With force_destroy
// nothing is read.
//
// It is called for a plan that destroys the queue name or gives it a new name (framework.DeletedName).
func refuseHeldAtPlan(ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, name string, diags *diag.Diagnostics) {
	if d == nil || d.EventMesh == nil || name == "" || framework.ForceDestroyInState(ctx, req, diags) {
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
	held, unacked, ok := readHeld(ctx, d, name, diags)
	if !ok || held == 0 {
		return
	}
	counted := fmt.Sprintf("The queue %q holds %d message(s), %d of them delivered and not yet acknowledged. Deleting it would discard them", name, held, unacked)
	if !replaced {
		diags.AddError("Queue Holds Messages", counted+", and this plan destroys it. "+framework.HeldAtPlanConsequence("sapmessaging_queue_subscription", "sapmessaging_redrive"))
		return
	}
	diags.AddAttributeError(path.Root("name"), "Queue Holds Messages", counted+". Changing `name` replaces it"+newName(planned)+". "+
		framework.HeldAtPlanConsequence("sapmessaging_queue_subscription", "sapmessaging_redrive"))
}

// addHeldReadError reports a failed read of whether queue name holds messages at plan.
func addHeldReadError(diags *diag.Diagnostics, name string, err error) {
	diags.AddError("Cannot Read Queue Messages", fmt.Sprintf("This plan destroys or replaces the queue %q, and the provider reads "+
		"whether it holds messages first, because the apply would delete what depends on the queue before it refuses to delete a "+
		"queue with messages. That read failed: %s. The plan cannot tell whether the queue holds messages, so it stops here. "+
		"Check the provider's connection and the service's status, then run terraform plan again; TF_LOG=debug shows each request.",
		name, framework.Clause(err)))
}

// privateHeldKey is the private state key under which a refresh once recorded the queue's message
// counts; dropHeldRecord removes such a record from states written before.
const privateHeldKey = "held_messages"

// privateKeys is the private state of a resource response.
type privateKeys interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// dropHeldRecord removes the message count an earlier version recorded in the private state at
// refresh: no plan takes it any more (refuseHeldAtPlan reads the count at plan).
func dropHeldRecord(ctx context.Context, private privateKeys, diags *diag.Diagnostics) {
	if private == nil {
		return
	}
	if raw, d := private.GetKey(ctx, privateHeldKey); !d.HasError() && len(raw) > 0 {
		diags.Append(private.SetKey(ctx, privateHeldKey, nil)...)
	}
}

// readHeld reads how many messages queue name holds, from this process's queue list
// (eventmesh.Client.QueueCounters); ok is false when the queue is gone (nothing to refuse) or the
// read failed (the error added).
func readHeld(ctx context.Context, d *framework.ProviderData, name string, diags *diag.Diagnostics) (held, unacked int64, ok bool) {
	q, err := d.EventMesh.QueueCounters(ctx, name)
	if errors.Is(err, eventmesh.ErrNotFound) {
		return 0, 0, false // gone: the apply has nothing to refuse
	}
	if err != nil {
		addHeldReadError(diags, name, err)
		return 0, 0, false
	}
	held, unacked = heldMessages(q)
	return held, unacked, true
}

// refuseHeldReplacement refuses the replacement of a queue that holds messages under the same name,
// unless its state has force_destroy = true: terraform apply -replace, or a queue marked tainted.
// Terraform plans the first twice: as an update, with the prior state and the same name, which
// refuseHeldAtPlan lets through, then as a create with no prior state; the second once, as a create.
// Either create is known by framework.ProviderData.ReplacedObject: by the run's claim of the queue
// name, which the first plan made holding the queue in its state, or by the refresh of this process,
// which read the queue from the tainted state (readQueueResource notes it). The apply would delete
// what refers to the queue's id first, then refuse to delete the queue.
//
// A configuration that sets force_destroy = false (planned) guards the queue too: the apply's delete
// takes the state's value, which the plan shows changing.
func refuseHeldReplacement(ctx context.Context, d *framework.ProviderData, name string, planned bool, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	if d == nil || d.EventMesh == nil || name == "" {
		return
	}
	replaced, guarded := d.ReplacedObject(ctx, framework.ServiceEventMesh, framework.QueueClaimKey(name), req)
	if !replaced {
		return
	}
	framework.AddReplacedUnderNameWarning(diags, name)
	if !guarded && planned {
		return
	}
	held, unacked, ok := readHeld(ctx, d, name, diags)
	if !ok || held == 0 {
		return
	}
	diags.AddError("Queue Holds Messages", fmt.Sprintf("The queue %q holds %d message(s), %d of them delivered and not yet acknowledged. "+
		"Deleting it would discard them, and this plan replaces it under the same name (terraform apply -replace, or the resource "+
		"is marked tainted). ", name, held, unacked)+framework.HeldReplacedConsequence("sapmessaging_queue_subscription", "sapmessaging_redrive"))
}

// newName is ", with the new name …" for a planned name that is known, else "".
func newName(planned types.String) string {
	if planned.IsUnknown() || planned.IsNull() {
		return ""
	}
	return fmt.Sprintf(" (the new name is %q)", planned.ValueString())
}
