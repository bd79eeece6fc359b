package rules

import (
	"fmt"
	"math"
	"time"
)

// The AEM retry arithmetic of the provider functions (aem_max_runs, aem_time_to_dead_letter,
// aem_sender_time_to_dead_letter): whole settings, checked one by one so that a function can name the argument
// that is wrong, then computed with the same AEMSenderMaxRuns, AEMTimeToDeadLetter and AEMSenderPath as the
// plan. Reference note shared/reference/aem.md §5: N_max = m × (R + 1) with the outcome FAILED; the time to
// dead-letter adds the adapter's waits per delivery and the broker's redelivery delays between deliveries.

// CheckAEMAttempts returns why m is no number of adapter attempts per delivery, or nil.
func CheckAEMAttempts(m int64) error {
	switch {
	case m == 0:
		return fmt.Errorf("0 processing attempts is no attempt at all, which SAP's adapter page does not define; use 1 or more, for example %d", aemRecommendedAttempts)
	case m < 0:
		return fmt.Errorf("%d processing attempts is negative; the adapter counts attempts from 1", m)
	}
	return nil
}

// CheckAEMMaxRedeliveryCount returns why r is no bounded maxRedeliveryCount of an AEM queue, or nil: 0 means
// retry forever ([SPEC] MsgVpnQueue maxRedeliveryCount), and the broker accepts 0 to 255.
func CheckAEMMaxRedeliveryCount(r int64) error {
	switch {
	case r == 0:
		return fmt.Errorf("a max redelivery count of 0 means retry forever on an AEM queue, so a poison message has no last run; use 1 to %d", AEMMaxRedeliveryCountLimit)
	case r < 0:
		return fmt.Errorf("max redelivery count %d is negative; the broker accepts 0 to %d, where 0 means retry forever, so use 1 to %d", r, AEMMaxRedeliveryCountLimit, AEMMaxRedeliveryCountLimit)
	case r > AEMMaxRedeliveryCountLimit:
		return fmt.Errorf("max redelivery count %d exceeds the broker's limit of %d; use 1 to %d", r, AEMMaxRedeliveryCountLimit, AEMMaxRedeliveryCountLimit)
	}
	return nil
}

// CheckAEMRetryInterval returns why ms is no wait of the adapter in milliseconds, or nil.
func CheckAEMRetryInterval(ms int64) error {
	if ms < 1 {
		return fmt.Errorf("a retry interval of %d ms gives no wait between the adapter's attempts; use 1 or more, for example %d", ms, AEMSenderDefaultRetryIntervalMs)
	}
	return nil
}

// CheckAEMRetryMultiplier returns why x is no backoff multiplier of the adapter, or nil.
func CheckAEMRetryMultiplier(x float64) error {
	if !(x > 0) || math.IsInf(x, 0) {
		return fmt.Errorf("a retry multiplier of %g cannot multiply a wait; use a number above 0, 1.0 for constant waits, for example %.1f", x, AEMSenderDefaultRetryMultiplier)
	}
	return nil
}

// CheckAEMRedeliveryDelay returns why the queue's redelivery delay setting named attr, with value n, is out of
// the broker's range, or nil ([SPEC] MsgVpnQueue: initial 1..3600000 ms, maximum 1..10800000 ms, multiplier
// 100..500 hundredths).
func CheckAEMRedeliveryDelay(attr string, n int64) error {
	lo, hi, what := int64(1), int64(AEMMaxRedeliveryInitialMs), "an initial interval in milliseconds"
	switch attr {
	case attrRedeliveryDelayMax:
		hi, what = AEMMaxRedeliveryMaxMs, "a maximum interval in milliseconds"
	case attrRedeliveryDelayMultiplier:
		lo, hi, what = AEMMinRedeliveryMultiplier, AEMMaxRedeliveryMultiplier, "a multiplier in hundredths (100 = ×1.00)"
	}
	if n < lo || n > hi {
		return fmt.Errorf("%d is out of range: the broker accepts %s from %d to %d", n, what, lo, hi)
	}
	return nil
}

// AEMRedeliveryDelayRange returns the range the broker accepts for the redelivery delay setting attr.
func AEMRedeliveryDelayRange(attr string) (lo, hi int64) {
	switch attr {
	case attrRedeliveryDelayMax:
		return 1, AEMMaxRedeliveryMaxMs
	case attrRedeliveryDelayMultiplier:
		return AEMMinRedeliveryMultiplier, AEMMaxRedeliveryMultiplier
	}
	return 1, AEMMaxRedeliveryInitialMs
}

// Names of an AEM queue's redelivery delay settings, as the functions' arguments and the queue resource name them.
const (
	AEMAttrRedeliveryDelayInitial    = attrRedeliveryDelayInitial
	AEMAttrRedeliveryDelayMax        = attrRedeliveryDelayMax
	AEMAttrRedeliveryDelayMultiplier = attrRedeliveryDelayMultiplier
)

// AEMQueueTiming is an AEM queue's redelivery: its bounded maxRedeliveryCount and its redelivery delay (the
// three delay settings are not used with DelayEnabled false).
type AEMQueueTiming struct {
	MaxRedeliveryCount                    int64
	DelayEnabled                          bool
	DelayInitialMs, DelayMaxMs, DelayMult int64
}

