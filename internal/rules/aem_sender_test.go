package rules

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

// aemSeedSender is the channel of the seed table, the settings of every tenant-written AEM sender channel found
// (5 attempts, 1000 ms, 30000 ms, ×3.0, FAILED, a guaranteed consumer acknowledging on exchange completion),
// reading the recommended queue of aemGood (R = 5, redelivery delay 1 s ×2 up to 64 s, DMQ "orders.dmq").
func aemSeedSender() AEMSender {
	return AEMSender{
		MaxMessageProcessingAttempts: Known[int64](5), RetryInterval: Known[int64](1000), MaxRetryInterval: Known[int64](30000),
		RetryMultiplier: Known(3.0), SettlementOutcome: Known(AEMOutcomeFailed), AcknowledgementMode: Known(AEMAckOnExchangeComplete),
		ConsumerMode: Known(AEMConsumerGuaranteed), MaxTotalAttempts: Null[int64](), Queue: aemGood(),
	}
}

func TestCheckAEMSender(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*AEMSender)
		want   []string
	}{
		{"seed settings", func(*AEMSender) {}, nil},
		{"null enumerations count as the tenant-written values", func(s *AEMSender) {
			s.SettlementOutcome, s.AcknowledgementMode, s.ConsumerMode = Null[string](), Null[string](), Null[string]()
		}, nil},
		{"queue not read", func(s *AEMSender) { s.Queue = AEMQueue{} }, nil},
		{"everything unknown", func(s *AEMSender) { *s = AEMSender{} }, nil},

		// Acknowledgement on receipt.
		{"AUTOMATIC_IMMEDIATE on a guaranteed consumer", func(s *AEMSender) { s.AcknowledgementMode = Known(AEMAckImmediate) }, []string{"aem_sender.ack_immediate"}},
		{"AUTOMATIC_IMMEDIATE, consumer mode left empty", func(s *AEMSender) {
			s.AcknowledgementMode, s.ConsumerMode = Known(AEMAckImmediate), Null[string]()
		}, []string{"aem_sender.ack_immediate"}},
		{"AUTOMATIC_IMMEDIATE accepted", func(s *AEMSender) {
			s.AcknowledgementMode, s.AcceptMessageLoss = Known(AEMAckImmediate), true
		}, []string{"aem_sender.ack_immediate_accepted"}},
		{"AUTOMATIC_IMMEDIATE on a direct consumer", func(s *AEMSender) {
			s.AcknowledgementMode, s.ConsumerMode = Known(AEMAckImmediate), Known(AEMConsumerDirect)
		}, nil},
		{"AUTOMATIC_IMMEDIATE, consumer unknown", func(s *AEMSender) {
			s.AcknowledgementMode, s.ConsumerMode = Known(AEMAckImmediate), Unknown[string]()
		}, nil},
		{"accept_message_loss unused", func(s *AEMSender) { s.AcceptMessageLoss = true }, []string{"aem_sender.accept_message_loss_unused"}},
		{"lower case values", func(s *AEMSender) {
			s.AcknowledgementMode, s.ConsumerMode = Known("automatic_immediate"), Known("guaranteed")
		}, []string{"aem_sender.ack_immediate"}},
		{"invalid enumerations", func(s *AEMSender) {
			s.ConsumerMode, s.AcknowledgementMode, s.SettlementOutcome = Known("BROWSE"), Known("CLIENT"), Known("DISCARD")
		}, []string{"aem_sender.consumer_mode_invalid", "aem_sender.acknowledgement_mode_invalid", "aem_sender.settlement_outcome_invalid"}},

		// Attempts.
		{"attempts empty", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Null[int64]() }, []string{"aem_sender.attempts_missing"}},
		{"attempts 0", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Known[int64](0) }, []string{"aem_sender.attempts_zero"}},
		{"attempts negative", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Known[int64](-1) }, []string{"aem_sender.attempts_range"}},
		{"attempts 1", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Known[int64](1) }, nil},
		{"attempts unknown", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Unknown[int64]() }, nil},

		// The adapter's waits.
		{"waits of 0", func(s *AEMSender) {
			s.RetryInterval, s.MaxRetryInterval = Known[int64](0), Known[int64](0)
		}, []string{"aem_sender.retry_interval_range", "aem_sender.retry_interval_range"}},
		{"waits of 0 with one attempt", func(s *AEMSender) {
			s.RetryInterval, s.MaxMessageProcessingAttempts = Known[int64](0), Known[int64](1)
		}, nil},
		{"multiplier 0", func(s *AEMSender) { s.RetryMultiplier = Known(0.0) }, []string{"aem_sender.retry_multiplier_range"}},
		{"multiplier 0.5", func(s *AEMSender) { s.RetryMultiplier = Known(0.5) }, []string{"aem_sender.retry_multiplier_shrinks"}},
		{"multiplier 1.0", func(s *AEMSender) { s.RetryMultiplier = Known(1.0) }, nil},
		{"max below interval", func(s *AEMSender) {
			s.RetryInterval, s.MaxRetryInterval = Known[int64](5000), Known[int64](2000)
		}, []string{"aem_sender.max_retry_below_interval"}},

		// FAILED on a queue that retries for ever.
		{"FAILED on R = 0", func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Known[int64](0) }, []string{"aem_sender.failed_unlimited_redelivery"}},
		{"FAILED on the broker's default R", func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Null[int64]() }, []string{"aem_sender.failed_unlimited_redelivery"}},
		{"FAILED on R = 0, outcome left empty", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.SettlementOutcome = Known[int64](0), Null[string]()
		}, []string{"aem_sender.failed_unlimited_redelivery"}},
		{"FAILED on R = 0, redelivery disabled", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.Queue.RedeliveryEnabled = Known[int64](0), Known(false)
		}, nil},
		{"FAILED on R = 0, acknowledged on receipt", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.AcknowledgementMode, s.AcceptMessageLoss = Known[int64](0), Known(AEMAckImmediate), true
		}, []string{"aem_sender.ack_immediate_accepted"}},
		{"FAILED on R = 0, direct consumer", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.ConsumerMode = Known[int64](0), Known(AEMConsumerDirect)
		}, nil},
		{"FAILED, R unknown", func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Unknown[int64]() }, nil},
		{"REJECTED on R = 0", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.SettlementOutcome = Known[int64](0), Known(AEMOutcomeRejected)
		}, nil},

		// REJECTED without a dead message queue.
		{"REJECTED, DMQ missing", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueExists = Known(AEMOutcomeRejected), Known(false)
		}, []string{"aem_sender.rejected_without_dmq"}},
		{"REJECTED, #DEAD_MSG_QUEUE missing", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueue, s.Queue.DeadMessageQueueExists = Known(AEMOutcomeRejected), Null[string](), Known(false)
		}, []string{"aem_sender.rejected_without_dmq"}},
		{"REJECTED, DMQ empty", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueue = Known(AEMOutcomeRejected), Known("")
		}, []string{"aem_sender.rejected_without_dmq"}},
		{"REJECTED, DMQ created here", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueExists, s.Queue.DeadMessageQueueCreatedHere = Known(AEMOutcomeRejected), Known(false), true
		}, nil},
		{"REJECTED, DMQ existence not read", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueExists = Known(AEMOutcomeRejected), Unknown[bool]()
		}, nil},
		{"REJECTED, DMQ exists", func(s *AEMSender) { s.SettlementOutcome = Known(AEMOutcomeRejected) }, nil},
		{"FAILED, DMQ missing", func(s *AEMSender) { s.Queue.DeadMessageQueueExists = Known(false) }, []string{"aem_sender.poison_messages_deleted"}},
		{"FAILED, DMQ missing but created here", func(s *AEMSender) {
			s.Queue.DeadMessageQueueExists, s.Queue.DeadMessageQueueCreatedHere = Known(false), true
		}, nil},

		// A dead message queue whose ingress is off takes nothing: the broker deletes the message as without one.
		{"REJECTED, DMQ ingress off", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueIngress = Known(AEMOutcomeRejected), Known(false)
		}, []string{"aem_sender.rejected_without_dmq"}},
		{"FAILED, DMQ ingress off", func(s *AEMSender) { s.Queue.DeadMessageQueueIngress = Known(false) }, []string{"aem_sender.poison_messages_deleted"}},
		{"FAILED, DMQ ingress left to the broker (off)", func(s *AEMSender) { s.Queue.DeadMessageQueueIngress = Null[bool]() }, []string{"aem_sender.poison_messages_deleted"}},
		{"FAILED, DMQ ingress on", func(s *AEMSender) { s.Queue.DeadMessageQueueIngress = Known(true) }, nil},
		// A dead message queue the configuration creates counts with the ingress it plans.
		{"REJECTED, the DMQ created here with ingress on", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueIngress, s.Queue.DeadMessageQueueCreatedHere = Known(AEMOutcomeRejected), Known(true), true
		}, nil},
		{"REJECTED, the DMQ created here with ingress off", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueIngress, s.Queue.DeadMessageQueueCreatedHere = Known(AEMOutcomeRejected), Known(false), true
		}, []string{"aem_sender.rejected_without_dmq"}},
		{"FAILED on R = 0, DMQ ingress off: the unlimited rule only", func(s *AEMSender) {
			s.Queue.MaxRedeliveryCount, s.Queue.DeadMessageQueueIngress = Known[int64](0), Known(false)
		}, []string{"aem_sender.failed_unlimited_redelivery"}},
		{"AUTOMATIC_IMMEDIATE, DMQ ingress off: lost before", func(s *AEMSender) {
			s.AcknowledgementMode, s.AcceptMessageLoss, s.Queue.DeadMessageQueueIngress = Known(AEMAckImmediate), true, Known(false)
		}, []string{"aem_sender.ack_immediate_accepted"}},

		// The attempt budget.
		{"budget met", func(s *AEMSender) { s.MaxTotalAttempts = Known[int64](30) }, nil},
		{"budget exceeded", func(s *AEMSender) { s.MaxTotalAttempts = Known[int64](29) }, []string{"aem_sender.attempt_budget_exceeded"}},
		{"budget 0", func(s *AEMSender) { s.MaxTotalAttempts = Known[int64](0) }, []string{"aem_sender.max_total_attempts_range"}},
		{"budget with REJECTED", func(s *AEMSender) {
			s.MaxTotalAttempts, s.SettlementOutcome = Known[int64](4), Known(AEMOutcomeRejected)
		}, []string{"aem_sender.attempt_budget_exceeded"}},
		{"budget with REJECTED met", func(s *AEMSender) {
			s.MaxTotalAttempts, s.SettlementOutcome = Known[int64](5), Known(AEMOutcomeRejected)
		}, nil},
		{"budget on R = 0: the unlimited rule only", func(s *AEMSender) {
			s.MaxTotalAttempts, s.Queue.MaxRedeliveryCount = Known[int64](10), Known[int64](0)
		}, []string{"aem_sender.failed_unlimited_redelivery"}},
		{"budget, queue not read", func(s *AEMSender) { s.MaxTotalAttempts, s.Queue = Known[int64](2), AEMQueue{} }, nil},
		{"budget 1 with AUTOMATIC_IMMEDIATE", func(s *AEMSender) {
			s.MaxTotalAttempts, s.AcknowledgementMode, s.AcceptMessageLoss = Known[int64](1), Known(AEMAckImmediate), true
		}, []string{"aem_sender.ack_immediate_accepted"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := aemSeedSender()
			tc.mutate(&s)
			expectRules(t, CheckAEMSender(s), tc.want...)
		})
	}
}

