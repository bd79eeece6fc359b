package rules

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The rules of the Cloud Integration AdvancedEventMesh sender channel, which consumes an AEM queue and runs
// its own retry loop before it settles a message. Sources: SAP's page "Configure the Advanced Event Mesh
// Sender Adapter" (SAP-docs/btp-integration-suite, ISuite_Integrations_APIs/configure-the-advanced-event-mesh-sender-adapter-abd2efc.md;
// [SAP] below), the SEMP v2 specification of the queue ([SPEC], see aem.go) and the project's reference note
// shared/reference/aem.md §4–5. What the page says:
//   - Maximum Message Processing Attempts is "an adapter level retry and hence will not result in DeliveryCount
//     header increment. DeliveryCount increments only when the message is re-delivered by the event broker."
//     That the count includes the first attempt is this provider's reading: the tenant-written channels pair 5
//     attempts with waits of 1, 3, 9 and 27 seconds (assumed: m attempts, m − 1 waits).
//   - Retry Interval, Maximum Retry Interval and Exponential Backoff Multiplier are the waits between those
//     attempts: interval × multiplier^k, at most the maximum.
//   - Settlement Outcome After Maximum Attempts (guaranteed consumers acknowledging on exchange completion
//     only): Failed — the broker "will attempt to redeliver the message while adhering to delivery count
//     limits"; Rejected — the broker "will remove the message from its queue and then move the message to the
//     Dead Message Queue (DMQ) if it is configured" (deleted without one, [SOL] XMLMessage.Outcome).
//   - Acknowledgement Mode Automatic Immediate acknowledges a message on receipt, so a failure is never
//     redelivered and never reaches a dead message queue (assumed from the page: the outcome does not apply).
// Each broker redelivery starts a fresh set of adapter attempts (assumed, reference note §5).

// Terraform attribute names of the AEM sender resource.
const (
	attrAEMMaxAttempts       = "max_message_processing_attempts"
	attrAEMRetryInterval     = "retry_interval"
	attrAEMMaxRetryInterval  = "max_retry_interval"
	attrAEMRetryMultiplier   = "retry_multiplier"
	attrAEMSettlementOutcome = "settlement_outcome"
	attrAEMAckMode           = "acknowledgement_mode"
	attrAEMConsumerMode      = "consumer_mode"
	attrAEMAcceptMessageLoss = "accept_message_loss"
	// The adoption attributes of the AEM sender's queue rules.
	attrAEMAllowUnlimitedRedelivery = "allow_unlimited_redelivery"
	attrAEMAllowMissingDMQ          = "allow_missing_dead_message_queue"
	attrAEMAllowUndocumented        = "allow_undocumented_values"
	aemRecommendedAttempts          = 5
)

// Values of the AEM sender's enumerations, as the .iflw stores them (internal/iflow/aem.go). The Rejected
// outcome's stored value is assumed.
const (
	AEMConsumerGuaranteed    = "GUARANTEED"
	AEMConsumerDirect        = "DIRECT"
	AEMAckOnExchangeComplete = "AUTOMATIC_ON_EXCHANGE_COMPLETE"
	AEMAckImmediate          = "AUTOMATIC_IMMEDIATE"
	AEMOutcomeFailed         = "FAILED"
	AEMOutcomeRejected       = "REJECTED"
)

// Waits the provider assumes for a channel that leaves them empty: the values of every tenant-written channel
// found (SolaceLabs/solace-ep-codegen, shared/reference/aem.md §4), which look like the editor's defaults
// (assumed: SAP's page gives no defaults).
const (
	AEMSenderDefaultRetryIntervalMs    = 1000
	AEMSenderDefaultMaxRetryIntervalMs = 30000
	AEMSenderDefaultRetryMultiplier    = 3.0
)

// AEMSender holds the plan-time settings of a Cloud Integration AdvancedEventMesh sender channel and, when
// read, the AEM queue it consumes. A null enumeration is one the channel leaves empty and counts as the value
// of every tenant-written channel (GUARANTEED, AUTOMATIC_ON_EXCHANGE_COMPLETE, FAILED; assumed).
type AEMSender struct {
	// MaxMessageProcessingAttempts is m, the attempts per delivery, the first one included.
	MaxMessageProcessingAttempts Value[int64]
	// RetryInterval and MaxRetryInterval are the adapter's waits in milliseconds.
	RetryInterval, MaxRetryInterval Value[int64]
	// RetryMultiplier is the Exponential Backoff Multiplier (3.0 in the .iflw is 3).
	RetryMultiplier Value[float64]
	// SettlementOutcome is AEMOutcomeFailed or AEMOutcomeRejected.
	SettlementOutcome Value[string]
	// AcknowledgementMode is AEMAckOnExchangeComplete or AEMAckImmediate.
	AcknowledgementMode Value[string]
	// ConsumerMode is AEMConsumerGuaranteed or AEMConsumerDirect.
	ConsumerMode Value[string]
	// AcceptMessageLoss is the configuration's explicit acceptance of AUTOMATIC_IMMEDIATE on a guaranteed
	// consumer: the rule then warns instead of refusing.
	AcceptMessageLoss bool
	// AllowUnlimitedRedelivery accepts FAILED on a queue that retries for ever (max_redelivery_count 0), and
	// AllowMissingDeadMessageQueue REJECTED onto a dead message queue that keeps nothing: both only to adopt a
	// channel that already works this way (the plan warns instead of refusing).
	AllowUnlimitedRedelivery, AllowMissingDeadMessageQueue bool
	// AllowUndocumentedValues accepts, on a channel adopted as it is, values the adapter's editor does not
	// write and SAP documents no behaviour for: an unknown consumer mode, acknowledgement mode or settlement
	// outcome, no or 0 processing attempts, a
	// retry interval below 1 ms, a multiplier of 0 or less. An .iflw is XML that can be written by hand or by a
	// generator and uploaded, so a tenant can hold them; the plan then warns instead of refusing.
	AllowUndocumentedValues bool
	// MaxTotalAttempts is the configuration's budget of runs per poison message; null = none.
	MaxTotalAttempts Value[int64]
	// Queue is the AEM queue the channel reads, as the broker holds it: its redelivery, maximum redelivery
	// count R, redelivery delay and dead message queue (DeadMessageQueueExists, DeadMessageQueueCreatedHere,
	// DeadMessageQueueIngress: a dead message queue that receives nothing is none, aemDMQFate).
	// The zero value (every setting unknown) is a queue not read.
	Queue AEMQueue
}

