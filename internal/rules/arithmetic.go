package rules

import "fmt"

// minTotalAttempts is the fewest executions any finite setting gives: one redelivery
// with one retry.
const minTotalAttempts = 3

// maxTotalAttemptsOneRetry is the most executions reachable with one retry:
// 255 redeliveries plus the initial execution plus the retry.
const maxTotalAttemptsOneRetry = MaxRedeliveryCountLimit + 2

// MaxAttempts returns the upper bound of executions of one always-failing message
// that an Event Mesh queue with the given max redelivery count and an AMQP sender with
// the given max number of retries (delivery status REJECTED) produce:
// (redeliveries + 1) × retries + 1. The first success stops the count earlier.
//
// A redelivery count of 0 means unlimited redelivery in Event Mesh, so it has no bound
// and is an error, as are values outside 1..255 and retries outside 1..99.
func MaxAttempts(redeliveries, retries int64) (int64, error) {
	switch {
	case redeliveries == 0:
		return 0, fmt.Errorf("a max redelivery count of 0 means unlimited redelivery in Event Mesh, so the attempts have no upper bound; use 1 to %d", MaxRedeliveryCountLimit)
	case redeliveries < 0:
		return 0, fmt.Errorf("max redelivery count %d is negative; Event Mesh accepts 0 to %d, where 0 means unlimited, so use 1 to %d", redeliveries, MaxRedeliveryCountLimit, MaxRedeliveryCountLimit)
	case redeliveries > MaxRedeliveryCountLimit:
		return 0, fmt.Errorf("max redelivery count %d exceeds the Event Mesh limit of %d; use 1 to %d", redeliveries, MaxRedeliveryCountLimit, MaxRedeliveryCountLimit)
	case retries == 0:
		return 0, fmt.Errorf("a max number of retries of 0 gives a redelivered message its outcome at once, unprocessed; use 1 to %d", MaxRetriesLimit)
	case retries < 0:
		return 0, fmt.Errorf("max number of retries %d is negative; use 1 to %d", retries, MaxRetriesLimit)
	case retries > MaxRetriesLimit:
		return 0, fmt.Errorf("max number of retries %d exceeds the AMQP sender limit of %d; use 1 to %d", retries, MaxRetriesLimit, MaxRetriesLimit)
	}
	return (redeliveries+1)*retries + 1, nil
}

// RedeliveriesFor returns the queue max redelivery count that gives exactly
// totalAttempts executions with one retry on the AMQP sender: totalAttempts − 2.
// Totals below 3 or above 257 cannot be reached that way.
func RedeliveriesFor(totalAttempts int64) (int64, error) {
	switch {
	case totalAttempts < minTotalAttempts:
		return 0, fmt.Errorf("%d attempts cannot be reached: the fewest any finite setting gives is %d (max redelivery count 1 with 1 retry)", totalAttempts, minTotalAttempts)
	case totalAttempts > maxTotalAttemptsOneRetry:
		return 0, fmt.Errorf("%d attempts cannot be reached with 1 retry: the most is %d (max redelivery count %d)", totalAttempts, maxTotalAttemptsOneRetry, MaxRedeliveryCountLimit)
	}
	return totalAttempts - 2, nil
}

// AttemptsWithoutRedelivery returns the executions of one always-failing message on an AMQP
// sender whose delivery status MODIFIED_FAILED_UNDELIVERABLE cancels the queue's redelivery:
// the first execution and its retries, retries + 1; the message is then dropped.
func AttemptsWithoutRedelivery(retries int64) int64 { return retries + 1 }