func TestAEMSenderBudgetFixes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		attempts int64
		r        int64
		outcome  string
		budget   int64
		fix      string
	}{
		{"fewer redeliveries", 5, 5, AEMOutcomeFailed, 20, "Set the queue's `max_redelivery_count = 3`, which gives at most 5 × (3 + 1) = 20 runs."},
		{"fewer attempts", 5, 5, AEMOutcomeFailed, 9, "Set `max_message_processing_attempts = 1`, which gives at most 1 × (5 + 1) = 6 runs."},
		{"one attempt, fewer redeliveries", 5, 10, AEMOutcomeFailed, 7, "Set `max_message_processing_attempts = 1` and the queue's `max_redelivery_count = 6`, which gives at most 7 runs."},
		{"one run", 5, 5, AEMOutcomeFailed, 1, "Set `max_message_processing_attempts = 1` and `settlement_outcome = \"REJECTED\"`, which gives one run, then the dead message queue."},
		{"REJECTED", 5, 5, AEMOutcomeRejected, 3, "Set `max_message_processing_attempts = 3`."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := aemSeedSender()
			s.MaxMessageProcessingAttempts, s.Queue.MaxRedeliveryCount = Known(tc.attempts), Known(tc.r)
			s.SettlementOutcome, s.MaxTotalAttempts = Known(tc.outcome), Known(tc.budget)
			f := findRule(t, CheckAEMSender(s), "aem_sender.attempt_budget_exceeded")
			if !strings.HasSuffix(f.Detail, tc.fix) {
				t.Errorf("detail = %q, want it to end with %q", f.Detail, tc.fix)
			}
		})
	}
}

