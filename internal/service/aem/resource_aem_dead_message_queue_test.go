package aem_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

func TestAccAEMDeadMessageQueue_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	const name = "acme/aem/test/billing/dmq"
	ctx := context.Background()
	hcl := func(ttl int) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = true
  max_ttl         = %d
  ingress_enabled = true
}
`, name, ttl))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: hcl(3600),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "respect_ttl", true),
				acctest.ExpectInt(addr, "max_ttl", 3600),
				acctest.ExpectString(addr, "dead_message_queue", "#DEAD_MSG_QUEUE"),
				acctest.ExpectBool(addr, "allow_no_ttl", false),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			// Someone gives the DMQ a redelivery count and switches off respect TTL: the plan resets both.
			PreConfig: func() {
				if _, err := env.AEM(t).UpdateQueue(ctx, name, aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](4), RespectTTLEnabled: aem.Ptr(false)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: hcl(3600),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate,
				acctest.PlannedBool(addr, "respect_ttl", true),
				acctest.PlannedInt(addr, "max_redelivery_count", 0),
			),
		},
		{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		{Config: hcl(0), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Without TTL`)},
		{Config: hcl(3600), PlanOnly: true},
	})
}

// A dead message queue without a time to live is adopted as it is with allow_no_ttl, which an import sets.
func TestAccAEMDeadMessageQueue_adoptNoTTL(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/legacy/dmq"
	if _, err := env.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
		t.Fatal(err)
	}
	// dmq is the dead message queue without a time to live, with the extra arguments.
	dmq := func(extra string) string {
		return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = false
  ingress_enabled = true
  egress_enabled  = false
%s}
`, name, extra)
	}
	config := env.AEMConfig(fmt.Sprintf(`
import {
  to = sapmessaging_aem_dead_message_queue.dmq
  id = %q
}
`, name) + dmq("  max_ttl         = 0\n  allow_no_ttl    = true\n"))
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_aem_dead_message_queue.dmq", plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool("sapmessaging_aem_dead_message_queue.dmq", "allow_no_ttl", true),
			},
		},
		{Config: env.AEMConfig(dmq("  max_ttl         = 0\n")), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Without TTL`)},
		{Config: config},
		// With respect_ttl = false the provider's max_ttl of 7 days does not apply (it would do nothing): a
		// configuration that leaves max_ttl out keeps what the queue holds.
		{Config: env.AEMConfig(dmq("  allow_no_ttl    = true\n")), PlanOnly: true},
	})
}

// A dead message queue with only its name works: it takes and delivers messages and keeps them 7 days. The
// broker's defaults (ingress and egress off, no time to live) are what the provider writes over.
func TestAccAEMDeadMessageQueue_defaults(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	const name = "acme/aem/test/defaults/dmq"
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}
`, name)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "ingress_enabled", true),
				acctest.ExpectBool(addr, "egress_enabled", true),
				acctest.ExpectBool(addr, "respect_ttl", true),
				acctest.ExpectInt(addr, "max_ttl", 604800),
				acctest.ExpectBool(addr, "allow_no_ttl", false),
				acctest.ExpectBool(addr, "allow_ingress_disabled", false),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			// Switched off in the cloud console: the configuration that leaves ingress out still owns the default.
			PreConfig: func() {
				if _, err := env.AEM(t).UpdateQueue(context.Background(), name, aem.QueueSettings{IngressEnabled: aem.Ptr(false)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}
`, name)),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate,
				acctest.PlannedBool(addr, "ingress_enabled", true),
			),
		},
	})
}

// A dead message queue made by hand with ingress off (the broker's default) takes nothing: adopted as it is
// with allow_ingress_disabled, which an import sets, and refused without it.
func TestAccAEMDeadMessageQueue_adoptIngressDisabled(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/byhand/dmq"
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	if _, err := env.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{
		RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](3600)}}); err != nil {
		t.Fatal(err)
	}
	body := func(extra string) string {
		return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = %q
  respect_ttl     = true
  max_ttl         = 3600
  ingress_enabled = false
  egress_enabled  = false
%s}
`, name, extra)
	}
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", addr, name)
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(importBlock + body("")), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Takes No Messages`)},
		{
			Config:           env.AEMConfig(importBlock + body("  allow_ingress_disabled = true\n")),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_ingress_disabled", true),
			},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		{Config: env.AEMConfig(body("")), PlanOnly: true, ExpectError: regexp.MustCompile(`Dead Message Queue Takes No Messages`)},
	})
}

// A dead message queue adopted with deadMsgQueue "" (no dead message queue of its own: what it removes is
// deleted, as with #DEAD_MSG_QUEUE missing) plans its import only: "" is not changed to #DEAD_MSG_QUEUE.
func TestAccAEMDeadMessageQueue_adoptEmptyDeadMsgQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/blank/dmq"
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	if _, err := env.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{
		IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](3600),
		DeadMsgQueue: aem.Ptr("")}}); err != nil {
		t.Fatal(err)
	}
	config := env.AEMConfig(fmt.Sprintf(`
import {
  to = %s
  id = %q
}

resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name    = %q
  max_ttl = 3600
}
`, addr, name, name))
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config:           config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "dead_message_queue", ""),
			},
		},
	})
}

// A DMQ still named by a queue outside Terraform is not destroyed: the plan passes (Terraform plans resources in no set
// order, so it cannot tell whether the queues naming the DMQ change in the same apply), the delete refuses it and the
// DMQ stays on the broker; once nothing names it, it goes.
func TestAccAEMDeadMessageQueue_inUse(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name, user = "acme/aem/test/shipping/dmq", "acme/aem/test/shipping"
	ctx := context.Background()
	config := env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}
`, name))
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: config},
		{
			PreConfig: func() {
				q := aem.Queue{Name: user, QueueSettings: aem.QueueSettings{MaxRedeliveryCount: aem.Ptr(int64(5)), DeadMsgQueue: aem.Ptr(name)}}
				if _, err := env.AEM(t).CreateQueue(ctx, q); err != nil {
					t.Fatal(err)
				}
			},
			Config:      config,
			Destroy:     true,
			ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Still In Use.*` + regexp.QuoteMeta(user)),
		},
		{
			PreConfig: func() {
				if _, err := env.AEM(t).GetQueue(ctx, name); err != nil {
					t.Fatalf("the refused destroy deleted the dead message queue: %v", err)
				}
				if err := env.AEM(t).DeleteQueue(ctx, user); err != nil {
					t.Fatal(err)
				}
			},
			Config: config,
		},
	})
}
