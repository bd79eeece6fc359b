package aem_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
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
				acctest.ExpectInt(orders, "max_redelivery_count", 3),
				acctest.ExpectString(orders, "dead_message_queue", "acme/aem/prod/orders/dmq"),
				acctest.ExpectInt(orders, "redelivery_delay_multiplier", 200),
				acctest.ExpectString(orders, "access_type", "exclusive"),

				acctest.ExpectInt(orders, "spooled_msg_count", 2),
				acctest.ExpectInt(orders, "message_count", 1),
				statecheck.ExpectKnownOutputValue("orders_backlog", knownvalue.Int64Exact(1)),
				acctest.ExpectInt(orders, "msg_spool_usage", int64(len("poison"))),
				acctest.ExpectInt(orders, "bind_count", 0),
				acctest.ExpectInt(orders, "poison_message_deliveries", 4),
				acctest.ExpectString(orders, "time_to_dead_letter", "7 s"),
				acctest.ExpectBool(orders, "dead_message_queue_exists", true),
				acctest.ExpectBool(orders, "is_dead_message_queue", false),
				acctest.ExpectLen(orders, "findings", 0),
				acctest.ExpectString(orders, "retry_plan",
					`a poison message is delivered 4 times over 7 s of redelivery delays, then moved to the dead message queue "acme/aem/prod/orders/dmq"`),

				acctest.ExpectInt(defaults, "max_redelivery_count", 0),
				acctest.ExpectNull(defaults, "poison_message_deliveries"),
				acctest.ExpectNull(defaults, "time_to_dead_letter"),
				acctest.ExpectBool(defaults, "dead_message_queue_exists", false),
				acctest.ExpectString(defaults, "findings.0.rule", "aem.redelivery_unlimited"),
				acctest.ExpectString(defaults, "findings.0.severity", "error"),
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