func TestAEMAdapterWaits(t *testing.T) {
	t.Parallel()
	// The seed table: 5 attempts, 1000 ms, ×3.0, at most 30000 ms: 1 s, 3 s, 9 s, 27 s.
	for k, want := range []time.Duration{0, time.Second, 3 * time.Second, 9 * time.Second, 27 * time.Second, 30 * time.Second, 30 * time.Second} {
		if got := AEMAdapterWait(int64(k), 1000, 30000, 3.0); got != want {
			t.Errorf("AEMAdapterWait(%d) = %v, want %v", k, got, want)
		}
	}
	cases := []struct {
		attempts, initial, maxMs int64
		mult                     float64
		want                     time.Duration
	}{
		{5, 1000, 30000, 3.0, 40 * time.Second},
		{6, 1000, 30000, 3.0, 70 * time.Second},
		{1, 1000, 30000, 3.0, 0},
		{0, 1000, 30000, 3.0, 0},
		{4, 500, 60000, 1.0, 1500 * time.Millisecond},
		{3, 1000, 60000, 1.5, 2500 * time.Millisecond},
		{3, 5000, 2000, 3.0, 4 * time.Second},
		{200, 1000, 30000, 3.0, 40*time.Second + 195*30*time.Second}, // 1+3+9+27 s, then 195 waits capped at 30 s
	}
	for _, tc := range cases {
		if got := AEMAdapterWaits(tc.attempts, tc.initial, tc.maxMs, tc.mult); got != tc.want {
			t.Errorf("AEMAdapterWaits(%d, %d, %d, %v) = %v, want %v", tc.attempts, tc.initial, tc.maxMs, tc.mult, got, tc.want)
		}
	}
}