// Validate returns why the queue timing cannot be computed, or nil.
func (q AEMQueueTiming) Validate() error {
	if err := CheckAEMMaxRedeliveryCount(q.MaxRedeliveryCount); err != nil {
		return err
	}
	if !q.DelayEnabled {
		return nil
	}
	for _, c := range []struct {
		attr string
		n    int64
	}{{attrRedeliveryDelayInitial, q.DelayInitialMs}, {attrRedeliveryDelayMax, q.DelayMaxMs}, {attrRedeliveryDelayMultiplier, q.DelayMult}} {
		if err := CheckAEMRedeliveryDelay(c.attr, c.n); err != nil {
			return fmt.Errorf("%s %w", c.attr, err)
		}
	}
	return nil
}

// TimeToDeadLetter returns the broker's redelivery delays of a poison message on the queue, from its first
// delivery until the broker removes it after R redeliveries: AEMTimeToDeadLetter (0 with the delay off; the
// consumer's own processing time comes on top).
func (q AEMQueueTiming) TimeToDeadLetter() (time.Duration, error) {
	if err := q.Validate(); err != nil {
		return 0, err
	}
	return AEMTimeToDeadLetter(q.MaxRedeliveryCount, q.DelayEnabled, q.DelayInitialMs, q.DelayMaxMs, q.DelayMult), nil
}

func (q AEMQueueTiming) queue() AEMQueue {
	return AEMQueue{
		MaxRedeliveryCount: Known(q.MaxRedeliveryCount), RedeliveryEnabled: Known(true), RedeliveryDelayEnabled: Known(q.DelayEnabled),
		RedeliveryDelayInitialInterval: Known(q.DelayInitialMs), RedeliveryDelayMaxInterval: Known(q.DelayMaxMs), RedeliveryDelayMultiplier: Known(q.DelayMult),
	}
}

// AEMSenderTiming is an AEM sender channel with the outcome FAILED on a guaranteed consumer acknowledging on
// exchange completion (the settings that redeliver), and the queue it reads.
type AEMSenderTiming struct {
	Attempts, RetryIntervalMs, MaxRetryIntervalMs int64
	RetryMultiplier                               float64
	Queue                                         AEMQueueTiming
}

// Validate returns why the sender timing cannot be computed, or nil. With one attempt the adapter has no waits
// and its three wait settings are not used [SAP].
func (s AEMSenderTiming) Validate() error {
	if err := CheckAEMAttempts(s.Attempts); err != nil {
		return err
	}
	if s.Attempts > 1 {
		for _, err := range []error{CheckAEMRetryInterval(s.RetryIntervalMs), CheckAEMRetryInterval(s.MaxRetryIntervalMs), CheckAEMRetryMultiplier(s.RetryMultiplier)} {
			if err != nil {
				return err
			}
		}
	}
	return s.Queue.Validate()
}

// MaxRuns returns N_max = m × (R + 1), the runs of the flow for one poison message (AEMSenderMaxRuns), or an
// error when a setting is out of range or the product is too large to hold.
func (s AEMSenderTiming) MaxRuns() (int64, error) {
	if err := CheckAEMAttempts(s.Attempts); err != nil {
		return 0, err
	}
	if err := CheckAEMMaxRedeliveryCount(s.Queue.MaxRedeliveryCount); err != nil {
		return 0, err
	}
	if s.Attempts > math.MaxInt64/(s.Queue.MaxRedeliveryCount+1) {
		return 0, fmt.Errorf("%d × (%d + 1) runs exceeds the largest whole number, %d", s.Attempts, s.Queue.MaxRedeliveryCount, int64(math.MaxInt64))
	}
	runs, _ := AEMSenderMaxRuns(s.Attempts, AEMConsumerGuaranteed, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, s.Queue.MaxRedeliveryCount)
	return runs, nil
}

// TimeToDeadLetter returns the time from the first run of a poison message until the broker removes it from
// the queue: the adapter's waits on each of the R + 1 deliveries and the broker's redelivery delays between them,
// as AEMSenderPath gives the plan (the flow's own processing time comes on top).
func (s AEMSenderTiming) TimeToDeadLetter() (time.Duration, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	p, ok := AEMSenderPath(AEMSender{
		MaxMessageProcessingAttempts: Known(s.Attempts), RetryInterval: Known(s.RetryIntervalMs), MaxRetryInterval: Known(s.MaxRetryIntervalMs),
		RetryMultiplier: Known(s.RetryMultiplier), SettlementOutcome: Known(AEMOutcomeFailed), AcknowledgementMode: Known(AEMAckOnExchangeComplete),
		ConsumerMode: Known(AEMConsumerGuaranteed), Queue: s.Queue.queue(),
	})
	if !ok || p.Unlimited { // Not reached: the settings are valid and R is at least 1.
		return 0, fmt.Errorf("the time cannot be computed from these settings")
	}
	if p.TimeToEnd == math.MaxInt64 {
		return 0, fmt.Errorf("the time exceeds the longest this provider computes (about 292 years); use shorter waits")
	}
	return p.TimeToEnd, nil
}
