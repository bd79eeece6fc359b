package rules

import (
	"fmt"
	"strings"
)

// Terraform attribute names of the Cloud Integration JMS sender resource.
const (
	attrJMSRetryInterval      = "retry_interval"
	attrJMSMaxRetryInterval   = "max_retry_interval"
	attrJMSBackoff            = "exponential_backoff"
	attrJMSConcurrent         = "concurrent_processes"
	attrJMSDeadLetterQueue    = "dead_letter_queue"
	attrJMSAllowNonExclusive  = "allow_non_exclusive_settings"
	attrJMSAllowGiveUp        = "allow_give_up_after_expiry"
	attrJMSMaxRetries         = "max_retries"
	attrJMSExpirationDays     = "queue_expiration_days"
	attrJMSRetryGuard         = "retry_guard"
	jmsRecommendedConcurrency = 5
	// jmsShortInterval is the retry interval (minutes) below which constant retries count
	// as hammering: SAP's own minimum for the maximum retry interval is 10 minutes.
	jmsShortInterval = 10
	// jmsRecommendedRetries is the limit SAP's pipeline concept uses by default [SAP
	// "Customizing the Pipeline Concept", aeb106f].
	jmsRecommendedRetries = 5
)

// Access types of a Cloud Integration JMS queue (.iflw key AccessType).
const (
	JMSAccessExclusive    = "Exclusive"
	JMSAccessNonExclusive = "Non-Exclusive"
)

// JMSDeadLetterQueueDescription says what the Dead-Letter Queue option of the JMS sender
// does, for attribute descriptions and messages [SAP "Configure the JMS Sender Adapter",
// 161791b; "Managing Messages Stored in Queues", 6733197].
const JMSDeadLetterQueueDescription = "The Dead-Letter Queue option moves nothing anywhere: when a message has crashed a worker node " +
	"(out of memory) and failed twice more the same way, Cloud Integration marks it *Blocked* and sets a lock " +
	"(Monitor > Message Locks). A blocked message has no next retry and is not restarted until someone releases the lock. " +
	"It is available for non-exclusive queues only, and it does not limit ordinary retries."

// jmsRange is the range SAP documents for one setting per access type [SAP 161791b].
type jmsRange struct{ exclusive, nonExclusive [2]int64 }

var (
	// Retry Interval: Exclusive 1-60, Non-Exclusive 1-10080 minutes [SAP 161791b].
	jmsRetryIntervalRange = jmsRange{[2]int64{1, 60}, [2]int64{1, 10080}}
	// Maximum Retry Interval: Exclusive 10-180, Non-Exclusive 10-43200 minutes [SAP 161791b].
	jmsMaxRetryIntervalRange = jmsRange{[2]int64{10, 180}, [2]int64{10, 43200}}
)

// JMSRetryGuard is what the flow's check of SAPJMSRetries tells at plan time.
type JMSRetryGuard struct {
	// Present: the flow compares SAPJMSRetries in a router condition, an exception
	// subprocess or a script. Unknown when the flow has not been read.
	Present Value[bool]
	// Limit is the limit the guard compares with when it is visible (a literal or a
	// resolved externalized parameter); null when not visible.
	Limit Value[int64]
	// Operator is the comparison (">", ">=", "=", …); "" when unknown.
	Operator string
}

// JMSSender holds the plan-time settings of a Cloud Integration JMS sender channel, the
// flow's retry guard and the expiration period of the queue it consumes.
type JMSSender struct {
	AccessType                                           Value[string] // Exclusive | Non-Exclusive
	RetryInterval, MaxRetryInterval, ConcurrentProcesses Value[int64]
	ExponentialBackoff, DeadLetterQueue                  Value[bool]
	// MaxRetries is the retry limit the flow should enforce; null = none declared.
	MaxRetries Value[int64]
	// ExpirationDays is the Expiration Period of the producing flow's JMS receiver;
	// null means SAP's default of 30 days.
	ExpirationDays Value[int64]
	Guard          JMSRetryGuard
	// AllowNonExclusiveSettings is the configuration's explicit acceptance of concurrent processes other than 1 or
	// the dead-letter queue on a channel of an exclusive queue, adopted as the flow holds them: the two rules then
	// warn instead of refusing.
	AllowNonExclusiveSettings bool
	// AllowGiveUpAfterExpiry is the configuration's explicit acceptance of a retry limit that ends a message only
	// after the queue's expiration period, on a channel adopted as its flow is: the rule then warns instead of refusing.
	AllowGiveUpAfterExpiry bool
}

