package rules

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The rules of SAP Integration Suite, advanced event mesh (AEM) queues: Solace PubSub+ broker queues managed
// through SEMP v2. Their broker defaults are the trap: maxRedeliveryCount 0 means retry for ever, the
// redelivery delay is off (a poison message comes back as fast as the consumer fails it), ingress and
// egress are off, and the dead message queue #DEAD_MSG_QUEUE does not exist until someone creates it, so a
// removed message is deleted. Sources: the SEMP v2 specification (MsgVpnQueue, SEMP 2.49; [SPEC]),
// docs.solace.com Messaging/Guaranteed-Msg/Setting-Dead-Msg-Queues.htm ([SOL] DMQ) and the project's
// reference note shared/reference/aem.md.

// AEM limits and broker defaults ([SPEC] MsgVpnQueue: x-default, minimum, maximum).
const (
	AEMMaxRedeliveryCountLimit         = 255
	AEMDefaultDeadMsgQueue             = "#DEAD_MSG_QUEUE"
	AEMDefaultRedeliveryInitialMs      = 1000
	AEMDefaultRedeliveryMaxMs          = 64000
	AEMDefaultRedeliveryMultiplier     = 200 // fixed point: 200 = × 2.00
	AEMMaxRedeliveryInitialMs          = 3600000
	AEMMaxRedeliveryMaxMs              = 10800000
	AEMMinRedeliveryMultiplier         = 100
	AEMMaxRedeliveryMultiplier         = 500
	AEMMaxTTLLimit                     = 4294967295
	AEMDefaultMaxMsgSize               = 10000000 // bytes ([SPEC] MsgVpnQueue.maxMsgSize x-default)
	AEMDefaultMaxMsgSpoolUsage         = 5000     // MB ([SPEC] MsgVpnQueue.maxMsgSpoolUsage x-default)
	attrMaxMsgSpoolUsage               = "max_msg_spool_usage"
	aemRecommendedRedeliveries         = 5
	aemExampleDMQTTL                   = 604800 // 7 days, as the Event Mesh dead message queues of the provider
	attrRedeliveryDelayEnabled         = "redelivery_delay_enabled"
	attrRedeliveryDelayInitial         = "redelivery_delay_initial_interval"
	attrRedeliveryDelayMax             = "redelivery_delay_max_interval"
	attrRedeliveryDelayMultiplier      = "redelivery_delay_multiplier"
	attrIngressEnabled                 = "ingress_enabled"
	attrEgressEnabled                  = "egress_enabled"
	attrRespectDMQEligible             = "respect_dmq_eligible_enabled"
	attrAllowMissingDMQ                = "allow_missing_dead_message_queue"
	attrAllowIngressDisabled           = "allow_ingress_disabled"
	aemAssumedFailMs               int = 10 // how long a consumer takes to fail a poison message, for the warning's rate
)

// AEMQueue holds the plan-time settings of an AEM queue. A null setting is one the configuration leaves to
// the broker's default.
type AEMQueue struct {
	Name, DeadMessageQueue                                     Value[string]
	MaxRedeliveryCount, MaxTTL                                 Value[int64]
	RedeliveryEnabled, RedeliveryDelayEnabled, RespectTTL      Value[bool]
	RedeliveryDelayInitialInterval, RedeliveryDelayMaxInterval Value[int64]
	RedeliveryDelayMultiplier                                  Value[int64]
	IngressEnabled, EgressEnabled, RespectDMQEligible          Value[bool]
	// DeadMessageQueueExists says whether the broker holds the queue's dead message queue (the one it names,
	// or #DEAD_MSG_QUEUE when it names none); unknown when it was not read.
	DeadMessageQueueExists Value[bool]
	// DeadMessageQueueCreatedHere is set when the configuration creates that queue.
	DeadMessageQueueCreatedHere bool
	// DeadMessageQueueIngress is the ingressEnabled of that dead message queue: as the configuration plans it
	// when a dead message queue resource of the configuration manages it, else as the broker holds it;
	// unknown when it was not read (or the queue does not exist). false: the dead message queue takes no
	// message, and the broker deletes what it should keep there, as with a missing one.
	DeadMessageQueueIngress Value[bool]
	// DeadMessageQueueCycle is, when the dead message queue moves what it removes on (through its own dead
	// message queue, transitively) back to this queue, that path: queue → dead message queue → … → queue; nil
	// when there is none or it is not known. A message that dies here then comes back and is delivered again,
	// for ever.
	DeadMessageQueueCycle []string
	// MaxMsgSize is the queue's maxMsgSize and DeadMessageQueueMaxMsgSize that of its dead message queue, in
	// bytes, as the broker holds them (the broker's default for a queue this run creates); unknown when not
	// read. A removed message larger than the dead message queue's is deleted instead of moved there.
	MaxMsgSize, DeadMessageQueueMaxMsgSize Value[int64]
	// MaxMsgSpoolUsage is the queue's maxMsgSpoolUsage (MB) and DeadMessageQueueMaxMsgSpoolUsage that of its dead
	// message queue; unknown when not read. 0 keeps only the last message received ([SPEC] MsgVpnQueue.maxMsgSpoolUsage:
	// "A value of 0 only allows spooling of the last message received and disables quota checking"): a dead
	// message queue with 0 keeps one dead message, and each new one discards the one before.
	MaxMsgSpoolUsage, DeadMessageQueueMaxMsgSpoolUsage Value[int64]
	// Consumed says whether a consumer reads the queue (unknown when that was not read): a dead message queue
	// of a cycle that a consumer reads does not keep its messages, it delivers them again.
	Consumed Value[bool]
	// AllowMissingDeadMessageQueue accepts, on a queue adopted as it is, a dead message queue that does not
	// keep what the broker removes (it does not exist, takes no messages, is named "", or leads back to
	// this queue in a cycle): the plan warns instead of refusing.
	AllowMissingDeadMessageQueue bool
	// AllowIngressDisabled accepts a dead message queue with ingress off that is adopted as it is: the plan
	// warns instead of refusing.
	AllowIngressDisabled bool
	// IsDeadMessageQueue marks a queue the configuration keeps as a dead message queue: it needs a time to
	// live and must take messages; the redelivery and DMQ rules do not apply to it.
	IsDeadMessageQueue bool
	// AllowUnlimitedRedelivery accepts a redelivery count of 0 (retry for ever) on a queue adopted as it is.
	AllowUnlimitedRedelivery bool
	// AllowNoTTL accepts a dead message queue without a time to live (respect_ttl off or no max_ttl) that is
	// adopted as it is: the plan warns instead of refusing. It covers a dead message queue's max_ttl without
	// respect_ttl too (a dead message queue without a time to live either way).
	AllowNoTTL bool
	// AllowIneffectiveTTL accepts, on a queue adopted as it is, a max_ttl the broker ignores because
	// respect_ttl is off: the plan warns instead of refusing.
	AllowIneffectiveTTL bool
}