// modes returns the effective consumer mode, acknowledgement mode and outcome, null counting as the values of
// every tenant-written channel; ok is false when one is unknown or not a known value.
func (s AEMSender) modes() (consumer, ack, outcome string, ok bool) {
	consumer, ck := effective(s.ConsumerMode, AEMConsumerGuaranteed)
	ack, ak := effective(s.AcknowledgementMode, AEMAckOnExchangeComplete)
	outcome, ok2 := effective(s.SettlementOutcome, AEMOutcomeFailed)
	consumer, ack, outcome = strings.ToUpper(consumer), strings.ToUpper(ack), strings.ToUpper(outcome)
	valid := (consumer == AEMConsumerGuaranteed || consumer == AEMConsumerDirect) &&
		(ack == AEMAckOnExchangeComplete || ack == AEMAckImmediate) &&
		(outcome == AEMOutcomeFailed || outcome == AEMOutcomeRejected)
	return consumer, ack, outcome, ck && ak && ok2 && valid
}

// aemSettles reports whether the settlement outcome applies: a guaranteed consumer acknowledging on exchange
// completion [SAP].
func aemSettles(consumer, ack string) bool {
	return consumer == AEMConsumerGuaranteed && ack == AEMAckOnExchangeComplete
}

// CheckAEMSender applies the AEM sender rules: the acknowledgement mode that loses failures, empty or zero
// attempts, the adapter's waits, the outcome against the queue it reads (FAILED on R = 0, REJECTED without a
// dead message queue) and the attempt budget. Unknown values are skipped.
func CheckAEMSender(s AEMSender) []Finding {
	var r report
	checkAEMSenderModes(&r, s)
	checkAEMSenderAttempts(&r, s)
	checkAEMSenderWaits(&r, s)
	checkAEMSenderQueue(&r, s)
	checkAEMSenderBudget(&r, s)
	checkAEMSenderUndocumentedUnused(&r, s)
	checkAEMSenderAdoptionUnused(&r, s)
	return r.fs
}

// checkAEMSenderAdoptionUnused warns about allow_unlimited_redelivery and allow_missing_dead_message_queue set on a
// channel that does not need them: the outcome does not settle onto the queue, or the queue is limited, or its
// dead message queue keeps messages. Unknown facts are skipped.
func checkAEMSenderAdoptionUnused(r *report, s AEMSender) {
	if !s.AllowUnlimitedRedelivery && !s.AllowMissingDeadMessageQueue {
		return
	}
	consumer, ack, outcome, ok := s.modes()
	if !ok {
		return
	}
	settles := aemSettles(consumer, ack)
	if s.AllowUnlimitedRedelivery {
		enabled, ek := effective(s.Queue.RedeliveryEnabled, true)
		n, nk := effective(s.Queue.MaxRedeliveryCount, 0)
		if !settles || outcome != AEMOutcomeFailed || (ek && nk && (!enabled || n != 0)) {
			r.warnf("aem_sender.allow_unlimited_unused", attrAEMAllowUnlimitedRedelivery, "Allow Unlimited Redelivery Has No Effect",
				"The channel does not hand messages back to a queue that retries for ever (`settlement_outcome = %q` on a %s consumer acknowledging %s, and the queue's redelivery is limited or off), "+
					"so `allow_unlimited_redelivery = true` changes nothing. Set `allow_unlimited_redelivery = false`, or remove it.", outcome, consumer, ack)
		}
	}
	if s.AllowMissingDeadMessageQueue {
		_, fateKnown := aemDMQFate(s.Queue)
		_, why := aemSenderDMQGone(s)
		if !settles || outcome != AEMOutcomeRejected || (fateKnown && !aemDMQDeletesEvery(why)) {
			r.warnf("aem_sender.allow_missing_dmq_unused", attrAEMAllowMissingDMQ, "Allow Missing Dead Message Queue Has No Effect",
				"The channel does not reject messages onto a dead message queue that keeps nothing (`settlement_outcome = %q` on a %s consumer acknowledging %s), "+
					"so `allow_missing_dead_message_queue = true` changes nothing. Set `allow_missing_dead_message_queue = false`, or remove it.", outcome, consumer, ack)
		}
	}
}

// aemSenderUndocumented reports a value of the channel that SAP documents no behaviour for (rule, an error),
// or, with allow_undocumented_values, warns about it: what says what the value does, fix the change that
// ends it (a sentence starting with "Set", without its full stop).
func aemSenderUndocumented(r *report, s AEMSender, rule, attr, summary, what, fix string) {
	if s.AllowUndocumentedValues {
		r.warnf("aem_sender.undocumented_value_allowed", attr, summary+" Allowed",
			"`allow_undocumented_values = true` adopts the channel with this value as it holds it. %s %s, and remove `allow_undocumented_values`.", what, fix)
		return
	}
	r.errorf(rule, attr, summary,
		"%s %s (or, only to import a channel that already holds it and change it later, set `allow_undocumented_values = true` for now).", what, fix)
}

