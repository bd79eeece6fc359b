package rules

import (
	"strings"
	"testing"
)

// goodJMSSender is a non-exclusive JMS sender at SAP's defaults with a guard of 5 in the
// flow, on a queue that expires after 30 days: it passes every rule.
func goodJMSSender() JMSSender {
	return JMSSender{
		AccessType:          Known(JMSAccessNonExclusive),
		RetryInterval:       Known[int64](1),
		MaxRetryInterval:    Known[int64](60),
		ConcurrentProcesses: Known[int64](1),
		ExponentialBackoff:  Known(true),
		DeadLetterQueue:     Known(true),
		MaxRetries:          Known[int64](5),
		ExpirationDays:      Known[int64](30),
		Guard:               JMSRetryGuard{Present: Known(true), Limit: Known[int64](5), Operator: ">"},
	}
}

func jmsWith(change func(*JMSSender)) JMSSender {
	s := goodJMSSender()
	change(&s)
	return s
}

func exclusive(s *JMSSender) {
	s.AccessType = Known(JMSAccessExclusive)
	s.DeadLetterQueue = Null[bool]()
	s.MaxRetries = Null[int64]()
	s.Guard = JMSRetryGuard{Present: Known(false), Limit: Null[int64]()}
}

func noGuard(s *JMSSender) {
	s.MaxRetries = Null[int64]()
	s.Guard = JMSRetryGuard{Present: Known(false), Limit: Null[int64]()}
}