// schedule returns the retry schedule when every value it needs is known. A null
// backoff or maximum takes SAP's default.
func (s JMSSender) schedule() (JMSSchedule, bool) {
	i, ok := s.RetryInterval.get()
	if !ok {
		return JMSSchedule{}, false
	}
	backoff, m := true, int64(DefaultJMSMaxRetryInterval)
	if s.ExponentialBackoff.IsUnknown() {
		return JMSSchedule{}, false
	} else if b, ok := s.ExponentialBackoff.get(); ok {
		backoff = b
	}
	if backoff {
		if s.MaxRetryInterval.IsUnknown() {
			return JMSSchedule{}, false
		} else if v, ok := s.MaxRetryInterval.get(); ok {
			m = v
		}
	}
	sch := JMSSchedule{RetryInterval: i, MaxRetryInterval: m, ExponentialBackoff: backoff}
	return sch, sch.Validate() == nil
}

// expirationDays returns the expiration period in days: the input, or SAP's default.
func (s JMSSender) expirationDays() (int64, bool) {
	if s.ExpirationDays.IsUnknown() {
		return 0, false
	}
	if d, ok := s.ExpirationDays.get(); ok {
		return d, d >= 1 && d <= JMSMaxExpirationDays
	}
	return DefaultJMSExpirationDays, true
}

// exclusive reports whether the access type is known to be Exclusive.
func (s JMSSender) exclusive() bool {
	a, ok := s.AccessType.get()
	return ok && strings.EqualFold(a, JMSAccessExclusive)
}

// CheckJMSSender applies the JMS sender rules: SAP's ranges per access type, the missing
// retry limit (no guard on SAPJMSRetries, or an exclusive queue), a declared limit the
// flow cannot enforce, a give-up time beyond the queue's expiration period, constant
// retries at a short interval, and the Dead-Letter Queue option. Unknown values are skipped.
func CheckJMSSender(s JMSSender) []Finding {
	var r report
	checkJMSAccessType(&r, s)
	checkJMSRanges(&r, s)
	checkJMSConcurrency(&r, s)
	checkJMSDeadLetter(&r, s)
	checkJMSAllowNonExclusive(&r, s)
	checkJMSBackoff(&r, s)
	checkJMSLimit(&r, s)
	return r.fs
}

func checkJMSAccessType(r *report, s JMSSender) {
	a, ok := s.AccessType.get()
	if !ok || strings.EqualFold(a, JMSAccessExclusive) || strings.EqualFold(a, JMSAccessNonExclusive) {
		return
	}
	r.errorf("jms_sender.access_type_invalid", "access_type", "Invalid Access Type",
		"`access_type = %q` is not a JMS queue access type: Cloud Integration knows only %s and %s. Set `access_type` to %q or %q to match the JMS receiver that fills the queue.",
		a, JMSAccessExclusive, JMSAccessNonExclusive, JMSAccessNonExclusive, JMSAccessExclusive)
}

func (jr jmsRange) bounds(exclusive bool) (int64, int64, string) {
	if exclusive {
		return jr.exclusive[0], jr.exclusive[1], "an exclusive queue"
	}
	return jr.nonExclusive[0], jr.nonExclusive[1], "a non-exclusive queue"
}

