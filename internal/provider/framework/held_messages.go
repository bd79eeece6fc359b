package framework

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// HeldAtPlanConsequence says what the apply of a destroy or replacement of a queue that holds messages
// would do, and the fix, for the plan-time refusal "Queue Holds Messages" of both brokers; subscription
// and redrive are the broker's subscription resource and redrive action types.
func HeldAtPlanConsequence(subscription, redrive string) string {
	return heldApplyOrder(subscription) + fmt.Sprintf("Consume or move the messages first (the `%s` action moves them to another "+
		"queue), or set `force_destroy = true` and apply it before destroying or renaming the queue.", redrive)
}

// HeldReplacedConsequence is HeldAtPlanConsequence for a replacement under the same name: terraform
// apply -replace, or a resource marked tainted, whose state's force_destroy the apply's delete takes
// and no update can change first.
func HeldReplacedConsequence(subscription, redrive string) string {
	return heldApplyOrder(subscription) + fmt.Sprintf("To keep the queue and its messages, plan without -replace, or run terraform "+
		"untaint on this resource when it is marked tainted. To replace it, consume or move the messages first (the `%s` action "+
		"moves them to another queue) and plan again.", redrive)
}

// heldApplyOrder is what the apply of a destroy or replacement of a queue that holds messages would do.
func heldApplyOrder(subscription string) string {
	return fmt.Sprintf("The apply would first delete what depends on the queue (its `%s` resources, queues that name it as "+
		"their dead message queue), then refuse to delete the queue because it holds messages: the queue would be left without "+
		"its subscriptions, and messages published to their topics meanwhile would be stored on no queue. So the plan stops here, "+
		"and nothing is deleted. ", subscription)
}

// AddReplacedUnderNameWarning warns, at the plan of a queue replaced under its name (ReplacedObject), about
// what the plan cannot see: a create_before_destroy lifecycle would create the queue before deleting it.
func AddReplacedUnderNameWarning(diags *diag.Diagnostics, name string) {
	diags.AddAttributeWarning(path.Root("name"), "Queue Replaced Under Its Name", fmt.Sprintf("This plan replaces the queue %q under "+
		"the same name (terraform apply -replace, or the resource is marked tainted): the apply deletes the queue and creates it again, "+
		"and subscribes it again to the topics of the subscription resources that refer to its name. With `lifecycle { "+
		"create_before_destroy = true }` on this resource, the apply would create the queue first and fail on the one it finds, "+
		"after deleting the subscriptions that refer to the queue's `id`; the plan cannot see that setting. If this resource sets "+
		"`create_before_destroy`, remove it for this apply, or run terraform untaint on it.", name))
}
