package eventmesh_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

const webhookOAuth2 = `
  oauth2 = {
    client_id     = "orders-hook"
    token_url     = "%s/token"
    client_secret = "hook-secret"
  }
`

func serverWebhook(t *testing.T, env *acctest.TestEnv, name string) (*eventmesh.Webhook, error) {
	t.Helper()
	return env.Messaging(t).GetWebhook(context.Background(), name)
}

func TestAccWebhookSubscription_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ep, ep2 := acctest.WebhookEndpoint(t), acctest.WebhookEndpoint(t)
	const addr, name = "sapmessaging_webhook_subscription.w", "acme/crm/prod/hooked/webhook"
	auth := fmt.Sprintf(webhookOAuth2, ep.URL)
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(acctest.WebhookHCL(ep.URL, auth+`  default_content_type = "application/xml"`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "id", name),
				acctest.ExpectInt(addr, "qos", 1),
				acctest.ExpectBool(addr, "paused", false),
				acctest.ExpectString(addr, "state", "ACTIVE"),
				acctest.ExpectMatch(addr, "handshake_status", `^(REQUESTED|COMPLETED)$`),
				acctest.ExpectString(addr, "oauth2.client_id", "orders-hook"),
			},
			Check: func(*terraform.State) error {
				w, err := serverWebhook(t, env, name)
				if err != nil {
					return err
				}
				if w.Queue != "acme/crm/prod/hooked" || w.QoS != 1 || w.Endpoint != ep.URL || w.DefaultContentType != "application/xml" ||
					w.OAuth2 == nil || w.OAuth2.ClientID != "orders-hook" {
					return fmt.Errorf("server has %+v", w)
				}
				return nil
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			// The handshake has completed by the refresh of this step.
			Config: env.Config(acctest.WebhookHCL(ep.URL, auth+`  default_content_type = "application/xml"`)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "handshake_status", "COMPLETED"),
			},
			ConfigPlanChecks: acctest.EmptyPlanBeforeApply(),
		},
		{
			ResourceName:      addr,
			ImportState:       true,
			ImportStateId:     name,
			ImportStateVerify: true,
			// The API never shows the secret.
			ImportStateVerifyIgnore: []string{"oauth2.client_secret"},
		},
		{
			// Paused in the cockpit: the plan resumes it, in place.
			PreConfig: func() {
				if !env.Srv.SetWebhookPaused(name, true) {
					t.Fatal("webhook missing on the server")
				}
			},
			Config: env.Config(acctest.WebhookHCL(ep.URL, auth+`  default_content_type = "application/xml"`)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate(addr),
					acctest.PlannedBool(addr, "paused", false),
				},
			},
			Check: func(*terraform.State) error {
				if w, _, _ := env.Srv.Webhook(name); w.SubscriptionState != "ACTIVE" {
					return fmt.Errorf("server state %q after apply, want ACTIVE", w.SubscriptionState)
				}
				return nil
			},
		},
		{
			// paused = true pauses it in place.
			Config: env.Config(acctest.WebhookHCL(ep.URL, auth+`  default_content_type = "application/xml"
  paused = true`)),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "state", "PAUSED"),
			},
			Check: func(*terraform.State) error {
				if w, _, _ := env.Srv.Webhook(name); w.SubscriptionState != "PAUSED" {
					return fmt.Errorf("server state %q after apply, want PAUSED", w.SubscriptionState)
				}
				return nil
			},
		},
		{
			// A new endpoint replaces the subscription; the new one keeps paused (created active and
			// paused right after, which accept_push_before_pause accepts).
			Config: env.Config(acctest.WebhookHCL(ep2.URL, auth+`  default_content_type = "application/xml"
  paused = true
  accept_push_before_pause = true`)),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionDestroyBeforeCreate),
			Check: func(*terraform.State) error {
				w, _, _ := env.Srv.Webhook(name)
				if w.PushConfig.Endpoint != ep2.URL || w.SubscriptionState != "PAUSED" {
					return fmt.Errorf("server has endpoint %q, state %q after the replacement", w.PushConfig.Endpoint, w.SubscriptionState)
				}
				return nil
			},
		},
		{
			// Deleted out of band: planned for creation again.
			PreConfig: func() {
				if !env.Srv.DeleteWebhook(name) {
					t.Fatal("webhook missing on the server")
				}
			},
			Config:           env.Config(acctest.WebhookHCL(ep2.URL, auth)),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionCreate),
		},
	})
}