// AEMHeldQueue is what the broker holds of a queue that the rules read when another queue names it as its
// dead message queue, or of the queue itself; a nil field is absent from the broker's answer: its default
// ([SPEC] MsgVpnQueue: ingressEnabled false, maxMsgSize 10000000).
type AEMHeldQueue struct {
	IngressEnabled   *bool
	MaxMsgSize       *int64
	MaxMsgSpoolUsage *int64 // [SPEC] default 5000 (MB)
}

// AEMHeldDeadMessageQueue sets the facts q's rules read of the broker's queue list: own is q as the broker
// holds it (nil for a queue this run creates, which gets the broker's defaults), dmq its dead message queue
// (nil when the broker does not hold it). The data sources, the queue resource and the audit read the list
// through it, so that they find the same.
func AEMHeldDeadMessageQueue(q *AEMQueue, own, dmq *AEMHeldQueue) {
	size := func(h *AEMHeldQueue) int64 {
		if h == nil || h.MaxMsgSize == nil {
			return AEMDefaultMaxMsgSize
		}
		return *h.MaxMsgSize
	}
	q.DeadMessageQueueExists = Known(dmq != nil)
	spool := func(h *AEMHeldQueue) Value[int64] {
		if h.MaxMsgSpoolUsage == nil {
			return Known[int64](AEMDefaultMaxMsgSpoolUsage)
		}
		return Known(*h.MaxMsgSpoolUsage)
	}
	q.DeadMessageQueueIngress, q.DeadMessageQueueMaxMsgSize, q.DeadMessageQueueMaxMsgSpoolUsage = Unknown[bool](), Unknown[int64](), Unknown[int64]()
	if dmq != nil {
		q.DeadMessageQueueIngress = Known(dmq.IngressEnabled != nil && *dmq.IngressEnabled)
		q.DeadMessageQueueMaxMsgSize = Known(size(dmq))
		q.DeadMessageQueueMaxMsgSpoolUsage = spool(dmq)
	}
	q.MaxMsgSize = Known(size(own))
	if own != nil && (q.MaxMsgSpoolUsage == Value[int64]{}) {
		q.MaxMsgSpoolUsage = spool(own)
	}
}

// AEMOutcome returns how many times the broker delivers a poison message on q before it removes it, and its
// redelivery delays until then; ok is false when the message is never removed for good (unlimited
// redelivery, or a dead message queue that leads back to q, itself included) or a setting is unknown. A
// removed message may still be deleted rather than kept: AEMDeadMessageQueueDeletes and the findings say so.
func AEMOutcome(q AEMQueue) (deliveries int64, wait time.Duration, ok bool) {
	rd, known := q.redelivery()
	if !known || AEMDeadMessageQueueCycles(q) {
		return 0, 0, false
	}
	deliveries, unlimited := AEMDeliveries(rd.enabled, rd.count)
	if unlimited {
		return 0, 0, false
	}
	return deliveries, rd.timeToDeadLetter(deliveries - 1), true
}

// aemRedelivery is the redelivery of an AEM queue, with the broker's default for each null setting.
type aemRedelivery struct {
	enabled, delay       bool
	count                int64 // max_redelivery_count
	initial, maxMs, mult int64 // the redelivery delay: initial and largest interval in ms, multiplier in hundredths
}

// redelivery returns the effective redelivery settings of q; known is false when one of them is unknown
// (its field is then the zero value).
func (q AEMQueue) redelivery() (rd aemRedelivery, known bool) {
	var ek, nk, dk, ik, mk, uk bool
	rd.enabled, ek = effective(q.RedeliveryEnabled, true)
	rd.count, nk = effective(q.MaxRedeliveryCount, 0)
	rd.delay, dk = effective(q.RedeliveryDelayEnabled, false)
	rd.initial, ik = effective(q.RedeliveryDelayInitialInterval, AEMDefaultRedeliveryInitialMs)
	rd.maxMs, mk = effective(q.RedeliveryDelayMaxInterval, AEMDefaultRedeliveryMaxMs)
	rd.mult, uk = effective(q.RedeliveryDelayMultiplier, AEMDefaultRedeliveryMultiplier)
	return rd, ek && nk && dk && ik && mk && uk
}

// timeToDeadLetter is AEMTimeToDeadLetter of the given redeliveries with these settings.
func (rd aemRedelivery) timeToDeadLetter(redeliveries int64) time.Duration {
	return AEMTimeToDeadLetter(redeliveries, rd.delay, rd.initial, rd.maxMs, rd.mult)
}

// effective returns v's value, or def when it is null (the broker's default), and whether it is known.
func effective[T comparable](v Value[T], def T) (T, bool) {
	if v.Null {
		return def, true
	}
	return v.V, v.Known
}

// CheckAEMQueue applies the AEM queue rules. Unknown values are skipped.
func CheckAEMQueue(q AEMQueue) []Finding {
	var r report
	if q.IsDeadMessageQueue {
		checkAEMDeadMessageQueue(&r, q)
	} else {
		checkAEMRedelivery(&r, q)
		checkAEMDMQ(&r, q)
		checkAEMRedeliveryDelay(&r, q)
		checkAEMFlow(&r, q)
	}
	if q.IsDeadMessageQueue && (len(q.DeadMessageQueueCycle) > 0 || AEMDeadMessageQueueSelf(q) && q.Name.V != AEMDefaultDeadMsgQueue) {
		// A dead message queue on a cycle (or naming itself) is also a queue whose dead message queue leads back to it.
		// #DEAD_MSG_QUEUE names itself by the broker's default: the catch-all that the broker keeps messages in.
		checkAEMDMQ(&r, q)
	}
	checkAEMDelayRanges(&r, q)
	checkAEMTTL(&r, q)
	return r.fs
}