func checkJMSRanges(r *report, s JMSSender) {
	ex := s.exclusive()
	i, intervalOK := s.RetryInterval.get()
	if intervalOK {
		lo, hi, what := jmsRetryIntervalRange.bounds(ex)
		if i < lo || i > hi {
			intervalOK = false
			r.errorf("jms_sender.retry_interval_range", attrJMSRetryInterval, "Invalid Retry Interval",
				"`retry_interval = %d` would be rejected: the JMS sender on %s accepts %d to %d minutes. Set `retry_interval` to a value from %d to %d, for example %d.",
				i, what, lo, hi, lo, hi, DefaultJMSRetryInterval)
		}
	}
	if b, ok := s.ExponentialBackoff.get(); ok && !b {
		return // The maximum retry interval applies only with backoff [SAP 161791b].
	}
	m, ok := s.MaxRetryInterval.get()
	if !ok {
		return
	}
	lo, hi, what := jmsMaxRetryIntervalRange.bounds(ex)
	if m < lo || m > hi {
		r.errorf("jms_sender.max_retry_interval_range", attrJMSMaxRetryInterval, "Invalid Max Retry Interval",
			"`max_retry_interval = %d` would be rejected: the JMS sender on %s accepts %d to %d minutes. Set `max_retry_interval` to a value from %d to %d, for example %d.",
			m, what, lo, hi, lo, hi, DefaultJMSMaxRetryInterval)
		return
	}
	// With backoff the wait is min(i·2^(n−1), m) [SAP 161791b: the maximum caps the wait;
	// the cap below the first wait is inferred from that formula].
	if intervalOK && i > m {
		r.warnf("jms_sender.max_below_interval", attrJMSMaxRetryInterval, "Max Retry Interval Below Retry Interval",
			"`max_retry_interval = %d` is shorter than `retry_interval = %d`: the maximum caps every wait, so the message is retried every %d minutes, more often than the retry interval says. "+
				"Set `max_retry_interval` to at least %d, or turn `exponential_backoff` off for a constant interval.", m, i, m, i)
	}
}

// checkJMSConcurrency enforces what SAP documents: concurrent processes exist for
// non-exclusive queues only, and at least 1. Above 5 is SAP's advice, not a limit, so it
// is a warning [SAP 161791b: "keep to 1-5; per worker node"].
func checkJMSConcurrency(r *report, s JMSSender) {
	n, ok := s.ConcurrentProcesses.get()
	switch {
	case !ok:
	case n < 1:
		r.errorf("jms_sender.concurrent_range", attrJMSConcurrent, "Invalid Concurrent Processes",
			"`concurrent_processes = %d` would be rejected: the JMS sender needs at least 1 process. Set `concurrent_processes` to a value from 1 to %d, for example 1.", n, jmsRecommendedConcurrency)
	case s.exclusive() && n != 1 && s.AllowNonExclusiveSettings:
		r.warnf("jms_sender.concurrent_exclusive_allowed", attrJMSConcurrent, "Concurrent Processes on Exclusive Queue Allowed",
			"`%s = true` keeps `concurrent_processes = %d`, which has no effect on an exclusive queue: it has exactly one consumer, which processes messages in order. "+
				"Set `concurrent_processes = 1`, and remove `%s` once no other setting needs it.", attrJMSAllowNonExclusive, n, attrJMSAllowNonExclusive)
	case s.exclusive() && n != 1:
		r.errorf("jms_sender.concurrent_exclusive", attrJMSConcurrent, "Concurrent Processes on Exclusive Queue",
			"`concurrent_processes = %d` has no effect on an exclusive queue: it has exactly one consumer, which processes messages in order. Set `concurrent_processes = 1`, or use a non-exclusive queue for parallel processing"+
				" (or, only to import a channel that already holds it as it is and change it later, set `%s = true` for now).", n, attrJMSAllowNonExclusive)
	case n > jmsRecommendedConcurrency:
		r.warnf("jms_sender.concurrent_high", attrJMSConcurrent, "Many Concurrent Processes",
			"`concurrent_processes = %d` runs that many consumers on every worker node, and every one holds a JMS transaction and consumer from the tenant's shared pool (150 by default). "+
				"Set `concurrent_processes` to a value from 1 to %d, as SAP recommends.", n, jmsRecommendedConcurrency)
	}
}

