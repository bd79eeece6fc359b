package rules

import "fmt"

// Terraform attribute names of the AMQP sender resource.
const (
	attrMaxNumberOfRetries  = "max_number_of_retries"
	attrMaxPrefetched       = "max_prefetched_messages"
	attrConcurrentProcesses = "concurrent_processes"
	attrDeliveryStatus      = "delivery_status_after_max_retries"
	attrQueueMaxRedelivery  = "queue_max_redelivery_count"
	attrMaxTotalAttempts    = "max_total_attempts"
	attrExpectedSeconds     = "expected_processing_seconds"
	slowFlowSeconds         = 60
	deliveryRejected        = "REJECTED"
	deliveryUndeliverable   = "MODIFIED_FAILED_UNDELIVERABLE"
)

// AMQPSender holds the plan-time settings of a Cloud Integration AMQP sender channel
// and, when known, the max redelivery count of the Event Mesh queue it consumes.
type AMQPSender struct {
	MaxNumberOfRetries, MaxPrefetchedMessages, ConcurrentProcesses       Value[int64]
	DeliveryStatus                                                       Value[string] // REJECTED | MODIFIED_FAILED_UNDELIVERABLE
	QueueMaxRedeliveryCount, MaxTotalAttempts, ExpectedProcessingSeconds Value[int64]
	// AllowCancelledRedelivery is the configuration's explicit acceptance of
	// MODIFIED_FAILED_UNDELIVERABLE on a channel adopted as it is: the rule then warns instead of refusing.
	AllowCancelledRedelivery bool
	// AllowUnsafeRetries is the configuration's explicit acceptance of a Max. Number of
	// Retries that is empty (endless in-memory retries) or 0, on a channel adopted as it is:
	// the retries rule then warns instead of refusing.
	AllowUnsafeRetries bool
}

var senderRanges = []struct {
	get func(AMQPSender) Value[int64]
	intRange
}{
	{func(s AMQPSender) Value[int64] { return s.MaxPrefetchedMessages }, intRange{
		rule: "amqp.prefetch_range", attribute: attrMaxPrefetched, summary: "Invalid Max Prefetched Messages",
		lo: 1, hi: MaxPrefetchLimit, example: 1, unit: " messages", accepts: "the AMQP sender",
	}},
	{func(s AMQPSender) Value[int64] { return s.ConcurrentProcesses }, intRange{
		rule: "amqp.concurrent_range", attribute: attrConcurrentProcesses, summary: "Invalid Concurrent Processes",
		lo: 1, hi: MaxConcurrentLimit, example: 1, unit: " processes", accepts: "the AMQP sender",
	}},
	{func(s AMQPSender) Value[int64] { return s.ExpectedProcessingSeconds }, intRange{
		rule: "amqp.expected_processing_range", attribute: attrExpectedSeconds, summary: "Invalid Expected Processing Time",
		lo: 1, example: 5, accepts: "the provider",
	}},
}

// CheckAMQPSender applies the AMQP sender rules: endless or zero retries, a delivery
// status that cancels redelivery, the attempt budget of queue and sender together,
// inner retries, prefetch on slow flows, and the ranges. Unknown values are skipped.
func CheckAMQPSender(s AMQPSender) []Finding {
	var r report
	checkRetries(&r, s)
	checkDeliveryStatus(&r, s)
	for _, c := range senderRanges {
		c.check(&r, c.get(s))
	}
	checkTotalAttemptsRange(&r, s)
	checkAttempts(&r, s)
	checkPrefetchOnSlowFlow(&r, s)
	return r.fs
}

