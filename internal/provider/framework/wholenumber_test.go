package framework_test

import (
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// Every whole-number attribute given 1.5 or 1e20 says which attribute and which range, instead of
// a conversion error that blames the provider.
func TestAccWholeNumber_attributes(t *testing.T) {
	env := acctest.NewTestEnv(t)
	queue := func(attr, v string) string {
		return env.Configf(`
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 5
  dead_message_queue   = "acme/crm/prod/orders/dmq"
  %s = %s
}
`, attr, v)
	}
	cases := []struct{ config, want string }{
		{queue("max_ttl", "1.5"), `max_ttl = 1.5: max_ttl must be a whole number from 1 to 604800`},
		{queue("max_queue_size_in_bytes", "1e20"), `max_queue_size_in_bytes = 1e\+20: max_queue_size_in_bytes must be a whole number from 1 to 1572864000`},
		{queue("max_queue_message_count", "0.5"), `max_queue_message_count must be a whole number from 1 to 9223372036854775807`},
		{strings.Replace(queue("respect_ttl", "true"), "max_redelivery_count = 5", "max_redelivery_count = 2.5", 1),
			`max_redelivery_count = 2.5: max_redelivery_count must be a whole number from 1 to 255`},
		{env.Config(`
resource "sapmessaging_dead_message_queue" "d" {
  name    = "acme/crm/prod/orders/dmq"
  max_ttl = 3600.25
}
`), `max_ttl = 3600.25: max_ttl must be a whole number from 1 to 604800`},
		{env.Config(acctest.SenderHCL("concurrent_processes = 1.5")), `concurrent_processes = 1.5: concurrent_processes must be a whole number from 1 to 99`},
		{env.Config(`data "sapmessaging_retry_policy" "p" {
  total_attempts = 1e20
}`), `total_attempts = 1e\+20: total_attempts must be a whole number from 3 to 257`},
		{`provider "sapmessaging" {
  max_retries = 1.5
}
data "sapmessaging_retry_policy" "p" {
  total_attempts = 5
}`, `max_retries = 1.5: max_retries must be a whole number from 0 to 20`},
		{env.Config(`data "sapmessaging_jms_resources" "j" {
  destinations = [{
    name                  = "orders"
    type                  = "queue"
    max_delivery_attempts = 2.5
  }]
}`), `destinations\[0\].max_delivery_attempts = 2.5: .*must be a whole number from 1`},
		{env.Config(`data "sapmessaging_retry_policy" "p" {
  total_attempts = 5
  jms = {
    retry_interval = 1.5
  }
}`), `jms.retry_interval = 1.5: jms.retry_interval must be a whole number from 1 to 10080`},
		{env.Config(`resource "sapmessaging_jms_sender" "s" {
  iflow_id              = "Acme_Orders_Retry"
  queue_expiration_days = 30.5
}`), `queue_expiration_days = 30.5: queue_expiration_days must be a whole number from 1 to 180`},
		{env.Config(`resource "sapmessaging_jms_sender" "s" {
  iflow_id       = "Acme_Orders_Retry"
  retry_interval = 1e20
}`), `retry_interval = 1e\+20: retry_interval must be a whole number from 1 to 10080`},
	}
	var steps []resource.TestStep
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, PlanOnly: true, ExpectError: acctest.Wrapped(`Invalid Whole Number .*` + c.want)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
	if n := env.Srv.Stats().ManagementCalls; n != 0 {
		t.Errorf("refused plans made %d management API calls, want 0", n)
	}
}
