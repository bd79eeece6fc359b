package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// senderAttributes maps the attributes an AMQP sender finding may name to whether the
// value behind it is unknown.
func senderAttributes(s AMQPSender) map[string]bool {
	return map[string]bool{
		"":                      false,
		attrMaxNumberOfRetries:  s.MaxNumberOfRetries.IsUnknown(),
		attrMaxPrefetched:       s.MaxPrefetchedMessages.IsUnknown(),
		attrConcurrentProcesses: s.ConcurrentProcesses.IsUnknown(),
		attrDeliveryStatus:      s.DeliveryStatus.IsUnknown(),
		attrQueueMaxRedelivery:  s.QueueMaxRedeliveryCount.IsUnknown(),
		attrMaxTotalAttempts:    s.MaxTotalAttempts.IsUnknown(),
		attrExpectedSeconds:     s.ExpectedProcessingSeconds.IsUnknown(),
	}
}

func FuzzCheckAMQPSender(f *testing.F) {
	f.Add(int64(1), int64(1), int64(1), deliveryRejected, int64(5), int64(20), int64(5), uint32(0xFFFF))
	f.Add(int64(0), int64(100), int64(0), deliveryUndeliverable, int64(0), int64(2), int64(120), uint32(0xAAAA))
	f.Add(int64(99), int64(101), int64(100), "", int64(256), int64(-1), int64(0), uint32(0x1234))
	f.Add(int64(-5), int64(50), int64(3), "rejected", int64(255), int64(1<<62), int64(61), uint32(0))
	f.Fuzz(func(t *testing.T, retries, prefetch, concurrent int64, status string, redeliveries, total, seconds int64, states uint32) {
		s := AMQPSender{
			MaxNumberOfRetries:        fuzzValue(retries, states),
			MaxPrefetchedMessages:     fuzzValue(prefetch, states>>2),
			ConcurrentProcesses:       fuzzValue(concurrent, states>>4),
			DeliveryStatus:            fuzzValue(status, states>>6),
			QueueMaxRedeliveryCount:   fuzzValue(redeliveries, states>>8),
			MaxTotalAttempts:          fuzzValue(total, states>>10),
			ExpectedProcessingSeconds: fuzzValue(seconds, states>>12),
		}
		checkFindings(t, "CheckAMQPSender", "an AMQP sender attribute", func() []Finding { return CheckAMQPSender(s) }, senderAttributes(s), status)
	})
}

func FuzzCheckJMSDestinations(f *testing.F) {
	f.Add("jms/queue/orders", "queue", true, int64(5), int64(1000), "", "sapDefaultErrorQueue", "queue", false, int64(0), int64(0), " ")
	f.Add("a", "queue", false, int64(0), int64(0), "b", "b", "queue", true, int64(1), int64(10), "a")
	f.Add("a", "topic", true, int64(-1), int64(1<<62), "a", "a", "queue", true, int64(1<<40), int64(1<<40), "x")
	f.Fuzz(func(t *testing.T, name1, type1 string, limited1 bool, attempts1, delay1 int64, err1 string,
		name2, type2 string, limited2 bool, attempts2, delay2 int64, err2 string) {
		ds := []JMSDestination{
			{Name: name1, Type: type1, DeliveryAttemptsLimited: limited1, MaxDeliveryAttempts: attempts1, DeliveryDelayIntervalMs: delay1, ErrorDestination: err1},
			{Name: name2, Type: type2, DeliveryAttemptsLimited: limited2, MaxDeliveryAttempts: attempts2, DeliveryDelayIntervalMs: delay2, ErrorDestination: err2},
		}
		checkFindings(t, "CheckJMSDestinations", fmt.Sprintf("%q", attrDestinations), func() []Finding { return CheckJMSDestinations(ds) },
			map[string]bool{attrDestinations: false}, name1, type1, err1, name2, type2, err2)
		_ = JMSTimeToDeadMs(ds[0])
	})
}