func checkRetries(r *report, s AMQPSender) {
	if s.AllowUnsafeRetries {
		n, ok := s.MaxNumberOfRetries.get()
		switch {
		case s.MaxNumberOfRetries.Null:
			r.warnf("amqp.retries_unsafe_allowed", attrMaxNumberOfRetries, "Unsafe Retries Allowed",
				"`allow_unsafe_retries = true` keeps `max_number_of_retries` empty: the AMQP sender retries a failing message endlessly in memory, so it never goes back to Event Mesh, is never redelivered and never reaches the dead message queue. "+
					"Set `max_number_of_retries = 1` and remove `allow_unsafe_retries`.")
			return
		case ok && n == 0:
			r.warnf("amqp.retries_unsafe_allowed", attrMaxNumberOfRetries, "Unsafe Retries Allowed",
				"`allow_unsafe_retries = true` keeps `max_number_of_retries = 0`: a redelivered message gets its outcome at once, unprocessed, so the queue's redeliveries are used up without a single real attempt. "+
					"Set `max_number_of_retries = 1` and remove `allow_unsafe_retries`.")
			return
		case ok && n > 0:
			r.warnf("amqp.allow_unsafe_retries_unused", "allow_unsafe_retries", "Allow Unsafe Retries Has No Effect",
				"`max_number_of_retries = %d` is neither empty nor 0, so `allow_unsafe_retries = true` changes nothing. Set `allow_unsafe_retries = false`, or remove it.", n)
		}
	}
	if s.MaxNumberOfRetries.Null {
		r.errorf("amqp.retries_endless", attrMaxNumberOfRetries, "Endless Retries",
			"Without `max_number_of_retries` the AMQP sender retries a failing message endlessly in memory, so it never goes back to Event Mesh, is never redelivered and never reaches the dead message queue. "+
				"Set `max_number_of_retries = 1` and spend further attempts on the queue's `max_redelivery_count`.")
		return
	}
	n, ok := s.MaxNumberOfRetries.get()
	switch {
	case !ok:
	case n == 0:
		r.errorf("amqp.retries_zero", attrMaxNumberOfRetries, "Zero Retries",
			"`max_number_of_retries = 0` gives a redelivered message its outcome at once, unprocessed, so the queue's redeliveries are used up without a single real attempt. "+
				"Set `max_number_of_retries = 1`.")
	case n < 0 || n > MaxRetriesLimit:
		r.errorf("amqp.retries_range", attrMaxNumberOfRetries, "Invalid Max Retries",
			"`max_number_of_retries = %d` would be rejected: the AMQP sender accepts 0 to %d, and 0 leaves redelivered messages unprocessed. Set `max_number_of_retries` to a value from 1 to %d, for example 1.",
			n, MaxRetriesLimit, MaxRetriesLimit)
	}
}

func checkDeliveryStatus(r *report, s AMQPSender) {
	ds, ok := s.DeliveryStatus.get()
	switch {
	case ok && ds == deliveryRejected && s.AllowCancelledRedelivery:
		r.warnf("amqp.allow_cancelled_unused", "allow_cancelled_redelivery", "Allow Cancelled Redelivery Has No Effect",
			"`delivery_status_after_max_retries = %q` lets Event Mesh redeliver the message, so `allow_cancelled_redelivery = true` changes nothing. "+
				"Set `allow_cancelled_redelivery = false`, or remove it.", ds)
	case !ok || ds == deliveryRejected:
	case ds == deliveryUndeliverable && s.AllowCancelledRedelivery:
		r.warnf("amqp.delivery_status_undeliverable_allowed", attrDeliveryStatus, "Redelivery Cancelled Allowed",
			"`allow_cancelled_redelivery = true` keeps `delivery_status_after_max_retries = %q`, which tells Event Mesh never to deliver the message again: `max_redelivery_count` never applies and nothing ever reaches the dead message queue. "+
				"Set `delivery_status_after_max_retries = %q` and remove `allow_cancelled_redelivery`.", ds, deliveryRejected)
	case ds == deliveryUndeliverable:
		r.errorf("amqp.delivery_status_undeliverable", attrDeliveryStatus, "Redelivery Cancelled",
			"`delivery_status_after_max_retries = %q` tells Event Mesh never to deliver the message again: it cancels the queue's redelivery, so `max_redelivery_count` never applies and nothing ever reaches the dead message queue. "+
				"Set `delivery_status_after_max_retries = %q` (or, only to import a channel that already works this way as it is and change it later, set `allow_cancelled_redelivery = true` for now).", ds, deliveryRejected)
	default:
		r.errorf("amqp.delivery_status_invalid", attrDeliveryStatus, "Invalid Delivery Status",
			"`delivery_status_after_max_retries = %q` would be rejected: the AMQP sender knows only %s and %s. "+
				"Set `delivery_status_after_max_retries = %q`, the value Event Mesh needs to redeliver the message and move it to the dead message queue.",
			ds, deliveryRejected, deliveryUndeliverable, deliveryRejected)
	}
}

func checkTotalAttemptsRange(r *report, s AMQPSender) {
	budget, ok := s.MaxTotalAttempts.get()
	if !ok || budget >= minTotalAttempts {
		return
	}
	r.errorf("amqp.max_total_attempts_range", attrMaxTotalAttempts, "Attempt Budget Too Small",
		"No setting fits `max_total_attempts = %d`: the fewest attempts a finite setting gives is %d (`max_number_of_retries = 1` with the queue's `max_redelivery_count = 1`), and a `max_redelivery_count` of 0 means unlimited. "+
			"Set `max_total_attempts` to %d or more.", budget, minTotalAttempts, minTotalAttempts)
}

