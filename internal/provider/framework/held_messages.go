package framework

import "fmt"

// HeldAtPlanConsequence says what the apply of a destroy or replacement of a queue that holds messages
// would do, and the fix, for the plan-time refusal "Queue Holds Messages" of both brokers; subscription
// and redrive are the broker's subscription resource and redrive action types.
func HeldAtPlanConsequence(subscription, redrive string) string {
	return fmt.Sprintf("The apply would first delete what depends on the queue (its `%s` resources, queues that name it as "+
		"their dead message queue), then refuse to delete the queue because it holds messages: the queue would be left without "+
		"its subscriptions, and messages published to their topics meanwhile would be stored on no queue. So the plan stops here, "+
		"and nothing is deleted. Consume or move the messages first (the `%s` action moves them to another queue), or set "+
		"`force_destroy = true` and apply it before destroying or renaming the queue.", subscription, redrive)
}