// checkFindings checks the findings of one fuzzed input, which check returns: each follows the
// house style (its detail may quote the inputs quoted verbatim) and names an attribute that is a
// key of unknown (what describes them in the message) whose value is known; check, run again,
// gives the same findings. name is the checking function's. It returns the findings.
func checkFindings(t *testing.T, name, what string, check func() []Finding, unknown map[string]bool, quoted ...string) []Finding {
	t.Helper()
	fs := check()
	for _, f := range fs {
		if p := quotedFindingStyle(f, quoted...); len(p) != 0 {
			t.Errorf("finding %s breaks the conventions: %v\n%+v", f.Rule, p, f)
		}
		isUnknown, ok := unknown[f.Attribute]
		if !ok {
			t.Errorf("finding %s names attribute %q, not %s", f.Rule, f.Attribute, what)
		}
		if isUnknown {
			t.Errorf("finding %s is about the unknown attribute %q", f.Rule, f.Attribute)
		}
	}
	if again := check(); !slices.Equal(again, fs) {
		t.Errorf("%s is not deterministic: %v then %v", name, fs, again)
	}
	return fs
}

// quotedFindingStyle is findingStyle for a finding whose detail quotes the given inputs
// verbatim. The style is only checked when they are all plain text, since an input such as
// ". " or "%!" would read as a sentence break or a broken format verb.
func quotedFindingStyle(f Finding, quoted ...string) []string {
	for _, q := range quoted {
		if !plainText(q) {
			return nil
		}
	}
	return findingStyle(f)
}

// plainText reports whether s holds only letters, digits, spaces, "/", "_" and "-", so that
// quoting it into a detail cannot read as a sentence break or a broken format verb.
func plainText(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		switch {
		case r == ' ', r == '/', r == '_', r == '-', r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			return false
		}
		return true
	})
}

func FuzzCheckJMSSender(f *testing.F) {
	f.Add("Non-Exclusive", int64(1), int64(60), int64(1), true, true, int64(5), int64(30), true, int64(5), ">", uint32(0xFFFFFF))
	f.Add("Exclusive", int64(61), int64(9), int64(2), false, true, int64(0), int64(181), false, int64(-1), "", uint32(0xAAAAAA))
	f.Add("Shared", int64(-1), int64(1<<62), int64(0), true, false, int64(1<<62), int64(-3), true, int64(1<<62), "=", uint32(0x123456))
	f.Fuzz(func(t *testing.T, access string, interval, maxInterval, concurrent int64, backoff, dlq bool, maxRetries, days int64,
		guard bool, limit int64, op string, states uint32) {
		s := JMSSender{
			AccessType:          fuzzValue(access, states),
			RetryInterval:       fuzzValue(interval, states>>2),
			MaxRetryInterval:    fuzzValue(maxInterval, states>>4),
			ConcurrentProcesses: fuzzValue(concurrent, states>>6),
			ExponentialBackoff:  fuzzValue(backoff, states>>8),
			DeadLetterQueue:     fuzzValue(dlq, states>>10),
			MaxRetries:          fuzzValue(maxRetries, states>>12),
			ExpirationDays:      fuzzValue(days, states>>14),
			Guard:               JMSRetryGuard{Present: fuzzValue(guard, states>>16), Limit: fuzzValue(limit, states>>18), Operator: op},
		}
		unknown := map[string]bool{
			"access_type":           s.AccessType.IsUnknown(),
			attrJMSRetryInterval:    s.RetryInterval.IsUnknown(),
			attrJMSMaxRetryInterval: s.MaxRetryInterval.IsUnknown(),
			attrJMSConcurrent:       s.ConcurrentProcesses.IsUnknown(),
			attrJMSBackoff:          s.ExponentialBackoff.IsUnknown(),
			attrJMSDeadLetterQueue:  s.DeadLetterQueue.IsUnknown(),
			attrJMSMaxRetries:       s.MaxRetries.IsUnknown(),
			attrJMSExpirationDays:   s.ExpirationDays.IsUnknown(),
			attrJMSRetryGuard:       false, // Also named for an exclusive queue, whatever the guard.
		}
		checkFindings(t, "CheckJMSSender", "a JMS sender attribute", func() []Finding { return CheckJMSSender(s) }, unknown, access)
		sch := JMSSchedule{RetryInterval: interval, MaxRetryInterval: maxInterval, ExponentialBackoff: backoff}
		if total, err := sch.GiveUpMinutes(maxRetries); err == nil {
			if n, err := sch.RetriesWithin(total); err != nil || n < maxRetries {
				t.Errorf("%+v: RetriesWithin(T(%d) = %d) = %d, %v", sch, maxRetries, total, n, err)
			}
		}
	})
}