func checkAEMSenderModes(r *report, s AEMSender) {
	// An .iflw written by hand can hold any value, so each unknown one is adoptable (aemSenderUndocumented).
	unknown := func(v Value[string], attr string, allowed ...string) (what, fix string, bad bool) {
		x, ok := v.get()
		if !ok {
			return "", "", false
		}
		for _, a := range allowed {
			if strings.EqualFold(x, a) {
				return "", "", false
			}
		}
		return fmt.Sprintf("`%s = %q` is not a value the AdvancedEventMesh sender adapter is known to take (only %s), so what the adapter would do with it is unknown.",
			attr, x, strings.Join(quoteAll(allowed), " and ")), fmt.Sprintf("Set `%s = %q`", attr, allowed[0]), true
	}
	what, fix, badConsumer := unknown(s.ConsumerMode, attrAEMConsumerMode, AEMConsumerGuaranteed, AEMConsumerDirect)
	if badConsumer {
		aemSenderUndocumented(r, s, "aem_sender.consumer_mode_invalid", attrAEMConsumerMode, "Invalid Consumer Mode", what, fix)
	}
	what, fix, badAck := unknown(s.AcknowledgementMode, attrAEMAckMode, AEMAckOnExchangeComplete, AEMAckImmediate)
	if badAck {
		aemSenderUndocumented(r, s, "aem_sender.acknowledgement_mode_invalid", attrAEMAckMode, "Invalid Acknowledgement Mode", what, fix)
	}
	if x, ok := s.SettlementOutcome.get(); ok && !strings.EqualFold(x, AEMOutcomeFailed) && !strings.EqualFold(x, AEMOutcomeRejected) {
		// The stored value of Rejected is not confirmed (reference note aem.md §4), so a channel of a tenant can
		// hold a value this provider does not know: adoptable.
		aemSenderUndocumented(r, s, "aem_sender.settlement_outcome_invalid", attrAEMSettlementOutcome, "Invalid Settlement Outcome",
			fmt.Sprintf("`settlement_outcome = %q` is not a value the AdvancedEventMesh sender adapter is known to take (only %q and %q), so what the adapter does with a message after its last attempt is unknown, "+
				"and the plan cannot tell whether a poison message is redelivered, dead-lettered or lost.", x, AEMOutcomeFailed, AEMOutcomeRejected),
			fmt.Sprintf("Set `settlement_outcome = %q`", AEMOutcomeFailed))
	}
	if badConsumer || badAck {
		return
	}
	consumer, ck := effective(s.ConsumerMode, AEMConsumerGuaranteed)
	ack, ak := effective(s.AcknowledgementMode, AEMAckOnExchangeComplete)
	if !ck || !ak {
		return
	}
	immediate := strings.EqualFold(ack, AEMAckImmediate)
	guaranteed := strings.EqualFold(consumer, AEMConsumerGuaranteed)
	switch {
	case immediate && guaranteed && s.AcceptMessageLoss:
		r.warnf("aem_sender.ack_immediate_accepted", attrAEMAckMode, "Failed Messages Lost Accepted",
			"`accept_message_loss = true` keeps `acknowledgement_mode = %q` on a guaranteed consumer: the adapter acknowledges every message on receipt, so the broker deletes it at once and a message the flow fails is lost, never redelivered and never dead-lettered. "+
				"Set `acknowledgement_mode = %q` and remove `accept_message_loss`.", AEMAckImmediate, AEMAckOnExchangeComplete)
	case immediate && guaranteed:
		r.errorf("aem_sender.ack_immediate", attrAEMAckMode, "Failed Messages Lost",
			"`acknowledgement_mode = %q` acknowledges every message on receipt, before the flow runs: the broker deletes it at once, so a message the flow fails is lost, never redelivered, never settled with `settlement_outcome` and never dead-lettered. "+
				"Set `acknowledgement_mode = %q` (or, only to import a channel that already works this way and change it later, set `accept_message_loss = true` for now).", AEMAckImmediate, AEMAckOnExchangeComplete)
	case s.AcceptMessageLoss:
		r.warnf("aem_sender.accept_message_loss_unused", attrAEMAcceptMessageLoss, "Accept Message Loss Has No Effect",
			"`accept_message_loss = true` accepts `acknowledgement_mode = %q` on a guaranteed consumer, which this channel does not have (`consumer_mode = %q`, `acknowledgement_mode = %q`), so it changes nothing. "+
				"Set `accept_message_loss = false`, or remove it.", AEMAckImmediate, strings.ToUpper(consumer), strings.ToUpper(ack))
	}
}

func checkAEMSenderAttempts(r *report, s AEMSender) {
	fix := fmt.Sprintf("Set `max_message_processing_attempts` to 1 or more, for example %d", aemRecommendedAttempts)
	if s.MaxMessageProcessingAttempts.Null {
		aemSenderUndocumented(r, s, "aem_sender.attempts_missing", attrAEMMaxAttempts, "Processing Attempts Not Set",
			"Without `max_message_processing_attempts` the channel does not say how often the adapter runs a message before it settles it, and SAP documents no behaviour for an empty value, so the runs of a poison message cannot be bounded.", fix)
		return
	}
	m, ok := s.MaxMessageProcessingAttempts.get()
	switch {
	case !ok:
	case m == 0:
		aemSenderUndocumented(r, s, "aem_sender.attempts_zero", attrAEMMaxAttempts, "Zero Processing Attempts",
			"`max_message_processing_attempts = 0` asks for no processing attempt, which SAP's adapter page does not define: a message would be settled without being processed, and every redelivery of the queue used up without a real attempt.", fix)
	case m < 0:
		r.errorf("aem_sender.attempts_range", attrAEMMaxAttempts, "Invalid Processing Attempts",
			"`max_message_processing_attempts = %d` would be rejected: the adapter counts attempts from 1. Set `max_message_processing_attempts` to 1 or more, for example %d.", m, aemRecommendedAttempts)
	}
}

