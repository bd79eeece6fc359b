package aem_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// aemDriftSettings are settings that change where a failing or discarded message goes, set by hand on the
// broker through SEMP (a PATCH of the queue) while the configuration leaves them out: messages not flagged
// DMQ-eligible deleted, no redelivery, publishers not told of a discard, and, on an ordinary queue, messages
// expiring after a minute.
func aemDriftSettings(queue bool) aem.QueueSettings {
	s := aem.QueueSettings{RespectDmqEligibleEnabled: aem.Ptr(true), RedeliveryEnabled: aem.Ptr(false),
		RejectMsgToSenderOnDiscardBehavior: aem.Ptr("never")}
	if queue {
		s.RespectTTLEnabled, s.MaxTTL = aem.Ptr(true), aem.Ptr[int64](60)
	}
	return s
}

// aemDriftPlanned checks that the plan writes each hand-set setting back to the broker's default.
func aemDriftPlanned(addr string, queue bool) []plancheck.PlanCheck {
	checks := []plancheck.PlanCheck{
		acctest.ExpectUpdate(addr),
		acctest.PlannedBool(addr, "respect_dmq_eligible_enabled", false),
		acctest.PlannedBool(addr, "redelivery_enabled", true),
		acctest.PlannedString(addr, "reject_msg_to_sender_on_discard_behavior", "when-queue-enabled"),
	}
	if queue {
		checks = append(checks,
			acctest.PlannedBool(addr, "respect_ttl", false),
			acctest.PlannedInt(addr, "max_ttl", 0))
	}
	return checks
}

// A sapmessaging_aem_queue that leaves respect_dmq_eligible_enabled, redelivery_enabled,
// reject_msg_to_sender_on_discard_behavior, respect_ttl and max_ttl out means the broker's defaults: values set
// by hand on the broker (respectDmqEligibleEnabled true deletes every message not flagged DMQ-eligible instead of
// dead-lettering it) show as a plan change back, not as "No changes", and the apply restores them.
func TestAccAEMQueue_handSetSettingsPlanned(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_queue.orders"
	const name, dmq = "acme/drift/orders", "acme/drift/orders.dmq"
	cfg := env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}

resource "sapmessaging_aem_queue" "orders" {
  name                     = %q
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
}
`, dmq, name))
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg},
		{
			PreConfig: func() { aemDriftPatch(t, env, name, true) },
			Config:    cfg,
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply:             aemDriftPlanned(addr, true),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			Check: func(*terraform.State) error { return aemDriftHeld(t, env, name, true) },
		},
	})
}

// The same for a sapmessaging_aem_dead_message_queue, whose removed messages (on its time to live, or failed by a
// consumer that redrives them) go to its own dead message queue as any queue's.
func TestAccAEMDeadMessageQueue_handSetSettingsPlanned(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_dead_message_queue.dmq"
	const name = "acme/drift/billing.dmq"
	cfg := env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}
`, name))
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg},
		{
			PreConfig: func() { aemDriftPatch(t, env, name, false) },
			Config:    cfg,
			ConfigPlanChecks: acc.ConfigPlanChecks{
				PreApply:             aemDriftPlanned(addr, false),
				PostApplyPostRefresh: acctest.ExpectEmptyPlan(),
			},
			Check: func(*terraform.State) error { return aemDriftHeld(t, env, name, false) },
		},
	})
}

// aemDriftPatch sets the dangerous settings on the broker by hand.
func aemDriftPatch(t *testing.T, env *acctest.TestEnv, name string, queue bool) {
	t.Helper()
	if _, err := env.AEM(t).UpdateQueue(t.Context(), name, aemDriftSettings(queue)); err != nil {
		t.Fatal(err)
	}
}