func checkJMSDeadLetter(r *report, s JMSSender) {
	on, ok := s.DeadLetterQueue.get()
	switch {
	case !ok:
	case on && s.exclusive() && s.AllowNonExclusiveSettings:
		r.warnf("jms_sender.dead_letter_exclusive_allowed", attrJMSDeadLetterQueue, "Dead-Letter Queue on Exclusive Queue Allowed",
			"`%s = true` keeps `dead_letter_queue = true`, which is not available for an exclusive queue; the option exists for non-exclusive queues only. "+
				"Set `dead_letter_queue = false`, and remove `%s` once no other setting needs it.", attrJMSAllowNonExclusive, attrJMSAllowNonExclusive)
	case on && s.exclusive():
		r.errorf("jms_sender.dead_letter_exclusive", attrJMSDeadLetterQueue, "Dead-Letter Queue on Exclusive Queue",
			"`dead_letter_queue = true` is not available for an exclusive queue; the option exists for non-exclusive queues only. Set `dead_letter_queue = false`"+
				" (or, only to import a channel that already holds it as it is and change it later, set `%s = true` for now).", attrJMSAllowNonExclusive)
	case !on && !s.exclusive() && !s.AccessType.IsUnknown():
		r.warnf("jms_sender.dead_letter_off", attrJMSDeadLetterQueue, "Dead-Letter Queue Off",
			"`dead_letter_queue = false` lets a message that crashes the worker node (out of memory) be retried and crash it again on every retry. The option moves nothing: after two such crashes it marks the message Blocked with a lock, and it does not limit ordinary retries. "+
				"Set `dead_letter_queue = true`, SAP's default.")
	}
}

// checkJMSAllowNonExclusive warns when allow_non_exclusive_settings adopts nothing: the queue is not exclusive,
// or its channel holds neither setting.
func checkJMSAllowNonExclusive(r *report, s JMSSender) {
	if !s.AllowNonExclusiveSettings || s.AccessType.IsUnknown() || s.ConcurrentProcesses.IsUnknown() || s.DeadLetterQueue.IsUnknown() {
		return
	}
	n, nSet := s.ConcurrentProcesses.get()
	on, _ := s.DeadLetterQueue.get()
	if s.exclusive() && ((nSet && n != 1) || on) {
		return
	}
	r.warnf("jms_sender.allow_non_exclusive_settings_unused", attrJMSAllowNonExclusive, "Allow Non-Exclusive Settings Has No Effect",
		"The channel holds no setting of a non-exclusive queue on an exclusive one (neither `concurrent_processes` other than 1 nor `dead_letter_queue = true` on an exclusive queue), so `%s = true` changes nothing. "+
			"Set `%s = false`, or remove it.", attrJMSAllowNonExclusive, attrJMSAllowNonExclusive)
}

func checkJMSBackoff(r *report, s JMSSender) {
	b, ok := s.ExponentialBackoff.get()
	i, ok2 := s.RetryInterval.get()
	if !ok || b || !ok2 || i < 1 || i >= jmsShortInterval {
		return
	}
	r.warnf("jms_sender.constant_retries", attrJMSBackoff, "Constant Retries",
		"`exponential_backoff = false` with `retry_interval = %d` retries a failing message every %d minutes for as long as it fails, %d times an hour, so an outage of the receiver is met with constant load. "+
			"Set `exponential_backoff = true` (SAP's default), or `retry_interval` to %d minutes or more.", i, i, 60/i, jmsShortInterval)
}

