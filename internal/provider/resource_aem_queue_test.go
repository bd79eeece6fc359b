package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"testing"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// aemQueueHCL is a queue with the settings the provider recommends and its dead message queue.
func aemQueueHCL(name string, redeliveries int) string {
	return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "%[1]s/dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  name                              = %[1]q
  max_redelivery_count              = %[2]d
  dead_message_queue                = sapmessaging_aem_dead_message_queue.dmq.name
  redelivery_delay_enabled          = true
  redelivery_delay_initial_interval = 1000
  ingress_enabled                   = true
  egress_enabled                    = true
}
`, name, redeliveries)
}

func TestAccAEMQueue_lifecycle(t *testing.T) {
	env := newTestEnv(t)
	const addr = "sapmessaging_aem_queue.q"
	const name = "acme/aem/test/orders"
	ctx := context.Background()
	vpn := env.srv.AdvancedEventMeshCredentials().MsgVpnName
	acc.ParallelTest(t, acc.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				Config: env.aemConfig(aemQueueHCL(name, 5)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("poison_message_deliveries"), knownvalue.Int64Exact(6)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("time_to_dead_letter"), knownvalue.StringExact("31 s")),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dead_message_queue"), knownvalue.StringExact(name+"/dmq")),
					// Left out: the broker's defaults.
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_type"), knownvalue.StringExact("exclusive")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("redelivery_delay_multiplier"), knownvalue.Int64Exact(200)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_unlimited_redelivery"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("msg_vpn_name"), knownvalue.StringExact(vpn)),
					statecheck.ExpectKnownValue("sapmessaging_aem_dead_message_queue.dmq", tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(0)),
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"name": knownvalue.StringExact(name), "msg_vpn_name": knownvalue.StringExact(vpn)}),
				},
			},
			{
				// Someone changes an owned and an unowned setting in the cloud console: the owned one shows as drift, the
				// other is kept as the broker holds it, and the PATCH writes only the owned one.
				PreConfig: func() {
					if _, err := env.aem(t).UpdateQueue(ctx, name, aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](0), AccessType: aem.Ptr("non-exclusive")}); err != nil {
						t.Fatal(err)
					}
				},
				Config: env.aemConfig(aemQueueHCL(name, 5)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("access_type"), knownvalue.StringExact("non-exclusive")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("access_type"), knownvalue.StringExact("non-exclusive")),
				},
			},
			{
				Config: env.aemConfig(aemQueueHCL(name, 9)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("poison_message_deliveries"), knownvalue.Int64Exact(10)),
				}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
			importByIdentity(env.aemConfig(aemQueueHCL(name, 9)), addr),
			importByIdentity(env.aemConfig(aemQueueHCL(name, 9)), "sapmessaging_aem_dead_message_queue.dmq"),
			{
				// Deleted out of band: the refresh removes it and the plan creates it again.
				PreConfig: func() {
					if err := env.aem(t).DeleteQueue(ctx, name); err != nil {
						t.Fatal(err)
					}
				},
				Config:             env.aemConfig(aemQueueHCL(name, 9)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: env.aemConfig(aemQueueHCL(name, 9))},
		},
	})
}

// The plan refuses what retries for ever or loses messages, and reads the broker to find a missing dead
// message queue.
func TestAccAEMQueue_planRules(t *testing.T) {
	env := newTestEnv(t)
	q := func(body string) string {
		return env.aemConfig(fmt.Sprintf(`
resource "sapmessaging_aem_queue" "q" {
  name            = "acme/aem/test/rules"
  ingress_enabled = true
  egress_enabled  = true
%s
}
`, body))
	}
	acc.ParallelTest(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{Config: q(`dead_message_queue = "acme/aem/test/nowhere"`), PlanOnly: true, ExpectError: regexp.MustCompile(`Unlimited Redelivery`)},
			{Config: q(`max_redelivery_count = 0`), PlanOnly: true, ExpectError: regexp.MustCompile(`Unlimited Redelivery`)},
			{Config: q(`max_redelivery_count = 3`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Does Not Exist.*#DEAD_MSG_QUEUE`)},
			{Config: q("max_redelivery_count = 3\n  dead_message_queue = \"acme/aem/test/nowhere\""), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Does Not Exist.*acme/aem/test/nowhere`)},
			{Config: q("max_redelivery_count = 3\n  max_ttl = 60"), PlanOnly: true, ExpectError: regexp.MustCompile(`Max TTL Without Respect TTL`)},
			{Config: q("max_redelivery_count = 3\n  access_type = \"shared\""), PlanOnly: true, ExpectError: regexp.MustCompile(`access_type`)},
		},
	})
}

// A queue that exists is not taken over: the create fails and says how to import it. A plan without the
// connection says what to set; a refused password fails the plan.
func TestAccAEMQueue_failures(t *testing.T) {
	env := newTestEnv(t)
	const name = "acme/aem/test/existing"
	if _, err := env.aem(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](2)}}); err != nil {
		t.Fatal(err)
	}
	c := env.srv.AdvancedEventMeshCredentials()
	wrong := fmt.Sprintf(`
provider "sapmessaging" {
  advanced_event_mesh = {
    semp_url     = %q
    msg_vpn_name = %q
    username     = %q
    password     = "wrong"
  }
  max_retries = 0
}
`, c.SEMPURL, c.MsgVpnName, c.Username)
	res := func(n string) string {
		return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "%[1]s/dmq"
  respect_ttl     = true
  max_ttl         = 3600
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  name                     = %[1]q
  max_redelivery_count     = 3
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}
`, n)
	}
	acc.ParallelTest(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{Config: wrong + res("acme/aem/test/other"), PlanOnly: true, ExpectError: regexp.MustCompile(`Credentials Refused`)},
			{Config: env.config(res("acme/aem/test/other")), PlanOnly: true, ExpectError: regexp.MustCompile(`Advanced Event Mesh Not Configured`)},
			{Config: env.aemConfig(res(name)), ExpectError: regexp.MustCompile(`(?s)Queue Already Exists.*import`)},
		},
	})
}

// A queue that holds messages is not destroyed without force_destroy.
func TestAccAEMQueue_holdsMessages(t *testing.T) {
	env := newTestEnv(t)
	const name = "acme/aem/test/held"
	config := func(force bool) string {
		return env.aemConfig(aemQueueHCL(name, 3) + fmt.Sprintf("\n# force %v\n", force))
	}
	forced := func() string {
		return env.aemConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "%[1]s/dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  name                              = %[1]q
  max_redelivery_count              = 3
  dead_message_queue                = sapmessaging_aem_dead_message_queue.dmq.name
  redelivery_delay_enabled          = true
  redelivery_delay_initial_interval = 1000
  ingress_enabled                   = true
  egress_enabled                    = true
  force_destroy                     = true
}
`, name))
	}
	acc.ParallelTest(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{Config: config(false)},
			{
				PreConfig: func() {
					if _, err := env.aem(t).HTTP().Do(context.Background(), http.MethodPost, "/QUEUE/"+name, []byte("poison"), nil); err != nil {
						t.Fatal(err)
					}
				},
				Config:      config(false),
				Destroy:     true,
				ExpectError: regexp.MustCompile(`(?s)Queue Holds Messages.*force_destroy`),
			},
			{Config: forced()},
		},
	})
}
