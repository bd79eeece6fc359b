package rules

import (
	"fmt"
	"strings"
)

// Terraform attribute names of the queue resources.
const (
	attrName                     = "name"
	attrAccessType               = "access_type"
	attrDeadMessageQueue         = "dead_message_queue"
	attrMaxRedeliveryCount       = "max_redelivery_count"
	attrAllowUnlimitedRedelivery = "allow_unlimited_redelivery"
	attrMaxTTL                   = "max_ttl"
	attrRespectTTL               = "respect_ttl"
	attrAllowNoTTL               = "allow_no_ttl"
	attrAllowIneffectiveTTL      = "allow_ineffective_ttl"
	attrAllowDMQOutside          = "allow_dead_message_queue_outside_namespace"
	attrAllowSelfAsDMQ           = "allow_self_as_dead_message_queue"
	attrAllowNoQueueLimits       = "allow_no_queue_limits"
	attrAllowLargeMessageSize    = "allow_message_size_above_documented_max"
	attrMaxQueueSize             = "max_queue_size_in_bytes"
	attrMaxMessageSize           = "max_message_size_in_bytes"
	attrMaxQueueMessages         = "max_queue_message_count"
	attrMaxUnackedPerFlow        = "max_delivered_unacked_msgs_per_flow"
	maxQueueSizeInBytes          = MaxQueueSizeInBytes
	maxMessageSizeInBytes        = MaxMessageSizeInBytes
	recommendedRedeliveries      = 5
)

// Access types of an Event Mesh queue.
const (
	accessNonExclusive = "NON_EXCLUSIVE"
	accessExclusive    = "EXCLUSIVE"
)

// Queue holds the plan-time settings of an Event Mesh queue.
type Queue struct {
	Name, AccessType, DeadMessageQueue                                                               Value[string]
	MaxRedeliveryCount, MaxTTL                                                                       Value[int64]
	RespectTTL                                                                                       Value[bool]
	MaxQueueSizeInBytes, MaxMessageSizeInBytes, MaxQueueMessageCount, MaxDeliveredUnackedMsgsPerFlow Value[int64]
	// IsDeadMessageQueue marks a sapmessaging_dead_message_queue: it needs a time to
	// live, and neither the redelivery rule nor the missing dead message queue rule applies.
	IsDeadMessageQueue bool
	// AllowUnlimitedRedelivery is the configuration's explicit acceptance of a redelivery count
	// of 0 or none on a queue adopted as it is: the redelivery rule then warns instead of refusing.
	AllowUnlimitedRedelivery bool
	// AllowNoTTL is the configuration's explicit acceptance of a dead message queue without a
	// time to live (no max_ttl, respect_ttl off), adopted as it is: the TTL rules of a dead
	// message queue then warn instead of refusing.
	AllowNoTTL bool
	// AllowIneffectiveTTL is the configuration's explicit acceptance of a time to live that takes no effect
	// (`respect_ttl` without `max_ttl`, or `max_ttl` without `respect_ttl`) on a queue adopted as it is: the two
	// rules then warn instead of refusing.
	AllowIneffectiveTTL bool
	// AllowDMQOutsideNamespace is the configuration's explicit acceptance of a dead message queue in another
	// namespace on a queue adopted as it is: the namespace rule then warns instead of refusing.
	AllowDMQOutsideNamespace bool
	// AllowSelfAsDMQ is the configuration's explicit acceptance of a queue that names itself as its dead message
	// queue, adopted as it is: the rule then warns instead of refusing.
	AllowSelfAsDMQ bool
	// AllowNoQueueLimits is the configuration's explicit acceptance of `max_queue_size_in_bytes = 0` or
	// `max_queue_message_count = 0` on a queue adopted as it is: Event Mesh shows 0 on a queue created without these
	// limits, and such a queue takes messages (see noQueueLimits). The two range rules then warn instead of refusing.
	AllowNoQueueLimits bool
	// AllowMessageSizeAboveDocumentedMax is the configuration's explicit acceptance of a `max_message_size_in_bytes`
	// above 1 MB, the maximum SAP documents, on a queue adopted as it is (see checkLargeMessageSize): the range rule
	// then warns instead of refusing.
	AllowMessageSizeAboveDocumentedMax bool
}

