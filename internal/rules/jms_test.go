package rules

import (
	"strings"
	"testing"
)

// jmsQueue returns a limited queue destination with SAP's defaults and the error destination.
func jmsQueue(name, errorDestination string) JMSDestination {
	return JMSDestination{Name: name, Type: "queue", DeliveryAttemptsLimited: true,
		MaxDeliveryAttempts: 5, DeliveryDelayIntervalMs: 2000, ErrorDestination: errorDestination}
}

func jmsTopicDestination(name string) JMSDestination {
	d := jmsQueue(name, "")
	d.Type = "topic"
	return d
}

func TestCheckJMSDestinations(t *testing.T) {
	t.Parallel()
	unlimited := jmsQueue("Orders", "")
	unlimited.DeliveryAttemptsLimited = false
	unlimitedNoAttempts := unlimited
	unlimitedNoAttempts.MaxDeliveryAttempts = 0
	noAttempts := jmsQueue("Orders", "")
	noAttempts.MaxDeliveryAttempts = 0
	negativeDelay := jmsQueue("Orders", "")
	negativeDelay.DeliveryDelayIntervalMs = -1

	tests := []struct {
		name     string
		ds       []JMSDestination
		want     []string
		contains string // in the first finding's detail
	}{
		{"nil", nil, nil, ""},
		{"seed example", []JMSDestination{
			{Name: "MyQueue", Type: "queue", DeliveryAttemptsLimited: true, MaxDeliveryAttempts: 30, DeliveryDelayIntervalMs: 60000, ErrorDestination: "MyErrorDestination"},
			jmsQueue("MyErrorDestination", ""),
		}, nil, ""},
		{"default error queue implied", []JMSDestination{jmsQueue("Orders", "")}, nil, ""},
		{"default error queue named", []JMSDestination{jmsQueue("Orders", "sapDefaultErrorQueue")}, nil, ""},
		{"default error queue declared", []JMSDestination{jmsQueue("Orders", ""), jmsQueue("sapDefaultErrorQueue", "")}, nil, ""},
		{"unlimited attempts", []JMSDestination{unlimited}, []string{"jms.attempts_unlimited"}, `"Orders"`},
		{"unlimited attempts reported once", []JMSDestination{unlimitedNoAttempts}, []string{"jms.attempts_unlimited"}, "deliveryAttemptsLimited = true"},
		{"zero attempts", []JMSDestination{noAttempts}, []string{"jms.max_attempts_range"}, `"Orders"`},
		{"negative delay", []JMSDestination{negativeDelay}, []string{"jms.delivery_delay_range"}, `"Orders"`},
		{"drop dead messages", []JMSDestination{jmsQueue("Orders", " ")}, []string{"jms.dead_messages_dropped"}, `"Orders"`},
		{"error destination is itself", []JMSDestination{jmsQueue("Orders", "Orders")}, []string{"jms.error_destination_self"}, `"Orders"`},
		{"default error queue is its own", []JMSDestination{jmsQueue("sapDefaultErrorQueue", "sapDefaultErrorQueue")},
			[]string{"jms.error_destination_self"}, "empty string"},
		{"two-step cycle reported once", []JMSDestination{jmsQueue("A", "B"), jmsQueue("B", "A")},
			[]string{"jms.error_destination_cycle"}, "A → B → A"},
		{"three-step cycle reported once", []JMSDestination{jmsQueue("A", "B"), jmsQueue("B", "C"), jmsQueue("C", "A")},
			[]string{"jms.error_destination_cycle"}, "A → B → C → A"},
		{"chain into a cycle", []JMSDestination{jmsQueue("In", "A"), jmsQueue("A", "B"), jmsQueue("B", "A")},
			[]string{"jms.error_destination_cycle"}, "A → B → A"},
		{"chain into a self loop", []JMSDestination{jmsQueue("In", "A"), jmsQueue("A", "A")},
			[]string{"jms.error_destination_self"}, `"A"`},
		{"cycle through the default error queue", []JMSDestination{jmsQueue("A", ""), jmsQueue("sapDefaultErrorQueue", "A")},
			[]string{"jms.error_destination_cycle"}, "errorDestination on sapDefaultErrorQueue to the empty string"},
		{"chain ending in the default error queue", []JMSDestination{jmsQueue("A", "B"), jmsQueue("B", "sapDefaultErrorQueue")}, nil, ""},
		{"chain ending in drop", []JMSDestination{jmsQueue("A", "B"), jmsQueue("B", " ")}, []string{"jms.dead_messages_dropped"}, `"B"`},
		{"topic as error destination", []JMSDestination{jmsQueue("Orders", "Dead"), jmsTopicDestination("Dead")},
			[]string{"jms.error_destination_topic"}, "no subscriber"},
		{"undeclared error destination", []JMSDestination{jmsQueue("Orders", "Nowhere")},
			[]string{"jms.error_destination_unknown"}, `"Nowhere" of "Orders"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckJMSDestinations(tt.ds)
			expectRules(t, fs, tt.want...)
			expectAttribute(t, fs, "destinations")
			if tt.contains != "" && len(fs) > 0 && !strings.Contains(fs[0].Detail, tt.contains) {
				t.Errorf("Detail %q does not contain %q", fs[0].Detail, tt.contains)
			}
		})
	}
}

func TestJMSTimeToDeadMs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    JMSDestination
		want int64
	}{
		{jmsQueue("Defaults", ""), 10000},
		{JMSDestination{MaxDeliveryAttempts: 30, DeliveryDelayIntervalMs: 60000}, 1800000},
		{JMSDestination{MaxDeliveryAttempts: 3}, 0},
	}
	for _, tt := range tests {
		if got := JMSTimeToDeadMs(tt.d); got != tt.want {
			t.Errorf("JMSTimeToDeadMs(%+v) = %d, want %d", tt.d, got, tt.want)
		}
	}
}