func TestAEMSenderMaxRuns(t *testing.T) {
	t.Parallel()
	g, d := AEMConsumerGuaranteed, AEMConsumerDirect
	cases := []struct {
		name               string
		m                  int64
		consumer, ack, out string
		enabled            bool
		r                  int64
		runs, deliveries   int64
		unlimited          bool
	}{
		{"FAILED: m × (R + 1)", 5, g, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, 5, 30, 6, false},
		{"FAILED, R = 1", 3, g, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, 1, 6, 2, false},
		{"FAILED, R = 255", 1, g, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, 255, 256, 256, false},
		{"FAILED, R = 0: for ever", 5, g, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, 0, 0, 0, true},
		{"FAILED, redelivery disabled", 5, g, AEMAckOnExchangeComplete, AEMOutcomeFailed, false, 0, 5, 1, false},
		{"REJECTED: m", 5, g, AEMAckOnExchangeComplete, AEMOutcomeRejected, true, 5, 5, 1, false},
		{"REJECTED on R = 0: m", 5, g, AEMAckOnExchangeComplete, AEMOutcomeRejected, true, 0, 5, 1, false},
		{"AUTOMATIC_IMMEDIATE: 1, then gone", 5, g, AEMAckImmediate, AEMOutcomeFailed, true, 5, 1, 1, false},
		{"AUTOMATIC_IMMEDIATE on R = 0", 5, g, AEMAckImmediate, AEMOutcomeFailed, true, 0, 1, 1, false},
		{"DIRECT: m, no redelivery", 5, d, AEMAckOnExchangeComplete, AEMOutcomeFailed, true, 5, 5, 1, false},
		{"lower case", 2, "guaranteed", "automatic_on_exchange_complete", "failed", true, 2, 6, 3, false},
	}
	for _, tc := range cases {
		runs, unlimited := AEMSenderMaxRuns(tc.m, tc.consumer, tc.ack, tc.out, tc.enabled, tc.r)
		if runs != tc.runs || unlimited != tc.unlimited {
			t.Errorf("%s: AEMSenderMaxRuns = %d, %v; want %d, %v", tc.name, runs, unlimited, tc.runs, tc.unlimited)
		}
		deliveries, unlimited := AEMSenderDeliveries(tc.consumer, tc.ack, tc.out, tc.enabled, tc.r)
		if deliveries != tc.deliveries || unlimited != tc.unlimited {
			t.Errorf("%s: AEMSenderDeliveries = %d, %v; want %d, %v", tc.name, deliveries, unlimited, tc.deliveries, tc.unlimited)
		}
	}
}

