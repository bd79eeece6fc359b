package eventmesh_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

func TestAccQueuesDataSource(t *testing.T) {
	env := acctest.NewTestEnv(t)
	// The landscape: a guarded queue with its DMQ, and a queue created outside Terraform without a redelivery limit.
	base := acctest.QueueWithDMQHCL("orders", "acme/crm/prod/orders", 3, "")
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(base)},
		{
			Config: env.Config(base + `
data "sapmessaging_queues" "prod" {
  name_prefix = "acme/crm/prod/"
  depends_on  = [sapmessaging_queue.orders]
}

data "sapmessaging_queue" "dmq" {
  name       = sapmessaging_dead_message_queue.dmq.name
  depends_on = [sapmessaging_queue.orders]
}

output "unbounded" {
  value = [for q in data.sapmessaging_queues.prod.queues : q.name if q.unbounded_redelivery]
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectStrings("data.sapmessaging_queues.prod", "names", "acme/crm/prod/orders", "acme/crm/prod/orders/dmq"),
				acctest.ExpectInt("data.sapmessaging_queues.prod", "queues.0.max_redelivery_count", 3),
				acctest.ExpectBool("data.sapmessaging_queues.prod", "queues.1.is_dead_message_queue", true),
				statecheck.ExpectKnownOutputValue("unbounded", acctest.StringList()),
				acctest.ExpectInt("data.sapmessaging_queue.dmq", "message_count", 0),
				acctest.ExpectBool("data.sapmessaging_queue.dmq", "respect_ttl", true),
				acctest.ExpectBool("data.sapmessaging_queue.dmq", "unbounded_redelivery", false),
			},
		},
		{
			// A queue made in the cockpit with the default count (0 = unlimited) shows up as unbounded.
			PreConfig: func() {
				if _, _, err := env.EventMesh(t).PutQueue(context.Background(), "acme/crm/prod/legacy", eventmesh.QueueSettings{}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(base + `
data "sapmessaging_queues" "prod" {
  name_prefix = "acme/crm/prod/"
}

output "unbounded" {
  value = [for q in data.sapmessaging_queues.prod.queues : q.name if q.unbounded_redelivery]
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("unbounded", acctest.StringList("acme/crm/prod/legacy")),
			},
		},
		{
			Config:      env.Config(`data "sapmessaging_queue" "x" { name = "acme/crm/prod/nothing" }`),
			ExpectError: regexp.MustCompile(`Queue Not Found`),
		},
	})
}

// A failing queue list says that listing the queues failed, not which queue "*" it was.
func TestAccQueuesDataSource_listFails(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{{
		PreConfig: func() { env.Srv.InjectNextOn("GET /queues", emulator.Fault500) },
		Config: env.ProviderWith("  max_retries = 0") + `
data "sapmessaging_queues" "prod" {
  name_prefix = "acme/crm/prod/"
}
`,
		ExpectError: acctest.Wrapped(`Cannot List Queues .*failed listing queues \(GET /queues\) while reading the queues whose names start with "acme/crm/prod/": .*500`),
	}})
}
