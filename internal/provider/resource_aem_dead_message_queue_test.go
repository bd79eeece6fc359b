package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

func TestAccAEMDeadMessageQueue_lifecycle(t *testing.T) {
	env := newTestEnv(t)
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	const name = "acme/aem/test/billing/dmq"
	ctx := context.Background()
	hcl := func(ttl int) string {
		return env.aemConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = true
  max_ttl         = %d
  ingress_enabled = true
}
`, name, ttl))
	}
	acc.ParallelTest(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				Config: hcl(3600),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("respect_ttl"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("max_ttl"), knownvalue.Int64Exact(3600)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("dead_message_queue"), knownvalue.StringExact("#DEAD_MSG_QUEUE")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("allow_no_ttl"), knownvalue.Bool(false)),
				},
				ConfigPlanChecks: acc.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				// Someone gives the DMQ a redelivery count and switches off respect TTL: the plan resets both.
				PreConfig: func() {
					if _, err := env.aem(t).UpdateQueue(ctx, name, aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](4), RespectTTLEnabled: aem.Ptr(false)}); err != nil {
						t.Fatal(err)
					}
				},
				Config: hcl(3600),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("respect_ttl"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(0)),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
			{Config: hcl(0), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Without TTL`)},
			{Config: hcl(3600), PlanOnly: true},
		},
	})
}

// A dead message queue without a time to live is adopted as it is with allow_no_ttl, which an import sets.
func TestAccAEMDeadMessageQueue_adoptNoTTL(t *testing.T) {
	env := newTestEnv(t)
	const name = "acme/aem/test/legacy/dmq"
	if _, err := env.aem(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
		t.Fatal(err)
	}
	config := env.aemConfig(fmt.Sprintf(`
import {
  to = sapmessaging_aem_dead_message_queue.dmq
  id = %q
}

resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = false
  max_ttl         = 0
  ingress_enabled = true
  allow_no_ttl    = true
}
`, name, name))
	acc.ParallelTest(t, acc.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				Config: config,
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sapmessaging_aem_dead_message_queue.dmq", plancheck.ResourceActionNoop),
				}, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("sapmessaging_aem_dead_message_queue.dmq", tfjsonpath.New("allow_no_ttl"), knownvalue.Bool(true)),
				},
			},
			{Config: env.aemConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = false
  max_ttl         = 0
  ingress_enabled = true
}
`, name)), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Without TTL`)},
			{Config: config},
		},
	})
}
