package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// withWrongSecret returns the service key JSON with the client secret at path (object keys, an
// array index as "0") replaced by a wrong one, and the client ID found next to it.
func withWrongSecret(t *testing.T, key []byte, at ...string) (wrongKey, clientID string) {
	t.Helper()
	var root any
	if err := json.Unmarshal(key, &root); err != nil {
		t.Fatal(err)
	}
	node := root
	for _, p := range at {
		switch n := node.(type) {
		case map[string]any:
			node = n[p]
		case []any:
			node = n[0]
		}
	}
	oa, ok := node.(map[string]any)
	if !ok {
		t.Fatalf("no object at %v in the service key", at)
	}
	clientID, _ = oa["clientid"].(string)
	secret, _ := oa["clientsecret"].(string)
	if clientID == "" || len(secret) < 4 {
		t.Fatalf("no client ID and secret at %v in the service key", at)
	}
	oa["clientsecret"] = "wrong-" + secret[:4]
	b, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), clientID
}

// A wrong client secret fails the plan with an error that names the service, the client ID and
// where the key came from, never the secret; the emulator's token endpoint answers 401 "Bad
// credentials" as XSUAA does. Before, the plan of a queue passed with the 401 in a warning ("Dead
// Message Queue Cycle Not Checked"), and the plan of a deployment passed without a word.
func TestAccPlan_wrongClientSecret(t *testing.T) {
	env := acctest.NewTestEnv(t)
	emKey, emID := withWrongSecret(t, env.Srv.EventMeshKey(), "management", "0", "oa2")
	ciKey, ciID := withWrongSecret(t, env.Srv.CloudIntegrationKey(), "oauth")
	tests := []struct {
		name, provider, hcl, want string
	}{
		{"event mesh", fmt.Sprintf("event_mesh = { service_key = %q }\n  cloud_integration = { service_key = %q }", emKey, env.Srv.CloudIntegrationKey()),
			acctest.QueueHCL(5), `Event Mesh management API Credentials Refused.*client ID "` + regexp.QuoteMeta(emID) + `" from event_mesh.service_key.*401`},
		{"cloud integration", fmt.Sprintf("event_mesh = { service_key = %q }\n  cloud_integration = { service_key = %q }", env.Srv.EventMeshKey(), ciKey), `
resource "sapmessaging_iflow_deployment" "f" {
  iflow_id = "Orders_AMQP"
}
`, `Cloud Integration API Credentials Refused.*client ID "` + regexp.QuoteMeta(ciID) + `" from cloud_integration.service_key.*401`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      "provider \"sapmessaging\" {\n  " + tc.provider + "\n}\n" + tc.hcl,
					PlanOnly:    true,
					ExpectError: acctest.Wrapped(tc.want),
				}},
			})
		})
	}
}