func checkAEMSenderWaits(r *report, s AEMSender) {
	if m, ok := s.MaxMessageProcessingAttempts.get(); ok && m <= 1 {
		return // One attempt has no waits: the editor hides the three fields [SAP].
	}
	waitOK := func(v Value[int64], attr string, example int64) bool {
		n, ok := v.get()
		if !ok || n >= 1 {
			return ok
		}
		aemSenderUndocumented(r, s, "aem_sender.retry_interval_range", attr, "Invalid Retry Interval",
			fmt.Sprintf("`%s = %d` gives no wait between the adapter's attempts: the interval is in milliseconds and must be 1 or more, so a failing message would be retried at once.", attr, n),
			fmt.Sprintf("Set `%s` to 1 or more, for example %d", attr, example))
		return false
	}
	iok := waitOK(s.RetryInterval, attrAEMRetryInterval, AEMSenderDefaultRetryIntervalMs)
	mok := waitOK(s.MaxRetryInterval, attrAEMMaxRetryInterval, AEMSenderDefaultMaxRetryIntervalMs)
	if x, ok := s.RetryMultiplier.get(); ok {
		switch {
		case x <= 0 || math.IsNaN(x) || math.IsInf(x, 0):
			aemSenderUndocumented(r, s, "aem_sender.retry_multiplier_range", attrAEMRetryMultiplier, "Invalid Retry Multiplier",
				fmt.Sprintf("`retry_multiplier = %g` cannot multiply a wait: the adapter's backoff multiplies the retry interval by it after every attempt, so it must be a number above 0.", x),
				fmt.Sprintf("Set `retry_multiplier` to 1.0 for constant waits, or more, for example %.1f", AEMSenderDefaultRetryMultiplier))
		case x < 1:
			r.warnf("aem_sender.retry_multiplier_shrinks", attrAEMRetryMultiplier, "Retry Waits Shrink",
				"`retry_multiplier = %g` is below 1, so every wait between the adapter's attempts is shorter than the one before, the opposite of a backoff: later attempts follow ever faster. "+
					"Set `retry_multiplier` to 1.0 for constant waits, or more, for example %.1f.", x, AEMSenderDefaultRetryMultiplier)
		}
	}
	initial, ik := s.RetryInterval.get()
	maxMs, mk := s.MaxRetryInterval.get()
	if iok && mok && ik && mk && maxMs < initial {
		r.warnf("aem_sender.max_retry_below_interval", attrAEMMaxRetryInterval, "Max Retry Interval Below Retry Interval",
			"`max_retry_interval = %d` ms is shorter than `retry_interval = %d` ms, so every wait between the adapter's attempts is %d ms and the interval and multiplier change nothing. "+
				"Set `max_retry_interval` to at least %d.", maxMs, initial, maxMs, initial)
	}
}

// aemQueueLabel names the queue for messages: its name when known.
func aemQueueLabel(q AEMQueue) string {
	if n, ok := q.Name.get(); ok && n != "" {
		return fmt.Sprintf("the queue %q", n)
	}
	return "the queue"
}

// Why a poison message is deleted instead of dead-lettered (aemSenderDMQGone).
const (
	aemDMQNone      = "none"      // the queue names no dead message queue
	aemDMQNotHeld   = "missing"   // the broker does not hold it and the configuration does not create it
	aemDMQNoIngress = "noingress" // it exists but receives nothing (ingressEnabled false)
	// Not deleted every time: aemDMQEligible deletes what its publisher did not flag DMQ-eligible, aemDMQLoop
	// sends the message back into the queue (a cycle).
	aemDMQEligible = "eligible"
	aemDMQLoop     = "cycle"
)

// aemSenderDMQGone reports whether the dead message queue of the channel's queue fails to keep what the broker
// removes (aemDMQFate, the queue rules' one reading): the queue names none, names one that neither the broker
// holds nor the configuration creates, or names one whose ingress is off (every message deleted:
// aemDMQNone, aemDMQNotHeld, aemDMQNoIngress); it respects the DMQ-eligible flag (aemDMQEligible: deleted
// unless the publisher flagged it); or its dead message queues lead back to the queue (aemDMQLoop: delivered
// again, for ever). dmq is the name; why is "" when the dead message queue keeps the message or that is not
// known.
func aemSenderDMQGone(s AEMSender) (dmq, why string) {
	dmq, _ = aemDMQName(s.Queue)
	switch fate, _ := aemDMQFate(s.Queue); fate {
	case aemDMQEmpty:
		return "", aemDMQNone
	case aemDMQMissing:
		return dmq, aemDMQNotHeld
	case aemDMQTakesNothing:
		return dmq, aemDMQNoIngress
	case aemDMQCycle:
		return dmq, aemDMQLoop
	case aemDMQEligibleOnly:
		return dmq, aemDMQEligible
	}
	return dmq, ""
}

// aemDMQDeletesEvery reports whether why (aemSenderDMQGone) deletes every removed message.
func aemDMQDeletesEvery(why string) bool {
	return why == aemDMQNone || why == aemDMQNotHeld || why == aemDMQNoIngress
}

// checkAEMSenderDMQFate reports a dead message queue that keeps a removed message only when its publisher
// flagged it DMQ-eligible, or that sends it back into the queue (a cycle); removed says how the message
// leaves the queue.
func checkAEMSenderDMQFate(r *report, s AEMSender, outcome, removed string) bool {
	q := s.Queue
	dmq, why := aemSenderDMQGone(s)
	switch why {
	case aemDMQEligible:
		r.warnf("aem_sender.dmq_eligible_respected", attrAEMSettlementOutcome, "Poison Messages Deleted Unless DMQ-Eligible",
			"`settlement_outcome = %q` %s, but %s has `respect_dmq_eligible_enabled = true`: the broker moves a removed message to the dead message queue %q only when its publisher flagged it DMQ-eligible "+
				"(the Solace-DMQ-Eligible header) and deletes every other one, so poison messages from publishers that do not set the flag are lost without a trace. "+
				"Set `respect_dmq_eligible_enabled = false` on the queue's `sapmessaging_aem_queue`.", outcome, removed, aemQueueLabel(q), dmq)
		return true
	case aemDMQLoop:
		r.warnf("aem_sender.dmq_cycle", attrAEMSettlementOutcome, "Adapter Retries for Ever",
			"`settlement_outcome = %q` %s, but the dead message queues of %s form a cycle (%s): the message comes back into the queue and is delivered again, "+
				"so the flow runs it again on every round, for ever, and it never comes to rest where someone inspects it. "+
				"Set the queue's `dead_message_queue` to a `sapmessaging_aem_dead_message_queue` (whose own dead message queue is left to the broker).",
			outcome, removed, aemQueueLabel(q), aemCyclePath(q))
		return true
	}
	return false
}