func TestAccWebhookSubscription_identity(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ep := acctest.WebhookEndpoint(t)
	const addr = "sapmessaging_webhook_subscription.w"
	config := env.Config(acctest.WebhookHCL(ep.URL, ""))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"name": knownvalue.StringExact("acme/crm/prod/hooked/webhook")}),
				statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("name")),
			}},
			acctest.ImportByIdentity(config, addr),
		},
	})
}

// QoS 0 runs once its losses are accepted; the write-only secret reaches the service and never the state.
func TestAccWebhookSubscription_qos0AndWriteOnlySecret(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ep := acctest.WebhookEndpoint(t)
	const addr, name = "sapmessaging_webhook_subscription.w", "acme/crm/prod/hooked/webhook"
	// config is the QoS 0 subscription authenticated with the write-only client secret of the given version.
	config := func(secret string, version int) string {
		return env.Config(acctest.WebhookHCL(ep.URL, fmt.Sprintf(`
  qos                 = 0
  accept_message_loss = true
  exempt_handshake    = true
  oauth2 = {
    client_id                = "orders-hook"
    token_url                = "%s/token"
    client_secret_wo         = %q
    client_secret_wo_version = %d
  }
`, ep.URL, secret, version)))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: []resource.TestStep{
			{
				Config: config("write-only-secret", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectInt(addr, "qos", 0),
					acctest.ExpectString(addr, "handshake_status", "EXEMPTED"),
					acctest.ExpectNull(addr, "oauth2.client_secret_wo"),
					acctest.ExpectNull(addr, "oauth2.client_secret"),
				},
				Check: func(s *terraform.State) error {
					if got := env.Srv.WebhookSecret(name); got != "write-only-secret" {
						return fmt.Errorf("the service got client secret %q", got)
					}
					for _, r := range s.RootModule().Resources {
						for k, v := range r.Primary.Attributes {
							if strings.Contains(v, "write-only-secret") {
								return fmt.Errorf("the state holds the write-only secret in %s", k)
							}
						}
					}
					return nil
				},
				ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           name,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"oauth2.client_secret_wo_version"},
			},
			{
				// A new secret version replaces the subscription with the new secret.
				Config: config("rotated-secret", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(*terraform.State) error {
					if got := env.Srv.WebhookSecret(name); got != "rotated-secret" {
						return fmt.Errorf("the service got client secret %q after the rotation", got)
					}
					return nil
				},
			},
		},
	})
}

func TestAccWebhookSubscription_planErrors(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:      env.Config(acctest.WebhookHCL("https://orders.example.com/hook", `  qos = 0`)),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`QoS 0 Loses Messages.*any failure or timeout of the endpoint loses.*the message`),
		},
		{
			Config:      env.Config(acctest.WebhookHCL("http://orders.example.com/hook", ``)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Webhook Endpoint Not HTTPS`),
		},
		{
			Config:      env.Config(acctest.WebhookHCL("https://orders.example.com/hook", `  exempt_handshake = true`)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Handshake Exempted Without Authentication`),
		},
		{
			Config: env.Config(acctest.WebhookHCL("https://orders.example.com/hook", `
  oauth2 = {
    client_id = "a"
    token_url = "https://t.example.com/token"
  }`)),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`OAuth2 Client Secret Required.*creates the webhook subscription.*Set\s+` + "`" + `oauth2.client_secret_wo` + "`"),
		},
		{
			Config: env.Config(acctest.WebhookHCL("https://orders.example.com/hook", `
  oauth2 = {
    client_id        = "a"
    token_url        = "https://t.example.com/token"
    client_secret    = "s"
    client_secret_wo = "s"
  }`)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`client_secret_wo`),
		},
		{
			// Credentials known only at apply: the handshake exemption is not refused for want of them,
			// and the plan decodes.
			Config: env.Config(`
resource "terraform_data" "creds" {
  input = { client_id = "a", token_url = "https://t.example.com/token", client_secret = "s", client_secret_wo = null, client_secret_wo_version = null }
}
` + acctest.WebhookHCL("https://orders.example.com/hook", `  exempt_handshake = true
  oauth2           = terraform_data.creds.output`)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	})
}