// checkLargeMessageSize handles a known `max_message_size_in_bytes` above maxMessageSizeInBytes: SAP documents 1 MB as
// the default and maximum for Event Mesh in SAP Integration Suite (create-a-queue-95357fa.md step 6), but a queue of
// the default plan of SAP Event Mesh was seen holding 10000000 (reference note sap-apis.md, section 1), so such a
// queue can exist. It reports an error that says what the value does, or a warning with
// allow_message_size_above_documented_max, and whether it handled the value (the range rule then skips it). The
// attribute with a message size within 1 MB warns that it changes nothing; a size of 0 or less is left to the range rule.
func checkLargeMessageSize(r *report, q Queue) bool {
	n, ok := q.MaxMessageSizeInBytes.get()
	if !ok || n <= maxMessageSizeInBytes {
		if q.AllowMessageSizeAboveDocumentedMax && !q.MaxMessageSizeInBytes.IsUnknown() {
			r.warnf("queue.allow_message_size_above_documented_max_unused", attrAllowLargeMessageSize, "Allow Message Size Above Documented Maximum Has No Effect",
				"`%s` is not above %d bytes (1 MB), so `%s = true` changes nothing. Set `%s = false`, or remove it.",
				attrMaxMessageSize, maxMessageSizeInBytes, attrAllowLargeMessageSize, attrAllowLargeMessageSize)
		}
		return false
	}
	what := fmt.Sprintf("`%s = %d` lets messages of up to %d bytes into the queue, above the %d bytes (1 MB) that SAP documents as the "+
		"default and maximum message size of Event Mesh in SAP Integration Suite, which refuses the value; a queue of the default plan of "+
		"SAP Event Mesh can hold it, but its consumers then have to take messages larger than SAP documents, and the same configuration "+
		"fails on the Integration Suite capability", attrMaxMessageSize, n, n, maxMessageSizeInBytes)
	fix := fmt.Sprintf("Set `%s` to a value from 1 to %d", attrMaxMessageSize, maxMessageSizeInBytes)
	if q.AllowMessageSizeAboveDocumentedMax {
		r.warnf("queue.max_message_size_range_allowed", attrMaxMessageSize, "Message Size Above Documented Maximum Allowed",
			"`%s = true` keeps it: %s. %s once no sender needs larger messages, and remove `%s`.", attrAllowLargeMessageSize, what, fix, attrAllowLargeMessageSize)
		return true
	}
	r.errorf("queue.max_message_size_range", attrMaxMessageSize, "Message Size Above Documented Maximum",
		"%s. %s, for example %d (or, only to import a queue that already holds it as it is and change it later, set `%s = true` for now).",
		what, fix, maxMessageSizeInBytes, attrAllowLargeMessageSize)
	return true
}

// noQueueLimits are the settings that Event Mesh shows as 0 on a queue created without them, a queue that
// still takes messages: the management API answered a PUT without a body with "maxQueueSizeInBytes": 0 and
// "maxQueueMessageCount": 0, and the same queue then held a message of 256 bytes with both still 0
// (SAP-archive/teched2020-developer-keynote, s4hana/event/README.md, "Queue and queue subscription to a topic").
// 0 there sets no limit of the queue's own; what writing 0 does SAP does not document, so a configuration
// writes a value in range, and 0 is accepted only on a queue adopted as it is. The rule of each is the rule of
// its range in queueRanges.
var noQueueLimits = []struct {
	get                           func(Queue) Value[int64]
	rule, attribute, summary, fix string
}{
	{func(q Queue) Value[int64] { return q.MaxQueueSizeInBytes }, "queue.max_queue_size_range", attrMaxQueueSize, "Queue Without Size Limit",
		fmt.Sprintf("Set `%s` to a value from 1 to %d (1.5 GB, the default and maximum SAP documents)", attrMaxQueueSize, maxQueueSizeInBytes)},
	{func(q Queue) Value[int64] { return q.MaxQueueMessageCount }, "queue.max_queue_message_count_range", attrMaxQueueMessages, "Queue Without Message Count Limit",
		fmt.Sprintf("Set `%s` to at least 1, for example 100000", attrMaxQueueMessages)},
}