func checkAEMRedelivery(r *report, q AEMQueue) {
	enabled, enabledKnown := effective(q.RedeliveryEnabled, true)
	n, known := q.MaxRedeliveryCount.get()
	if enabledKnown && !enabled {
		if known {
			r.warnf("aem.redelivery_count_unused", attrMaxRedeliveryCount, "Max Redelivery Count Has No Effect",
				"With `redelivery_enabled = false` the broker delivers a message once and never again, so `max_redelivery_count = %d` changes nothing: "+
					"a message the consumer fails goes to the dead message queue at once. "+
					"Set `redelivery_enabled = true` to give a failed message %d more deliveries, or remove `max_redelivery_count`.", n, n)
		}
		if q.AllowUnlimitedRedelivery {
			r.warnf("aem.allow_unlimited_unused", attrAllowUnlimitedRedelivery, "Allow Unlimited Redelivery Has No Effect",
				"With `redelivery_enabled = false` the broker never redelivers a message, so no `max_redelivery_count` retries for ever and `allow_unlimited_redelivery = true` changes nothing. "+
					"Set `allow_unlimited_redelivery = false`, or remove it.")
		}
		return
	}
	unlimited := q.MaxRedeliveryCount.Null || (known && n == 0)
	switch {
	case unlimited && q.AllowUnlimitedRedelivery:
		r.warnf("aem.redelivery_unlimited_allowed", attrMaxRedeliveryCount, "Unlimited Redelivery Allowed",
			"`allow_unlimited_redelivery = true` keeps this queue's `max_redelivery_count` at 0, which the broker reads as \"retry forever\": "+
				"a poison message is redelivered without end and never reaches the dead message queue. "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d, and remove `allow_unlimited_redelivery`.", AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
	case q.MaxRedeliveryCount.Null:
		r.errorf("aem.redelivery_unlimited", attrMaxRedeliveryCount, "Unlimited Redelivery",
			"Without `max_redelivery_count` the queue keeps the broker's default of 0, and 0 means \"retry forever\": "+
				"a poison message is redelivered without end, as fast as the consumer fails it unless a redelivery delay is set, and never reaches the dead message queue. "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d (or, only to import a queue that already works this way and change it later, set `allow_unlimited_redelivery = true` for now).",
			AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
	case known && n == 0:
		r.errorf("aem.redelivery_unlimited", attrMaxRedeliveryCount, "Unlimited Redelivery",
			"`max_redelivery_count = 0` does not mean \"no retry\": the broker reads it as \"retry forever\", so a poison message is redelivered without end and never reaches the dead message queue. "+
				"Set `max_redelivery_count` to a value from 1 to %d, for example %d (or, only to import a queue that already works this way and change it later, set `allow_unlimited_redelivery = true` for now).",
			AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
	case known && (n < 0 || n > AEMMaxRedeliveryCountLimit):
		r.errorf("aem.redelivery_range", attrMaxRedeliveryCount, "Invalid Max Redelivery Count",
			"`max_redelivery_count = %d` would be rejected: the broker accepts 0 to %d, and 0 means retry forever. Set `max_redelivery_count` to a value from 1 to %d, for example %d.",
			n, AEMMaxRedeliveryCountLimit, AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
	case known && q.AllowUnlimitedRedelivery:
		r.warnf("aem.allow_unlimited_unused", attrAllowUnlimitedRedelivery, "Allow Unlimited Redelivery Has No Effect",
			"`max_redelivery_count = %d` is limited, so `allow_unlimited_redelivery = true` changes nothing. Set `allow_unlimited_redelivery = false`, or remove it.", n)
	}
}

// aemDMQName returns the queue's dead message queue: the one it names, or the broker's default.
func aemDMQName(q AEMQueue) (string, bool) {
	return effective(q.DeadMessageQueue, AEMDefaultDeadMsgQueue)
}

// The ways a queue's dead message queue can fail to keep a removed message ([SOL] DMQ: a DMQ that does not
// exist means deletion; a DMQ whose ingress is off takes no message, assumed to delete as a missing one does).
const (
	aemDMQUsable       = ""
	aemDMQEmpty        = "aem.dmq_empty"
	aemDMQMissing      = "aem.dmq_missing"
	aemDMQTakesNothing = "aem.dmq_takes_nothing"
	// aemDMQCycle: the dead message queue moves what it removes back to the queue (DeadMessageQueueCycle),
	// where it is delivered again, for ever ([SOL] DMQ: a dead message queue's removed messages go to its own
	// dead message queue, as any queue's).
	aemDMQCycle = "aem.dmq_cycle"
	// aemDMQEligibleOnly: the dead message queue takes the message only when its publisher flagged it
	// DMQ-eligible (respectDmqEligibleEnabled, [SPEC] MsgVpnQueue: "messages ... not DMQ eligible are
	// discarded"); every other removed message is deleted.
	aemDMQEligibleOnly = "aem.dmq_eligible_respected"
)

// aemDMQDeletesAll reports whether fate deletes every removed message: no dead message queue keeps it.
func aemDMQDeletesAll(fate string) bool {
	return fate == aemDMQEmpty || fate == aemDMQMissing || fate == aemDMQTakesNothing
}

// aemDMQFate returns, when the queue's dead message queue is known not to keep a removed message, the rule
// that says why (aemDMQEmpty, aemDMQMissing or aemDMQTakesNothing); known is false when that
// cannot be told (an unknown name, or a dead message queue not read).
//
// deadMsgQueue "" means no dead message queue: the SEMP specification (config API 10.25.11, MsgVpnQueue)
// accepts it (deadMsgQueue: minLength 0, x-type qendpt_NameQueueNoMinLength_param) while no queue can be
// named so (queueName: minLength 1), and [SOL] DMQ says a message whose dead message queue does not exist is
// deleted. Neither source says what "" does; that the broker does not fall back to #DEAD_MSG_QUEUE for it
// (which only an absent deadMsgQueue gets, as its default) is assumed. The list resources, the dead message
// queue resource and these rules read it so alike.
func aemDMQFate(q AEMQueue) (fate string, known bool) {
	dmq, known := aemDMQName(q)
	if !known {
		return aemDMQUsable, false
	}
	if strings.TrimSpace(dmq) == "" {
		return aemDMQEmpty, true
	}
	if AEMDeadMessageQueueSelf(q) {
		return aemDMQCycle, true // the queue's removed messages come back into it
	}
	if exists, ok := q.DeadMessageQueueExists.get(); ok && !exists && !q.DeadMessageQueueCreatedHere {
		return aemDMQMissing, true
	}
	// A null ingress is the broker's default, false ([SPEC] MsgVpnQueue ingressEnabled).
	if in, ok := effective(q.DeadMessageQueueIngress, false); ok && !in {
		return aemDMQTakesNothing, true
	}
	if len(q.DeadMessageQueueCycle) > 0 {
		return aemDMQCycle, true // a cycle is only followed through queues that take messages
	}
	exists, ok := q.DeadMessageQueueExists.get()
	in, inKnown := effective(q.DeadMessageQueueIngress, false)
	known = (ok && exists || q.DeadMessageQueueCreatedHere) && inKnown && in
	if e, ok := q.RespectDMQEligible.get(); ok && e {
		return aemDMQEligibleOnly, known
	}
	return aemDMQUsable, known
}

// AEMDeadMessageQueueCycles reports whether q's dead message queue leads back to q (DeadMessageQueueCycle):
// a poison message comes back and is delivered again, for ever.
func AEMDeadMessageQueueCycles(q AEMQueue) bool {
	fate, _ := aemDMQFate(q)
	return fate == aemDMQCycle
}

// AEMDeadMessageQueueSelf reports whether q names itself as its dead message queue: a message removed from it
// goes back into it and is delivered again, for ever (a cycle of one queue).
func AEMDeadMessageQueueSelf(q AEMQueue) bool {
	dmq, known := aemDMQName(q)
	name, nameKnown := q.Name.get()
	return known && nameKnown && name != "" && dmq == name
}

// aemCyclePath returns the path of q's dead message queue cycle: DeadMessageQueueCycle, or queue → queue
// when q names itself.
func aemCyclePath(q AEMQueue) string {
	if len(q.DeadMessageQueueCycle) == 0 && AEMDeadMessageQueueSelf(q) {
		return q.Name.V + " → " + q.Name.V
	}
	return strings.Join(q.DeadMessageQueueCycle, " → ")
}

// AEMDeadMessageQueueCycle returns the path queue → dmq → … → queue when the dead message queues in s, followed
// from dmq, lead back to queue, or nil. s holds, for each queue, the dead message queue the broker moves what it
// removes to (as the broker holds it, and as plans set it).
func AEMDeadMessageQueueCycle(queue, dmq string, s LinkSet) []string {
	return AEMDeadMessageQueueCycleOf(queue, dmq, s.Links)
}

// AEMDeadMessageQueueCycleOf is AEMDeadMessageQueueCycle over links, which returns what LinkSet.Links returns
// for a queue: a caller works out the links of the queues the search reaches only, instead of a LinkSet of
// every queue.
func AEMDeadMessageQueueCycleOf(queue, dmq string, links func(string) []string) []string {
	if dmq == "" || dmq == queue {
		return nil
	}
	return dmqCycle(queue, dmq, links)
}

// AEMDeadMessageQueueDeletes reports whether q's dead message queue is known to keep nothing: named "", not
// held by the broker and not created by the configuration, or with its ingress off
// (DeadMessageQueueIngress false). The broker then deletes every message it removes from q.
func AEMDeadMessageQueueDeletes(q AEMQueue) bool {
	fate, _ := aemDMQFate(q)
	return aemDMQDeletesAll(fate)
}

func checkAEMDMQ(r *report, q AEMQueue) {
	dmq, known := aemDMQName(q)
	if !known {
		return
	}
	name, nameKnown := q.Name.get()
	if nameKnown && dmq == name {
		// The broker takes it: [SPEC] MsgVpnQueue.deadMsgQueue has only a length and a pattern, and no source
		// says a queue cannot name itself; a message removed from the queue then goes back into it.
		if q.AllowMissingDeadMessageQueue {
			r.warnf("aem.dmq_self_allowed", attrDeadMessageQueue, "Dead Message Queue Cycle Allowed",
				"`allow_missing_dead_message_queue = true` accepts that `dead_message_queue` names the queue %q itself: a poison message removed from it (%s, on its time to live, or rejected) "+
					"goes back into the queue it failed on and is delivered again, for ever: it never comes to rest where someone inspects it. "+
					"Set `dead_message_queue` to the `name` of a `sapmessaging_aem_dead_message_queue` of this configuration, for example one named %q, and remove `allow_missing_dead_message_queue`.",
				name, aemRemovedAfter(q), aemExampleDMQ(name, true))
			return
		}
		r.errorf("aem.dmq_self", attrDeadMessageQueue, "Dead Message Queue Cycle",
			"`dead_message_queue` names the queue %q itself, so a dead message would go back into the queue it failed on and be delivered again, for ever. "+
				"Set `dead_message_queue` to a separate queue, for example %q (or, only to import a queue that already works this way and change it later, set `allow_missing_dead_message_queue = true` for now).",
			name, aemExampleDMQ(name, true))
		return
	}
	fate, fateKnown := aemDMQFate(q)
	if q.AllowMissingDeadMessageQueue {
		switch {
		case fate == aemDMQCycle:
			r.warnf("aem.dmq_cycle_allowed", attrDeadMessageQueue, "Dead Message Queue Cycle Allowed",
				"`allow_missing_dead_message_queue = true` accepts that the dead message queues form a cycle: %s. A poison message that dies here is moved on "+
					"and comes back into this queue, where it is delivered again, for ever: it never comes to rest where someone inspects it. "+
					"Set `dead_message_queue` to the `name` of a `sapmessaging_aem_dead_message_queue` of this configuration (whose own dead message queue is left to the broker), "+
					"for example one named %q, and remove `allow_missing_dead_message_queue`.",
				strings.Join(q.DeadMessageQueueCycle, " → "), aemExampleDMQ(name, nameKnown))
		case aemDMQDeletesAll(fate):
			r.warnf("aem.dmq_missing_allowed", attrDeadMessageQueue, "Missing Dead Message Queue Allowed",
				"`allow_missing_dead_message_queue = true` accepts that %s: every message the broker removes from this queue (%s, on its time to live, or rejected) is deleted, not kept. "+
					"Set `dead_message_queue` to the `name` of a `sapmessaging_aem_dead_message_queue` of this configuration (which takes messages), for example one named %q, and remove `allow_missing_dead_message_queue`.",
				aemDMQWhy(q, dmq, fate), aemRemovedAfter(q), aemExampleDMQ(name, nameKnown))
		case fateKnown:
			r.warnf("aem.allow_missing_dmq_unused", attrAllowMissingDMQ, "Allow Missing Dead Message Queue Has No Effect",
				"The dead message queue %q exists and takes messages, so `allow_missing_dead_message_queue = true` changes nothing. Set `allow_missing_dead_message_queue = false`, or remove it.", dmq)
		}
		return
	}
	if fate == aemDMQUsable || fate == aemDMQEligibleOnly {
		checkAEMDMQMaxMsgSize(r, q, dmq)
		if n, ok := q.DeadMessageQueueMaxMsgSpoolUsage.get(); ok && n == 0 {
			r.warnf("aem.dmq_keeps_last_only", attrDeadMessageQueue, "Dead Message Queue Keeps One Message",
				"The dead message queue %q has maxMsgSpoolUsage 0, which keeps only the last message received: each poison message the broker moves there "+
					"from this queue discards the one before, so all but the latest dead message are lost. "+
					"Set the dead message queue's `max_msg_spool_usage` to the megabytes its dead messages need, for example %d (the broker's default).", dmq, AEMDefaultMaxMsgSpoolUsage)
		}
	}
	adopt := " (or, only to import a queue that already works this way and change it later, set `allow_missing_dead_message_queue = true` for now)"
	switch fate {
	case aemDMQCycle:
		r.errorf("aem.dmq_cycle", attrDeadMessageQueue, "Dead Message Queue Cycle",
			"The dead message queues form a cycle: %s. A poison message removed from this queue (%s, on its time to live, or rejected) is moved on "+
				"and comes back into this queue, where it is delivered again, round the cycle for ever: it never comes to rest where someone inspects it, and every round costs the consumer's work. "+
				"The cycle counts each dead message queue's own dead message queue as the broker holds it and as this plan sets it. "+
				"Set `dead_message_queue` to the `name` of a `sapmessaging_aem_dead_message_queue` of this configuration (whose own dead message queue is left to the broker), for example one named %q%s.",
			strings.Join(q.DeadMessageQueueCycle, " → "), aemRemovedAfter(q), aemExampleDMQ(name, nameKnown), adopt)
	case aemDMQEmpty:
		r.errorf("aem.dmq_empty", attrDeadMessageQueue, "Empty Dead Message Queue",
			"`dead_message_queue = \"\"` names no queue, so every message the broker removes from this queue (at the redelivery limit, on its time to live, or rejected) is deleted. "+
				"Set `dead_message_queue` to a queue this configuration creates with `sapmessaging_aem_dead_message_queue`, for example %q%s.", aemExampleDMQ(name, nameKnown), adopt)
	case aemDMQMissing:
		which := fmt.Sprintf("`dead_message_queue` names %q", dmq)
		if q.DeadMessageQueue.Null {
			which = fmt.Sprintf("Without `dead_message_queue` the queue uses the broker's default %q", dmq)
		}
		r.errorf("aem.dmq_missing", attrDeadMessageQueue, "Dead Message Queue Does Not Exist",
			"%s, which the broker does not hold and this configuration does not create: the broker deletes every message it removes from this queue "+
				"(at the redelivery limit, on its time to live, or rejected) when the dead message queue does not exist, so poison messages are lost without a trace. "+
				"A queue this configuration creates counts when `dead_message_queue` refers to the creating resource's `name` (for example `sapmessaging_aem_dead_message_queue.dmq.name`), "+
				"so that Terraform plans it first; a name written as text may be planned before it. "+
				"Set `dead_message_queue` to the `name` of a `sapmessaging_aem_dead_message_queue` of this configuration, for example one named %q%s.", which, aemExampleDMQ(name, nameKnown), adopt)
	case aemDMQTakesNothing:
		r.errorf("aem.dmq_takes_nothing", attrDeadMessageQueue, "Dead Message Queue Takes No Messages",
			"The dead message queue %q has `ingress_enabled = false`, so it accepts no message: every message the broker removes from this queue "+
				"(at the redelivery limit, on its time to live, or rejected) is deleted instead of kept there. "+
				"Set `ingress_enabled = true` on the dead message queue (manage it with `sapmessaging_aem_dead_message_queue`, which turns it on), "+
				"or set `dead_message_queue` to one that takes messages%s.", dmq, adopt)
	}
}

// AEMDeadMessageQueueSizeLimit returns, when q's dead message queue takes smaller messages than q (its
// maxMsgSize is below q's, aemDMQSmaller), the largest message it keeps; 0 otherwise (or a limit of 0). A larger
// message the broker removes from q is deleted: the dead message queue discards a message above its
// maxMsgSize as any queue does, and a message that fails to move to the dead message queue is discarded
// ([SPEC] maxMsgSize; [SPEC monitor 2.34] MsgVpnQueue maxMsgSizeExceededDiscardedMsgCount,
// maxRedeliveryExceededToDmqFailedMsgCount, maxTtlExpiredToDmqFailedMsgCount; that the size makes the move
// fail is this provider's reading).
func AEMDeadMessageQueueSizeLimit(q AEMQueue) int64 {
	own, ok := q.MaxMsgSize.get()
	dmqSize, dok := q.DeadMessageQueueMaxMsgSize.get()
	if !ok || !dok || dmqSize >= own {
		return 0
	}
	return dmqSize
}

// aemDMQSmaller reports whether q's dead message queue is known to take smaller messages than q.
func aemDMQSmaller(q AEMQueue) bool {
	own, ok := q.MaxMsgSize.get()
	dmqSize, dok := q.DeadMessageQueueMaxMsgSize.get()
	return ok && dok && dmqSize < own
}

func checkAEMDMQMaxMsgSize(r *report, q AEMQueue, dmq string) {
	if !aemDMQSmaller(q) {
		return
	}
	limit, own := AEMDeadMessageQueueSizeLimit(q), q.MaxMsgSize.V
	r.warnf("aem.dmq_max_msg_size_smaller", attrDeadMessageQueue, "Large Dead Messages Deleted",
		"The dead message queue %q takes messages of at most %d bytes (its maxMsgSize) and this queue takes up to %d: a poison message larger than %d bytes that the broker removes from this queue "+
			"(%s, on its time to live, or rejected) does not fit there and is deleted instead of kept. "+
			"Set the dead message queue's maxMsgSize to at least %d (this provider leaves maxMsgSize to the broker: set it in Broker Manager or through SEMP), or point `dead_message_queue` at one that takes such messages.",
		dmq, limit, own, limit, aemRemovedAfter(q), own)
}

// aemDMQWhy says why the dead message queue dmq keeps nothing (fate from aemDMQFate).
func aemDMQWhy(q AEMQueue, dmq, fate string) string {
	switch fate {
	case aemDMQEmpty:
		return "`dead_message_queue = \"\"` names no queue"
	case aemDMQTakesNothing:
		return fmt.Sprintf("the dead message queue %q takes no messages (its `ingress_enabled` is false)", dmq)
	}
	if q.DeadMessageQueue.Null {
		return fmt.Sprintf("the broker's default dead message queue %q does not exist", dmq)
	}
	return fmt.Sprintf("the dead message queue %q does not exist", dmq)
}

// aemRemovedAfter says when the broker removes a poison message from q: after its deliveries, or never.
func aemRemovedAfter(q AEMQueue) string {
	enabled, ek := effective(q.RedeliveryEnabled, true)
	n, nk := effective(q.MaxRedeliveryCount, 0)
	if !ek || !nk {
		return "at the redelivery limit"
	}
	deliveries, unlimited := AEMDeliveries(enabled, n)
	switch {
	case unlimited:
		return "never at a redelivery limit while `max_redelivery_count` is 0"
	case deliveries == 1:
		return "after 1 delivery"
	}
	return fmt.Sprintf("after %d deliveries", deliveries)
}

func aemExampleDMQ(name string, known bool) string {
	if !known || name == "" {
		return "orders.dmq"
	}
	return name + ".dmq"
}

func checkAEMRedeliveryDelay(r *report, q AEMQueue) {
	enabled, enabledKnown := effective(q.RedeliveryEnabled, true)
	delay, delayKnown := effective(q.RedeliveryDelayEnabled, false)
	n, countKnown := q.MaxRedeliveryCount.get()
	if !enabledKnown || !enabled || !delayKnown || delay {
		return
	}
	initial, ik := effective(q.RedeliveryDelayInitialInterval, AEMDefaultRedeliveryInitialMs)
	maxMs, mk := effective(q.RedeliveryDelayMaxInterval, AEMDefaultRedeliveryMaxMs)
	mult, uk := effective(q.RedeliveryDelayMultiplier, AEMDefaultRedeliveryMultiplier)
	if !ik || !mk || !uk || !validDelay(initial, maxMs, mult) {
		initial, maxMs, mult = AEMDefaultRedeliveryInitialMs, AEMDefaultRedeliveryMaxMs, AEMDefaultRedeliveryMultiplier
	}
	rate := 1000 / aemAssumedFailMs
	var cycle, with string
	effect := "uses up every delivery"
	switch {
	case countKnown && n > 0 && n <= AEMMaxRedeliveryCountLimit:
		cycle = fmt.Sprintf("all %d deliveries of a poison message follow one another as fast as the consumer fails it "+
			"(a consumer that fails in %d ms goes through them in %s)", n+1, aemAssumedFailMs, FormatAEMDuration(time.Duration(n+1)*time.Duration(aemAssumedFailMs)*time.Millisecond))
		with = fmt.Sprintf("would spread its %d redeliveries over %s", n, FormatAEMDuration(AEMTimeToDeadLetter(n, true, initial, maxMs, mult)))
	case countKnown && n != 0:
		return // out of range: reported by aem.redelivery_range
	default:
		cycle = fmt.Sprintf("a poison message is redelivered as fast as the consumer fails it, without end (about %d deliveries a second for a consumer that fails in %d ms)", rate, aemAssumedFailMs)
		with = fmt.Sprintf("would wait %s before the first redelivery and at most %s between later ones", FormatAEMDuration(ms(initial)), FormatAEMDuration(ms(maxMs)))
		effect = "hammers the receiver for as long as it lasts"
	}
	r.warnf("aem.redelivery_without_delay", attrRedeliveryDelayEnabled, "Redelivery Without Delay",
		"With `redelivery_delay_enabled = false` (the broker's default) %s, so a failure that lasts a few seconds, such as a receiver being restarted, %s. "+
			"A delay of %s growing %s up to %s %s. "+
			"Set `redelivery_delay_enabled = true`, with `redelivery_delay_initial_interval`, `redelivery_delay_multiplier` and `redelivery_delay_max_interval` to the waits the receiver needs.",
		cycle, effect, FormatAEMDuration(ms(initial)), formatMultiplier(mult), FormatAEMDuration(ms(maxMs)), with)
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func formatMultiplier(m int64) string {
	return fmt.Sprintf("×%d.%02d each time", m/100, m%100)
}

func validDelay(initial, maxMs, mult int64) bool {
	return initial >= 1 && initial <= AEMMaxRedeliveryInitialMs && maxMs >= 1 && maxMs <= AEMMaxRedeliveryMaxMs &&
		mult >= AEMMinRedeliveryMultiplier && mult <= AEMMaxRedeliveryMultiplier
}

func checkAEMDelayRanges(r *report, q AEMQueue) {
	check := func(v Value[int64], attr, what string, lo, hi, example int64) bool {
		n, ok := v.get()
		if !ok || (n >= lo && n <= hi) {
			return ok
		}
		r.errorf("aem.redelivery_delay_range", attr, "Invalid Redelivery Delay",
			"`%s = %d` would be rejected: the broker accepts %s from %d to %d. Set `%s` to a value from %d to %d, for example %d.",
			attr, n, what, lo, hi, attr, lo, hi, example)
		return false
	}
	iok := check(q.RedeliveryDelayInitialInterval, attrRedeliveryDelayInitial, "an initial interval in milliseconds", 1, AEMMaxRedeliveryInitialMs, AEMDefaultRedeliveryInitialMs)
	mok := check(q.RedeliveryDelayMaxInterval, attrRedeliveryDelayMax, "a maximum interval in milliseconds", 1, AEMMaxRedeliveryMaxMs, AEMDefaultRedeliveryMaxMs)
	check(q.RedeliveryDelayMultiplier, attrRedeliveryDelayMultiplier, "a multiplier in hundredths (100 = ×1.00)", AEMMinRedeliveryMultiplier, AEMMaxRedeliveryMultiplier, AEMDefaultRedeliveryMultiplier)
	initial, _ := effective(q.RedeliveryDelayInitialInterval, AEMDefaultRedeliveryInitialMs)
	maxMs, _ := effective(q.RedeliveryDelayMaxInterval, AEMDefaultRedeliveryMaxMs)
	if iok && mok && maxMs < initial {
		r.warnf("aem.redelivery_delay_max_below_initial", attrRedeliveryDelayMax, "Max Interval Below Initial Interval",
			"`redelivery_delay_max_interval = %d` ms is shorter than `redelivery_delay_initial_interval = %d` ms, so every redelivery waits only %d ms and the initial interval and multiplier change nothing. "+
				"Set `redelivery_delay_max_interval` to at least %d.", maxMs, initial, maxMs, initial)
	}
}

func checkAEMTTL(r *report, q AEMQueue) {
	respect, respectKnown := effective(q.RespectTTL, false)
	ttl, ttlKnown := q.MaxTTL.get()
	if ttlKnown && (ttl < 0 || ttl > AEMMaxTTLLimit) {
		r.errorf("aem.max_ttl_range", attrMaxTTL, "Invalid Max TTL",
			"`max_ttl = %d` would be rejected: the broker accepts 0 to %d seconds, and 0 means no expiry. Set `max_ttl` to a value from 1 to %d, for example %d (7 days).",
			ttl, int64(AEMMaxTTLLimit), int64(AEMMaxTTLLimit), aemExampleDMQTTL)
		return
	}
	ineffective := ttlKnown && ttl > 0 && respectKnown && !respect
	switch {
	case ineffective && q.IsDeadMessageQueue && q.AllowNoTTL:
		// allow_no_ttl keeps the dead message queue without a time to live: aem.dmq_no_ttl_allowed says so.
	case ineffective && !q.IsDeadMessageQueue && q.AllowIneffectiveTTL:
		r.warnf("aem.max_ttl_without_respect_ttl_allowed", attrRespectTTL, "Max TTL Without Respect TTL Allowed",
			"`allow_ineffective_ttl = true` keeps `max_ttl = %d` while `respect_ttl` is false: the broker ignores every time to live, so messages never expire and never move to the dead message queue on age. "+
				"Set `respect_ttl = true` (or remove `max_ttl`), and remove `allow_ineffective_ttl`.", ttl)
	case ineffective:
		adopt := "set `allow_ineffective_ttl = true`"
		if q.IsDeadMessageQueue {
			adopt = "set `allow_no_ttl = true`"
		}
		r.errorf("aem.max_ttl_without_respect_ttl", attrRespectTTL, "Max TTL Without Respect TTL",
			"`max_ttl = %d` has no effect while `respect_ttl` is false (the broker's default): the broker then ignores every time to live, so messages never expire and never move to the dead message queue on age. "+
				"Set `respect_ttl = true`, or remove `max_ttl` (or, only to import a queue that already works this way and change it later, %s for now).", ttl, adopt)
	case q.AllowIneffectiveTTL && !q.IsDeadMessageQueue && ttlKnown && respectKnown:
		r.warnf("aem.allow_ineffective_ttl_unused", attrAllowIneffectiveTTL, "Allow Ineffective TTL Has No Effect",
			"`respect_ttl` and `max_ttl` take effect together or are both off, so `allow_ineffective_ttl = true` changes nothing. Set `allow_ineffective_ttl = false`, or remove it.")
	}
	if !q.IsDeadMessageQueue {
		return
	}
	noTTL := respectKnown && !respect || q.MaxTTL.Null || ttlKnown && ttl == 0
	if q.AllowNoTTL {
		switch {
		case noTTL:
			r.warnf("aem.dmq_no_ttl_allowed", attrMaxTTL, "Dead Message Queue Without TTL Allowed",
				"`allow_no_ttl = true` keeps this dead message queue without a time to live: it keeps every dead message for ever and grows until its spool quota is full, "+
					"after which the broker refuses new dead messages. Set `respect_ttl = true` and `max_ttl` to how long dead messages stay, for example %d (7 days), and remove `allow_no_ttl`.", aemExampleDMQTTL)
		case respectKnown && ttlKnown:
			r.warnf("aem.allow_no_ttl_unused", attrAllowNoTTL, "Allow No TTL Has No Effect",
				"`respect_ttl = true` and `max_ttl = %d` are set, so the dead message queue expires its messages and `allow_no_ttl = true` changes nothing. Set `allow_no_ttl = false`, or remove it.", ttl)
		}
		return
	}
	if c, ok := q.Consumed.get(); noTTL && len(q.DeadMessageQueueCycle) > 0 && (!ok || c) {
		// A queue of a cycle that a consumer may read delivers its dead messages again instead of keeping them:
		// aem.dmq_cycle says what happens to them.
		return
	}
	if noTTL {
		attr := attrMaxTTL
		if respectKnown && !respect {
			attr = attrRespectTTL
		}
		r.errorf("aem.dmq_ttl_missing", attr, "Dead Message Queue Without TTL",
			"Without `respect_ttl = true` and a `max_ttl` the dead message queue keeps every dead message for ever and grows until its spool quota is full, after which the broker refuses new dead messages. "+
				"Set `respect_ttl = true` and `max_ttl` to how long dead messages stay, for example %d (7 days).", aemExampleDMQTTL)
	}
}

func checkAEMDeadMessageQueue(r *report, q AEMQueue) {
	if n, ok := q.MaxMsgSpoolUsage.get(); ok && n == 0 {
		r.warnf("aem.dmq_keeps_last_only", attrMaxMsgSpoolUsage, "Dead Message Queue Keeps One Message",
			"With `max_msg_spool_usage = 0` the dead message queue keeps only the last message received: each dead message the broker moves here "+
				"discards the one before, so all but the latest are lost. "+
				"Set `max_msg_spool_usage` to the megabytes the dead messages need, for example %d (the broker's default).", AEMDefaultMaxMsgSpoolUsage)
	}
	in, ok := effective(q.IngressEnabled, false)
	switch {
	case !ok:
	case !in && q.AllowIngressDisabled:
		r.warnf("aem.dmq_ingress_disabled_allowed", attrIngressEnabled, "Dead Message Queue Takes No Messages Allowed",
			"`allow_ingress_disabled = true` keeps this dead message queue at `ingress_enabled = false`: it accepts no message, so the broker deletes every message "+
				"the queues naming it remove instead of keeping it here. Set `ingress_enabled = true` and remove `allow_ingress_disabled`.")
	case !in:
		r.errorf("aem.dmq_ingress_disabled", attrIngressEnabled, "Dead Message Queue Takes No Messages",
			"With `ingress_enabled = false` (the broker's default) the dead message queue accepts no message, so the messages other queues remove are deleted instead of kept here. "+
				"Set `ingress_enabled = true` (or, only to import a dead message queue that already works this way and change it later, set `allow_ingress_disabled = true` for now).")
	case q.AllowIngressDisabled:
		r.warnf("aem.allow_ingress_disabled_unused", attrAllowIngressDisabled, "Allow Ingress Disabled Has No Effect",
			"`ingress_enabled = true` is set, so the dead message queue takes messages and `allow_ingress_disabled = true` changes nothing. Set `allow_ingress_disabled = false`, or remove it.")
	}
}

func checkAEMFlow(r *report, q AEMQueue) {
	if in, ok := effective(q.IngressEnabled, false); ok && !in {
		r.warnf("aem.ingress_disabled", attrIngressEnabled, "Queue Accepts No Messages",
			"With `ingress_enabled = false` (the broker's default) the queue refuses every message published to it or to its subscriptions, so publishers get errors and topic messages are not kept. "+
				"Set `ingress_enabled = true`.")
	}
	if out, ok := effective(q.EgressEnabled, false); ok && !out {
		r.warnf("aem.egress_disabled", attrEgressEnabled, "Queue Delivers No Messages",
			"With `egress_enabled = false` (the broker's default) the queue delivers nothing to its consumers: messages pile up until the spool quota is full, and none is processed or dead-lettered on redelivery. "+
				"Set `egress_enabled = true`.")
	}
	if e, ok := q.RespectDMQEligible.get(); ok && e {
		r.warnf("aem.dmq_eligible_respected", attrRespectDMQEligible, "Messages Discarded Instead of Dead-Lettered",
			"With `respect_dmq_eligible_enabled = true` the broker moves a removed message to the dead message queue only when its publisher flagged it DMQ-eligible and deletes every other one "+
				"(Solace event brokers from 10.25.10 move every removed message to the dead message queue unless this is set), so poison messages from publishers that do not set the flag are lost. "+
				"Set `respect_dmq_eligible_enabled = false`.")
	}
}

// AEMDeliveries returns how many times the broker delivers a message that every consumer fails before it
// removes it (to the dead message queue, or deleted without one): maxRedeliveryCount + 1, or 1 with
// redelivery disabled ([SPEC] redeliveryEnabled: "the message will never be delivered from the queue more
// than once"). A count of 0 with redelivery enabled means retry forever: unlimited is true.
func AEMDeliveries(redeliveryEnabled bool, maxRedeliveryCount int64) (deliveries int64, unlimited bool) {
	switch {
	case !redeliveryEnabled:
		return 1, false
	case maxRedeliveryCount == 0:
		return 0, true
	}
	return maxRedeliveryCount + 1, false
}

// AEMRedeliveryDelay returns the wait before redelivery k (k = 1 is the first redelivery) with the
// redelivery delay enabled: initialMs × (multiplier/100)^(k-1), at most maxMs ([SPEC]
// redeliveryDelayInitialInterval "the delay to be used between the first 2 redelivery attempts",
// redeliveryDelayMultiplier "multiplied by after each failed delivery attempt", redeliveryDelayMaxInterval).
// That the initial interval is the wait before the first redelivery is this provider's reading of the
// specification.
func AEMRedeliveryDelay(k, initialMs, maxMs, multiplier int64) time.Duration {
	if k < 1 {
		return 0
	}
	d := float64(initialMs) * math.Pow(float64(multiplier)/100, float64(k-1))
	if d > float64(maxMs) || math.IsInf(d, 1) {
		d = float64(maxMs)
	}
	return time.Duration(d * float64(time.Millisecond))
}

// AEMTimeToDeadLetter returns the broker's waits between the deliveries of a poison message until it is
// removed after redeliveries redeliveries: the sum of the redelivery delays, or 0 with the delay off (the
// consumer's own processing time comes on top).
func AEMTimeToDeadLetter(redeliveries int64, delayEnabled bool, initialMs, maxMs, multiplier int64) time.Duration {
	if !delayEnabled {
		return 0
	}
	var total time.Duration
	for k := int64(1); k <= redeliveries; k++ {
		total += AEMRedeliveryDelay(k, initialMs, maxMs, multiplier)
	}
	return total
}

// AEMRetryPlan describes, for the plan, what the broker does with a poison message on the queue: the
// deliveries, the time they take with the configured delay and where the message goes. Unknown settings
// give "".
func AEMRetryPlan(q AEMQueue) string {
	rd, known := q.redelivery()
	dmq, qk := aemDMQName(q)
	if !known || !qk {
		return ""
	}
	deliveries, unlimited := AEMDeliveries(rd.enabled, rd.count)
	if unlimited {
		if rd.delay {
			return fmt.Sprintf("a poison message is delivered without end (`max_redelivery_count` 0 = retry forever), then every %s", FormatAEMDuration(ms(rd.maxMs)))
		}
		return "a poison message is delivered without end (`max_redelivery_count` 0 = retry forever), as fast as the consumer fails it"
	}
	total := rd.timeToDeadLetter(deliveries - 1)
	where := fmt.Sprintf("then moved to the dead message queue %q", dmq)
	switch fate, _ := aemDMQFate(q); fate {
	case aemDMQEmpty:
		where = "then deleted (`dead_message_queue = \"\"` names no queue)"
	case aemDMQMissing:
		where = fmt.Sprintf("then deleted (the dead message queue %q does not exist)", dmq)
	case aemDMQTakesNothing:
		where = fmt.Sprintf("then deleted (the dead message queue %q takes no messages: its ingress is off)", dmq)
	case aemDMQCycle:
		where = fmt.Sprintf("then moved to the dead message queue %q, whose dead message queues lead back here (%s): the message comes back and is delivered again, for ever",
			dmq, aemCyclePath(q))
	}
	if e, ok := q.RespectDMQEligible.get(); ok && e {
		where += " if its publisher flagged it DMQ-eligible, deleted otherwise"
	}
	if fate, _ := aemDMQFate(q); (fate == aemDMQUsable || fate == aemDMQEligibleOnly) && aemDMQSmaller(q) {
		where += fmt.Sprintf(" (deleted instead when larger than %d bytes, the dead message queue's maxMsgSize)", AEMDeadMessageQueueSizeLimit(q))
	}
	waits := "without waits between them"
	if rd.delay && deliveries > 1 {
		waits = "over " + FormatAEMDuration(total) + " of redelivery delays"
	}
	times := fmt.Sprintf("%d times", deliveries)
	if deliveries == 1 {
		times, waits = "once", "(redelivery is disabled)"
	}
	return fmt.Sprintf("a poison message is delivered %s %s, %s", times, waits, where)
}

// FormatAEMDuration writes d in the largest units that keep it readable: 750 ms, 31 s, 4 min 15 s, 2 h 8 min.
func FormatAEMDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		s := d.Seconds()
		if s == math.Trunc(s) {
			return fmt.Sprintf("%d s", int64(s))
		}
		return fmt.Sprintf("%.1f s", s)
	case d < time.Hour:
		m, s := int64(d/time.Minute), int64((d%time.Minute)/time.Second)
		if s == 0 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	}
	h, m := int64(d/time.Hour), int64((d%time.Hour)/time.Minute)
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// AEMMaxQueueNameLength is the longest queue name the broker accepts ([SPEC] MsgVpnQueue.queueName maxLength).
const AEMMaxQueueNameLength = 200

// aemQueueNameForbidden are the characters a queue name cannot hold ([SPEC] MsgVpnQueue.queueName pattern).
const aemQueueNameForbidden = "*?'<>&;"

// ValidAEMQueueNamePrefix checks a filter's AEM queue name prefix: "" (every queue), or the start of a name
// the broker accepts: at most 200 characters, none of * ? ' < > & ; (which also keeps the prefix from being
// read as a pattern by SEMP's where filter). A prefix that no name starts with would match nothing, which is
// a mistake rather than a filter.
func ValidAEMQueueNamePrefix(prefix string) error {
	if len(prefix) > AEMMaxQueueNameLength {
		return fmt.Errorf("no queue name starts with %q: it has %d characters and a queue name at most %d", prefix, len(prefix), AEMMaxQueueNameLength)
	}
	if i := strings.IndexAny(prefix, aemQueueNameForbidden); i >= 0 {
		return fmt.Errorf("no queue name starts with %q: a queue name cannot hold %q", prefix, prefix[i:i+1])
	}
	return nil
}

// ValidAEMQueueName checks a queue name as the broker does ([SPEC] MsgVpnQueue.queueName): 1 to 200
// characters, none of * ? ' < > & ;.
func ValidAEMQueueName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("the queue name is empty")
	}
	if len(name) > AEMMaxQueueNameLength {
		return fmt.Errorf("the queue name has %d characters, and the broker accepts at most %d", len(name), AEMMaxQueueNameLength)
	}
	if i := strings.IndexAny(name, aemQueueNameForbidden); i >= 0 {
		return fmt.Errorf("the queue name holds %q, which the broker does not accept in a queue name", name[i:i+1])
	}
	return nil
}