// checkJMSLimit relates the declared retry limit, the flow's guard and the queue's
// expiration period.
func checkJMSLimit(r *report, s JMSSender) {
	days, daysOK := s.expirationDays()
	if d, ok := s.ExpirationDays.get(); ok && !daysOK {
		r.errorf("jms_sender.expiration_range", attrJMSExpirationDays, "Invalid Expiration Period",
			"`queue_expiration_days = %d` is outside the JMS receiver's Expiration Period range of 1 to %d days. Set `queue_expiration_days` to the Expiration Period of the JMS receiver that fills the queue, %d by default.",
			d, JMSMaxExpirationDays, DefaultJMSExpirationDays)
	}
	sch, schOK := s.schedule()
	limit, limitSet := s.MaxRetries.get()
	if limitSet && limit < 1 {
		r.errorf("jms_sender.max_retries_range", attrJMSMaxRetries, "Invalid Max Retries",
			"`max_retries = %d` allows no retry at all. Set `max_retries` to 1 or more, for example %d.", limit, jmsRecommendedRetries)
		limitSet = false
	}
	guard, guardKnown := s.Guard.Present.get()
	exclusive := s.exclusive()
	unbounded := exclusive || (guardKnown && !guard)
	switch {
	case exclusive && limitSet:
		r.errorf("jms_sender.max_retries_exclusive", attrJMSMaxRetries, "Retry Limit on Exclusive Queue",
			"`max_retries = %d` cannot be enforced: Cloud Integration sets the SAPJMSRetries header only for non-exclusive queues, so no guard in the flow can count the retries of an exclusive queue. %s "+
				"Set the queue's access type to Non-Exclusive in the JMS receiver and this sender, and add a guard on SAPJMSRetries.", limit, unboundedConsequence(sch, schOK, days, daysOK))
	case !exclusive && guardKnown && !guard && limitSet:
		r.errorf("jms_sender.max_retries_without_guard", attrJMSMaxRetries, "Retry Limit Without Guard",
			"`max_retries = %d` is not enforced: the JMS sender has no retry limit of its own, and the flow compares SAPJMSRetries nowhere (no router condition, exception subprocess or script). %s "+
				"Set a guard in the flow: an exception subprocess whose router ends the message with an Escalation End Event when ${header.SAPJMSRetries} > %d, and an Error End Event otherwise.",
			limit, unboundedConsequence(sch, schOK, days, daysOK), limit)
	case unbounded:
		why := "the flow compares SAPJMSRetries nowhere (no router condition, exception subprocess or script)"
		fix := "Set a guard in the flow: an exception subprocess whose router ends the message with an Escalation End Event when ${header.SAPJMSRetries} > " + fmt.Sprint(jmsRecommendedRetries) + ", and an Error End Event otherwise; then set `max_retries` to that limit."
		if exclusive {
			why = "Cloud Integration sets the SAPJMSRetries header only for non-exclusive queues, so the flow cannot count the retries of this exclusive queue"
			fix = "Set the queue's access type to Non-Exclusive in the JMS receiver and this sender, and add a guard on SAPJMSRetries in the flow."
		}
		r.warnf("jms_sender.no_retry_limit", attrJMSRetryGuard, "No Retry Limit",
			"The JMS sender has no maximum number of retries, and %s. %s %s", why, unboundedConsequence(sch, schOK, days, daysOK), fix)
	}
	if unbounded || !schOK || !daysOK {
		return
	}
	checkJMSGiveUp(r, s, sch, days, limit, limitSet)
}

// unboundedConsequence names in numbers what happens to a message that always fails
// when nothing limits its retries.
func unboundedConsequence(sch JMSSchedule, schOK bool, days int64, daysOK bool) string {
	if !daysOK {
		return "A message that always fails is retried until the queue's expiration period ends, and is then deleted without a trace."
	}
	if !schOK {
		return fmt.Sprintf("A message that always fails is retried until the queue's expiration period of %d days ends, and is then deleted without a trace.", days)
	}
	n, err := sch.RetriesWithin(days * minutesPerDay)
	if err != nil {
		return fmt.Sprintf("A message that always fails is retried until the queue's expiration period of %d days ends, and is then deleted without a trace.", days)
	}
	return fmt.Sprintf("A message that always fails is retried about %d times over %d days, then deleted: %d executions and a silent loss.", n, days, n+1)
}

