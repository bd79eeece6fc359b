package rules

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
)

// The retry schedule of the Cloud Integration JMS sender adapter.
//
// Sources (see the project's reference note on the CPI JMS sender): SAP documents that
// the JMS sender retries a failed message after the Retry Interval, that Exponential
// Backoff doubles the wait after each failed retry, and that the Maximum Retry Interval
// caps the wait (SAP help "Configure the JMS Sender Adapter", 161791b; "Apply the Retry
// Pattern with JMS Queue", da17d2d). The closed forms below are inferred from those
// semantics:
//
//	wait before retry n (n = 1, 2, …): d_n = min(i·2^(n−1), m) with backoff, d_n = i without
//	p = number of uncapped waits = the smallest p with i·2^p ≥ m (0 when m ≤ i)
//	T(k) = i·(2^k − 1)                 for k ≤ p
//	T(k) = i·(2^p − 1) + (k − p)·m     for k > p
//
// T(k) is the time from the first failure until retry k starts. The real time is longer:
// each retry also takes its processing time, and on non-exclusive queues a job that runs
// once a minute moves due messages to the end of the processing queue (SAP help
// "Monitoring Scenarios That Include Message Queues", 35c4caf), so every retry may start
// up to about a minute late.

// JMSSchedule is the retry timing of a JMS sender channel, in minutes.
type JMSSchedule struct {
	RetryInterval      int64 // i: Retry Interval (RetryInterval), minutes, 1 or more.
	MaxRetryInterval   int64 // m: Maximum Retry Interval (MaxRetryInterval), minutes; used only with backoff.
	ExponentialBackoff bool  // ExponentialBackoff: double the wait after each failed retry.
}

// Defaults of the JMS sender adapter: Retry Interval 1 minute, Exponential Backoff on,
// Maximum Retry Interval 60 minutes [SAP 161791b, da17d2d]. DefaultJMSExpirationDays is
// the JMS receiver's default Expiration Period; JMSMaxExpirationDays its maximum [SAP
// "Configure the JMS Receiver Adapter", 79edc04].
const (
	DefaultJMSRetryInterval    = 1
	DefaultJMSMaxRetryInterval = 60
	DefaultJMSExpirationDays   = 30
	JMSMaxExpirationDays       = 180
	minutesPerDay              = 24 * 60
	// MaxJMSScheduleMinutes bounds the intervals the arithmetic accepts (2^40 minutes,
	// about two million years), so that i·2^p stays below 2^41 and nothing overflows.
	MaxJMSScheduleMinutes = 1 << 40
)

// ErrJMSOverflow reports a total time that does not fit in an int64 number of minutes.
var ErrJMSOverflow = errors.New("the total time exceeds the largest number of minutes that can be represented")

// Validate reports an error for a schedule the arithmetic cannot use: a retry interval
// below 1 minute, or, with backoff, a maximum retry interval below 1 minute.
func (s JMSSchedule) Validate() error {
	if s.RetryInterval < 1 {
		return fmt.Errorf("retry interval %d is below 1 minute; the JMS sender waits at least 1 minute before a retry, so use 1 or more", s.RetryInterval)
	}
	if s.RetryInterval > MaxJMSScheduleMinutes {
		return fmt.Errorf("retry interval %d is more than %d minutes, beyond any queue's expiration period; use SAP's range, at most 10080", s.RetryInterval, int64(MaxJMSScheduleMinutes))
	}
	if s.ExponentialBackoff && s.MaxRetryInterval > MaxJMSScheduleMinutes {
		return fmt.Errorf("maximum retry interval %d is more than %d minutes, beyond any queue's expiration period; use SAP's range, at most 43200", s.MaxRetryInterval, int64(MaxJMSScheduleMinutes))
	}
	if s.ExponentialBackoff && s.MaxRetryInterval < 1 {
		return fmt.Errorf("maximum retry interval %d is below 1 minute; with exponential backoff the wait is capped by it, so use 10 or more (SAP's minimum)", s.MaxRetryInterval)
	}
	return nil
}

// UncappedRetries returns p, the number of waits before the cap applies: the smallest p
// with i·2^p ≥ m, so that waits 1..p are i, 2i, …, i·2^(p−1) < m. It is 0 without
// backoff (every wait is i and the cap never applies) and when m ≤ i. The loop runs at
// most 40 times because 1 ≤ i and m ≤ 2^40.
func (s JMSSchedule) UncappedRetries() int64 {
	if !s.ExponentialBackoff || s.MaxRetryInterval <= s.RetryInterval || s.RetryInterval < 1 {
		return 0
	}
	w, m := uint64(s.RetryInterval), uint64(s.MaxRetryInterval)
	var p int64
	for w < m { // w < m ≤ 2^40, so 2w cannot overflow.
		w *= 2
		p++
	}
	return p
}

