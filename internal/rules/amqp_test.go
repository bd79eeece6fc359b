package rules

import (
	"fmt"
	"strings"
	"testing"
)

// goodSender returns an AMQP sender that passes every rule: one retry, 5 redeliveries, 7 attempts.
func goodSender() AMQPSender {
	return AMQPSender{
		MaxNumberOfRetries:        Known[int64](1),
		MaxPrefetchedMessages:     Known[int64](1),
		ConcurrentProcesses:       Known[int64](1),
		DeliveryStatus:            Known("REJECTED"),
		QueueMaxRedeliveryCount:   Known[int64](5),
		MaxTotalAttempts:          Known[int64](7),
		ExpectedProcessingSeconds: Known[int64](5),
	}
}

func senderWith(change func(*AMQPSender)) AMQPSender {
	s := goodSender()
	change(&s)
	return s
}

// attempts sets the queue redeliveries, sender retries and the attempt budget.
func attempts(redeliveries, retries, budget int64) AMQPSender {
	return senderWith(func(s *AMQPSender) {
		s.QueueMaxRedeliveryCount = Known(redeliveries)
		s.MaxNumberOfRetries = Known(retries)
		s.MaxTotalAttempts = Known(budget)
	})
}

func TestCheckAMQPSender(t *testing.T) {
	t.Parallel()
	tests := []ruleCase[AMQPSender]{
		{"good", goodSender(), nil},
		{"all unknown", AMQPSender{}, nil},
		{"all null", AMQPSender{
			MaxNumberOfRetries: Null[int64](), MaxPrefetchedMessages: Null[int64](), ConcurrentProcesses: Null[int64](),
			DeliveryStatus: Null[string](), QueueMaxRedeliveryCount: Null[int64](), MaxTotalAttempts: Null[int64](),
			ExpectedProcessingSeconds: Null[int64](),
		}, []string{"amqp.retries_endless"}},

		// Retries.
		{"retries null", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Null[int64]() }), []string{"amqp.retries_endless"}},
		{"retries unknown", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Unknown[int64]() }), nil},
		{"retries 0", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Known[int64](0) }), []string{"amqp.retries_zero"}},
		{"retries 0, allowed", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Known[int64](0); s.AllowUnsafeRetries = true }), []string{"amqp.retries_unsafe_allowed"}},
		{"retries null, allowed", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Null[int64](); s.AllowUnsafeRetries = true }), []string{"amqp.retries_unsafe_allowed"}},
		{"retries -1", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Known[int64](-1) }), []string{"amqp.retries_range"}},
		{"retries 100", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Known[int64](100) }), []string{"amqp.retries_range"}},
		{"retries 99 within budget", attempts(1, 99, 199), []string{"amqp.inner_retries"}},

		// Delivery status.
		{"modified failed undeliverable", senderWith(func(s *AMQPSender) { s.DeliveryStatus = Known("MODIFIED_FAILED_UNDELIVERABLE") }), []string{"amqp.delivery_status_undeliverable"}},
		{"modified failed undeliverable allowed", senderWith(func(s *AMQPSender) {
			s.DeliveryStatus = Known("MODIFIED_FAILED_UNDELIVERABLE")
			s.AllowCancelledRedelivery = true
		}), []string{"amqp.delivery_status_undeliverable_allowed"}},
		{"rejected allowed", senderWith(func(s *AMQPSender) {
			s.DeliveryStatus = Known("REJECTED")
			s.AllowCancelledRedelivery = true
		}), []string{"amqp.allow_cancelled_unused"}},
		{"unknown delivery status value", senderWith(func(s *AMQPSender) { s.DeliveryStatus = Known("rejected") }), []string{"amqp.delivery_status_invalid"}},
		{"delivery status null", senderWith(func(s *AMQPSender) { s.DeliveryStatus = Null[string]() }), nil},
		{"delivery status unknown", senderWith(func(s *AMQPSender) { s.DeliveryStatus = Unknown[string]() }), nil},

		// Attempt budget, with the observed values of seed 000.
		{"seed R=1 n=1 fits 3", attempts(1, 1, 3), nil},
		{"seed R=2 n=2 fits 7", attempts(2, 2, 7), []string{"amqp.inner_retries"}},
		{"seed R=2 n=2 exceeds 6", attempts(2, 2, 6), []string{"amqp.attempt_budget_exceeded", "amqp.inner_retries"}},
		{"seed R=1 n=4 fits 9", attempts(1, 4, 9), []string{"amqp.inner_retries"}},
		{"seed R=1 n=4 exceeds 8", attempts(1, 4, 8), []string{"amqp.attempt_budget_exceeded", "amqp.inner_retries"}},
		{"R=5 n=1 exceeds 6", attempts(5, 1, 6), []string{"amqp.attempt_budget_exceeded"}},
		{"budget below 3", attempts(1, 1, 2), []string{"amqp.max_total_attempts_range"}},
		{"budget unknown", senderWith(func(s *AMQPSender) { s.MaxTotalAttempts = Unknown[int64]() }), nil},
		{"budget null", senderWith(func(s *AMQPSender) { s.MaxTotalAttempts = Null[int64]() }), nil},
		{"queue redelivery unknown", senderWith(func(s *AMQPSender) {
			s.QueueMaxRedeliveryCount = Unknown[int64]()
			s.MaxTotalAttempts = Known[int64](3)
		}), nil},
		{"queue redelivery null", senderWith(func(s *AMQPSender) { s.QueueMaxRedeliveryCount = Null[int64]() }), nil},
		{"queue redelivery 0", senderWith(func(s *AMQPSender) { s.QueueMaxRedeliveryCount = Known[int64](0) }), []string{"amqp.queue_redelivery_unlimited"}},
		{"queue redelivery 0, retries unknown", senderWith(func(s *AMQPSender) {
			s.QueueMaxRedeliveryCount = Known[int64](0)
			s.MaxNumberOfRetries = Unknown[int64]()
		}), []string{"amqp.queue_redelivery_unlimited"}},
		{"queue redelivery 256", senderWith(func(s *AMQPSender) { s.QueueMaxRedeliveryCount = Known[int64](256) }), []string{"amqp.queue_redelivery_range"}},
		{"inner retries, queue unknown", senderWith(func(s *AMQPSender) {
			s.QueueMaxRedeliveryCount = Unknown[int64]()
			s.MaxNumberOfRetries = Known[int64](3)
		}), []string{"amqp.inner_retries"}},

		// Prefetch on slow flows.
		{"slow flow with prefetch", senderWith(func(s *AMQPSender) {
			s.ExpectedProcessingSeconds = Known[int64](61)
			s.MaxPrefetchedMessages = Known[int64](2)
		}), []string{"amqp.prefetch_slow_flow"}},
		{"one minute flow with prefetch", senderWith(func(s *AMQPSender) {
			s.ExpectedProcessingSeconds = Known[int64](60)
			s.MaxPrefetchedMessages = Known[int64](20)
		}), nil},
		{"slow flow without prefetch", senderWith(func(s *AMQPSender) { s.ExpectedProcessingSeconds = Known[int64](600) }), nil},
		{"slow flow, prefetch unknown", senderWith(func(s *AMQPSender) {
			s.ExpectedProcessingSeconds = Known[int64](600)
			s.MaxPrefetchedMessages = Unknown[int64]()
		}), nil},
		{"processing time unknown", senderWith(func(s *AMQPSender) {
			s.ExpectedProcessingSeconds = Unknown[int64]()
			s.MaxPrefetchedMessages = Known[int64](50)
		}), nil},

		// Ranges.
		{"prefetch 0", senderWith(func(s *AMQPSender) { s.MaxPrefetchedMessages = Known[int64](0) }), []string{"amqp.prefetch_range"}},
		{"prefetch 100", senderWith(func(s *AMQPSender) { s.MaxPrefetchedMessages = Known[int64](100) }), nil},
		{"prefetch 101", senderWith(func(s *AMQPSender) { s.MaxPrefetchedMessages = Known[int64](101) }), []string{"amqp.prefetch_range"}},
		{"concurrent 0", senderWith(func(s *AMQPSender) { s.ConcurrentProcesses = Known[int64](0) }), []string{"amqp.concurrent_range"}},
		{"concurrent 99", senderWith(func(s *AMQPSender) { s.ConcurrentProcesses = Known[int64](99) }), nil},
		{"concurrent 100", senderWith(func(s *AMQPSender) { s.ConcurrentProcesses = Known[int64](100) }), []string{"amqp.concurrent_range"}},
		{"processing time 0", senderWith(func(s *AMQPSender) { s.ExpectedProcessingSeconds = Known[int64](0) }), []string{"amqp.expected_processing_range"}},
	}
	runRuleCases(t, tests, CheckAMQPSender)
}