func TestCheckJMSSender(t *testing.T) {
	t.Parallel()
	tests := []ruleCase[JMSSender]{
		{"good", goodJMSSender(), nil},
		{"all unknown", JMSSender{}, nil},
		{"all null: SAP's defaults, guard not read", JMSSender{
			AccessType: Null[string](), RetryInterval: Null[int64](), MaxRetryInterval: Null[int64](), ConcurrentProcesses: Null[int64](),
			ExponentialBackoff: Null[bool](), DeadLetterQueue: Null[bool](), MaxRetries: Null[int64](), ExpirationDays: Null[int64](),
		}, nil},
		{"access type invalid", jmsWith(func(s *JMSSender) { s.AccessType = Known("Shared") }), []string{"jms_sender.access_type_invalid"}},

		// Ranges per access type [SAP 161791b].
		{"interval 0", jmsWith(func(s *JMSSender) { s.RetryInterval = Known[int64](0) }), []string{"jms_sender.retry_interval_range"}},
		{"interval 10080 non-exclusive", jmsWith(func(s *JMSSender) {
			s.RetryInterval = Known[int64](10080)
			s.MaxRetryInterval = Known[int64](43200)
			s.MaxRetries = Known[int64](1)
			s.Guard.Limit = Known[int64](1) // Retry 2 starts after 10080 + 20160 = 30240 minutes.
		}), nil},
		{"interval 10081 non-exclusive", jmsWith(func(s *JMSSender) { s.RetryInterval = Known[int64](10081) }), []string{"jms_sender.retry_interval_range"}},
		{"interval 60 exclusive", jmsWith(func(s *JMSSender) {
			exclusive(s)
			s.RetryInterval = Known[int64](60)
			s.MaxRetryInterval = Known[int64](180)
		}), []string{"jms_sender.no_retry_limit"}},
		{"interval 61 exclusive", jmsWith(func(s *JMSSender) {
			exclusive(s)
			s.RetryInterval = Known[int64](61)
			s.MaxRetryInterval = Known[int64](180)
		}), []string{"jms_sender.retry_interval_range", "jms_sender.no_retry_limit"}},
		{"max 9", jmsWith(func(s *JMSSender) { s.MaxRetryInterval = Known[int64](9) }), []string{"jms_sender.max_retry_interval_range"}},
		{"max 43200 non-exclusive", jmsWith(func(s *JMSSender) { s.MaxRetryInterval = Known[int64](43200) }), nil},
		{"max 43201 non-exclusive", jmsWith(func(s *JMSSender) { s.MaxRetryInterval = Known[int64](43201) }), []string{"jms_sender.max_retry_interval_range"}},
		{"max 181 exclusive", jmsWith(func(s *JMSSender) { exclusive(s); s.MaxRetryInterval = Known[int64](181) }), []string{"jms_sender.max_retry_interval_range", "jms_sender.no_retry_limit"}},
		{"max out of range ignored without backoff", jmsWith(func(s *JMSSender) {
			s.ExponentialBackoff = Known(false)
			s.RetryInterval = Known[int64](10)
			s.MaxRetryInterval = Known[int64](0)
		}), nil},
		{"max below interval", jmsWith(func(s *JMSSender) { s.RetryInterval = Known[int64](30); s.MaxRetryInterval = Known[int64](10) }), []string{"jms_sender.max_below_interval"}},

		// Concurrency: at least 1 and Non-Exclusive only are enforced, above 5 is warned.
		{"concurrent 0", jmsWith(func(s *JMSSender) { s.ConcurrentProcesses = Known[int64](0) }), []string{"jms_sender.concurrent_range"}},
		{"concurrent 5", jmsWith(func(s *JMSSender) { s.ConcurrentProcesses = Known[int64](5) }), nil},
		{"concurrent 6", jmsWith(func(s *JMSSender) { s.ConcurrentProcesses = Known[int64](6) }), []string{"jms_sender.concurrent_high"}},
		{"concurrent 2 exclusive", jmsWith(func(s *JMSSender) { exclusive(s); s.ConcurrentProcesses = Known[int64](2) }), []string{"jms_sender.concurrent_exclusive", "jms_sender.no_retry_limit"}},

		// Dead-Letter Queue option.
		{"dead letter off", jmsWith(func(s *JMSSender) { s.DeadLetterQueue = Known(false) }), []string{"jms_sender.dead_letter_off"}},
		{"dead letter off, access type unknown", jmsWith(func(s *JMSSender) { s.DeadLetterQueue = Known(false); s.AccessType = Unknown[string]() }), nil},
		{"dead letter on exclusive", jmsWith(func(s *JMSSender) { exclusive(s); s.DeadLetterQueue = Known(true) }), []string{"jms_sender.dead_letter_exclusive", "jms_sender.no_retry_limit"}},

		// Settings of a non-exclusive queue on an exclusive one, adopted as the flow holds them.
		{"concurrent 2 exclusive allowed", jmsWith(func(s *JMSSender) {
			exclusive(s)
			s.ConcurrentProcesses, s.AllowNonExclusiveSettings = Known[int64](2), true
		}), []string{"jms_sender.concurrent_exclusive_allowed", "jms_sender.no_retry_limit"}},
		{"dead letter on exclusive allowed", jmsWith(func(s *JMSSender) {
			exclusive(s)
			s.DeadLetterQueue, s.AllowNonExclusiveSettings = Known(true), true
		}), []string{"jms_sender.dead_letter_exclusive_allowed", "jms_sender.no_retry_limit"}},
		{"non-exclusive settings allowed on a non-exclusive queue", jmsWith(func(s *JMSSender) { s.AllowNonExclusiveSettings = true }),
			[]string{"jms_sender.allow_non_exclusive_settings_unused"}},
		{"non-exclusive settings allowed, exclusive without them", jmsWith(func(s *JMSSender) {
			exclusive(s)
			s.ConcurrentProcesses, s.DeadLetterQueue, s.AllowNonExclusiveSettings = Null[int64](), Null[bool](), true
		}), []string{"jms_sender.allow_non_exclusive_settings_unused", "jms_sender.no_retry_limit"}},
		{"non-exclusive settings allowed, access type unknown", jmsWith(func(s *JMSSender) {
			s.AccessType, s.AllowNonExclusiveSettings = Unknown[string](), true
		}), nil},

		// Backoff.
		{"constant 1 minute", jmsWith(func(s *JMSSender) { s.ExponentialBackoff = Known(false) }), []string{"jms_sender.constant_retries"}},
		{"constant 10 minutes", jmsWith(func(s *JMSSender) { s.ExponentialBackoff = Known(false); s.RetryInterval = Known[int64](10) }), nil},

		// The missing retry limit.
		{"no guard", jmsWith(noGuard), []string{"jms_sender.no_retry_limit"}},
		{"guard not read yet", jmsWith(func(s *JMSSender) { s.MaxRetries = Null[int64](); s.Guard = JMSRetryGuard{} }), nil},
		{"exclusive", jmsWith(exclusive), []string{"jms_sender.no_retry_limit"}},
		{"`max_retries` without guard", jmsWith(func(s *JMSSender) { noGuard(s); s.MaxRetries = Known[int64](5) }), []string{"jms_sender.max_retries_without_guard"}},
		{"`max_retries` on exclusive", jmsWith(func(s *JMSSender) { exclusive(s); s.MaxRetries = Known[int64](5) }), []string{"jms_sender.max_retries_exclusive"}},
		{"`max_retries` 0", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](0) }), []string{"jms_sender.max_retries_range"}},
		{"guard with hidden limit", jmsWith(func(s *JMSSender) { s.MaxRetries = Null[int64](); s.Guard.Limit = Null[int64]() }), nil},

		// Give-up time against the expiration period.
		{"expiration 0", jmsWith(func(s *JMSSender) { s.ExpirationDays = Known[int64](0) }), []string{"jms_sender.expiration_range"}},
		{"expiration 181", jmsWith(func(s *JMSSender) { s.ExpirationDays = Known[int64](181) }), []string{"jms_sender.expiration_range"}},
		// 30 days fit 724 retries at the defaults; SAP's "> limit" guard ends on retry limit + 1.
		{"limit 723 fits 30 days", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](723); s.Guard.Limit = Null[int64]() }), nil},
		{"limit 724 ends on retry 725, after 30 days", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](724); s.Guard.Limit = Null[int64]() }), []string{"jms_sender.give_up_after_expiry"}},
		{"limit 724 with = guard fits", jmsWith(func(s *JMSSender) {
			s.MaxRetries = Known[int64](724)
			s.Guard.Limit = Known[int64](724)
			s.Guard.Operator = "="
		}), nil},
		{"declared limit differs from the guard's", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](3) }), []string{"jms_sender.guard_limit_differs"}},
		{"the guard's limit runs, not the declared one", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](5); s.Guard.Limit = Known[int64](800) }),
			[]string{"jms_sender.guard_limit_differs", "jms_sender.give_up_after_expiry"}},
		{"visible guard limit past expiry", jmsWith(func(s *JMSSender) { s.MaxRetries = Null[int64](); s.Guard.Limit = Known[int64](1000) }), []string{"jms_sender.give_up_after_expiry"}},
		{"visible guard limit past expiry, allowed", jmsWith(func(s *JMSSender) {
			s.MaxRetries, s.Guard.Limit, s.AllowGiveUpAfterExpiry = Null[int64](), Known[int64](1000), true
		}), []string{"jms_sender.give_up_after_expiry_allowed"}},
		{"give-up after expiry allowed, limit in time", jmsWith(func(s *JMSSender) { s.AllowGiveUpAfterExpiry = true }),
			[]string{"jms_sender.allow_give_up_after_expiry_unused"}},
		{"default expiration when null", jmsWith(func(s *JMSSender) {
			s.ExpirationDays = Null[int64]()
			s.MaxRetries = Known[int64](724)
			s.Guard.Limit = Known[int64](724)
		}), []string{"jms_sender.give_up_after_expiry"}},
		{"one day, long waits", jmsWith(func(s *JMSSender) {
			s.ExpirationDays = Known[int64](1)
			s.RetryInterval = Known[int64](60)
			s.MaxRetryInterval = Known[int64](180)
			s.MaxRetries = Known[int64](10) // Retry 11: 60 + 120 + 9 × 180 = 1800 minutes > 1440.
			s.Guard.Limit = Known[int64](10)
		}), []string{"jms_sender.give_up_after_expiry"}},
		{"huge limit overflows, still an error", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](1 << 62); s.Guard.Limit = Null[int64]() }), []string{"jms_sender.give_up_after_expiry"}},
		{"schedule unknown skips the time check", jmsWith(func(s *JMSSender) {
			s.MaxRetries = Known[int64](100000)
			s.Guard.Limit = Null[int64]()
			s.RetryInterval = Unknown[int64]()
		}), nil},
	}
	runRuleCases(t, tests, CheckJMSSender)
}

