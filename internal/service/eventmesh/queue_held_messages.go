package eventmesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

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
// already: the count the refresh recorded in the private state (recordHeld; terraform destroy plans
// in another provider process than its refresh), else the list of this provider process
// (eventmesh.Client.QueueCounters). So no request is added while the list holds the counters; one
// GET per queue planned for destroy or replacement when it does not. A recorded count above zero is
// read again (one GET) before the plan refuses, so an old count never stops a destroy the queue now
// allows. A read that fails fails the plan. With force_destroy nothing is read.
func refuseHeldAtPlan[M comparable, P queueModelPtr[M]](ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, diags *diag.Diagnostics) {
	if req.State.Raw.IsNull() || d == nil || d.EventMesh == nil || framework.SameRawAttribute(req.Plan.Raw, req.State.Raw, "name") {
		return // no prior queue, or a plan that keeps its name: neither destroys nor replaces it
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
	held, unacked, ok := refreshedHeld(ctx, req.Private, name)
	if !ok || held > 0 {
		// A refusal rests on a read of this plan: a count recorded by an earlier refresh (a plan with
		// -refresh=false, or the post-test destroy of terraform-plugin-testing, after it) may be old,
		// so a recorded count above zero is read again with one GET of the queue.
		read := d.EventMesh.QueueCounters
		if ok {
			read = d.EventMesh.GetQueue
		}
		q, err := read(ctx, name)
		if errors.Is(err, eventmesh.ErrNotFound) {
			return // gone: the apply has nothing to refuse
		}
		if err != nil {
			addHeldReadError(diags, name, err)
			return
		}
		held, unacked = heldMessages(q)
	}
	if held == 0 {
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

// privateHeldKey is the private state key under which a refresh records the queue's message counts.
const privateHeldKey = "held_messages"

// heldFreshFor is how long a message count recorded by a refresh stands for the queue at plan. terraform
// destroy refreshes in one provider process and plans the destroy in another, so the destroy's plan reads
// the count the refresh of the same command recorded, without a request; an older count (a plan with
// -refresh=false) is read again.
const heldFreshFor = 5 * time.Minute

// heldRecord is the message count of a queue as a refresh read it.
type heldRecord struct {
	Queue   string    `json:"queue"`
	Held    int64     `json:"held"`
	Unacked int64     `json:"unacked"`
	Read    time.Time `json:"read"`
}

// privateKeys is the private state of a resource response.
type privateKeys interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordHeld records in the private state the message counts of q as the refresh read them (from the
// run's queue list: no request of its own), for the plan of a destroy in another provider process. A
// queue read without counters records nothing. With force_destroy = true in the state (force) no plan
// reads the counts (refuseHeldAtPlan), so nothing is recorded, and a record an earlier refresh left
// (while force_destroy was false) is removed: after force_destroy turns false again, a destroy planned
// with -refresh=false reads the queue instead of taking that record's count.
func recordHeld(ctx context.Context, q *eventmesh.Queue, force bool, private privateKeys, diags *diag.Diagnostics) {
	if private == nil {
		return
	}
	if force {
		if raw, d := private.GetKey(ctx, privateHeldKey); !d.HasError() && len(raw) > 0 {
			diags.Append(private.SetKey(ctx, privateHeldKey, nil)...)
		}
		return
	}
	if q.MessageCount == nil && q.UnacknowledgedMessageCount == nil {
		return
	}
	held, unacked := heldMessages(q)
	raw, err := json.Marshal(heldRecord{Queue: q.Name, Held: held, Unacked: unacked, Read: time.Now().UTC()})
	if err != nil {
		return
	}
	diags.Append(private.SetKey(ctx, privateHeldKey, raw)...)
}

// refreshedHeld returns the message counts a refresh recorded for queue name within heldFreshFor; ok is
// false when there is none.
func refreshedHeld(ctx context.Context, private privateKeys, name string) (held, unacked int64, ok bool) {
	if private == nil {
		return 0, 0, false
	}
	raw, d := private.GetKey(ctx, privateHeldKey)
	var r heldRecord
	if d.HasError() || len(raw) == 0 || json.Unmarshal(raw, &r) != nil || r.Queue != name {
		return 0, 0, false
	}
	if age := time.Since(r.Read); age < 0 || age > heldFreshFor {
		return 0, 0, false
	}
	return r.Held, r.Unacked, true
}

// newName is ", with the new name …" for a planned name that is known, else "".
func newName(planned types.String) string {
	if planned.IsUnknown() || planned.IsNull() {
		return ""
	}
	return fmt.Sprintf(" (the new name is %q)", planned.ValueString())
}
