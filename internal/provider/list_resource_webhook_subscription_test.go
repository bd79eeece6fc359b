package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// webhookByName filters query results by the webhook subscription name in their identity.
func webhookByName(name string) queryfilter.QueryFilter {
	return queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"name": knownvalue.StringExact(name)})
}

// Every webhook subscription of the instance is listed with its name as identity, or those of
// the queues under a prefix; with include_resource each result carries what an import reads, a
// QoS 0 subscription with accept_message_loss = true; the example runs.
func TestAccWebhookSubscriptionListResource_query(t *testing.T) {
	env := newTestEnv(t)
	env.addHandMadeQueues(t)
	for _, spec := range []eventmesh.WebhookSpec{
		{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events"},
		{Name: "returns-push", Queue: "acme/crm/prod/returns", QoS: 0, Endpoint: "https://returns.acme.example/events", DefaultContentType: "application/xml"},
		{Name: "invoices-push", Queue: "acme/erp/prod/invoices", QoS: 1, Endpoint: "https://invoices.acme.example/events"},
	} {
		if _, err := env.messaging(t).CreateWebhook(t.Context(), spec); err != nil {
			t.Fatal(err)
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: env.providerBlock + `
list "sapmessaging_webhook_subscription" "crm" {
  provider         = sapmessaging
  include_resource = true
  config {
    queue_name_prefix = "acme/crm/prod/"
  }
}

list "sapmessaging_webhook_subscription" "all" {
  provider = sapmessaging
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_webhook_subscription.crm", 2),
					querycheck.ExpectIdentity("sapmessaging_webhook_subscription.crm", map[string]knownvalue.Check{"name": knownvalue.StringExact("orders-push")}),
					querycheck.ExpectIdentity("sapmessaging_webhook_subscription.crm", map[string]knownvalue.Check{"name": knownvalue.StringExact("returns-push")}),
					querycheck.ExpectResourceDisplayName("sapmessaging_webhook_subscription.crm", webhookByName("orders-push"),
						knownvalue.StringExact("orders-push: pushes acme/crm/prod/orders (QoS 1, ACTIVE)")),
					querycheck.ExpectResourceKnownValues("sapmessaging_webhook_subscription.crm", webhookByName("returns-push"), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("returns-push")},
						{Path: tfjsonpath.New("queue"), KnownValue: knownvalue.StringExact("acme/crm/prod/returns")},
						{Path: tfjsonpath.New("qos"), KnownValue: knownvalue.Int64Exact(0)},
						{Path: tfjsonpath.New("accept_message_loss"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("endpoint"), KnownValue: knownvalue.StringExact("https://returns.acme.example/events")},
						{Path: tfjsonpath.New("default_content_type"), KnownValue: knownvalue.StringExact("application/xml")},
						{Path: tfjsonpath.New("exempt_handshake"), KnownValue: knownvalue.Bool(false)},
						{Path: tfjsonpath.New("paused"), KnownValue: knownvalue.Bool(false)},
						{Path: tfjsonpath.New("oauth2"), KnownValue: knownvalue.Null()},
					}),
					querycheck.ExpectResourceKnownValues("sapmessaging_webhook_subscription.crm", webhookByName("orders-push"), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("qos"), KnownValue: knownvalue.Int64Exact(1)},
						{Path: tfjsonpath.New("accept_message_loss"), KnownValue: knownvalue.Bool(false)},
					}),
					querycheck.ExpectLength("sapmessaging_webhook_subscription.all", 3),
				},
			},
			{
				Query:  true,
				Config: env.providerBlock + readExample(t, "list-resources/sapmessaging_webhook_subscription/list-resource.tfquery.hcl"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_webhook_subscription.crm_prod", 2),
				},
			},
		},
	})
}
