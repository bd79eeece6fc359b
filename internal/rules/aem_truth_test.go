package rules

import (
	"strings"
	"testing"
	"time"
)

// The two ends a plan called safe while the broker deletes or keeps retrying the message: a queue that
// respects the DMQ-eligible flag (a message its publisher did not flag is deleted), and a dead message queue
// whose own dead message queue leads back to the queue (the message comes back for ever).

// aemCycled is aemGood whose dead message queue "orders.dmq" moves what it removes back to "orders".
func aemCycled() AEMQueue {
	q := aemGood()
	q.DeadMessageQueueCycle = []string{"orders", "orders.dmq", "orders"}
	return q
}

func TestAEMSenderRespectDMQEligible(t *testing.T) {
	t.Parallel()
	sec := time.Second
	for _, outcome := range []string{AEMOutcomeFailed, AEMOutcomeRejected} {
		t.Run(outcome, func(t *testing.T) {
			t.Parallel()
			s := aemSeedSender()
			s.SettlementOutcome = Known(outcome)
			s.Queue.RespectDMQEligible = Known(true)
			p, ok := AEMSenderPath(s)
			if !ok || p.End != AEMEndDeletedUnlessEligible || p.DeadMessageQueue != "orders.dmq" {
				t.Errorf("AEMSenderPath = %+v, %v; want the end %q", p, ok, AEMEndDeletedUnlessEligible)
			}
			if outcome == AEMOutcomeFailed && p.TimeToEnd != 271*sec {
				t.Errorf("TimeToEnd = %v", p.TimeToEnd)
			}
			plan := AEMSenderRetryPlan(s)
			if !strings.Contains(plan, `then deleted unless its publisher flagged it DMQ-eligible (moved to the dead message queue "orders.dmq" only then`) {
				t.Errorf("plan = %q", plan)
			}
			f := findRule(t, CheckAEMSender(s), "aem_sender.dmq_eligible_respected")
			if f.Severity != SeverityWarning || f.Attribute != attrAEMSettlementOutcome || !strings.Contains(f.Detail, "`respect_dmq_eligible_enabled = false`") {
				t.Errorf("finding = %+v", f)
			}
		})
	}
	// A dead message queue that keeps nothing deletes every message: the eligibility changes nothing.
	s := aemSeedSender()
	s.Queue.RespectDMQEligible, s.Queue.DeadMessageQueueExists = Known(true), Known(false)
	if p, _ := AEMSenderPath(s); p.End != AEMEndDeleted {
		t.Errorf("missing DMQ: End = %q", p.End)
	}
	expectRules(t, CheckAEMSender(s), "aem_sender.poison_messages_deleted")
}

func TestAEMDeadMessageQueueCycle(t *testing.T) {
	t.Parallel()
	q := aemCycled()
	f := findRule(t, CheckAEMQueue(q), "aem.dmq_cycle")
	if f.Severity != SeverityError || f.Attribute != attrDeadMessageQueue || !strings.Contains(f.Detail, "orders → orders.dmq → orders") ||
		!strings.Contains(f.Detail, "`allow_missing_dead_message_queue = true`") || strings.Contains(f.Detail, `= ""`) {
		t.Errorf("finding = %+v", f)
	}
	q.AllowMissingDeadMessageQueue = true
	expectRules(t, CheckAEMQueue(q), "aem.dmq_cycle_allowed")
	if plan := AEMRetryPlan(q); !strings.Contains(plan, "comes back") || !strings.Contains(plan, "for ever") {
		t.Errorf("retry plan = %q", plan)
	}
	if AEMDeadMessageQueueDeletes(q) {
		t.Error("a cycle deletes nothing")
	}
	if !AEMDeadMessageQueueCycles(q) {
		t.Error("AEMDeadMessageQueueCycles = false")
	}

	// The dead message queue of the cycle that a consumer reads: no "keeps every dead message for ever".
	dq := aemDMQ()
	dq.Name, dq.RespectTTL, dq.MaxTTL = Known("orders"), Null[bool](), Null[int64]()
	dq.DeadMessageQueue, dq.DeadMessageQueueCycle, dq.Consumed = Known("orders.dmq"), []string{"orders", "orders.dmq", "orders"}, Known(true)
	for _, f := range CheckAEMQueue(dq) {
		if f.Rule == "aem.dmq_ttl_missing" {
			t.Errorf("consumed queue of a cycle: %s: %s", f.Rule, f.Detail)
		}
	}
	findRule(t, CheckAEMQueue(dq), "aem.dmq_cycle")
	dq.Consumed = Known(false)
	findRule(t, CheckAEMQueue(dq), "aem.dmq_ttl_missing")

	// The sender on a cycled queue: retried for ever, with a finding.
	for _, outcome := range []string{AEMOutcomeFailed, AEMOutcomeRejected} {
		s := aemSeedSender()
		s.SettlementOutcome, s.Queue = Known(outcome), aemCycled()
		p, ok := AEMSenderPath(s)
		if !ok || !p.Unlimited || p.End != AEMEndCycle {
			t.Errorf("%s: AEMSenderPath = %+v, %v; want unlimited, end %q", outcome, p, ok, AEMEndCycle)
		}
		if plan := AEMSenderRetryPlan(s); !strings.Contains(plan, "orders → orders.dmq → orders") || !strings.Contains(plan, "for ever") {
			t.Errorf("%s: plan = %q", outcome, plan)
		}
		findRule(t, CheckAEMSender(s), "aem_sender.dmq_cycle")
	}
}

func TestAEMDeadMessageQueueCycleOf(t *testing.T) {
	t.Parallel()
	s := LinkSet{Current: map[string]string{"cyc/dmq": "cyc/q", "other": "#DEAD_MSG_QUEUE"}}
	if got := AEMDeadMessageQueueCycle("cyc/q", "cyc/dmq", s); strings.Join(got, " → ") != "cyc/q → cyc/dmq → cyc/q" {
		t.Errorf("cycle = %q", got)
	}
	if got := AEMDeadMessageQueueCycle("cyc/q", "other", s); got != nil {
		t.Errorf("no cycle: %q", got)
	}
}

func TestAEMDMQGraphFixTexts(t *testing.T) {
	t.Parallel()
	fs := CheckAEMDeadMessageQueueLinks("a", "b", LinkSet{Current: map[string]string{"b": "a"}})
	f := findRule(t, fs, "aem.dmq_cycle")
	if strings.Contains(f.Detail, `""`) || !strings.Contains(f.Detail, "left to the broker") || strings.Contains(f.Detail, "`, with") {
		t.Errorf("cycle fix: %s", f.Detail)
	}
	fs = CheckAEMDeadMessageQueueLinks("a", "b", LinkSet{Current: map[string]string{"b": "c"}})
	f = findRule(t, fs, "aem.dmq_chain")
	if strings.Contains(f.Detail, `""`) || !strings.Contains(f.Detail, "left to the broker") {
		t.Errorf("chain fix: %s", f.Detail)
	}
}

// A queue that respects the DMQ-eligible flag, adopted with allow_missing_dead_message_queue while its dead
// message queue was not read: whether the allowance changes anything cannot be told, so no finding says it does not.
func TestAEMRespectDMQEligibleUnknownDMQ(t *testing.T) {
	t.Parallel()
	q := aemGood()
	q.RespectDMQEligible, q.DeadMessageQueueExists, q.AllowMissingDeadMessageQueue = Known(true), Unknown[bool](), true
	for _, f := range CheckAEMQueue(q) {
		if f.Rule == "aem.allow_missing_dmq_unused" {
			t.Errorf("%s: %s", f.Rule, f.Detail)
		}
	}
}