// aemDMQGoneText says why the broker deletes the message: "names no dead message queue", ….
func aemDMQGoneText(dmq, why string) string {
	switch why {
	case aemDMQNotHeld:
		return fmt.Sprintf("names the dead message queue %q, which the broker does not hold and this configuration does not create", dmq)
	case aemDMQNoIngress:
		return fmt.Sprintf("names the dead message queue %q, whose ingress is off (`ingress_enabled = false`, the broker's default for a queue made by hand), so it receives nothing", dmq)
	}
	return "names no dead message queue"
}

// aemDMQGoneFix is the fix of a dead message queue that takes nothing.
func aemDMQGoneFix(dmq, why string) string {
	if why == aemDMQNoIngress {
		return fmt.Sprintf("Set `ingress_enabled = true` on the dead message queue %q (for example by managing it with `sapmessaging_aem_dead_message_queue`).", dmq)
	}
	return "Set the queue's `dead_message_queue` to a queue this configuration creates with `sapmessaging_aem_dead_message_queue`."
}

func checkAEMSenderQueue(r *report, s AEMSender) {
	consumer, ack, outcome, ok := s.modes()
	if !ok || !aemSettles(consumer, ack) {
		return
	}
	q := s.Queue
	switch outcome {
	case AEMOutcomeFailed:
		enabled, ek := effective(q.RedeliveryEnabled, true)
		n, nk := effective(q.MaxRedeliveryCount, 0)
		if !ek || !nk {
			return
		}
		if !enabled || n != 0 {
			if checkAEMSenderDMQFate(r, s, outcome, "hands a message back to the broker after the adapter's last attempt, and after the queue's last delivery the broker removes it") {
				return
			}
			if dmq, why := aemSenderDMQGone(s); aemDMQDeletesEvery(why) {
				r.warnf("aem_sender.poison_messages_deleted", attrAEMSettlementOutcome, "Poison Messages Deleted",
					"`settlement_outcome = %q` hands a message back to the broker after the adapter's last attempt, and after the queue's last delivery the broker removes it, but %s %s: the broker deletes the message, so poison messages are lost without a trace. %s",
					outcome, aemQueueLabel(q), aemDMQGoneText(dmq, why), aemDMQGoneFix(dmq, why))
			}
			return
		}
		m, mk := s.MaxMessageProcessingAttempts.get()
		runs := "the adapter's attempts"
		if mk && m > 0 {
			runs = fmt.Sprintf("all %d of the adapter's attempts", m)
		}
		if s.AllowUnlimitedRedelivery {
			r.warnf("aem_sender.failed_unlimited_redelivery_allowed", attrAEMAllowUnlimitedRedelivery, "Adapter Retries for Ever Allowed",
				"`allow_unlimited_redelivery = true` keeps `settlement_outcome = %q` on %s, which has `max_redelivery_count = 0` (\"retry forever\"): "+
					"a poison message is redelivered without end and every delivery runs %s again, so it runs for ever and never reaches the dead message queue. "+
					"Set the queue's `max_redelivery_count` to a value from 1 to %d, for example %d, and remove `allow_unlimited_redelivery`.", outcome, aemQueueLabel(q), runs, AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
			return
		}
		r.errorf("aem_sender.failed_unlimited_redelivery", attrAEMSettlementOutcome, "Adapter Retries for Ever",
			"`settlement_outcome = %q` hands a message back to the broker after the adapter's last attempt, and %s has `max_redelivery_count = 0`, which the broker reads as \"retry forever\": "+
				"a poison message is redelivered without end and every delivery runs %s again, so it runs for ever and never reaches the dead message queue. "+
				"Set the queue's `max_redelivery_count` to a value from 1 to %d, for example %d (or, only to import a channel that already works this way and change it later, set `allow_unlimited_redelivery = true` for now).",
			outcome, aemQueueLabel(q), runs, AEMMaxRedeliveryCountLimit, aemRecommendedRedeliveries)
	case AEMOutcomeRejected:
		if checkAEMSenderDMQFate(r, s, outcome, "tells the broker to remove a message after the adapter's last attempt") {
			return
		}
		dmq, why := aemSenderDMQGone(s)
		if !aemDMQDeletesEvery(why) {
			return
		}
		if s.AllowMissingDeadMessageQueue {
			r.warnf("aem_sender.rejected_without_dmq_allowed", attrAEMAllowMissingDMQ, "Rejected Messages Deleted Allowed",
				"`allow_missing_dead_message_queue = true` keeps `settlement_outcome = %q` although %s %s: the broker deletes every rejected message, so poison messages are lost without a trace. %s, and remove `allow_missing_dead_message_queue`.",
				outcome, aemQueueLabel(q), aemDMQGoneText(dmq, why), strings.TrimSuffix(aemDMQGoneFix(dmq, why), "."))
			return
		}
		r.errorf("aem_sender.rejected_without_dmq", attrAEMSettlementOutcome, "Rejected Messages Deleted",
			"`settlement_outcome = %q` tells the broker to remove a message after the adapter's last attempt and move it to the dead message queue, but %s %s: the broker deletes every rejected message, so poison messages are lost without a trace. %s (or, only to import a channel that already works this way and change it later, "+
				"set `allow_missing_dead_message_queue = true` for now).",
			outcome, aemQueueLabel(q), aemDMQGoneText(dmq, why), strings.TrimSuffix(aemDMQGoneFix(dmq, why), "."))
	}
}

func checkAEMSenderBudget(r *report, s AEMSender) {
	budget, ok := s.MaxTotalAttempts.get()
	if !ok {
		return
	}
	if budget < 1 {
		r.errorf("aem_sender.max_total_attempts_range", attrMaxTotalAttempts, "Attempt Budget Too Small",
			"No setting fits `max_total_attempts = %d`: a message runs at least once. Set `max_total_attempts` to 1 or more.", budget)
		return
	}
	p, known := AEMSenderPath(s)
	if !known || p.Unlimited || p.Runs <= budget {
		return
	}
	m, _ := s.MaxMessageProcessingAttempts.get()
	if p.Deliveries == 1 {
		r.errorf("aem_sender.attempt_budget_exceeded", attrMaxTotalAttempts, "Attempt Budget Exceeded",
			"With `max_message_processing_attempts` m = %d on one delivery, a poison message runs %d times, more than `max_total_attempts = %d`. "+
				"Set `max_message_processing_attempts = %d`.", m, p.Runs, budget, budget)
		return
	}
	redeliveries := p.Deliveries - 1
	var fix string
	switch {
	case budget/m-1 >= 1:
		fit := min(budget/m-1, AEMMaxRedeliveryCountLimit)
		fix = fmt.Sprintf("Set the queue's `max_redelivery_count = %d`, which gives at most %d × (%d + 1) = %d runs.", fit, m, fit, m*(fit+1))
	case budget/p.Deliveries >= 1:
		fit := budget / p.Deliveries
		fix = fmt.Sprintf("Set `max_message_processing_attempts = %d`, which gives at most %d × (%d + 1) = %d runs.", fit, fit, redeliveries, fit*p.Deliveries)
	case budget >= 2:
		fix = fmt.Sprintf("Set `max_message_processing_attempts = 1` and the queue's `max_redelivery_count = %d`, which gives at most %d runs.", budget-1, budget)
	default:
		fix = fmt.Sprintf("Set `max_message_processing_attempts = 1` and `settlement_outcome = %q`, which gives one run, then the dead message queue.", AEMOutcomeRejected)
	}
	r.errorf("aem_sender.attempt_budget_exceeded", attrMaxTotalAttempts, "Attempt Budget Exceeded",
		"With `max_message_processing_attempts` m = %d and the queue's `max_redelivery_count` R = %d, a poison message runs up to m × (R + 1) = %d × (%d + 1) = %d times, more than `max_total_attempts = %d`. %s",
		m, redeliveries, m, redeliveries, p.Runs, budget, fix)
}

// AEMAdapterWait returns the adapter's wait after its attempt k (k = 1 is the wait between the first and the
// second attempt): initialMs × multiplier^(k−1), at most maxMs [SAP]. It is 0 for k < 1, and after the first
// wait for a multiplier of 0 or less (which the rules refuse).
func AEMAdapterWait(k, initialMs, maxMs int64, multiplier float64) time.Duration {
	if k < 1 || k > 1 && !(multiplier > 0) {
		return 0
	}
	d := float64(initialMs) * math.Pow(multiplier, float64(k-1))
	if d > float64(maxMs) || math.IsInf(d, 1) || math.IsNaN(d) {
		d = float64(maxMs)
	}
	return aemDurationMs(d)
}

// aemDurationMs converts milliseconds to a duration: 0 for a negative value, the longest duration for one too
// long to hold.
func aemDurationMs(ms float64) time.Duration {
	switch ns := ms * float64(time.Millisecond); {
	case !(ns > 0):
		return 0
	case ns >= math.MaxInt64:
		return math.MaxInt64
	default:
		return time.Duration(ns)
	}
}

// aemAddDuration returns a + b for non-negative durations, at most the longest duration.
func aemAddDuration(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// aemMulDuration returns n × d for non-negative n and d, at most the longest duration.
func aemMulDuration(n int64, d time.Duration) time.Duration {
	if n > 0 && d > time.Duration(math.MaxInt64/n) {
		return math.MaxInt64
	}
	return time.Duration(n) * d
}

// AEMAdapterWaits returns the adapter's waits on one delivery of a message that fails every attempt: the sum
// of AEMAdapterWait over the attempts − 1 waits between its attempts. With the seed settings (5 attempts,
// 1000 ms, ×3.0, at most 30000 ms) they are 1 s, 3 s, 9 s and 27 s: 40 s. It is computed in closed form (a
// geometric series up to the cap, then the cap), so that any number of attempts costs the same.
func AEMAdapterWaits(attempts, initialMs, maxMs int64, multiplier float64) time.Duration {
	n := attempts - 1
	if n < 1 || initialMs <= 0 || maxMs <= 0 {
		return 0 // No wait, or every wait is nothing.
	}
	if !(multiplier > 0) {
		return AEMAdapterWait(1, initialMs, maxMs, multiplier) // Only the first wait.
	}
	a, c, fn := float64(initialMs), float64(maxMs), float64(n)
	var ms float64
	switch {
	case multiplier == 1:
		ms = fn * math.Min(a, c)
	case multiplier > 1:
		// Terms a·q^(k−1) below the cap: k − 1 < log_q(c/a).
		j := 0.0
		if a < c {
			j = math.Min(fn, math.Ceil(math.Log(c/a)/math.Log(multiplier)))
		}
		ms = a*(math.Pow(multiplier, j)-1)/(multiplier-1) + (fn-j)*c
	default:
		// Decreasing: the first terms may be above the cap.
		j := 0.0
		if a > c {
			j = math.Min(fn, math.Ceil(math.Log(c/a)/math.Log(multiplier)))
		}
		ms = j*c + a*math.Pow(multiplier, j)*(1-math.Pow(multiplier, fn-j))/(1-multiplier)
	}
	return aemDurationMs(math.Round(ms*1e6) / 1e6)
}

// AEMSenderDeliveries returns how many times the broker delivers a poison message to the channel: with the
// FAILED outcome on a guaranteed consumer acknowledging on exchange completion, the queue's deliveries
// (AEMDeliveries: R + 1, 1 with redelivery disabled, unlimited at R = 0); with REJECTED one delivery, then the
// dead message queue; with AUTOMATIC_IMMEDIATE or a DIRECT consumer one delivery, then the message is gone.
func AEMSenderDeliveries(consumer, ack, outcome string, redeliveryEnabled bool, maxRedeliveryCount int64) (deliveries int64, unlimited bool) {
	if !aemSettles(strings.ToUpper(consumer), strings.ToUpper(ack)) || strings.EqualFold(outcome, AEMOutcomeRejected) {
		return 1, false
	}
	return AEMDeliveries(redeliveryEnabled, maxRedeliveryCount)
}

// AEMSenderMaxRuns returns N_max, the runs of the flow for one poison message: m × (R + 1) with FAILED (m with
// redelivery disabled; unlimited at R = 0), m with REJECTED or a DIRECT consumer, and 1 with
// AUTOMATIC_IMMEDIATE, which acknowledges the message on receipt. Assumed, as SAP's page does not say: that
// the adapter does not run an acknowledged message again (reference note §5: "one delivery, then gone"), and
// that a direct consumer, which has no queue to hand the message back to, runs its m attempts and drops it.
func AEMSenderMaxRuns(attempts int64, consumer, ack, outcome string, redeliveryEnabled bool, maxRedeliveryCount int64) (runs int64, unlimited bool) {
	if strings.EqualFold(ack, AEMAckImmediate) {
		return 1, false
	}
	d, unlimited := AEMSenderDeliveries(consumer, ack, outcome, redeliveryEnabled, maxRedeliveryCount)
	if unlimited {
		return 0, true
	}
	return aemMulRuns(attempts, d), false
}

// aemMulRuns returns m × d for non-negative m and positive d, at most the largest int64.
func aemMulRuns(m, d int64) int64 {
	if d > 0 && m > math.MaxInt64/d {
		return math.MaxInt64
	}
	return m * d
}

// Ends of a poison message on an AEM sender channel.
const (
	AEMEndDeadMessageQueue = "dead message queue" // moved to the queue's dead message queue
	AEMEndDeleted          = "deleted"            // removed by the broker without a dead message queue
	AEMEndLost             = "lost"               // acknowledged on receipt, or a direct message: gone after its runs
	// AEMEndDeletedUnlessEligible: the queue respects the DMQ-eligible flag, so the broker deletes the message
	// unless its publisher flagged it DMQ-eligible (then it moves to the dead message queue).
	AEMEndDeletedUnlessEligible = "deleted unless DMQ-eligible"
	// AEMEndCycle: the dead message queues lead back to the queue, so the message is delivered again for ever
	// (the path is Unlimited).
	AEMEndCycle = "dead message queue cycle"
)

// AEMSenderPoisonPath is what happens to one poison message on an AEM sender channel.
type AEMSenderPoisonPath struct {
	// Runs is N_max (0 when Unlimited); Deliveries the broker's deliveries (0 when Unlimited).
	Runs, Deliveries int64
	Unlimited        bool
	// AdapterWaits is the adapter's waits on one delivery; BrokerWaits the broker's redelivery delays between
	// the deliveries; TimeToEnd their total: Deliveries × AdapterWaits + BrokerWaits (the flow's own
	// processing time comes on top). With Unlimited, TimeToEnd is 0.
	AdapterWaits, BrokerWaits, TimeToEnd time.Duration
	// End is AEMEndDeadMessageQueue, AEMEndDeletedUnlessEligible, AEMEndDeleted, AEMEndLost, or AEMEndCycle
	// (Unlimited); DeadMessageQueue names the queue of the first two.
	End, DeadMessageQueue string
}

// AEMSenderPath returns what the channel and its queue do with a poison message; known is false when a value
// it needs is unknown or invalid. Null waits count as the defaults of the tenant-written channels.
func AEMSenderPath(s AEMSender) (AEMSenderPoisonPath, bool) {
	consumer, ack, outcome, ok := s.modes()
	m, mk := s.MaxMessageProcessingAttempts.get()
	if !ok || !mk || m < 1 {
		return AEMSenderPoisonPath{}, false
	}
	initial, ik := effective(s.RetryInterval, AEMSenderDefaultRetryIntervalMs)
	maxMs, xk := effective(s.MaxRetryInterval, AEMSenderDefaultMaxRetryIntervalMs)
	mult, uk := effective(s.RetryMultiplier, AEMSenderDefaultRetryMultiplier)
	if !ik || !xk || !uk {
		return AEMSenderPoisonPath{}, false
	}
	var p AEMSenderPoisonPath
	if ack == AEMAckImmediate || consumer == AEMConsumerDirect {
		p.Runs, p.Deliveries, p.End = m, 1, AEMEndLost
		if ack == AEMAckImmediate {
			p.Runs = 1
		} else {
			p.AdapterWaits = AEMAdapterWaits(m, initial, maxMs, mult)
			p.TimeToEnd = p.AdapterWaits
		}
		return p, true
	}
	rd, rk := s.Queue.redelivery()
	if outcome == AEMOutcomeFailed && (!rk ||
		rd.count < 0 || rd.count > AEMMaxRedeliveryCountLimit || rd.delay && !validDelay(rd.initial, rd.maxMs, rd.mult)) {
		return AEMSenderPoisonPath{}, false // The queue's rules report a count or delay out of range.
	}
	p.AdapterWaits = AEMAdapterWaits(m, initial, maxMs, mult)
	deliveries, unlimited := AEMSenderDeliveries(consumer, ack, outcome, rd.enabled, rd.count)
	if unlimited {
		p.Unlimited = true
		return p, true
	}
	if _, why := aemSenderDMQGone(s); why == aemDMQLoop {
		p.Unlimited, p.End = true, AEMEndCycle
		return p, true
	}
	p.Deliveries = deliveries
	p.Runs = aemMulRuns(m, deliveries)
	p.BrokerWaits = rd.timeToDeadLetter(deliveries - 1)
	p.TimeToEnd = aemAddDuration(aemMulDuration(deliveries, p.AdapterWaits), p.BrokerWaits)
	dmq, why := aemSenderDMQGone(s)
	switch {
	case aemDMQDeletesEvery(why):
		p.End = AEMEndDeleted
	case why == aemDMQEligible:
		p.End, p.DeadMessageQueue = AEMEndDeletedUnlessEligible, dmq
	case dmq != "":
		p.End, p.DeadMessageQueue = AEMEndDeadMessageQueue, dmq
	default:
		// The queue's dead message queue is not known: the message leaves for it, if it exists.
		p.End = AEMEndDeadMessageQueue
	}
	return p, true
}

// AEMSenderRetryPlan describes, for the plan, what happens to a poison message on the channel: the runs, the
// time until it leaves the queue and where it goes. Unknown settings give "".
func AEMSenderRetryPlan(s AEMSender) string {
	p, ok := AEMSenderPath(s)
	if !ok {
		return ""
	}
	m, _ := s.MaxMessageProcessingAttempts.get()
	switch {
	case p.End == AEMEndCycle:
		return fmt.Sprintf("a poison message runs without end: %d attempts on every delivery, and the dead message queues of the queue form a cycle (%s), so it comes back and is delivered again, for ever",
			m, aemCyclePath(s.Queue))
	case p.Unlimited:
		return fmt.Sprintf("a poison message runs without end: %d attempts on every delivery, and the queue redelivers it for ever (`max_redelivery_count` 0 = retry forever)", m)
	case p.End == AEMEndLost && p.Runs == 1:
		return "a poison message runs once and is lost: the adapter acknowledges it on receipt (`acknowledgement_mode` AUTOMATIC_IMMEDIATE)"
	case p.End == AEMEndLost:
		return fmt.Sprintf("a poison message runs %s over %s of adapter waits, then is lost (a direct consumer has no redelivery)", aemRunsText(p.Runs), FormatAEMDuration(p.TimeToEnd))
	}
	what := fmt.Sprintf("%d attempts", m)
	if m == 1 {
		what = "1 attempt"
	}
	how := fmt.Sprintf("%s on each of %d deliveries", what, p.Deliveries)
	if p.Deliveries == 1 {
		how = what + " on one delivery"
	}
	where := "then moved to the dead message queue"
	dmq, gone := aemSenderDMQGone(s)
	switch {
	case p.End == AEMEndDeleted && gone == aemDMQNoIngress:
		where = fmt.Sprintf("then deleted (the dead message queue %q takes no messages: its ingress is off)", dmq)
	case p.End == AEMEndDeleted:
		where = "then deleted (the queue has no dead message queue)"
	case p.End == AEMEndDeletedUnlessEligible:
		where = fmt.Sprintf("then deleted unless its publisher flagged it DMQ-eligible (moved to the dead message queue %q only then: the queue has `respect_dmq_eligible_enabled = true`)", p.DeadMessageQueue)
	case p.DeadMessageQueue != "":
		where = fmt.Sprintf("then moved to the dead message queue %q", p.DeadMessageQueue)
	}
	if (p.End == AEMEndDeadMessageQueue || p.End == AEMEndDeletedUnlessEligible) && aemDMQSmaller(s.Queue) {
		where += fmt.Sprintf(" (deleted instead when larger than %d bytes, the dead message queue's maxMsgSize)", AEMDeadMessageQueueSizeLimit(s.Queue))
	}
	return fmt.Sprintf("a poison message runs %s (%s) over %s of adapter waits and redelivery delays, %s",
		aemRunsText(p.Runs), how, FormatAEMDuration(p.TimeToEnd), where)
}

func aemRunsText(n int64) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d times", n)
}

// AEMSenderUndocumented reports whether the channel holds a value SAP documents no behaviour for (the rules
// that allow_undocumented_values adopts): what an import sets that attribute from.
func AEMSenderUndocumented(s AEMSender) bool {
	s.AllowUndocumentedValues = false
	var r report
	checkAEMSenderModes(&r, s)
	checkAEMSenderAttempts(&r, s)
	checkAEMSenderWaits(&r, s)
	for _, f := range r.fs {
		switch f.Rule {
		case "aem_sender.consumer_mode_invalid", "aem_sender.acknowledgement_mode_invalid",
			"aem_sender.settlement_outcome_invalid", "aem_sender.attempts_missing", "aem_sender.attempts_zero",
			"aem_sender.retry_interval_range", "aem_sender.retry_multiplier_range":
			return true
		}
	}
	return false
}

func checkAEMSenderUndocumentedUnused(r *report, s AEMSender) {
	if !s.AllowUndocumentedValues || s.MaxMessageProcessingAttempts.IsUnknown() || s.SettlementOutcome.IsUnknown() ||
		s.RetryInterval.IsUnknown() || s.MaxRetryInterval.IsUnknown() || s.RetryMultiplier.IsUnknown() || AEMSenderUndocumented(s) {
		return
	}
	r.warnf("aem_sender.allow_undocumented_values_unused", attrAEMAllowUndocumented, "Allow Undocumented Values Has No Effect",
		"The channel's settlement outcome, processing attempts and retry waits are all values SAP documents, so `allow_undocumented_values = true` changes nothing. Set `allow_undocumented_values = false`, or remove it.")
}

// AEMSenderAdoption says which adoption attributes a channel adopted as it is needs: FAILED on a queue that
// retries for ever, and REJECTED onto a dead message queue that keeps nothing (what the queue rules of
// checkAEMSenderQueue refuse).
func AEMSenderAdoption(s AEMSender) (allowUnlimitedRedelivery, allowMissingDeadMessageQueue bool) {
	consumer, ack, outcome, ok := s.modes()
	if !ok || !aemSettles(consumer, ack) {
		return false, false
	}
	switch outcome {
	case AEMOutcomeFailed:
		enabled, ek := effective(s.Queue.RedeliveryEnabled, true)
		n, nk := effective(s.Queue.MaxRedeliveryCount, 0)
		return ek && nk && enabled && n == 0, false
	case AEMOutcomeRejected:
		_, why := aemSenderDMQGone(s)
		return false, aemDMQDeletesEvery(why) // what aem_sender.rejected_without_dmq refuses
	}
	return false, false
}