func TestAEMSenderPath(t *testing.T) {
	t.Parallel()
	sec := time.Second
	cases := []struct {
		name   string
		mutate func(*AEMSender)
		want   AEMSenderPoisonPath
		plan   string
	}{
		{"seed settings: 6 deliveries of 5 attempts, 40 s of adapter waits each, 1+2+4+8+16 s of redelivery delays",
			func(*AEMSender) {},
			AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, BrokerWaits: 31 * sec, TimeToEnd: 271 * sec, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"},
			`a poison message runs 30 times (5 attempts on each of 6 deliveries) over 4 min 31 s of adapter waits and redelivery delays, then moved to the dead message queue "orders.dmq"`},
		{"seed settings, queue without redelivery delay", func(s *AEMSender) { s.Queue.RedeliveryDelayEnabled = Known(false) },
			AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, TimeToEnd: 240 * sec, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"},
			`a poison message runs 30 times (5 attempts on each of 6 deliveries) over 4 min of adapter waits and redelivery delays, then moved to the dead message queue "orders.dmq"`},
		{"null waits count as the defaults", func(s *AEMSender) {
			s.RetryInterval, s.MaxRetryInterval, s.RetryMultiplier = Null[int64](), Null[int64](), Null[float64]()
		}, AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, BrokerWaits: 31 * sec, TimeToEnd: 271 * sec, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"}, ""},
		{"REJECTED", func(s *AEMSender) { s.SettlementOutcome = Known(AEMOutcomeRejected) },
			AEMSenderPoisonPath{Runs: 5, Deliveries: 1, AdapterWaits: 40 * sec, TimeToEnd: 40 * sec, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"},
			`a poison message runs 5 times (5 attempts on one delivery) over 40 s of adapter waits and redelivery delays, then moved to the dead message queue "orders.dmq"`},
		{"REJECTED without a DMQ", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueExists = Known(AEMOutcomeRejected), Known(false)
		}, AEMSenderPoisonPath{Runs: 5, Deliveries: 1, AdapterWaits: 40 * sec, TimeToEnd: 40 * sec, End: AEMEndDeleted},
			"a poison message runs 5 times (5 attempts on one delivery) over 40 s of adapter waits and redelivery delays, then deleted (the queue has no dead message queue)"},
		{"REJECTED, DMQ ingress off", func(s *AEMSender) {
			s.SettlementOutcome, s.Queue.DeadMessageQueueIngress = Known(AEMOutcomeRejected), Known(false)
		}, AEMSenderPoisonPath{Runs: 5, Deliveries: 1, AdapterWaits: 40 * sec, TimeToEnd: 40 * sec, End: AEMEndDeleted},
			`a poison message runs 5 times (5 attempts on one delivery) over 40 s of adapter waits and redelivery delays, then deleted (the dead message queue "orders.dmq" takes no messages: its ingress is off)`},
		{"FAILED, DMQ ingress off", func(s *AEMSender) { s.Queue.DeadMessageQueueIngress = Known(false) },
			AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, BrokerWaits: 31 * sec, TimeToEnd: 271 * sec, End: AEMEndDeleted},
			`a poison message runs 30 times (5 attempts on each of 6 deliveries) over 4 min 31 s of adapter waits and redelivery delays, then deleted (the dead message queue "orders.dmq" takes no messages: its ingress is off)`},
		{"FAILED, DMQ ingress on", func(s *AEMSender) { s.Queue.DeadMessageQueueIngress = Known(true) },
			AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, BrokerWaits: 31 * sec, TimeToEnd: 271 * sec, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"}, ""},
		{"FAILED, no DMQ (empty name)", func(s *AEMSender) { s.Queue.DeadMessageQueue = Known("") },
			AEMSenderPoisonPath{Runs: 30, Deliveries: 6, AdapterWaits: 40 * sec, BrokerWaits: 31 * sec, TimeToEnd: 271 * sec, End: AEMEndDeleted},
			"a poison message runs 30 times (5 attempts on each of 6 deliveries) over 4 min 31 s of adapter waits and redelivery delays, then deleted (the queue has no dead message queue)"},
		{"REJECTED, queue not read", func(s *AEMSender) { s.SettlementOutcome, s.Queue = Known(AEMOutcomeRejected), AEMQueue{} },
			AEMSenderPoisonPath{Runs: 5, Deliveries: 1, AdapterWaits: 40 * sec, TimeToEnd: 40 * sec, End: AEMEndDeadMessageQueue},
			"a poison message runs 5 times (5 attempts on one delivery) over 40 s of adapter waits and redelivery delays, then moved to the dead message queue"},
		{"FAILED on R = 0", func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Known[int64](0) },
			AEMSenderPoisonPath{Unlimited: true, AdapterWaits: 40 * sec},
			"a poison message runs without end: 5 attempts on every delivery, and the queue redelivers it for ever (`max_redelivery_count` 0 = retry forever)"},
		{"AUTOMATIC_IMMEDIATE", func(s *AEMSender) { s.AcknowledgementMode = Known(AEMAckImmediate) },
			AEMSenderPoisonPath{Runs: 1, Deliveries: 1, End: AEMEndLost},
			"a poison message runs once and is lost: the adapter acknowledges it on receipt (`acknowledgement_mode` AUTOMATIC_IMMEDIATE)"},
		{"DIRECT", func(s *AEMSender) { s.ConsumerMode = Known(AEMConsumerDirect) },
			AEMSenderPoisonPath{Runs: 5, Deliveries: 1, AdapterWaits: 40 * sec, TimeToEnd: 40 * sec, End: AEMEndLost},
			"a poison message runs 5 times over 40 s of adapter waits, then is lost (a direct consumer has no redelivery)"},
		{"one attempt, R = 2, delays off", func(s *AEMSender) {
			s.MaxMessageProcessingAttempts, s.Queue.MaxRedeliveryCount, s.Queue.RedeliveryDelayEnabled = Known[int64](1), Known[int64](2), Known(false)
		}, AEMSenderPoisonPath{Runs: 3, Deliveries: 3, End: AEMEndDeadMessageQueue, DeadMessageQueue: "orders.dmq"},
			`a poison message runs 3 times (1 attempt on each of 3 deliveries) over 0 ms of adapter waits and redelivery delays, then moved to the dead message queue "orders.dmq"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := aemSeedSender()
			tc.mutate(&s)
			got, ok := AEMSenderPath(s)
			if !ok || got != tc.want {
				t.Errorf("AEMSenderPath = %+v, %v; want %+v", got, ok, tc.want)
			}
			if tc.plan != "" {
				if plan := AEMSenderRetryPlan(s); plan != tc.plan {
					t.Errorf("plan = %q\nwant   %q", plan, tc.plan)
				}
			}
		})
	}
}

func TestAEMSenderPathUnknown(t *testing.T) {
	t.Parallel()
	cases := map[string]func(*AEMSender){
		"attempts unknown":           func(s *AEMSender) { s.MaxMessageProcessingAttempts = Unknown[int64]() },
		"attempts empty":             func(s *AEMSender) { s.MaxMessageProcessingAttempts = Null[int64]() },
		"attempts 0":                 func(s *AEMSender) { s.MaxMessageProcessingAttempts = Known[int64](0) },
		"outcome unknown":            func(s *AEMSender) { s.SettlementOutcome = Unknown[string]() },
		"outcome invalid":            func(s *AEMSender) { s.SettlementOutcome = Known("DISCARD") },
		"interval unknown":           func(s *AEMSender) { s.RetryInterval = Unknown[int64]() },
		"FAILED, queue R unknown":    func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Unknown[int64]() },
		"FAILED, queue not read":     func(s *AEMSender) { s.Queue = AEMQueue{} },
		"FAILED, R out of range":     func(s *AEMSender) { s.Queue.MaxRedeliveryCount = Known[int64](1 << 40) },
		"FAILED, delay out of range": func(s *AEMSender) { s.Queue.RedeliveryDelayMultiplier = Known[int64](50) },
	}
	for name, mutate := range cases {
		s := aemSeedSender()
		mutate(&s)
		if p, ok := AEMSenderPath(s); ok {
			t.Errorf("%s: AEMSenderPath = %+v, want unknown", name, p)
		}
		if plan := AEMSenderRetryPlan(s); plan != "" {
			t.Errorf("%s: plan = %q, want empty", name, plan)
		}
	}
}

func FuzzCheckAEMSender(f *testing.F) {
	f.Add(int64(5), int64(1000), int64(30000), 3.0, "FAILED", "AUTOMATIC_ON_EXCHANGE_COMPLETE", "GUARANTEED", false, int64(30), int64(5), true, uint32(0xFFFFF))
	f.Add(int64(0), int64(0), int64(-1), 0.5, "REJECTED", "AUTOMATIC_IMMEDIATE", "DIRECT", true, int64(0), int64(0), false, uint32(0xAAAAA))
	f.Add(int64(-3), int64(5000), int64(2000), -1.0, "rejected", "CLIENT", "guaranteed", true, int64(1), int64(256), false, uint32(0x12345))
	f.Fuzz(func(t *testing.T, attempts, interval, maxInterval int64, mult float64, outcome, ack, consumer string, accept bool,
		budget, redeliveries int64, dmqExists bool, states uint32) {
		q := aemGood()
		q.MaxRedeliveryCount, q.DeadMessageQueueExists = fuzzValue(redeliveries, states>>18), fuzzValue(dmqExists, states>>20)
		s := AEMSender{
			MaxMessageProcessingAttempts: fuzzValue(attempts, states), RetryInterval: fuzzValue(interval, states>>2),
			MaxRetryInterval: fuzzValue(maxInterval, states>>4), RetryMultiplier: fuzzValue(mult, states>>6),
			SettlementOutcome: fuzzValue(outcome, states>>8), AcknowledgementMode: fuzzValue(ack, states>>10),
			ConsumerMode: fuzzValue(consumer, states>>12), AcceptMessageLoss: accept, MaxTotalAttempts: fuzzValue(budget, states>>14),
			Queue: q,
		}
		unknown := map[string]bool{
			attrAEMMaxAttempts: s.MaxMessageProcessingAttempts.IsUnknown(), attrAEMRetryInterval: s.RetryInterval.IsUnknown(),
			attrAEMMaxRetryInterval: s.MaxRetryInterval.IsUnknown(), attrAEMRetryMultiplier: s.RetryMultiplier.IsUnknown(),
			attrAEMSettlementOutcome: s.SettlementOutcome.IsUnknown(), attrAEMAckMode: s.AcknowledgementMode.IsUnknown(),
			attrAEMConsumerMode: s.ConsumerMode.IsUnknown(), attrAEMAcceptMessageLoss: false, attrMaxTotalAttempts: s.MaxTotalAttempts.IsUnknown(),
		}
		checkFindings(t, "CheckAEMSender", "an AEM sender attribute", func() []Finding { return CheckAEMSender(s) }, unknown, outcome, ack, consumer)
		// A known path is consistent: N_max is m × deliveries, or 1 on receipt acknowledgement.
		if p, ok := AEMSenderPath(s); ok && !p.Unlimited {
			m, _ := s.MaxMessageProcessingAttempts.get()
			if p.Runs != aemMulRuns(m, p.Deliveries) && p.Runs != 1 {
				t.Errorf("path %+v: runs are not m × deliveries with m = %d", p, m)
			}
			if p.TimeToEnd < 0 || p.Deliveries < 1 {
				t.Errorf("path %+v: negative time or no delivery", p)
			}
		}
		_ = AEMSenderRetryPlan(s)
	})
}

// The closed form of AEMAdapterWaits is the sum of the waits, to the millisecond.
func TestAEMAdapterWaitsIsTheSumOfTheWaits(t *testing.T) {
	t.Parallel()
	for _, attempts := range []int64{0, 1, 2, 3, 5, 8, 30, 100} {
		for _, initial := range []int64{-5, 0, 1, 250, 1000, 7000} {
			for _, maxMs := range []int64{-1, 0, 1, 500, 9000, 30000, 3600000} {
				for _, mult := range []float64{-2, 0, 0.5, 0.9, 1, 1.5, 2, 3, 10} {
					var sum time.Duration
					for k := int64(1); k < attempts; k++ {
						sum += AEMAdapterWait(k, initial, maxMs, mult)
					}
					got := AEMAdapterWaits(attempts, initial, maxMs, mult)
					if d := got - sum; d > time.Millisecond || d < -time.Millisecond {
						t.Errorf("AEMAdapterWaits(%d, %d, %d, %v) = %v, the waits sum to %v", attempts, initial, maxMs, mult, got, sum)
					}
				}
			}
		}
	}
	// Any number of attempts costs the same and saturates instead of overflowing.
	if got := AEMAdapterWaits(math.MaxInt64, 1000, 3600000, 1.0000001); got != math.MaxInt64 {
		t.Errorf("AEMAdapterWaits of MaxInt64 attempts = %v, want the longest duration", got)
	}
}

// An AEM sender adopted as it is: FAILED on a queue that retries for ever and REJECTED onto a dead message
// queue that keeps nothing are refused, and accepted with a warning by their adoption attributes, which
// AEMSenderAdoption names for a channel read from the tenant.
func TestAEMSenderAdoption(t *testing.T) {
	t.Parallel()
	base := func() AEMSender {
		return AEMSender{
			MaxMessageProcessingAttempts: Known[int64](5), RetryInterval: Known[int64](1000), MaxRetryInterval: Known[int64](30000),
			RetryMultiplier: Known(3.0), SettlementOutcome: Known(AEMOutcomeFailed), AcknowledgementMode: Known(AEMAckOnExchangeComplete),
			ConsumerMode: Known(AEMConsumerGuaranteed),
			Queue: AEMQueue{Name: Known("orders"), MaxRedeliveryCount: Known[int64](0), RedeliveryEnabled: Known(true), DeadMessageQueue: Known("orders.dmq"),
				DeadMessageQueueExists: Known(true), DeadMessageQueueIngress: Known(true)},
		}
	}
	rulesOf := func(s AEMSender) []string {
		var out []string
		for _, f := range CheckAEMSender(s) {
			if strings.HasPrefix(f.Rule, "aem_sender.failed_") || strings.HasPrefix(f.Rule, "aem_sender.rejected_") {
				out = append(out, f.Rule)
			}
		}
		return out
	}
	s := base()
	if got := rulesOf(s); !slices.Equal(got, []string{"aem_sender.failed_unlimited_redelivery"}) {
		t.Errorf("FAILED on R = 0: %v", got)
	}
	if u, m := AEMSenderAdoption(s); !u || m {
		t.Errorf("AEMSenderAdoption(FAILED on R = 0) = %v, %v; want true, false", u, m)
	}
	s.AllowUnlimitedRedelivery = true
	if got := rulesOf(s); !slices.Equal(got, []string{"aem_sender.failed_unlimited_redelivery_allowed"}) {
		t.Errorf("FAILED on R = 0, allowed: %v", got)
	}
	s = base()
	s.SettlementOutcome, s.Queue.MaxRedeliveryCount, s.Queue.DeadMessageQueueExists = Known(AEMOutcomeRejected), Known[int64](3), Known(false)
	if got := rulesOf(s); !slices.Equal(got, []string{"aem_sender.rejected_without_dmq"}) {
		t.Errorf("REJECTED without a DMQ: %v", got)
	}
	if u, m := AEMSenderAdoption(s); u || !m {
		t.Errorf("AEMSenderAdoption(REJECTED without a DMQ) = %v, %v; want false, true", u, m)
	}
	s.AllowMissingDeadMessageQueue = true
	if got := rulesOf(s); !slices.Equal(got, []string{"aem_sender.rejected_without_dmq_allowed"}) {
		t.Errorf("REJECTED without a DMQ, allowed: %v", got)
	}
	s = base()
	s.Queue.MaxRedeliveryCount = Known[int64](3)
	if u, m := AEMSenderAdoption(s); u || m {
		t.Errorf("AEMSenderAdoption(a bounded FAILED channel) = %v, %v; want false, false", u, m)
	}
	// Set where nothing needs them, the adoption attributes say that they change nothing.
	unused := func(s AEMSender) []string {
		var out []string
		for _, f := range CheckAEMSender(s) {
			if strings.HasSuffix(f.Rule, "_unused") {
				out = append(out, f.Rule)
			}
		}
		return out
	}
	s.AllowUnlimitedRedelivery, s.AllowMissingDeadMessageQueue = true, true
	if got := unused(s); !slices.Equal(got, []string{"aem_sender.allow_unlimited_unused", "aem_sender.allow_missing_dmq_unused"}) {
		t.Errorf("a bounded FAILED channel with both adoption attributes: %v", got)
	}
	s.Queue.MaxRedeliveryCount = Unknown[int64]()
	if got := unused(s); !slices.Equal(got, []string{"aem_sender.allow_missing_dmq_unused"}) {
		t.Errorf("FAILED on a queue whose redelivery count is unknown: %v", got)
	}
}

// Values SAP documents no behaviour for can stand in a tenant's channel (an .iflw written by hand or by a
// generator): allow_undocumented_values adopts them with a warning each, and AEMSenderUndocumented says when an
// import sets it.
func TestAEMSenderUndocumentedValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*AEMSender)
		rule   string
	}{
		{"unknown outcome", func(s *AEMSender) { s.SettlementOutcome = Known("DISCARD") }, "aem_sender.settlement_outcome_invalid"},
		{"unknown acknowledgement mode", func(s *AEMSender) { s.AcknowledgementMode = Known("CLIENT") }, "aem_sender.acknowledgement_mode_invalid"},
		{"unknown consumer mode", func(s *AEMSender) { s.ConsumerMode = Known("DURABLE_TOPIC_ENDPOINT") }, "aem_sender.consumer_mode_invalid"},
		{"attempts empty", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Null[int64]() }, "aem_sender.attempts_missing"},
		{"attempts 0", func(s *AEMSender) { s.MaxMessageProcessingAttempts = Known[int64](0) }, "aem_sender.attempts_zero"},
		{"interval 0", func(s *AEMSender) { s.RetryInterval = Known[int64](0) }, "aem_sender.retry_interval_range"},
		{"multiplier 0", func(s *AEMSender) { s.RetryMultiplier = Known(0.0) }, "aem_sender.retry_multiplier_range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := aemSeedSender()
			tc.mutate(&s)
			expectRules(t, CheckAEMSender(s), tc.rule)
			if !AEMSenderUndocumented(s) {
				t.Errorf("AEMSenderUndocumented = false, want true")
			}
			s.AllowUndocumentedValues = true
			fs := CheckAEMSender(s)
			expectRules(t, fs, "aem_sender.undocumented_value_allowed")
			if !strings.Contains(fs[0].Detail, "remove `allow_undocumented_values`") {
				t.Errorf("the warning does not say to remove the attribute: %s", fs[0].Detail)
			}
		})
	}
	s := aemSeedSender()
	if AEMSenderUndocumented(s) {
		t.Errorf("AEMSenderUndocumented(seed) = true")
	}
	s.AllowUndocumentedValues = true
	expectRules(t, CheckAEMSender(s), "aem_sender.allow_undocumented_values_unused")
}
