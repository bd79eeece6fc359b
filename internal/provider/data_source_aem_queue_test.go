package provider

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// publishAEM sends n messages to queue through the broker's REST messaging, as a publisher would.
func (e *testEnv) publishAEM(t *testing.T, queue string, n int) {
	t.Helper()
	c := e.srv.AdvancedEventMeshCredentials()
	for range n {
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, c.SEMPURL+"/QUEUE/"+url.PathEscape(queue), strings.NewReader("poison"))
		if err != nil {
			t.Fatal(err)
		}
		req.SetBasicAuth(c.Username, c.Password)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("publish to %s: %d", queue, resp.StatusCode)
		}
	}
}

// addAEMLandscape makes, out of band, a queue with the provider's settings and its dead message queue (the names
// of the sandbox's sample content, which the examples read), and a queue with the broker's defaults; the first
// was sent two messages, of which a consumer took one.
func (e *testEnv) addAEMLandscape(t *testing.T) {
	t.Helper()
	on := aem.Ptr(true)
	e.createAEMQueue(t, "acme/aem/prod/orders/dmq", aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, RespectTTLEnabled: on, MaxTTL: aem.Ptr[int64](604800)})
	e.createAEMQueue(t, "acme/aem/prod/orders", aem.QueueSettings{IngressEnabled: on, EgressEnabled: on, MaxRedeliveryCount: aem.Ptr[int64](3),
		RedeliveryDelayEnabled: on, DeadMsgQueue: aem.Ptr("acme/aem/prod/orders/dmq")})
	e.createAEMQueue(t, "other/defaults", aem.QueueSettings{})
	e.publishAEM(t, "acme/aem/prod/orders", 2)
	d, ok := e.srv.AEMReceive("acme/aem/prod/orders")
	if !ok {
		t.Fatal("no delivery from acme/aem/prod/orders")
	}
	if _, err := e.srv.AEMSettle("acme/aem/prod/orders", d.MsgID, emulator.AEMAccepted); err != nil {
		t.Fatal(err)
	}
}

// One queue: its settings, the monitor's counters, what a poison message goes through, and the findings of
// the rules; a queue with the broker's defaults is found retrying forever; a missing queue and a wrong
// password are errors.
func TestAccAEMQueueDataSource(t *testing.T) {
	env := newTestEnv(t)
	env.addAEMLandscape(t)
	const orders, defaults = "data.sapmessaging_aem_queue.orders", "data.sapmessaging_aem_queue.defaults"
	c := env.srv.AdvancedEventMeshCredentials()
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.aemConfig(readExample(t, "data-sources/sapmessaging_aem_queue/data-source.tf") + `
data "sapmessaging_aem_queue" "defaults" {
  name = "other/defaults"
}
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("dead_message_queue"), knownvalue.StringExact("acme/aem/prod/orders/dmq")),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("redelivery_delay_multiplier"), knownvalue.Int64Exact(200)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("access_type"), knownvalue.StringExact("exclusive")),
					// Two were spooled (a running total), one is left: the backlog is the msgs collection's count.
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("spooled_msg_count"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("message_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownOutputValue("orders_backlog", knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("msg_spool_usage"), knownvalue.Int64Exact(int64(len("poison")))),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("bind_count"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("poison_message_deliveries"), knownvalue.Int64Exact(4)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("time_to_dead_letter"), knownvalue.StringExact("7 s")),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("dead_message_queue_exists"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("is_dead_message_queue"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("findings"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(orders, tfjsonpath.New("retry_plan"),
						knownvalue.StringExact(`a poison message is delivered 4 times over 7 s of redelivery delays, then moved to the dead message queue "acme/aem/prod/orders/dmq"`)),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("poison_message_deliveries"), knownvalue.Null()),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("time_to_dead_letter"), knownvalue.Null()),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("dead_message_queue_exists"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("findings").AtSliceIndex(0).AtMapKey("rule"), knownvalue.StringExact("aem.redelivery_unlimited")),
					statecheck.ExpectKnownValue(defaults, tfjsonpath.New("findings").AtSliceIndex(0).AtMapKey("severity"), knownvalue.StringExact("error")),
				},
			},
			{
				Config:      env.aemConfig(`data "sapmessaging_aem_queue" "x" { name = "acme/none" }`),
				ExpectError: wrapped(`AEM Queue Not Found.*no queue "acme/none"`),
			},
			{
				Config: `
provider "sapmessaging" {
  advanced_event_mesh = {
    semp_url     = "` + c.SEMPURL + `"
    msg_vpn_name = "` + c.MsgVpnName + `"
    username     = "` + c.Username + `"
    password     = "wrong"
  }
  max_retries = 0
}
data "sapmessaging_aem_queue" "x" { name = "acme/orders" }
`,
				ExpectError: wrapped(`Advanced Event Mesh SEMP API Credentials Refused`),
			},
		},
	})
}