func TestCheckJMSSenderNamesTheConsequence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		sender JMSSender
		rule   string
		want   []string
	}{
		{"30 days at the defaults", jmsWith(noGuard), "jms_sender.no_retry_limit",
			[]string{"retried about 724 times over 30 days, then deleted", "725 executions", "SAPJMSRetries} > 5"}},
		{"180 days", jmsWith(func(s *JMSSender) { noGuard(s); s.ExpirationDays = Known[int64](180) }), "jms_sender.no_retry_limit",
			[]string{"retried about 4324 times over 180 days"}},
		{"exclusive", jmsWith(exclusive), "jms_sender.no_retry_limit",
			[]string{"only for non-exclusive queues", "about 724 times"}},
		{"without guard", jmsWith(func(s *JMSSender) { noGuard(s); s.MaxRetries = Known[int64](5) }), "jms_sender.max_retries_without_guard",
			[]string{"`max_retries = 5` is not enforced", "about 724 times"}},
		{"give-up", jmsWith(func(s *JMSSender) { s.MaxRetries = Known[int64](724); s.Guard.Limit = Known[int64](724) }), "jms_sender.give_up_after_expiry",
			[]string{"ended on retry 725", "43203 minutes (30 d 0 h 3 min)", "43200 minutes", "at most 723"}},
		{"dead letter", jmsWith(func(s *JMSSender) { s.DeadLetterQueue = Known(false) }), "jms_sender.dead_letter_off",
			[]string{"moves nothing", "Blocked"}},
		{"constant", jmsWith(func(s *JMSSender) { s.ExponentialBackoff = Known(false); s.RetryInterval = Known[int64](2) }), "jms_sender.constant_retries",
			[]string{"every 2 minutes", "30 times an hour"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := findRule(t, CheckJMSSender(tt.sender), tt.rule)
			for _, w := range tt.want {
				if !strings.Contains(f.Detail, w) {
					t.Errorf("detail lacks %q:\n%s", w, f.Detail)
				}
			}
		})
	}
}

func TestJMSDeadLetterQueueDescriptionIsTruthful(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"moves nothing", "Blocked", "non-exclusive queues only", "does not limit ordinary retries"} {
		if !strings.Contains(JMSDeadLetterQueueDescription, w) {
			t.Errorf("description lacks %q", w)
		}
	}
}
