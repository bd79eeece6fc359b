package aem_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// One queue: its settings, the monitor's counters, what a poison message goes through, and the findings of
// the rules; a queue with the broker's defaults is found retrying forever; a missing queue and a wrong
// password are errors.
func TestAccAEMQueueDataSource(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddAEMLandscape(t)
	const orders, defaults = "data.sapmessaging_aem_queue.orders", "data.sapmessaging_aem_queue.defaults"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.AEMConfig(acctest.ReadExample(t, "data-sources/sapmessaging_aem_queue/data-source.tf") + `
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
			Config:      env.AEMConfig(`data "sapmessaging_aem_queue" "x" { name = "acme/none" }`),
			ExpectError: acctest.Wrapped(`AEM Queue Not Found.*no queue "acme/none"`),
		},
		{
			Config:      env.AEMWrongPasswordProvider() + `data "sapmessaging_aem_queue" "x" { name = "acme/orders" }`,
			ExpectError: acctest.Wrapped(`Advanced Event Mesh SEMP API Credentials Refused`),
		},
	})
}