// Wait returns the wait in minutes before retry n (n ≥ 1): min(i·2^(n−1), m) with
// backoff, i without. n below 1 gives 0.
func (s JMSSchedule) Wait(n int64) int64 {
	switch {
	case n < 1:
		return 0
	case !s.ExponentialBackoff:
		return s.RetryInterval
	case n > s.UncappedRetries():
		return s.MaxRetryInterval
	}
	return s.RetryInterval << (n - 1) // n ≤ p, so i·2^(n−1) < m fits.
}

// Waits returns the waits before retries 1..k. It returns an error for an invalid
// schedule or a negative k.
func (s JMSSchedule) Waits(k int64) ([]int64, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if k < 0 {
		return nil, fmt.Errorf("%d retries is negative; use 0 or more", k)
	}
	out := make([]int64, k)
	for n := range out {
		out[n] = s.Wait(int64(n) + 1)
	}
	return out, nil
}

// GiveUpMinutes returns T(k), the minutes from the first failure until retry k starts,
// in closed form (constant time for any k). T(0) = 0. It returns an error for an invalid
// schedule, a negative k, or a total beyond the int64 range.
func (s JMSSchedule) GiveUpMinutes(k int64) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if k < 0 {
		return 0, fmt.Errorf("%d retries is negative; use 0 or more", k)
	}
	if !s.ExponentialBackoff {
		return mulInt64(k, s.RetryInterval)
	}
	p := s.UncappedRetries()
	if k <= p {
		return s.RetryInterval * (int64(1)<<k - 1), nil // k ≤ p ≤ 40 and i·2^(k−1) < m ≤ 2^40: fits.
	}
	head := s.RetryInterval * (int64(1)<<p - 1)    // < 2m ≤ 2^41 since i·2^(p−1) < m.
	tail, err := mulInt64(k-p, s.MaxRetryInterval) // every wait after p is m.
	if err != nil {
		return 0, err
	}
	if head > math.MaxInt64-tail {
		return 0, ErrJMSOverflow
	}
	return head + tail, nil
}

// RetriesWithin returns the number of retries that start within budget minutes of the
// first failure: the largest k with T(k) ≤ budget. A negative budget gives 0. It is the
// number of retries a message gets before the queue's expiration period deletes it when
// no retry limit applies; the executions are one more (the first attempt).
func (s JMSSchedule) RetriesWithin(budget int64) (int64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if budget < 0 {
		return 0, nil
	}
	if !s.ExponentialBackoff {
		return budget / s.RetryInterval, nil
	}
	p := s.UncappedRetries()
	head := s.RetryInterval * (int64(1)<<p - 1)
	if budget < head {
		// k < p: the largest k with i·(2^k − 1) ≤ budget; at most 40 steps.
		var k int64
		for s.RetryInterval*(int64(1)<<(k+1)-1) <= budget {
			k++
		}
		return k, nil
	}
	return p + (budget-head)/s.MaxRetryInterval, nil
}

// JMSGuardStopRetry returns the number of the retry on which a guard comparing
// SAPJMSRetries with limit ends the message. SAPJMSRetries counts the retries made so
// far, and the header is incremented after the retry [SAP "Customizing the Pipeline
// Concept", aeb106f: "you must increment the maxJMSRetries by 1 to achieve 10 retries"].
// So "SAPJMSRetries > limit" (SAP's pipeline pattern, ed9b82c) fires on retry limit + 1,
// while "= limit" and ">= limit" fire on retry limit. The operators are those of the
// header on the left; a guard that routes "SAPJMSRetries < limit" to another retry ends
// the message on retry limit, one with "<= limit" on retry limit + 1. Any other or an
// unknown operator ("") counts as the later retry, so a time check errs on the long side.
func JMSGuardStopRetry(limit int64, operator string) int64 {
	switch operator {
	case "=", "==", ">=", "<":
		return limit
	}
	if limit == math.MaxInt64 {
		return limit
	}
	return limit + 1
}

// mulInt64 returns a·b for non-negative a and b, or ErrJMSOverflow.
func mulInt64(a, b int64) (int64, error) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, ErrJMSOverflow
	}
	return int64(lo), nil
}

// formatMinutes renders minutes as the largest sensible units, e.g. "303 minutes (5 h 3 min)".
func formatMinutes(minutes int64) string {
	switch {
	case minutes < 60:
		return fmt.Sprintf("%d minutes", minutes)
	case minutes < minutesPerDay:
		return fmt.Sprintf("%d minutes (%d h %d min)", minutes, minutes/60, minutes%60)
	}
	return fmt.Sprintf("%d minutes (%d d %d h %d min)", minutes, minutes/minutesPerDay, minutes%minutesPerDay/60, minutes%60)
}