// The warnings of the plan, with the real CLI: a QoS 1 webhook on a queue without a dead message
// queue and with unlimited redelivery, the stall of 18 failing messages, and a second webhook
// on the same queue; and the replacement note.
func TestAccWebhookSubscription_planWarnings(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	ep := acctest.WebhookEndpoint(t)
	env.PutQueues(t, acctest.EventMeshQueue{Name: "acme/crm/prod/plain"})
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + `
resource "sapmessaging_webhook_subscription" "a" {
  name     = "plain-a"
  queue    = "acme/crm/prod/plain"
  endpoint = "` + ep.URL + `/a"
}

resource "sapmessaging_webhook_subscription" "b" {
  name     = "plain-b"
  queue    = "acme/crm/prod/plain"
  endpoint = "` + ep.URL + `/b"
  depends_on = [sapmessaging_webhook_subscription.a]
}
`})
	w.ExpectPlanDiagnostics(
		regexp.MustCompile(`^warning: Webhook Queue Without Dead Message Queue: Queue "acme/crm/prod/plain" has no dead message queue.*10080 minutes`),
		regexp.MustCompile(`^warning: Webhook Retries Until the Time to Live: .*tried 13 times over 10080 minutes`),
		regexp.MustCompile(`^warning: Failing Messages Can Stall the Webhook: Event Mesh holds at most 18 messages`),
		regexp.MustCompile(`^warning: Several Webhooks on One Queue: Queue "acme/crm/prod/plain" is also pushed by "plain-a"`),
	)
	// After the apply, the replacement says what happens to the queue's messages.
	w.MustRun(0, "apply", "-input=false", "-auto-approve")
	w.WriteFile("main.tf", strings.Replace(w.ReadFile("main.tf"), ep.URL+"/a\"", ep.URL+"/a2\"", 1))
	w.ExpectPlanDiagnostics(regexp.MustCompile(
		`^warning: Webhook Subscription Replaced: Webhook subscription "plain-a" is deleted and created again \(endpoint changed\).*messages wait in the queue`))
}

// A subscription planned with paused = true pushes nothing before it is paused: the API creates
// every subscription active, so the plan refuses the create unless accept_push_before_pause =
// true. With it, the emulator pushes the queue's messages in the moment between the create and
// the pause (held back here), which is what the plan refuses by default.
func TestAccWebhookSubscription_createdPausedPushesNothing(t *testing.T) {
	env := acctest.NewTestEnv(t)
	var posts atomic.Int64
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/token":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"endpoint-token","expires_in":3600}`))
		case r.Method == http.MethodOptions:
			w.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		case r.Method == http.MethodPost:
			posts.Add(1)
		}
	}))
	t.Cleanup(ep.Close)
	const name = "acme/crm/prod/hooked/webhook"
	auth := fmt.Sprintf(webhookOAuth2, ep.URL)
	paused := acctest.WebhookHCL(ep.URL, auth+"  qos = 0\n  accept_message_loss = true\n  exempt_handshake = true\n  paused = true\n")
	// The pause request is held back, as any answer can be late: the window between the
	// create and the pause is then long enough for the emulator's delivery loop.
	holdPause := func() {
		env.Srv.SetFaults(emulator.Faults{SlowDelay: 500 * time.Millisecond})
		env.Srv.InjectNextOn("PUT /messagingrest/v1/subscriptions/{name}/state", emulator.FaultSlow)
	}
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: env.Config(acctest.WebhookQueues)},
		{
			PreConfig: func() {
				for i := range 5 {
					if _, err := env.Srv.Publish("acme/crm/prod/hooked", fmt.Appendf(nil, `{"order":%d}`, i), "application/json"); err != nil {
						t.Fatal(err)
					}
				}
				holdPause()
			},
			Config:      env.Config(paused),
			ExpectError: regexp.MustCompile(`Webhook Subscription Cannot Be Created Paused`),
		},
		{
			// Nothing was created, and nothing pushed.
			PreConfig: func() { env.Srv.ClearFaults() },
			Config:    env.Config(acctest.WebhookQueues),
			Check: func(*terraform.State) error {
				if _, _, ok := env.Srv.Webhook(name); ok {
					return fmt.Errorf("the refused subscription exists")
				}
				if n := posts.Load(); n != 0 {
					return fmt.Errorf("the endpoint received %d messages before the subscription was paused", n)
				}
				return nil
			},
		},
		{
			// Accepted: created active, then paused; the emulator pushed in between.
			PreConfig:          holdPause,
			Config:             env.Config(strings.Replace(paused, "paused = true", "paused = true\n  accept_push_before_pause = true", 1)),
			ExpectNonEmptyPlan: false,
			Check: func(*terraform.State) error {
				env.Srv.ClearFaults()
				if w, _, _ := env.Srv.Webhook(name); w.SubscriptionState != "PAUSED" {
					return fmt.Errorf("server state %q, want PAUSED", w.SubscriptionState)
				}
				if posts.Load() == 0 {
					return fmt.Errorf("no message was pushed between the create and the pause: the test no longer shows the window")
				}
				return nil
			},
		},
	})
}