// checkNoQueueLimits handles a known 0 in the settings of noQueueLimits: an error that says what 0 does, or a
// warning with allow_no_queue_limits; it reports the settings it handled, which the range rules then skip. An
// allow_no_queue_limits with no 0 to adopt warns that it changes nothing.
func checkNoQueueLimits(r *report, q Queue) map[string]bool {
	handled := map[string]bool{}
	unknown := false
	for _, c := range noQueueLimits {
		v := c.get(q)
		n, ok := v.get()
		unknown = unknown || v.IsUnknown()
		if !ok || n != 0 {
			continue
		}
		handled[c.rule] = true
		what := fmt.Sprintf("`%s = 0` sets no limit of the queue's own: Event Mesh shows 0 on a queue created without this limit, and such a queue "+
			"takes messages, so a consumer that stops lets it grow with no limit of its own, taking room the instance's other queues may need. "+
			"SAP documents no meaning for writing 0", c.attribute)
		if q.AllowNoQueueLimits {
			r.warnf(c.rule+"_allowed", c.attribute, c.summary+" Allowed",
				"`%s = true` keeps it: %s. %s, and remove `%s`.", attrAllowNoQueueLimits, what, c.fix, attrAllowNoQueueLimits)
			continue
		}
		r.errorf(c.rule, c.attribute, c.summary,
			"%s. %s (or, only to import a queue that already holds 0 as it is and change it later, set `%s = true` for now).",
			what, c.fix, attrAllowNoQueueLimits)
	}
	if q.AllowNoQueueLimits && len(handled) == 0 && !unknown {
		r.warnf("queue.allow_no_queue_limits_unused", attrAllowNoQueueLimits, "Allow No Queue Limits Has No Effect",
			"Neither `%s` nor `%s` is 0, so `%s = true` changes nothing. Set `%s = false`, or remove it.",
			attrMaxQueueSize, attrMaxQueueMessages, attrAllowNoQueueLimits, attrAllowNoQueueLimits)
	}
	return handled
}

var queueRanges = []struct {
	get func(Queue) Value[int64]
	intRange
}{
	{func(q Queue) Value[int64] { return q.MaxTTL }, intRange{
		rule: "queue.max_ttl_range", attribute: attrMaxTTL, summary: "Invalid Max TTL",
		lo: 1, hi: MaxTTLLimit, example: DefaultDMQTTL, unit: " seconds (7 days)", accepts: "Event Mesh",
	}},
	{func(q Queue) Value[int64] { return q.MaxQueueSizeInBytes }, intRange{
		rule: "queue.max_queue_size_range", attribute: attrMaxQueueSize, summary: "Invalid Max Queue Size",
		lo: 1, hi: maxQueueSizeInBytes, example: maxQueueSizeInBytes, unit: " bytes", accepts: "Event Mesh",
	}},
	{func(q Queue) Value[int64] { return q.MaxMessageSizeInBytes }, intRange{
		rule: "queue.max_message_size_range", attribute: attrMaxMessageSize, summary: "Invalid Max Message Size",
		lo: 1, hi: maxMessageSizeInBytes, example: 1000000, unit: " bytes", accepts: "Event Mesh",
	}},
	{func(q Queue) Value[int64] { return q.MaxQueueMessageCount }, intRange{
		rule: "queue.max_queue_message_count_range", attribute: attrMaxQueueMessages, summary: "Invalid Max Queue Message Count",
		lo: 1, example: 100000, accepts: "Event Mesh",
	}},
	{func(q Queue) Value[int64] { return q.MaxDeliveredUnackedMsgsPerFlow }, intRange{
		rule: "queue.max_unacked_per_flow_range", attribute: attrMaxUnackedPerFlow, summary: "Invalid Max Unacknowledged Messages",
		lo: 1, example: 10000, accepts: "Event Mesh",
	}},
}

