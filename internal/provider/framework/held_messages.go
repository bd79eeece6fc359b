package framework

import "fmt"

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