// The credentials are proven once per run: the refusal is kept, so that a plan of many resources
// asks the token endpoint once, and every resource gets the error, which names the client ID and
// where the key came from but neither the secret configured nor the right one.
func TestRequireAtPlan_provesOncePerRun(t *testing.T) {
	t.Parallel()
	srv := emulatortest.Start(t, emulator.Options{})
	cfg := srv.ManagementConfig()
	right := cfg.ClientSecret
	cfg.ClientSecret = "wrong-secret-given-by-mistake"
	cfg.MaxRetries = 0
	h, err := httpx.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d := &framework.ProviderData{EventMesh: eventmesh.New(h),
		EventMeshCredential: framework.Credential{Service: "Event Mesh management API", Source: framework.EnvEventMeshServiceKey, ClientID: cfg.ClientID, HTTP: h}}
	for i := range 3 {
		var diags diag.Diagnostics
		if d.RequireAtPlan(context.Background(), &diags, framework.NeedEventMesh) || !diags.HasError() {
			t.Fatalf("plan %d: requireAtPlan passed with a wrong secret", i)
		}
		text := diags.Errors()[0].Summary() + " " + diags.Errors()[0].Detail()
		for _, want := range []string{"Event Mesh management API Credentials Refused", cfg.ClientID, framework.EnvEventMeshServiceKey, "401"} {
			if !strings.Contains(text, want) {
				t.Errorf("plan %d: the error does not say %q: %s", i, want, text)
			}
		}
		for _, secret := range []string{cfg.ClientSecret, right} {
			if strings.Contains(text, secret) {
				t.Errorf("plan %d: the error shows a secret: %s", i, text)
			}
		}
	}
	if n := h.Stats().TokenFetches; n != 1 {
		t.Errorf("token fetches = %d, want 1 per run", n)
	}
	if n := h.Stats().Requests; n != 0 {
		t.Errorf("API requests = %d, want 0: the proof is a token request", n)
	}

	// With the right secret the token of the proof serves the run's first call: no extra token request.
	cfg.ClientSecret = right
	h, err = httpx.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	d = &framework.ProviderData{EventMesh: eventmesh.New(h), EventMeshCredential: framework.Credential{Service: "Event Mesh management API", HTTP: h}}
	var diags diag.Diagnostics
	if !d.RequireAtPlan(context.Background(), &diags, framework.NeedEventMesh) {
		t.Fatalf("requireAtPlan with the right secret: %v", diags)
	}
	if _, err := d.EventMesh.ListQueues(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := h.Stats().TokenFetches; n != 1 {
		t.Errorf("token fetches = %d, want 1", n)
	}

	// A connection known only after apply is not required at plan; one the configuration leaves out is.
	var none diag.Diagnostics
	if !(&framework.ProviderData{EventMeshUnknown: true}).RequireAtPlan(context.Background(), &none, framework.NeedEventMesh, framework.NeedMessaging) || none.HasError() {
		t.Errorf("a connection known only after apply failed the plan: %v", none)
	}
	if (&framework.ProviderData{EventMeshUnknown: true}).RequireAtPlan(context.Background(), &none, framework.NeedCloudIntegration) {
		t.Error("a missing Cloud Integration connection passed the plan")
	}
}

// Without an Event Mesh connection (no event_mesh block, SAPMESSAGING_EVENT_MESH_SERVICE_KEY unset)
// the plan of a queue fails and names both; without a Cloud Integration connection the plan of a
// deployment does. Before, both plans passed and the apply failed.
func TestAccPlan_missingConnection(t *testing.T) {
	t.Setenv(framework.EnvEventMeshServiceKey, "")
	t.Setenv(framework.EnvCloudIntegrationServiceKey, "")
	env := acctest.NewTestEnv(t)
	ci := fmt.Sprintf("cloud_integration = { service_key = %q }", env.Srv.CloudIntegrationKey())
	em := fmt.Sprintf("event_mesh = { service_key = %q }", env.Srv.EventMeshKey())
	var steps []resource.TestStep
	for _, c := range []struct{ connection, hcl, want string }{
		{ci, `
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/orders/dmq"
}
`, `Event Mesh Not Configured.*Set the event_mesh block of the provider.*` + framework.EnvEventMeshServiceKey},
		{em, `
resource "sapmessaging_iflow_deployment" "f" {
  iflow_id = "Orders_AMQP"
}
`, `Cloud Integration Not Configured.*Set the cloud_integration block of the provider.*` + framework.EnvCloudIntegrationServiceKey},
		// A queue subscription, which had no plan of its own.
		{ci, `
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = "acme/crm/prod/orders"
  topic_pattern = "acme/crm/prod/order/created"
}
`, `Event Mesh Not Configured`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      "\nprovider \"sapmessaging\" {\n  " + c.connection + "\n}" + c.hcl,
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(c.want),
		})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// A token that the management API refuses with 403 (the messaging client's credentials given as
// the management connection: the token endpoint issues a token, the API refuses its audience)
// fails the plan naming the credential; before, the plan passed with the answer in a warning.
func TestAccPlan_apiRefusesCredentials(t *testing.T) {
	env := acctest.NewTestEnv(t)
	m := env.Srv.MessagingConfig()
	parallelSteps(t, []resource.TestStep{{
		Config: eventMeshClientHCL(env.Srv.URL(), m.TokenURL, m.ClientID, m.ClientSecret, "") + `
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 5
  dead_message_queue   = "acme/crm/prod/orders/dmq"
}
`,
		PlanOnly:    true,
		ExpectError: acctest.Wrapped(`Event Mesh management API Credentials Refused.*client ID "` + regexp.QuoteMeta(m.ClientID) + `" from event_mesh.client_id and event_mesh.client_secret.*403`),
	}})
}

// A queue list that cannot be read at plan fails the plan (a plan that cannot read fails); before,
// it passed with the warning "Dead Message Queue Cycle Not Checked".
func TestAccPlan_queueListUnreadable(t *testing.T) {
	env := acctest.NewTestEnv(t)
	parallelSteps(t, []resource.TestStep{{
		PreConfig: func() {
			env.Srv.InjectNextOn("GET /queues", emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
		},
		Config: env.Config(`
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/orders"
  max_redelivery_count = 5
  dead_message_queue   = "acme/crm/prod/orders/dmq"
}
`),
		PlanOnly:    true,
		ExpectError: acctest.Wrapped(`Cannot Check Dead Message Queue.*GET /queues.*500`),
	}})
}

// A dead message queue named by another resource's attribute that is known only after apply plans
// as before: the check waits for the apply, which creates the queues in order.
func TestAccPlan_unknownDeadMessageQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	parallelSteps(t, []resource.TestStep{{
		Config: env.Config(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = "acme/crm/prod/late/dmq"
}
resource "terraform_data" "dmq_name" {
  input = sapmessaging_dead_message_queue.dmq.name
}
resource "sapmessaging_queue" "q" {
  name                 = "acme/crm/prod/late"
  max_redelivery_count = 5
  dead_message_queue   = terraform_data.dmq_name.output
}
`),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			acctest.PlannedUnknown("sapmessaging_queue.q", "dead_message_queue"),
		}},
		ConfigStateChecks: []statecheck.StateCheck{
			acctest.ExpectString("sapmessaging_queue.q", "dead_message_queue", "acme/crm/prod/late/dmq"),
		},
	}})
}

// Every read at plan that failed into a warning or a log line fails the plan now: the queue list an
// AMQP sender takes its redelivery count from, the queue of a webhook subscription and the list of the
// other webhooks. Before, each plan passed (the sender with an unknown worst case, the webhook
// without its checks).
func TestAccPlan_readFailuresFail(t *testing.T) {
	fail := []emulator.FaultKind{emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500}
	tests := []struct {
		name  string
		route string
		setup func(t *testing.T, env *acctest.TestEnv) string
		want  string
	}{
		{"sender redelivery count", "GET /queues", func(t *testing.T, env *acctest.TestEnv) string {
			acctest.RedeliveryFromQueueEnv(t, env)
			return acctest.DiscoveredSenderHCL("")
		}, `Cannot Read Redelivery Count.*GET /queues.*500`},
		{"webhook queue", "GET /queues", webhookOnExistingQueue, `Cannot Read Queue.*GET /queues.*500`},
		{"webhook list", "GET " + emulator.MessagingBasePath + "/subscriptions", webhookOnExistingQueue, `Cannot List Webhook Subscriptions.*500`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := acctest.NewTestEnv(t)
			hcl := tc.setup(t, env)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					PreConfig:   func() { env.Srv.InjectNextOn(tc.route, fail...) },
					Config:      env.Config(hcl),
					PlanOnly:    true,
					ExpectError: acctest.Wrapped(tc.want),
				}},
			})
		})
	}
}

// webhookOnExistingQueue makes a queue out of band and returns a webhook subscription on it.
func webhookOnExistingQueue(t *testing.T, env *acctest.TestEnv) string {
	t.Helper()
	if _, _, err := env.EventMesh(t).PutQueue(t.Context(), "acme/crm/prod/hooked", eventmesh.QueueSettings{MaxRedeliveryCount: acctest.PtrTo[int64](5)}); err != nil {
		t.Fatal(err)
	}
	return `
resource "sapmessaging_webhook_subscription" "w" {
  name     = "acme/crm/prod/hooked/webhook"
  queue    = "acme/crm/prod/hooked"
  endpoint = "https://hooks.example.com/orders"
}
`
}