// CheckQueue applies all queue rules: name and ranges, unlimited redelivery, the dead
// message queue (self, namespace, missing) and the pairing of respect_ttl and max_ttl.
// Unknown values are skipped.
func CheckQueue(q Queue) []Finding {
	var r report
	checkQueueName(&r, q)
	checkAccessType(&r, q)
	checkRedelivery(&r, q)
	checkDeadMessageQueue(&r, q)
	checkTTL(&r, q)
	handled := checkNoQueueLimits(&r, q)
	handled["queue.max_message_size_range"] = checkLargeMessageSize(&r, q)
	for _, c := range queueRanges {
		if !handled[c.rule] {
			c.check(&r, c.get(q))
		}
	}
	return r.fs
}

func checkQueueName(r *report, q Queue) {
	name, ok := q.Name.get()
	if !ok {
		return
	}
	if err := ValidQueueName(name); err != nil {
		r.errorf("queue.name_invalid", attrName, "Invalid Queue Name", "%s", QueueNameDetail(attrName, err))
	}
}

// QueueNameDetail is the one message for a queue name, set as attribute, that ValidQueueName
// refuses: the rules' finding and the provider's attribute validator both use it.
func QueueNameDetail(attribute string, err error) string {
	return fmt.Sprintf("Event Mesh would reject the queue name: %s. Set `%s` to the full queue name including the namespace, "+
		"for example \"acme/crm/prod/orders\".", strings.TrimRight(err.Error(), ". "), attribute)
}

func checkAccessType(r *report, q Queue) {
	at, ok := q.AccessType.get()
	if !ok || at == accessNonExclusive || at == accessExclusive {
		return
	}
	r.errorf("queue.access_type_invalid", attrAccessType, "Invalid Access Type",
		"`access_type = %q` would be rejected: Event Mesh knows only %s (consumers share the queue) and %s (one consumer at a time). Set `access_type` to %q or %q.",
		at, accessNonExclusive, accessExclusive, accessNonExclusive, accessExclusive)
}

// adoptHint is how the redelivery error tells a team adopting a queue that already redelivers
// without limit how to import it first and fix it later.
const adoptHint = " (or, only to import a queue that already works this way as it is and change it later, set `allow_unlimited_redelivery = true` for now)."