// aemDriftHeld returns an error unless the broker holds the defaults again.
func aemDriftHeld(t *testing.T, env *acctest.TestEnv, name string, queue bool) error {
	t.Helper()
	q, err := env.AEM(t).GetQueue(t.Context(), name)
	if err != nil {
		return err
	}
	s := q.QueueSettings
	switch {
	case s.RespectDmqEligibleEnabled != nil && *s.RespectDmqEligibleEnabled:
		return fmt.Errorf("the broker still holds respectDmqEligibleEnabled true")
	case s.RedeliveryEnabled != nil && !*s.RedeliveryEnabled:
		return fmt.Errorf("the broker still holds redeliveryEnabled false")
	case s.RejectMsgToSenderOnDiscardBehavior != nil && *s.RejectMsgToSenderOnDiscardBehavior != "when-queue-enabled":
		return fmt.Errorf("the broker holds rejectMsgToSenderOnDiscardBehavior %q", *s.RejectMsgToSenderOnDiscardBehavior)
	case queue && s.RespectTTLEnabled != nil && *s.RespectTTLEnabled:
		return fmt.Errorf("the broker still holds respectTtlEnabled true")
	case queue && s.MaxTTL != nil && *s.MaxTTL != 0:
		return fmt.Errorf("the broker still holds maxTtl %d", *s.MaxTTL)
	}
	return nil
}

// Adoption still plans imports only: terraform query -generate-config-out writes the hand-set values as the broker
// holds them (respect_dmq_eligible_enabled = true with its warning), so the import of a queue and a dead message
// queue that hold them changes nothing; leaving such a value out of the configuration afterwards plans it back.
func TestAccAEMQueueListResource_adoptHandSetSettings(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	c := env.AEM(t)
	on := aem.Ptr(true)
	dmq, queue := aemDriftSettings(false), aemDriftSettings(true)
	dmq.IngressEnabled, dmq.EgressEnabled, dmq.RespectTTLEnabled, dmq.MaxTTL = on, on, on, aem.Ptr[int64](604800)
	queue.IngressEnabled, queue.EgressEnabled, queue.RedeliveryDelayEnabled = on, on, on
	queue.MaxRedeliveryCount, queue.DeadMsgQueue = aem.Ptr[int64](3), aem.Ptr("acme/handset/orders.dmq")
	for _, q := range []aem.Queue{{Name: "acme/handset/orders.dmq", QueueSettings: dmq}, {Name: "acme/handset/orders", QueueSettings: queue}} {
		if _, err := c.CreateQueue(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.RequiredProviders, "aem.tfquery.hcl",
		acctest.ListHCL("sapmessaging_aem_queue", "adopt", `name_prefix = "acme/handset/orders"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_aem_dead_message_queue", "adopt", `name_prefix = "acme/handset/orders.dmq"`, "include_resource = true"))
	w.WithAEM(env)
	_, generated := w.Generate("generated.tf")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`respect_dmq_eligible_enabled\s+= true`),
		regexp.MustCompile(`redelivery_enabled\s+= false`),
		regexp.MustCompile(`reject_msg_to_sender_on_discard_behavior\s+= "never"`),
		regexp.MustCompile(`max_ttl\s+= 60\b`),
	} {
		if !want.MatchString(generated) {
			t.Errorf("generated.tf lacks %s:\n%s", want, generated)
		}
	}
	w.PlanImportsOnly(2, "Messages Discarded Instead of Dead-Lettered")
	w.ApplyImports(2)
	w.PlanEmpty()
	gen := regexp.MustCompile(`(?m)^\s*respect_dmq_eligible_enabled\s+= true\n`).ReplaceAllString(generated, "")
	w.WriteFile("generated.tf", gen)
	r := w.MustRun(2, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	acctest.ExpectFlatContains(t, "the plan without respect_dmq_eligible_enabled", r.Output, "respect_dmq_eligible_enabled", "true -> false")
}

// A dead message queue whose max_msg_spool_usage the configuration leaves out, set to 0 by hand on the broker
// (which keeps only the last message received: each dead message discards the one before), plans with the
// warning aem.dmq_keeps_last_only, read from the refreshed value, instead of "No changes" without one.
func TestAccAEMDeadMessageQueue_handSetSpoolUsageWarns(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	const name = "acme/drift/spool.dmq"
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.AdoptionMain + fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = %q
}
`, name)})
	w.WithAEM(env)
	w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	if _, err := env.AEM(t).UpdateQueue(t.Context(), name, aem.QueueSettings{MaxMsgSpoolUsage: aem.Ptr[int64](0)}); err != nil {
		t.Fatal(err)
	}
	r := w.MustRun(0, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	acctest.ExpectFlatContains(t, "the plan", r.Output, "Dead Message Queue Keeps One Message")
}