// checkJMSGiveUp reports a give-up time beyond the queue's expiration period, and a
// declared limit that differs from the one the flow's guard shows. The limit that runs is
// the guard's visible one, else max_retries; the retry that ends the message follows
// JMSGuardStopRetry (SAPJMSRetries is incremented after the retry).
func checkJMSGiveUp(r *report, s JMSSender, sch JMSSchedule, days, declared int64, declaredSet bool) {
	visible, visibleOK := s.Guard.Limit.get()
	visibleOK = visibleOK && visible >= 0
	if declaredSet && visibleOK && visible != declared {
		r.warnf("jms_sender.guard_limit_differs", attrJMSMaxRetries, "Retry Limit Differs From Guard",
			"`max_retries = %d`, but the flow's guard compares SAPJMSRetries with %d, so the flow ends a failing message after a different number of retries than this configuration declares. "+
				"Set `max_retries = %d`, or change the limit in the flow.", declared, visible, visible)
	}
	limit, attribute := declared, attrJMSMaxRetries
	switch {
	case visibleOK:
		limit = visible
		if !declaredSet {
			attribute = attrJMSRetryGuard
		}
	case !declaredSet:
		giveUpAllowanceUnused(r, s)
		return
	}
	stop := JMSGuardStopRetry(limit, s.Guard.Operator)
	giveUp, err := sch.GiveUpMinutes(stop)
	expiry := days * minutesPerDay
	if err == nil && giveUp <= expiry {
		giveUpAllowanceUnused(r, s)
		return
	}
	fit, _ := sch.RetriesWithin(expiry)
	if s.AllowGiveUpAfterExpiry {
		r.warnf("jms_sender.give_up_after_expiry_allowed", attribute, "Give-Up After Expiration Allowed",
			"`%s = true` keeps a retry limit of %d, which ends the message on retry %d, %s after the first failure, but the queue deletes it after its expiration period of %d days (%d minutes), so it is deleted before anyone sees that it failed. "+
				"Set `max_retries` and the flow's guard to at most %d, or lower `retry_interval` or `max_retry_interval`, or set `queue_expiration_days` to the JMS receiver's Expiration Period if it is longer, and remove `%s`.",
			attrJMSAllowGiveUp, limit, stop, giveUpText(giveUp, err), days, expiry, max(jmsGuardLimitFor(fit, s.Guard.Operator), 0), attrJMSAllowGiveUp)
		return
	}
	r.errorf("jms_sender.give_up_after_expiry", attribute, "Give-Up After Expiration",
		"With a retry limit of %d the message is ended on retry %d (SAPJMSRetries counts the retries already made), giving up %s after the first failure, but the queue deletes it after its expiration period of %d days (%d minutes), so it is deleted before anyone sees that it failed. "+
			"Set `max_retries` and the flow's guard to at most %d, or lower `retry_interval` or `max_retry_interval`, or raise the JMS receiver's Expiration Period (at most %d days) "+
			"(or, only to import a channel whose flow already works this way as it is and change it later, set `%s = true` for now).",
		limit, stop, giveUpText(giveUp, err), days, expiry, max(jmsGuardLimitFor(fit, s.Guard.Operator), 0), JMSMaxExpirationDays, attrJMSAllowGiveUp)
}

// giveUpAllowanceUnused warns when allow_give_up_after_expiry adopts nothing: the limit ends the message in time,
// or there is none.
func giveUpAllowanceUnused(r *report, s JMSSender) {
	if !s.AllowGiveUpAfterExpiry {
		return
	}
	r.warnf("jms_sender.allow_give_up_after_expiry_unused", attrJMSAllowGiveUp, "Allow Give-Up After Expiration Has No Effect",
		"No retry limit ends a message after the queue's expiration period, so `%s = true` changes nothing. Set `%s = false`, or remove it.", attrJMSAllowGiveUp, attrJMSAllowGiveUp)
}

func giveUpText(minutes int64, err error) string {
	if err != nil {
		return "more than 2^63 minutes"
	}
	return formatMinutes(minutes)
}

// jmsGuardLimitFor is the largest guard limit whose stop retry is at most retries.
func jmsGuardLimitFor(retries int64, operator string) int64 {
	if JMSGuardStopRetry(0, operator) == 0 {
		return retries
	}
	return retries - 1
}
