package framework_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// A second sapmessaging_queue_subscription on a queue and topic another resource manages is refused
// at plan: imported (as a later terraform query generates it) or created, and nothing is written;
// a subscription whose topic change replaces it is not its own duplicate.
func TestAccOwners_subscriptionManagedTwice(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const queue, topic = "acme/crm/prod/owned", "acme/crm/prod/ce/owned/*"
	base := `
resource "sapmessaging_queue" "q" {
  name                 = %[1]q
  max_redelivery_count = 3
}

resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.q.name
  topic_pattern = %[2]q
}
`
	second := `
resource "sapmessaging_queue_subscription" "generated" {
  queue_name    = %[1]q
  topic_pattern = %[2]q
}
`
	imported := `
import {
  to = sapmessaging_queue_subscription.generated
  id = "%[1]s,%[2]s"
}
`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Configf(base, queue, topic)},
			{
				Config: env.Configf(base+second+imported, queue, topic),
				ExpectError: acctest.Wrapped(`Subscription Managed Twice .*Two resources of this configuration manage the subscription of queue "` + queue +
					`" to topic "` + strings.ReplaceAll(topic, "*", `\*`) + `".*holds it in its state or imports it.*import the subscription only once`),
			},
			{
				PreConfig: func() {
					if n := env.Srv.Stats().Routes["PUT /queues/{queue}/subscriptions/{topic}"]; n != 1 {
						t.Fatalf("%d subscription PUTs, want only the first apply's", n)
					}
				},
				Config:      env.Configf(base+second, queue, topic),
				ExpectError: acctest.Wrapped(`Subscription Managed Twice .*"` + queue + `"`),
			},
			{
				// A new topic replaces s: Terraform plans it twice, the second time without its state.
				Config: env.Configf(base, queue, topic+"/new"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sapmessaging_queue_subscription.s", plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(*terraform.State) error {
					if ok, err := acctest.Subscribed(env, t, queue, topic+"/new"); err != nil || !ok {
						return fmt.Errorf("the replaced subscription is missing (err %v)", err)
					}
					return nil
				},
			},
		},
	})
}

// A second sapmessaging_webhook_subscription of a name another resource manages is refused at plan,
// as a later terraform query would generate it with an import block.
func TestAccOwners_webhookManagedTwice(t *testing.T) {
	env := acctest.NewTestEnv(t)
	ep := acctest.WebhookEndpoint(t)
	const name = "acme/crm/prod/hooked/webhook"
	second := fmt.Sprintf(`
resource "sapmessaging_webhook_subscription" "generated" {
  name     = %[1]q
  queue    = "acme/crm/prod/hooked"
  endpoint = %[2]q
}

import {
  to = sapmessaging_webhook_subscription.generated
  id = %[1]q
}
`, name, ep.URL)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Config(acctest.WebhookHCL(ep.URL, ""))},
			{
				Config:      env.Config(acctest.WebhookHCL(ep.URL, "") + second),
				ExpectError: acctest.Wrapped(`Webhook Subscription Managed Twice .*the webhook subscription "` + name + `".*Give each webhook subscription its own name`),
			},
		},
	})
}

// A copied sender or deployment block (same settings, planned for creation while the first holds
// the channel or flow in its state) is refused at plan: it is no replacement of the first.
func TestAccOwners_copiedFlowBlocksRefused(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	sender := `
resource "sapmessaging_amqp_sender" "%s" {
  iflow_id              = %q
  max_number_of_retries = 1
  deploy                = false
}
`
	deployment := `
resource "sapmessaging_iflow_deployment" "%s" {
  iflow_id = %q
}
`
	// The copy is planned after the original, which holds the object in its state.
	after := func(block, typ string) string {
		return strings.Replace(block, "\n}\n", "\n  depends_on = ["+typ+".a]\n}\n", 1)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: env.Config(fmt.Sprintf(sender, "a", acctest.SenderFlowID) + fmt.Sprintf(deployment, "a", acctest.SenderFlowID))},
			{
				Config: env.Config(fmt.Sprintf(sender, "a", acctest.SenderFlowID) + after(fmt.Sprintf(sender, "copy", acctest.SenderFlowID), "sapmessaging_amqp_sender")),
				ExpectError: acctest.Wrapped(`Channel Managed Twice .*AMQP sender channel "MessageFlow_1" of iFlow "` + acctest.SenderFlowID +
					`": this sapmessaging_amqp_sender resource and a sapmessaging_amqp_sender resource that holds it in its state`),
			},
			{
				Config: env.Config(fmt.Sprintf(deployment, "a", acctest.SenderFlowID) + after(fmt.Sprintf(deployment, "copy", acctest.SenderFlowID), "sapmessaging_iflow_deployment")),
				ExpectError: acctest.Wrapped(`Integration Flow Deployed Twice .*deploy iFlow "` + acctest.SenderFlowID +
					`": this sapmessaging_iflow_deployment resource and a sapmessaging_iflow_deployment resource that holds it in its state`),
			},
		},
	})
}

