package eventmesh_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// Every webhook subscription of the instance is listed with its name as identity, or those of
// the queues under a prefix; with include_resource each result carries what an import reads, a
// QoS 0 subscription with accept_message_loss = true; the example runs.
func TestAccWebhookSubscriptionListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	for _, spec := range []eventmesh.WebhookSpec{
		{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events"},
		{Name: "returns-push", Queue: "acme/crm/prod/returns", QoS: 0, Endpoint: "https://returns.acme.example/events", DefaultContentType: "application/xml"},
		{Name: "invoices-push", Queue: "acme/erp/prod/invoices", QoS: 1, Endpoint: "https://invoices.acme.example/events"},
	} {
		if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
			t.Fatal(err)
		}
	}
	acctest.QueryTest(t,
		acctest.QueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_webhook_subscription", "crm", `queue_name_prefix = "acme/crm/prod/"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_webhook_subscription", "all", ""),
			querycheck.ExpectLength("sapmessaging_webhook_subscription.crm", 2),
			acctest.ExpectIdentity("sapmessaging_webhook_subscription.crm", map[string]string{"name": "orders-push"}),
			acctest.ExpectIdentity("sapmessaging_webhook_subscription.crm", map[string]string{"name": "returns-push"}),
			querycheck.ExpectResourceDisplayName("sapmessaging_webhook_subscription.crm", byName("orders-push"),
				knownvalue.StringExact("orders-push: pushes acme/crm/prod/orders (QoS 1, ACTIVE)")),
			querycheck.ExpectResourceKnownValues("sapmessaging_webhook_subscription.crm", byName("returns-push"), acctest.KnownValues(map[string]knownvalue.Check{
				"name":                 knownvalue.StringExact("returns-push"),
				"queue":                knownvalue.StringExact("acme/crm/prod/returns"),
				"qos":                  knownvalue.Int64Exact(0),
				"accept_message_loss":  knownvalue.Bool(true),
				"endpoint":             knownvalue.StringExact("https://returns.acme.example/events"),
				"default_content_type": knownvalue.StringExact("application/xml"),
				"exempt_handshake":     knownvalue.Bool(false),
				"paused":               knownvalue.Bool(false),
				"oauth2":               knownvalue.Null(),
			})),
			querycheck.ExpectResourceKnownValues("sapmessaging_webhook_subscription.crm", byName("orders-push"), acctest.KnownValues(map[string]knownvalue.Check{
				"qos":                 knownvalue.Int64Exact(1),
				"accept_message_loss": knownvalue.Bool(false),
			})),
			querycheck.ExpectLength("sapmessaging_webhook_subscription.all", 3),
		),
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_webhook_subscription/list-resource.tfquery.hcl"),
			querycheck.ExpectLength("sapmessaging_webhook_subscription.crm_prod", 2),
		),
	)
}

// Webhook subscriptions made in the cockpit that the resource refuses are adopted as they are: one with the
// handshake exempted and no authentication, one that pushes to an http:// endpoint. terraform query
// -generate-config-out writes them with allow_exempt_handshake_without_auth = true and allow_http_endpoint = true,
// the plan imports only and warns, the apply imports them and changes nothing, and the next plan is empty but
// still warns. Without the attributes the generated blocks would fail the plan ("Handshake Exempted Without
// Authentication", "Webhook Endpoint Not HTTPS").
func TestAccWebhookSubscriptionListResource_adoptAsItIs(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	for _, spec := range []eventmesh.WebhookSpec{
		{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events", ExemptHandshake: true},
		{Name: "returns-push", Queue: "acme/crm/prod/returns", QoS: 1, Endpoint: "https://returns.acme.example/events"},
		{Name: "returns-legacy", Queue: "acme/crm/prod/orders/dmq", QoS: 1, Endpoint: "http://legacy.acme.example/events"},
	} {
		if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
			t.Fatal(err)
		}
	}
	acctest.AdoptAsItIs(t, tf, env, "webhooks.tfquery.hcl", acctest.ListHCL("sapmessaging_webhook_subscription", "crm", `queue_name_prefix = "acme/crm/prod/"`),
		map[string]int{"allow_exempt_handshake_without_auth": 1, "allow_http_endpoint": 1}, 3,
		"Handshake Exempted Without Authentication Allowed", "Webhook Endpoint Not HTTPS Allowed")
	// Nothing changed on the service: the subscription is the one made by hand.
	got, err := env.Messaging(t).GetWebhook(t.Context(), "orders-push")
	if err != nil || !got.ExemptHandshake || got.OAuth2 != nil {
		t.Errorf("orders-push after the apply: %+v, %v; want exempted, without authentication, as before", got, err)
	}
	if got, err := env.Messaging(t).GetWebhook(t.Context(), "returns-legacy"); err != nil || got.Endpoint != "http://legacy.acme.example/events" {
		t.Errorf("returns-legacy after the apply: %+v, %v; want its http:// endpoint, as before", got, err)
	}
}