func TestCheckAMQPSenderDetails(t *testing.T) {
	t.Parallel()
	tests := []detailCase[AMQPSender]{
		{"budget arithmetic and cheapest fit", attempts(2, 2, 6), "amqp.attempt_budget_exceeded", "max_total_attempts",
			[]string{"(R + 1) × n + 1 = (2 + 1) × 2 + 1 = 7", "max_total_attempts = 6", "max_number_of_retries = 1", "max_redelivery_count = 4", "at most 6 attempts"}},
		{"budget beyond one retry", attempts(100, 5, 300), "amqp.attempt_budget_exceeded", "max_total_attempts",
			[]string{"= 506", "max_redelivery_count = 255", "at most 257 attempts"}},
		{"budget below 3", attempts(1, 1, 2), "amqp.max_total_attempts_range", "max_total_attempts",
			[]string{"No setting fits", "3 or more"}},
		{"inner retries same total", attempts(2, 2, 7), "amqp.inner_retries", "max_number_of_retries",
			[]string{"in memory", "one node", "dead message queue", "max_number_of_retries = 1", "`max_redelivery_count = 5` for the same 7 attempts"}},
		{"inner retries beyond one retry", attempts(255, 2, 600), "amqp.inner_retries", "max_number_of_retries",
			[]string{"`max_redelivery_count = 255` for 257 attempts"}},
		{"queue unlimited", senderWith(func(s *AMQPSender) { s.QueueMaxRedeliveryCount = Known[int64](0) }),
			"amqp.queue_redelivery_unlimited", "queue_max_redelivery_count", []string{"unlimited", "for ever"}},
		{"undeliverable", senderWith(func(s *AMQPSender) { s.DeliveryStatus = Known("MODIFIED_FAILED_UNDELIVERABLE") }),
			"amqp.delivery_status_undeliverable", "delivery_status_after_max_retries", []string{"dead message queue", `delivery_status_after_max_retries = "REJECTED"`}},
		{"endless", senderWith(func(s *AMQPSender) { s.MaxNumberOfRetries = Null[int64]() }),
			"amqp.retries_endless", "max_number_of_retries", []string{"endlessly"}},
		{"slow flow", senderWith(func(s *AMQPSender) {
			s.ExpectedProcessingSeconds = Known[int64](90)
			s.MaxPrefetchedMessages = Known[int64](10)
		}),
			"amqp.prefetch_slow_flow", "max_prefetched_messages", []string{"lock", "delivered twice", "max_prefetched_messages = 1"}},
	}
	runDetailCases(t, tests, CheckAMQPSender)
}

// TestBudgetFixFits checks that the setting the budget error recommends fits the budget.
func TestBudgetFixFits(t *testing.T) {
	t.Parallel()
	for budget := int64(minTotalAttempts); budget <= 400; budget++ {
		s := attempts(MaxRedeliveryCountLimit, 3, budget)
		fs := CheckAMQPSender(s)
		f := findRule(t, fs, "amqp.attempt_budget_exceeded")
		fix := f.Detail[strings.LastIndex(f.Detail, "max_redelivery_count = "):]
		var redeliveries int64
		if _, err := fmt.Sscanf(fix, "max_redelivery_count = %d", &redeliveries); err != nil {
			t.Fatalf("budget %d: no redelivery count in %q: %v", budget, fix, err)
		}
		s.QueueMaxRedeliveryCount, s.MaxNumberOfRetries = Known(redeliveries), Known[int64](1)
		if got := CheckAMQPSender(s); HasErrors(got) {
			t.Fatalf("budget %d: the recommended max_redelivery_count = %d still fails: %+v", budget, redeliveries, got)
		}
	}
}
