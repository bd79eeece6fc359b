package rules

import (
	"strings"
	"testing"
)

func TestAEMLandscapeRules(t *testing.T) {
	t.Parallel()
	ch := `"AEM_In" of integration flow "Orders"`
	tests := []struct {
		name    string
		fs      []Finding
		want    []string
		details []string // texts the first finding's detail holds
	}{
		{"queue exists", CheckAEMConsumedQueueExists(ch, "orders", true), nil, nil},
		{"queue missing", CheckAEMConsumedQueueExists(ch, "orders", false), []string{"audit.aem_queue_not_found"},
			[]string{`reads the queue "orders"`, "`sapmessaging_aem_queue`"}},
		{"no queue named", CheckAEMConsumedQueueExists(ch, " ", false), []string{"audit.aem_queue_not_found"}, []string{"names no queue"}},
		{"one consumer of an exclusive queue", CheckAEMExclusiveConsumers("orders", "exclusive", []string{"A/AEM"}), nil, nil},
		{"two consumers of a non-exclusive queue", CheckAEMExclusiveConsumers("orders", "non-exclusive", []string{"A/AEM", "B/AEM"}), nil, nil},
		{"two consumers of an exclusive queue", CheckAEMExclusiveConsumers("orders", "exclusive", []string{"A/AEM", "B/AEM"}),
			[]string{"audit.exclusive_competing"}, []string{"A/AEM, B/AEM", "The AEM broker delivers", "`access_type = \"non-exclusive\"`"}},
		{"unconsumed", CheckUnconsumedAEMQueue("orders", nil), []string{"audit.aem_queue_unconsumed"}, []string{`AEM queue "orders"`}},
		{"unconsumed with flows not analysed", CheckUnconsumedAEMQueue("orders", []string{"A", "B"}), []string{"audit.aem_queue_unconsumed"},
			[]string{"flow(s) A, B could not be analysed"}},
		{"AEM not configured without AEM channels", AEMNotConfigured(nil), nil, nil},
		{"AEM not configured", AEMNotConfigured([]string{"A/AEM_In"}), []string{"audit.aem_not_configured"}, []string{"1 AdvancedEventMesh sender channel(s) (A/AEM_In)"}},
		{"Event Mesh not configured without AMQP channels", EventMeshNotConfigured(nil), nil, nil},
		{"Event Mesh not configured", EventMeshNotConfigured([]string{"A/EventMesh"}), []string{"audit.event_mesh_not_configured"}, []string{"(A/EventMesh)"}},
		{"confirmed values", AEMSenderUnconfirmed("A/AEM_In", "AdvancedEventMesh", nil), nil, nil},
		{"Solace's adapter", AEMSenderUnconfirmed("A/From_SolacePubSubPlus_1", "SolacePubSubPlus", []string{"Solace's own adapter writes the keys."}),
			[]string{"audit.aem_value_unconfirmed"}, []string{"The SolacePubSubPlus sender channel A/From_SolacePubSubPlus_1", "Set the channel to SAP's AdvancedEventMesh adapter"}},
		{"unconfirmed values", AEMSenderUnconfirmed("A/AEM_In", "AdvancedEventMesh", []string{"The stored value of the Rejected outcome is assumed to be REJECTED: no flow with it was found."}),
			[]string{"audit.aem_value_unconfirmed"}, []string{"Rejected outcome is assumed"}},
		{"queues only, both brokers", QueuesOnlyOf("the Event Mesh and AEM queues"), []string{"audit.queues_only"}, []string{"checked the Event Mesh and AEM queues alone"}},
		{"queues only, Event Mesh", QueuesOnly(), []string{"audit.queues_only"}, []string{"checked the Event Mesh queues alone"}},
		{"Event Mesh exclusive consumers keep their values", CheckExclusiveConsumers("q", "EXCLUSIVE", []string{"A", "B"}),
			[]string{"audit.exclusive_competing"}, []string{"Event Mesh delivers", "`access_type = \"NON_EXCLUSIVE\"`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			expectRules(t, tt.fs, tt.want...)
			for _, d := range tt.details {
				if len(tt.fs) == 0 || !strings.Contains(tt.fs[0].Detail, d) {
					t.Errorf("detail does not hold %q: %v", d, tt.fs)
				}
			}
		})
	}
}