// A webhook subscription made with OAuth2 client credentials, and one with QoS 0: Event Mesh never returns the
// client secret, so terraform query -generate-config-out writes the oauth2 block without one, and the QoS 0 one with
// accept_message_loss = true. The plan imports only (an existing subscription keeps the service's secret) and warns
// about the QoS 0 one until accept_message_loss is removed; the apply changes nothing. Pausing the imported
// subscription needs no secret; a change that replaces it does, and the plan says so on the oauth2 block.
func TestAccWebhookSubscriptionListResource_adoptOAuth2AndQoS0(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	for _, spec := range []eventmesh.WebhookSpec{
		{Name: "orders-push", Queue: "acme/crm/prod/orders", QoS: 1, Endpoint: "https://orders.acme.example/events",
			OAuth2: &eventmesh.WebhookOAuth2{ClientID: "orders-client", ClientSecret: "s3cret-orders", TokenURL: "https://acme.authentication.eu10.hana.ondemand.com/oauth/token"}},
		{Name: "audit-push", Queue: "acme/crm/prod/returns", QoS: 0, Endpoint: "https://audit.acme.example/events"},
	} {
		if _, err := env.Messaging(t).CreateWebhook(t.Context(), spec); err != nil {
			t.Fatal(err)
		}
	}
	w, generated := acctest.AdoptAsItIs(t, tf, env, "webhooks.tfquery.hcl", acctest.ListHCL("sapmessaging_webhook_subscription", "crm", `queue_name_prefix = "acme/crm/prod/"`),
		map[string]int{"accept_message_loss": 1}, 2, "QoS 0 Loses Messages Accepted")
	if !strings.Contains(generated, `"orders-client"`) {
		t.Errorf("generated.tf has no oauth2 block with the client ID:\n%s", generated)
	}
	if got, err := env.Messaging(t).GetWebhook(t.Context(), "orders-push"); err != nil || got.OAuth2 == nil || got.OAuth2.ClientID != "orders-client" {
		t.Errorf("orders-push after the apply: %+v, %v; want its OAuth2 client, as before", got, err)
	}

	// Pausing the imported subscription sends no secret: it plans and applies.
	blocks := strings.SplitAfter(generated, "\nresource ")
	for i, blk := range blocks {
		if strings.Contains(blk, `"orders-push"`) {
			blocks[i] = regexp.MustCompile(`(\n\s*paused\s*=\s*)false\n`).ReplaceAllString(blk, "${1}true\n")
		}
	}
	pausedCfg := strings.Join(blocks, "")
	if pausedCfg == generated {
		t.Fatalf("cannot find paused = false of orders-push in generated.tf:\n%s", generated)
	}
	w.WriteFile("generated.tf", pausedCfg)
	r := w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	acctest.ExpectContains(t, "pausing the imported subscription", r.Output, "0 added, 1 changed, 0 destroyed")

	// A change that replaces it needs the secret, which the service never returns.
	replaced := strings.Replace(pausedCfg, "https://orders.acme.example/events", "https://orders2.acme.example/events", 1)
	w.WriteFile("generated.tf", replaced)
	r = w.MustRun(1, "plan", "-input=false", "-no-color")
	acctest.ExpectContains(t, "the plan replacing the imported subscription without a secret", r.Output,
		"OAuth2 Client Secret Required", "endpoint changed", "client_secret_wo")
	if strings.Contains(r.Output, "Invalid Attribute Combination") {
		t.Errorf("the plan fails with the framework's generic message:\n%s", r.Output)
	}
}
