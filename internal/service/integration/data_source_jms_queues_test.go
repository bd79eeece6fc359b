package integration_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/integration"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// newJMSTestEnv is newTestEnv with the tenant's JMS limits set.
func newJMSTestEnv(t *testing.T, opts emulator.Options) *acctest.TestEnv {
	t.Helper()
	env := &acctest.TestEnv{Srv: emulatortest.Start(t, opts)}
	env.ProviderBlock = env.ProviderOf("cloud_integration", "max_retries = 3")
	return env
}

func putJMS(t *testing.T, env *acctest.TestEnv, queue string, in emulator.JMSMessageInput) {
	t.Helper()
	if _, err := env.Srv.PutJMSMessage(queue, in); err != nil {
		t.Fatal(err)
	}
}

const jmsQueuesConfig = `
data "sapmessaging_jms_queues" "all" {}

data "sapmessaging_jms_queues" "orders" {
  name_prefix = "ORDERS_"
}

output "messages" {
  value = { for q in data.sapmessaging_jms_queues.all.queues : q.name => q.message_count }
}
`

func TestAccJMSQueuesDataSource(t *testing.T) {
	env := newJMSTestEnv(t, emulator.Options{JMSMaxQueues: 4, JMSMaxCapacity: 1000})
	all := "data.sapmessaging_jms_queues.all"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			// An empty broker.
			Config: env.Config(jmsQueuesConfig),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectLen(all, "names", 0),
				acctest.ExpectInt(all, "queue_count", 0),
				acctest.ExpectInt(all, "queue_limit", 4),
				acctest.ExpectString(all, "queue_count_state", "ok"),
				acctest.ExpectString(all, "capacity_state", "ok"),
				acctest.ExpectValue(all, "capacity_used_percent", knownvalue.Float64Exact(0)),
				acctest.ExpectBool(all, "message_counts_available", true),
				acctest.ExpectInt(all, "total_messages", 0),
			},
		},
		{
			// Messages on three queues, one of them stopped, 85% of the capacity in use.
			PreConfig: func() {
				putJMS(t, env, "ORDERS_IN", emulator.JMSMessageInput{Body: strings.Repeat("o", 400)})
				putJMS(t, env, "ORDERS_IN", emulator.JMSMessageInput{Body: strings.Repeat("o", 400)})
				putJMS(t, env, "ORDERS_OUT", emulator.JMSMessageInput{Body: "x", AccessType: emulator.JMSExclusive})
				putJMS(t, env, "INVOICES", emulator.JMSMessageInput{Body: strings.Repeat("i", 49)})
				if err := env.Srv.SetJMSQueueActive("INVOICES", false); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(jmsQueuesConfig),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectStrings(all, "names", "INVOICES", "ORDERS_IN", "ORDERS_OUT"),
				acctest.ExpectInt(all, "queues.1.message_count", 2),
				acctest.ExpectInt(all, "queues.1.size_bytes", 800),
				acctest.ExpectString(all, "queues.1.access_type", "Non-Exclusive"),
				acctest.ExpectString(all, "queues.2.access_type", "Exclusive"),
				acctest.ExpectBool(all, "queues.0.active", false),
				acctest.ExpectStrings(all, "unhealthy_queues", "INVOICES"),
				acctest.ExpectInt(all, "total_messages", 4),
				acctest.ExpectInt(all, "capacity_bytes", 850),
				acctest.ExpectString(all, "capacity_state", "critical"),
				acctest.ExpectString(all, "queue_count_state", "critical"),
				acctest.ExpectBool(all, "high_usage.queues", true),
				acctest.ExpectStrings("data.sapmessaging_jms_queues.orders", "names", "ORDERS_IN", "ORDERS_OUT"),
				acctest.ExpectInt("data.sapmessaging_jms_queues.orders", "total_messages", 3),
				acctest.ExpectOutput("messages", knownvalue.MapExact(map[string]knownvalue.Check{
					"INVOICES": knownvalue.Int64Exact(1), "ORDERS_IN": knownvalue.Int64Exact(2), "ORDERS_OUT": knownvalue.Int64Exact(1)})),
			},
		},
		{
			// Nothing changed: the plan is empty.
			Config:           env.Config(jmsQueuesConfig),
			ConfigPlanChecks: acctest.EmptyPlanBeforeApply(),
		},
		{
			// A check block over the queues warns about the stopped queue.
			Config: env.Config(`
data "sapmessaging_jms_queues" "all" {}

check "jms_queues_healthy" {
  assert {
    condition     = length(data.sapmessaging_jms_queues.all.unhealthy_queues) == 0
    error_message = "JMS queues stopped or not ok: ${join(", ", data.sapmessaging_jms_queues.all.unhealthy_queues)}."
  }
}
`),
			ExpectNonEmptyPlan: false,
		},
	})
}

// Without a Cloud Integration connection the data source says what to set.
func TestAccJMSQueuesDataSourceNeedsCloudIntegration(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{{
		Config:      env.ProviderOf("event_mesh") + `data "sapmessaging_jms_queues" "all" {}`,
		ExpectError: regexp.MustCompile(`Cloud Integration Not Configured`),
	}})
}

// A tenant without the undocumented queue list still reports states; the
// counts are null and message_counts_available is false.
func TestJMSQueuesWithoutQueueList(t *testing.T) {
	t.Parallel()
	var m integration.JMSQueuesModel
	b := &cpi.JMSBroker{QueueNumber: 2, MaxQueueNumber: 30, Capacity: 9_000_000_000, MaxCapacity: 9_300_000_000,
		QueueStates: []cpi.JMSQueueState{{Name: "A", State: 1}, {Name: "B", State: 7}}, InactiveQueues: []string{"C"}}
	integration.FillJMSQueues(&m, b, nil, false)
	got := []string{}
	for _, q := range m.Queues {
		got = append(got, fmt.Sprintf("%s:%s:%t:%s", q.Name.ValueString(), q.State.ValueString(), q.Active.ValueBool(), q.MessageCount))
	}
	if want := "[A:warning:true:<null> B:critical:true:<null> C:ok:false:<null>]"; fmt.Sprint(got) != want {
		t.Fatalf("queues %v, want %s", got, want)
	}
	if !m.TotalMessages.IsNull() || m.MessageCountsAvailable.ValueBool() || m.CapacityState.ValueString() != "exhausted" ||
		fmt.Sprint(m.UnhealthyQueues) != "[A B C]" || m.QueueCountState.ValueString() != "ok" {
		t.Fatalf("model = %+v", m)
	}
	for used, want := range map[int64]string{0: "ok", 800: "ok", 801: "critical", 949: "critical", 950: "exhausted", 2000: "exhausted"} {
		if got := integration.CapacityState(used, 1000); got != want {
			t.Errorf("capacityState(%d, 1000) = %s, want %s", used, got, want)
		}
	}
}
