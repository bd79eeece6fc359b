package aem

import (
	"context"
	"errors"
	"fmt"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// refuseAEMHeldAtPlan refuses at plan the destroy (req.Plan null) or the replacement (a new `name`) of an
// AEM queue that holds messages, unless the state has force_destroy = true. Terraform applies such a plan
// in dependency order: it deletes what depends on the queue first (its subscriptions, the queues that name
// it as dead message queue), and only then would the queue's Delete refuse (deleteAEMQueue), leaving the
// queue without its subscriptions. So the plan stops, and nothing is deleted. The Delete keeps its own
// check, for messages that arrive between plan and apply. A replacement under the same name (terraform apply
// -replace, or a tainted queue) is refused by aemReplacedAtPlan, at its plan as a create.
//
// The messages are counted through the monitoring API (aem.Client.CountMessages), only for a queue that the
// plan destroys or replaces without force_destroy: the run's list of the queues' configuration holds no
// count. A count that fails fails the plan. It is called with the name of the queue the plan deletes
// (framework.DeletedName).
func refuseAEMHeldAtPlan(ctx context.Context, d *framework.ProviderData, req resource.ModifyPlanRequest, name string, diags *diag.Diagnostics) {
	if name == "" || d == nil || d.AEMUnknown || framework.ForceDestroyInState(ctx, req, diags) {
		return // no queue deleted, or force_destroy
	}
	replaced := !req.Plan.Raw.IsNull()
	var planned types.String
	if replaced {
		diags.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &planned)...)
		if diags.HasError() || planned.Equal(types.StringValue(name)) {
			return
		}
	}
	n, ok := countAEMHeld(ctx, d, name, diags)
	if !ok || n == 0 {
		return
	}
	counted := fmt.Sprintf("The queue %q holds %s. Deleting it would discard them", name, aem.Plural(int(n), "message", "messages"))
	if !replaced {
		diags.AddError("Queue Holds Messages", counted+", and this plan destroys it. "+framework.HeldAtPlanConsequence("sapmessaging_aem_queue_subscription", "sapmessaging_aem_redrive"))
		return
	}
	renamed := ""
	if !planned.IsUnknown() && !planned.IsNull() {
		renamed = fmt.Sprintf(" (the new name is %q)", planned.ValueString())
	}
	diags.AddAttributeError(path.Root("name"), "Queue Holds Messages", counted+". Changing `name` replaces it"+renamed+". "+framework.HeldAtPlanConsequence("sapmessaging_aem_queue_subscription", "sapmessaging_aem_redrive"))
}

// countAEMHeld counts the messages of queue name through the monitoring API (aem.Client.CountMessages); ok
// is false when the queue is gone (nothing to refuse) or the count failed (the error added).
func countAEMHeld(ctx context.Context, d *framework.ProviderData, name string, diags *diag.Diagnostics) (n int64, ok bool) {
	if !d.AEMOrError(diags) || d.AEM == nil {
		return 0, false
	}
	n, err := d.AEM.CountMessages(ctx, name)
	if errors.Is(err, aem.ErrNotFound) {
		return 0, false // gone: the apply has nothing to refuse
	}
	if err != nil {
		if !d.AEMCredential.AddRefused(diags, path.Empty(), err) {
			diags.AddError("Cannot Count Queue Messages", fmt.Sprintf("This plan destroys or replaces the queue %q, and the provider counts "+
				"its messages first, because the apply would delete what depends on the queue before it refuses to delete a queue with "+
				"messages. The count through the SEMP monitoring API failed: %s. The plan cannot tell whether the queue holds messages, so "+
				"it stops here. Check the provider's `advanced_event_mesh` connection and the broker service's status, then run terraform "+
				"plan again; TF_LOG=debug shows each request.", name, framework.Clause(err)))
		}
		return 0, false
	}
	return n, true
}

// aemReplacedAtPlan reports whether the create being planned (no prior state) replaces queue name under
// the same name, which a state of this run holds: terraform apply -replace (the second plan of it) or a
// queue marked tainted (framework.ProviderData.ReplacedObject). Such a create does not make the queue one
// that exists outside the configuration (aemRefuseExisting): the apply deletes it first. Unless the state
// has force_destroy = true, the replacement is refused while the queue holds messages: the apply would
// delete what depends on the queue first, then refuse to delete the queue. A configuration that sets
// force_destroy = false (planned) guards the queue too: the apply's delete takes the state's value, which
// the plan shows changing.
func aemReplacedAtPlan(ctx context.Context, d *framework.ProviderData, name string, planned types.Bool, req resource.ModifyPlanRequest, diags *diag.Diagnostics) bool {
	replaced, guarded := d.ReplacedObject(ctx, framework.ServiceAEM, framework.AEMQueueClaimKey(name), req)
	if !replaced {
		return false
	}
	framework.AddReplacedUnderNameWarning(diags, name)
	if !guarded && planned.ValueBool() {
		return true
	}
	if n, ok := countAEMHeld(ctx, d, name, diags); ok && n > 0 {
		diags.AddError("Queue Holds Messages", fmt.Sprintf("The queue %q holds %s. Deleting it would discard them, and this plan replaces it "+
			"under the same name (terraform apply -replace, or the resource is marked tainted). ", name, aem.Plural(int(n), "message", "messages"))+
			framework.HeldReplacedConsequence("sapmessaging_aem_queue_subscription", "sapmessaging_aem_redrive"))
	}
	return true
}
