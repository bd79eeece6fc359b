package eventmesh_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

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
				statecheck.ExpectKnownValue("data.sapmessaging_queues.prod", tfjsonpath.New("names"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("acme/crm/prod/orders"), knownvalue.StringExact("acme/crm/prod/orders/dmq")})),
				statecheck.ExpectKnownValue("data.sapmessaging_queues.prod", tfjsonpath.New("queues").AtSliceIndex(0).AtMapKey("max_redelivery_count"), knownvalue.Int64Exact(3)),
				statecheck.ExpectKnownValue("data.sapmessaging_queues.prod", tfjsonpath.New("queues").AtSliceIndex(1).AtMapKey("is_dead_message_queue"), knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("unbounded", knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.sapmessaging_queue.dmq", tfjsonpath.New("message_count"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue("data.sapmessaging_queue.dmq", tfjsonpath.New("respect_ttl"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.sapmessaging_queue.dmq", tfjsonpath.New("unbounded_redelivery"), knownvalue.Bool(false)),
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
				statecheck.ExpectKnownOutputValue("unbounded", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("acme/crm/prod/legacy")})),
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