// Aliased provider configurations that point at the same Event Mesh instance or Cloud Integration
// tenant run in provider processes of their own: a resource of one that manages an object a
// resource of the other manages is refused at plan all the same, for every type, naming the other
// configuration. The same names in another instance are no duplicates, and an apply across the
// aliases (a plan walk and an apply walk of their own processes) is not refused by its own plan.
func TestAccOwners_aliasedConfigurations(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	env.AddFlow(t, acctest.SenderFlowID, []iflowbuild.Sender{{Properties: iflowbuild.DefaultSenderProperties("acme/crm/prod/orders")}}, nil)
	other := emulatortest.Start(t, emulator.Options{})
	work := t.TempDir()
	plugins := filepath.Join(work, "plugins")
	acctest.BuildProvider(t, plugins)
	keys, otherKeys := filepath.Join(work, "keys"), filepath.Join(work, "other-keys")
	if err := env.Srv.WriteKeys(keys); err != nil {
		t.Fatal(err)
	}
	if err := other.WriteKeys(otherKeys); err != nil {
		t.Fatal(err)
	}
	cliConfig := acctest.WriteCLIConfig(t, work, plugins)
	providers := func(bKeys string) string {
		return acctest.RequiredProviders + fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh        = { service_key = file(%[1]q) }
  cloud_integration = { service_key = file(%[2]q) }
}

provider "sapmessaging" {
  alias             = "b"
  event_mesh        = { service_key = file(%[3]q) }
  cloud_integration = { service_key = file(%[4]q) }
}
`, filepath.Join(keys, emulator.EventMeshKeyFile), filepath.Join(keys, emulator.CloudIntegrationKeyFile),
			filepath.Join(bKeys, emulator.EventMeshKeyFile), filepath.Join(bKeys, emulator.CloudIntegrationKeyFile))
	}
	const queue = "acme/crm/prod/aliased"
	queueHCL := func(label, provider, typ string) string {
		setting := "max_redelivery_count = 3"
		if typ == "sapmessaging_dead_message_queue" {
			setting = "max_ttl = 600"
		}
		return fmt.Sprintf("\nresource %q %q {\n  provider = %s\n  name     = %q\n  %s\n}\n", typ, label, provider, queue, setting)
	}
	subscriptionHCL := func(label, provider string) string {
		return fmt.Sprintf("\nresource \"sapmessaging_queue_subscription\" %q {\n  provider      = %s\n  queue_name    = %q\n  topic_pattern = \"acme/crm/prod/ce/aliased/*\"\n  depends_on    = [sapmessaging_queue.%s]\n}\n", label, provider, queue, label)
	}
	webhookHCL := func(label, provider string) string {
		return fmt.Sprintf("\nresource \"sapmessaging_webhook_subscription\" %q {\n  provider = %s\n  name     = \"acme/crm/prod/aliased/webhook\"\n  queue    = %q\n  endpoint = \"https://hooks.example.com/orders\"\n}\n", label, provider, queue)
	}
	senderHCL := func(label, provider string) string {
		return fmt.Sprintf("\nresource \"sapmessaging_amqp_sender\" %q {\n  provider              = %s\n  iflow_id              = %q\n  max_number_of_retries = 1\n  deploy                = false\n}\n", label, provider, acctest.SenderFlowID)
	}
	deploymentHCL := func(label, provider string) string {
		return fmt.Sprintf("\nresource \"sapmessaging_iflow_deployment\" %q {\n  provider = %s\n  iflow_id = %q\n}\n", label, provider, acctest.SenderFlowID)
	}
	run := func(t *testing.T, name, hcl string, args ...string) acctest.CLIRun {
		t.Helper()
		dir := filepath.Join(work, name)
		acctest.WriteFile(t, filepath.Join(dir, "main.tf"), hcl)
		return acctest.RunTerraform(t, tf, dir, cliConfig, args...)
	}
	plan := []string{"plan", "-input=false", "-no-color"}
	// The cases run one after the other: each runs Terraform and two provider processes.
	for _, c := range []struct { //nolint:paralleltest
		name, hcl, summary, object string
	}{
		{"queue", queueHCL("a", "sapmessaging", "sapmessaging_queue") + queueHCL("b", "sapmessaging.b", "sapmessaging_queue"),
			"Duplicate Queue Name", `name the queue "` + queue + `"`},
		{"dmq", queueHCL("a", "sapmessaging", "sapmessaging_queue") + queueHCL("b", "sapmessaging.b", "sapmessaging_dead_message_queue"),
			"Duplicate Queue Name", `name the queue "` + queue + `"`},
		{"dmqs", queueHCL("a", "sapmessaging", "sapmessaging_dead_message_queue") + queueHCL("b", "sapmessaging.b", "sapmessaging_dead_message_queue"),
			"Duplicate Queue Name", `name the queue "` + queue + `"`},
		{"subscription", queueHCL("a", "sapmessaging", "sapmessaging_queue") + strings.ReplaceAll(queueHCL("b", "sapmessaging.b", "sapmessaging_queue"), queue, queue+"/b") +
			subscriptionHCL("a", "sapmessaging") + subscriptionHCL("b", "sapmessaging.b"),
			"Subscription Managed Twice", `manage the subscription of queue "` + queue + `"`},
		{"webhook", webhookHCL("a", "sapmessaging") + webhookHCL("b", "sapmessaging.b"),
			"Webhook Subscription Managed Twice", `manage the webhook subscription "acme/crm/prod/aliased/webhook"`},
		{"sender", senderHCL("a", "sapmessaging") + senderHCL("b", "sapmessaging.b"),
			"Channel Managed Twice", `manage the AMQP sender channel "MessageFlow_1" of iFlow "` + acctest.SenderFlowID + `"`},
		{"deployment", deploymentHCL("a", "sapmessaging") + deploymentHCL("b", "sapmessaging.b"),
			"Integration Flow Deployed Twice", `deploy iFlow "` + acctest.SenderFlowID + `"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.name, providers(keys)+c.hcl, plan...)
			out := strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " ")
			if r.ExitCode != 1 || !strings.Contains(out, "Error: "+c.summary) || !strings.Contains(out, c.object) ||
				!strings.Contains(out, "another provider configuration (an aliased provider block) that points at the same") {
				var claims []string
				for _, l := range strings.Split(r.Log, "\n") {
					if strings.Contains(l, "claim") || strings.Contains(l, "ConfigureProvider") || strings.Contains(l, "plugin exited") || strings.Contains(l, "plugin started") {
						claims = append(claims, l)
					}
				}
				t.Fatalf("plan of two aliases on one object: exit %d, want 1 with %q on %s by another provider configuration:\n%s\nlog:\n%s",
					r.ExitCode, c.summary, c.object, r.Output, strings.Join(claims, "\n"))
			}
		})
	}
	t.Run("other instance", func(t *testing.T) {
		hcl := queueHCL("a", "sapmessaging", "sapmessaging_queue") + queueHCL("b", "sapmessaging.b", "sapmessaging_queue") +
			subscriptionHCL("a", "sapmessaging") + subscriptionHCL("b", "sapmessaging.b")
		if r := run(t, "other-instance", providers(otherKeys)+hcl, plan...); r.ExitCode != 0 || !strings.Contains(r.Output, "Plan: 4 to add") {
			t.Fatalf("plan of the same names in two instances: exit %d, want 0 with 4 to add:\n%s", r.ExitCode, r.Output)
		}
	})
	t.Run("apply", func(t *testing.T) {
		hcl := queueHCL("a", "sapmessaging", "sapmessaging_queue") + subscriptionHCL("a", "sapmessaging") +
			strings.ReplaceAll(queueHCL("b", "sapmessaging.b", "sapmessaging_queue"), queue, queue+"/b") +
			strings.ReplaceAll(subscriptionHCL("b", "sapmessaging.b"), queue, queue+"/b")
		if r := run(t, "apply", providers(keys)+hcl, "apply", "-auto-approve", "-input=false", "-no-color"); r.ExitCode != 0 {
			t.Fatalf("apply across the aliases: exit %d:\n%s", r.ExitCode, r.Output)
		}
		if r := run(t, "apply", providers(keys)+hcl, "plan", "-detailed-exitcode", "-input=false", "-no-color"); r.ExitCode != 0 {
			t.Fatalf("plan after the apply: exit %d, want 0:\n%s", r.ExitCode, r.Output)
		}
		for _, q := range []string{queue, queue + "/b"} {
			if _, ok := env.Srv.Queue(q); !ok {
				t.Errorf("queue %s was not created", q)
			}
		}
	})
}