// checkAttempts relates the sender's retries to the queue's redelivery count: the
// unlimited count, the attempt budget and the cost of inner retries.
func checkAttempts(r *report, s AMQPSender) {
	redeliveries, bounded := s.QueueMaxRedeliveryCount.get()
	if bounded && (redeliveries < 1 || redeliveries > MaxRedeliveryCountLimit) {
		reportQueueRedelivery(r, redeliveries)
		bounded = false
	}
	n, ok := s.MaxNumberOfRetries.get()
	if !ok || n < 1 || n > MaxRetriesLimit {
		return // Unknown, or reported by checkRetries.
	}
	worst := int64(0) // 0: no bound known.
	if bounded {
		worst, _ = MaxAttempts(redeliveries, n)
		checkBudget(r, s, redeliveries, n, worst)
	}
	if n > 1 {
		r.warnf("amqp.inner_retries", attrMaxNumberOfRetries, "Inner Retries",
			"`max_number_of_retries = %d` runs %d inner retries on every delivery. Inner retries live in memory, so a restart or redeploy loses them, they stay on one node, and using them up never moves a message to the dead message queue; only redeliveries do. %s",
			n, n, oneRetryRecipe(worst))
	}
}

func reportQueueRedelivery(r *report, redeliveries int64) {
	if redeliveries == 0 {
		r.errorf("amqp.queue_redelivery_unlimited", attrQueueMaxRedelivery, "Unlimited Redelivery",
			"The queue's `max_redelivery_count = 0` means unlimited redelivery in Event Mesh: a message that always fails is redelivered to this sender for ever, which can mean thousands of billed executions per second (SAP Note 3469268). "+
				"Set `max_redelivery_count` on the queue to a value from 1 to %d, for example %d.", MaxRedeliveryCountLimit, recommendedRedeliveries)
		return
	}
	r.errorf("amqp.queue_redelivery_range", attrQueueMaxRedelivery, "Invalid Queue Max Redelivery Count",
		"`queue_max_redelivery_count = %d` is outside 0 to %d, the range Event Mesh accepts, so the attempts of this sender cannot be bounded. "+
			"Set `max_redelivery_count` on the queue to a value from 1 to %d, for example %d.", redeliveries, MaxRedeliveryCountLimit, MaxRedeliveryCountLimit, recommendedRedeliveries)
}

func checkBudget(r *report, s AMQPSender, redeliveries, retries, worst int64) {
	budget, ok := s.MaxTotalAttempts.get()
	if !ok || budget < minTotalAttempts || worst <= budget {
		return
	}
	fit := min(budget-2, MaxRedeliveryCountLimit)
	r.errorf("amqp.attempt_budget_exceeded", attrMaxTotalAttempts, "Attempt Budget Exceeded",
		"With the queue's `max_redelivery_count` R = %d and `max_number_of_retries` n = %d, one always-failing message runs up to (R + 1) × n + 1 = (%d + 1) × %d + 1 = %d times, more than `max_total_attempts = %d`. "+
			"Set `max_number_of_retries = 1` and the queue's `max_redelivery_count = %d`, which gives at most %d attempts, all of them persisted redeliveries that end in the dead message queue.",
		redeliveries, retries, redeliveries, retries, worst, budget, fit, fit+2)
}

// oneRetryRecipe says how to spend worst attempts on redeliveries; worst 0 means unknown.
func oneRetryRecipe(worst int64) string {
	if worst == 0 {
		return "Set `max_number_of_retries = 1` and spend the attempts on the queue's `max_redelivery_count` instead; the total is then `max_redelivery_count` + 2."
	}
	if redeliveries, err := RedeliveriesFor(worst); err == nil {
		return fmt.Sprintf("Set `max_number_of_retries = 1` and the queue's `max_redelivery_count = %d` for the same %d attempts, spent on persisted redeliveries.", redeliveries, worst)
	}
	return fmt.Sprintf("Set `max_number_of_retries = 1` and the queue's `max_redelivery_count = %d` for %d attempts, the most one retry allows, spent on persisted redeliveries.",
		MaxRedeliveryCountLimit, maxTotalAttemptsOneRetry)
}

func checkPrefetchOnSlowFlow(r *report, s AMQPSender) {
	seconds, ok1 := s.ExpectedProcessingSeconds.get()
	prefetch, ok2 := s.MaxPrefetchedMessages.get()
	if !ok1 || !ok2 || seconds <= slowFlowSeconds || prefetch <= 1 {
		return
	}
	r.warnf("amqp.prefetch_slow_flow", attrMaxPrefetched, "Slow Flow Prefetch",
		"`max_prefetched_messages = %d` with about %d seconds per message: one redelivery lock clock starts with the first message of a prefetched batch and covers the whole batch, so messages still waiting in the batch lose their lock before they are processed and are delivered twice. "+
			"Set `max_prefetched_messages = 1` for flows that take longer than a minute.", prefetch, seconds)
}
