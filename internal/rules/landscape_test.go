package rules

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestLandscapeRules(t *testing.T) {
	t.Parallel()
	expectRules(t, CheckConsumedQueueExists(`"AMQP" of integration flow "Orders"`, "acme/crm/prod/orders", true))
	expectRules(t, CheckConsumedQueueExists(`"AMQP" of integration flow "Orders"`, "acme/crm/prod/orders", false), "audit.queue_not_found")
	expectRules(t, CheckConsumedQueueExists(`"AMQP" of integration flow "Orders"`, "", false), "audit.queue_not_found")

	expectRules(t, CheckExclusiveConsumers("q", "EXCLUSIVE", []string{"A/AMQP"}))
	expectRules(t, CheckExclusiveConsumers("q", "NON_EXCLUSIVE", []string{"A/AMQP", "B/AMQP"}))
	f := CheckExclusiveConsumers("q", "EXCLUSIVE", []string{"A/AMQP", "B/AMQP"})
	expectRules(t, f, "audit.exclusive_competing")
	if !strings.Contains(f[0].Detail, "A/AMQP, B/AMQP") {
		t.Errorf("detail does not name the consumers: %s", f[0].Detail)
	}

	expectRules(t, CheckUnconsumedQueue("q", false, nil), "audit.queue_unconsumed")
	if CheckUnconsumedQueue("q", false, nil)[0].Severity.String() != "info" {
		t.Error("an unconsumed queue is not information")
	}
	if d := CheckUnconsumedQueue("q", true, nil)[0].Detail; !strings.Contains(d, "no webhook subscription pushes it") {
		t.Errorf("with the webhooks read, the detail does not say that no webhook consumes the queue: %s", d)
	}
	if d := CheckUnconsumedQueue("q", true, nil)[0].Detail; strings.Contains(d, "could not be analysed") {
		t.Errorf("with every flow analysed, the detail speaks of flows not analysed: %s", d)
	}
	if d := CheckUnconsumedQueue("q", true, []string{"A", "B"})[0].Detail; !strings.Contains(d, "flow(s) A, B could not be analysed (`audit.flow_not_analysable`) and may read it") {
		t.Errorf("the detail does not name the flows that could not be analysed: %s", d)
	}

	expectRules(t, WebhooksNotRead(""), "audit.webhooks_not_configured")
	if f := WebhooksNotRead(""); f[0].Severity != SeverityInfo {
		t.Errorf("without messaging credentials: %v, want information", f[0].Severity)
	}
	f = WebhooksNotRead("GET /messagingrest/v1/subscriptions: 403 Forbidden")
	if f[0].Severity != SeverityWarning || !strings.Contains(f[0].Detail, "403 Forbidden") || !strings.Contains(f[0].Detail, "queueRules") {
		t.Errorf("a forbidden list: %v %s", f[0].Severity, f[0].Detail)
	}

	expectRules(t, CheckDeadMessageQueueExists("q", "", false))
	expectRules(t, CheckDeadMessageQueueExists("q", "q/dmq", true))
	expectRules(t, CheckDeadMessageQueueExists("q", "q/dmq", false), "audit.dmq_not_found")

	expectRules(t, CheckDeployedVersion("F", "1.0.0", "1.0.0"))
	expectRules(t, CheckDeployedVersion("F", "", "1.0.1"))
	expectRules(t, CheckDeployedVersion("F", "1.0.0", "1.0.1"), "audit.version_differs")

	forbidden := FlowNotAnalysable("F", "GET ...: 403 Forbidden")
	expectRules(t, forbidden, "audit.flow_not_analysable")
	if !strings.Contains(forbidden[0].Detail, "WorkspacePackagesRead") {
		t.Errorf("a 403 does not name the missing role: %s", forbidden[0].Detail)
	}
	expectRules(t, FlowNotAnalysable("F", "zip: not a valid zip file"), "audit.flow_not_analysable")
	gone := FlowNotAnalysable("F", "GET ...: 404 Not Found: Integration design time artifact not found")
	expectRules(t, gone, "audit.flow_not_analysable")
	if !strings.Contains(gone[0].Detail, "design time is gone") {
		t.Errorf("a 404 does not say the design time is gone: %s", gone[0].Detail)
	}
	expectRules(t, QueuesOnly(), "audit.queues_only")
	expectRules(t, FlowsOnly(), "audit.flows_only")
}

func TestCheckDiscoveredRedelivery(t *testing.T) {
	t.Parallel()
	one := Known[int64](1)
	for _, tt := range []struct {
		name string
		in   AMQPSender
		want []string
	}{
		{"bounded", AMQPSender{MaxNumberOfRetries: one, QueueMaxRedeliveryCount: Known[int64](5)}, nil},
		{"unlimited", AMQPSender{MaxNumberOfRetries: one, QueueMaxRedeliveryCount: Known[int64](0)}, []string{"amqp.queue_redelivery_unlimited"}},
		{"out of range", AMQPSender{MaxNumberOfRetries: one, QueueMaxRedeliveryCount: Known[int64](300)}, []string{"amqp.queue_redelivery_range"}},
		{"over budget", AMQPSender{MaxNumberOfRetries: one, QueueMaxRedeliveryCount: Known[int64](20), MaxTotalAttempts: Known[int64](10)}, []string{"amqp.attempt_budget_exceeded"}},
		// Inner retries are the sender's own setting, reported by CheckAMQPSender, not here.
		{"inner retries", AMQPSender{MaxNumberOfRetries: Known[int64](3), QueueMaxRedeliveryCount: Known[int64](5)}, nil},
		{"unknown R", AMQPSender{MaxNumberOfRetries: one, QueueMaxRedeliveryCount: Unknown[int64]()}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, f := range CheckDiscoveredRedelivery(tt.in, "acme/crm/prod/orders") {
				for _, p := range StyleProblems(f.Summary, f.Detail, []string{"Set"}) {
					t.Errorf("%s: %s", f.Rule, p)
				}
				if f.Severity != SeverityWarning {
					t.Errorf("%s is %s, want a warning: the same apply may fix the queue", f.Rule, f.Severity)
				}
				if !strings.Contains(f.Detail, `"acme/crm/prod/orders"`) {
					t.Errorf("%s does not name the queue: %s", f.Rule, f.Detail)
				}
				got = append(got, f.Rule)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("rules = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJMSWorstCase(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		limit    int64
		operator string
		want     int64
	}{
		{5, ">", 7},  // ended on retry 6: the first execution and six retries
		{5, ">=", 6}, // ended on retry 5
		{5, "", 7},   // unknown operator: the later retry
		{math.MaxInt64, ">", math.MaxInt64},
	} {
		if got := JMSWorstCase(tt.limit, tt.operator); got != tt.want {
			t.Errorf("JMSWorstCase(%d, %q) = %d, want %d", tt.limit, tt.operator, got, tt.want)
		}
	}
}

func TestSeverityNames(t *testing.T) {
	t.Parallel()
	for _, s := range []Severity{SeverityError, SeverityWarning, SeverityInfo} {
		got, ok := ParseSeverity(s.String())
		if !ok || got != s {
			t.Errorf("ParseSeverity(%q) = %v, %v", s.String(), got, ok)
		}
	}
	if _, ok := ParseSeverity("fatal"); ok {
		t.Error("ParseSeverity accepted fatal")
	}
}