func checkRedelivery(r *report, q Queue) {
	n, known := q.MaxRedeliveryCount.get()
	unlimited := !q.IsDeadMessageQueue && (q.MaxRedeliveryCount.Null || (known && n == 0))
	switch {
	case q.AllowUnlimitedRedelivery && unlimited:
		r.warnf("queue.redelivery_unlimited_allowed", attrMaxRedeliveryCount, "Unlimited Redelivery Allowed",
			"`allow_unlimited_redelivery = true` keeps this queue's redelivery count at 0, which Event Mesh reads as unlimited: "+
				"a poison message is redelivered for ever, which can mean thousands of billed executions per second (SAP Note 3469268). "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d, and remove `allow_unlimited_redelivery`.", MaxRedeliveryCountLimit, recommendedRedeliveries)
		return
	case q.AllowUnlimitedRedelivery && known:
		r.warnf("queue.allow_unlimited_unused", attrAllowUnlimitedRedelivery, "Allow Unlimited Redelivery Has No Effect",
			"`max_redelivery_count = %d` is limited, so `allow_unlimited_redelivery = true` changes nothing. Set `allow_unlimited_redelivery = false`, or remove it.", n)
	}
	if q.MaxRedeliveryCount.Null && !q.IsDeadMessageQueue {
		r.errorf("queue.redelivery_unlimited", attrMaxRedeliveryCount, "Unlimited Redelivery",
			"Without `max_redelivery_count` the queue keeps the Event Mesh default of 0, and 0 means unlimited redelivery, not \"no retry\". "+
				"A poison message is then redelivered for ever, which can mean thousands of billed executions per second (SAP Note 3469268). "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d"+adoptHint, MaxRedeliveryCountLimit, recommendedRedeliveries)
		return
	}
	switch {
	case !known:
	case n == 0 && !q.IsDeadMessageQueue:
		r.errorf("queue.redelivery_unlimited", attrMaxRedeliveryCount, "Unlimited Redelivery",
			"In Event Mesh `max_redelivery_count = 0` means unlimited redelivery, not \"no retry\". "+
				"A poison message is then redelivered for ever, which can mean thousands of billed executions per second (SAP Note 3469268). "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d"+adoptHint, MaxRedeliveryCountLimit, recommendedRedeliveries)
	case n < 0 || n > MaxRedeliveryCountLimit:
		r.errorf("queue.redelivery_range", attrMaxRedeliveryCount, "Invalid Max Redelivery Count",
			"`max_redelivery_count = %d` would be rejected: Event Mesh accepts 0 to %d, and 0 means unlimited. Set `max_redelivery_count` to a value from 1 to %d, for example %d.",
			n, MaxRedeliveryCountLimit, MaxRedeliveryCountLimit, recommendedRedeliveries)
	}
}

func checkDeadMessageQueue(r *report, q Queue) {
	if q.DeadMessageQueue.IsUnknown() {
		return
	}
	dmq, set := q.DeadMessageQueue.get()
	name, nameKnown := q.Name.get()
	if set && strings.TrimSpace(dmq) == "" && !q.IsDeadMessageQueue {
		r.errorf("queue.dmq_empty", attrDeadMessageQueue, "Empty Dead Message Queue",
			"`dead_message_queue = %q` names no queue: Event Mesh stores an empty name as no dead message queue at all, so the queue would have none "+
				"and the state would never match the configuration. Set `dead_message_queue` to the full name of a queue, for example %q, or remove the attribute.", dmq, exampleDMQ(name, nameKnown))
		return
	}
	if dmq == "" {
		if !q.IsDeadMessageQueue {
			r.warnf("queue.dmq_missing", attrDeadMessageQueue, "No Dead Message Queue",
				"Without a `dead_message_queue` nothing keeps a poison message: once `max_redelivery_count` is used up Event Mesh discards it, without a trace (with `max_redelivery_count` 0 it is instead redelivered for ever and blocks the messages behind it). "+
					"Productive queues need a dead message queue that someone monitors. Set `dead_message_queue` to a `sapmessaging_dead_message_queue` in the same namespace, for example %q.",
				exampleDMQ(name, nameKnown))
		}
		return
	}
	if err := ValidQueueName(dmq); err != nil {
		r.errorf("queue.dmq_name_invalid", attrDeadMessageQueue, "Invalid Dead Message Queue Name",
			"Event Mesh would reject `dead_message_queue`: %s. Set `dead_message_queue` to the full name of a queue in the same namespace, for example %q.",
			err, exampleDMQ(name, nameKnown))
		return
	}
	if !nameKnown {
		return
	}
	switch {
	case dmq == name && q.AllowSelfAsDMQ:
		r.warnf("queue.dmq_self_allowed", attrDeadMessageQueue, "Dead Message Queue Cycle Allowed",
			"`%s = true` keeps `dead_message_queue` naming the queue %q itself: a dead message is moved back into the queue it failed on and redelivered again. "+
				"Set `dead_message_queue` to a separate queue in the same namespace, for example %q, and remove `%s`.", attrAllowSelfAsDMQ, name, exampleDMQ(name, true), attrAllowSelfAsDMQ)
		return
	case dmq == name:
		r.errorf("queue.dmq_self", attrDeadMessageQueue, "Dead Message Queue Cycle",
			"`dead_message_queue` names the queue %q itself, so a dead message would be moved back into the queue it failed on and redelivered again. "+
				"Set `dead_message_queue` to a separate queue in the same namespace, for example %q "+
				"(or, only to import a queue that already works this way as it is and change it later, set `%s = true` for now).", name, exampleDMQ(name, true), attrAllowSelfAsDMQ)
		return
	case q.AllowSelfAsDMQ:
		r.warnf("queue.allow_self_as_dmq_unused", attrAllowSelfAsDMQ, "Allow Self as Dead Message Queue Has No Effect",
			"`dead_message_queue` %q is another queue, so `%s = true` changes nothing. Set `%s = false`, or remove it.", dmq, attrAllowSelfAsDMQ, attrAllowSelfAsDMQ)
	}
	ns, dns := Namespace(name), Namespace(dmq)
	switch {
	case ns != dns && q.AllowDMQOutsideNamespace:
		r.warnf("queue.dmq_namespace_allowed", attrDeadMessageQueue, "Dead Message Queue Outside Namespace Allowed",
			"`%s = true` keeps `dead_message_queue` %q, in %s, for the queue %q in %s: a queue in another namespace belongs to another Event Mesh client, which receives dead messages that nobody who owns this queue monitors. "+
				"Set `dead_message_queue` to a queue in the same namespace, for example %q, and remove `%s`.",
			attrAllowDMQOutside, dmq, describeNamespace(dns), name, describeNamespace(ns), exampleDMQ(name, true), attrAllowDMQOutside)
	case ns != dns:
		r.errorf("queue.dmq_namespace", attrDeadMessageQueue, "Dead Message Queue Outside Namespace",
			"The queue %q is in %s, but `dead_message_queue` %q is in %s. A queue in another namespace belongs to another Event Mesh client, which would receive dead messages that nobody who owns this queue monitors. "+
				"Set `dead_message_queue` to a queue in the same namespace, for example %q (or, only to import a queue that already works this way as it is and change it later, set `%s = true` for now).",
			name, describeNamespace(ns), dmq, describeNamespace(dns), exampleDMQ(name, true), attrAllowDMQOutside)
	case q.AllowDMQOutsideNamespace:
		r.warnf("queue.allow_dmq_outside_namespace_unused", attrAllowDMQOutside, "Allow Dead Message Queue Outside Namespace Has No Effect",
			"`dead_message_queue` %q is in the queue's own %s, so `%s = true` changes nothing. Set `%s = false`, or remove it.",
			dmq, describeNamespace(ns), attrAllowDMQOutside, attrAllowDMQOutside)
	}
}

// exampleDMQ suggests a dead message queue name for the queue.
func exampleDMQ(name string, known bool) string {
	if !known || name == "" {
		return "acme/crm/prod/orders/dmq"
	}
	return name + "/dmq"
}

func describeNamespace(ns string) string {
	if ns == "" {
		return "no namespace (it has fewer than three segments)"
	}
	return fmt.Sprintf("namespace %q", ns)
}

func checkTTL(r *report, q Queue) {
	respect, respectKnown := q.RespectTTL.get()
	_, ttlKnown := q.MaxTTL.get()
	if q.IsDeadMessageQueue && q.AllowNoTTL {
		switch {
		case (respectKnown && !respect) || q.MaxTTL.Null:
			r.warnf("dmq.no_ttl_allowed", attrMaxTTL, "Dead Message Queue Without TTL Allowed",
				"`allow_no_ttl = true` keeps this dead message queue without a time to live: it keeps every dead message for ever and grows until it is full, "+
					"after which new dead messages are lost. Set `max_ttl` to how long dead messages stay, for example %d (7 days), and remove `allow_no_ttl`.", DefaultDMQTTL)
			return
		case ttlKnown:
			r.warnf("dmq.allow_no_ttl_unused", attrAllowNoTTL, "Allow No TTL Has No Effect",
				"`max_ttl` is set, so the dead message queue respects its time to live and `allow_no_ttl = true` changes nothing. Set `allow_no_ttl = false`, or remove it.")
		}
	}
	if q.IsDeadMessageQueue && !q.AllowNoTTL {
		if respectKnown && !respect {
			r.errorf("dmq.respect_ttl_required", attrRespectTTL, "Dead Message Queue Without TTL",
				"With `respect_ttl = false` the dead message queue keeps every dead message for ever and grows until it is full, after which new dead messages are lost. "+
					"Set `respect_ttl = true` and `max_ttl` to how long dead messages stay, for example %d (7 days).", DefaultDMQTTL)
		}
		if q.MaxTTL.Null {
			r.errorf("dmq.max_ttl_required", attrMaxTTL, "Dead Message Queue Without TTL",
				"Without `max_ttl` the dead message queue keeps every dead message for ever and grows until it is full, after which new dead messages are lost. "+
					"Set `max_ttl` to how long dead messages stay, for example %d (7 days), with `respect_ttl = true`.", DefaultDMQTTL)
		}
	}
	allow := q.AllowIneffectiveTTL && !q.IsDeadMessageQueue
	switch {
	case respectKnown && respect && q.MaxTTL.Null && !q.IsDeadMessageQueue && allow:
		r.warnf("queue.respect_ttl_without_max_ttl_allowed", attrMaxTTL, "Respect TTL Without Max TTL Allowed",
			"`%s = true` keeps `respect_ttl = true` without `max_ttl`: the queue has no time to live to respect, so no message ever expires or moves to the dead message queue on age. "+
				"Set `max_ttl` to a value from 1 to %d seconds, or set `respect_ttl = false`, and remove `%s`.", attrAllowIneffectiveTTL, MaxTTLLimit, attrAllowIneffectiveTTL)
	case respectKnown && respect && q.MaxTTL.Null && !q.IsDeadMessageQueue:
		r.errorf("queue.respect_ttl_without_max_ttl", attrMaxTTL, "Respect TTL Without Max TTL",
			"`respect_ttl = true` without `max_ttl` gives the queue no time to live to respect, so no message ever expires or moves to the dead message queue on age. "+
				"Set `max_ttl` to a value from 1 to %d seconds, or set `respect_ttl = false`"+ineffectiveTTLHint, MaxTTLLimit)
	case ttlKnown && (q.RespectTTL.Null || respectKnown && !respect && !q.IsDeadMessageQueue) && allow:
		r.warnf("queue.max_ttl_without_respect_ttl_allowed", attrRespectTTL, "Max TTL Without Respect TTL Allowed",
			"`%s = true` keeps `max_ttl` without `respect_ttl`: Event Mesh ignores the time to live, so messages never expire and never move to the dead message queue on age. "+
				"Set `respect_ttl = true`, or remove `max_ttl`, and remove `%s`.", attrAllowIneffectiveTTL, attrAllowIneffectiveTTL)
	case ttlKnown && (q.RespectTTL.Null || respectKnown && !respect && !q.IsDeadMessageQueue):
		r.errorf("queue.max_ttl_without_respect_ttl", attrRespectTTL, "Max TTL Without Respect TTL",
			"`max_ttl` has no effect unless `respect_ttl` is true: Event Mesh then ignores the time to live, so messages never expire and never move to the dead message queue on age. "+
				"Set `respect_ttl = true`, or remove `max_ttl`"+ineffectiveTTLHint)
	case allow && (respectKnown || q.RespectTTL.Null) && !q.MaxTTL.IsUnknown():
		r.warnf("queue.allow_ineffective_ttl_unused", attrAllowIneffectiveTTL, "Allow Ineffective TTL Has No Effect",
			"`respect_ttl` and `max_ttl` are set together or not at all, so the time to live takes effect as configured and `%s = true` changes nothing. "+
				"Set `%s = false`, or remove it.", attrAllowIneffectiveTTL, attrAllowIneffectiveTTL)
	}
}

// ineffectiveTTLHint is how the two rules of a time to live without effect tell a team adopting such a queue
// how to import it first and fix it later.
const ineffectiveTTLHint = " (or, only to import a queue that already works this way as it is and change it later, set `" +
	attrAllowIneffectiveTTL + " = true` for now)."
