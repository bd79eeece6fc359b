package aem_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// aemQueueHCL is a queue with the settings the provider recommends and its dead message queue.
func aemQueueHCL(name string, redeliveries int) string {
	return aemQueueHCLWith(name, redeliveries, "")
}

// aemQueueHCLWith is aemQueueHCL with the extra arguments of the queue.
func aemQueueHCLWith(name string, redeliveries int, extra string) string {
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
%[3]s}
`, name, redeliveries, extra)
}

func TestAccAEMQueue_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_queue.q"
	const name = "acme/aem/test/orders"
	ctx := context.Background()
	vpn := env.Srv.AdvancedEventMeshCredentials().MsgVpnName
	acc.ParallelTest(t, acc.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []acc.TestStep{
			{
				Config: env.AEMConfig(aemQueueHCL(name, 5)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					acctest.PlannedInt(addr, "poison_message_deliveries", 6),
					acctest.PlannedString(addr, "time_to_dead_letter", "31 s"),
				}, PostApplyPostRefresh: acctest.ExpectEmptyPlan()},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectInt(addr, "max_redelivery_count", 5),
					acctest.ExpectString(addr, "dead_message_queue", name+"/dmq"),

					acctest.ExpectString(addr, "access_type", "exclusive"),
					acctest.ExpectInt(addr, "redelivery_delay_multiplier", 200),
					acctest.ExpectBool(addr, "allow_unlimited_redelivery", false),
					acctest.ExpectString(addr, "msg_vpn_name", vpn),
					acctest.ExpectInt("sapmessaging_aem_dead_message_queue.dmq", "max_redelivery_count", 0),
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{"name": knownvalue.StringExact(name), "msg_vpn_name": knownvalue.StringExact(vpn)}),
				},
			},
			{
				// Someone changes an owned and an unowned setting in the cloud console: the owned one shows as drift, the
				// other is kept as the broker holds it, and the PATCH writes only the owned one.
				PreConfig: func() {
					if _, err := env.AEM(t).UpdateQueue(ctx, name, aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](0), AccessType: aem.Ptr("non-exclusive")}); err != nil {
						t.Fatal(err)
					}
				},
				Config: env.AEMConfig(aemQueueHCL(name, 5)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate(addr),
					acctest.PlannedInt(addr, "max_redelivery_count", 5),
					acctest.PlannedString(addr, "access_type", "non-exclusive"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectString(addr, "access_type", "non-exclusive"),
				},
			},
			{
				Config: env.AEMConfig(aemQueueHCL(name, 9)),
				ConfigPlanChecks: acc.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate(addr),
					acctest.PlannedInt(addr, "poison_message_deliveries", 10),
				}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
			acctest.ImportByIdentity(env.AEMConfig(aemQueueHCL(name, 9)), addr),
			acctest.ImportByIdentity(env.AEMConfig(aemQueueHCL(name, 9)), "sapmessaging_aem_dead_message_queue.dmq"),
			{
				// Deleted out of band: the refresh removes it and the plan creates it again.
				PreConfig: func() {
					if err := env.AEM(t).DeleteQueue(ctx, name); err != nil {
						t.Fatal(err)
					}
				},
				Config:             env.AEMConfig(aemQueueHCL(name, 9)),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{Config: env.AEMConfig(aemQueueHCL(name, 9))},
		},
	})
}

// The plan refuses what retries for ever or loses messages, and reads the broker to find a missing dead
// message queue.
func TestAccAEMQueue_planRules(t *testing.T) {
	env := acctest.NewTestEnv(t)
	q := func(body string) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_queue" "q" {
  name            = "acme/aem/test/rules"
  ingress_enabled = true
  egress_enabled  = true
%s
}
`, body))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: q(`dead_message_queue = "acme/aem/test/nowhere"`), PlanOnly: true, ExpectError: regexp.MustCompile(`Unlimited Redelivery`)},
		{Config: q(`max_redelivery_count = 0`), PlanOnly: true, ExpectError: regexp.MustCompile(`Unlimited Redelivery`)},
		{Config: q(`max_redelivery_count = 3`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Does Not Exist.*#DEAD_MSG_QUEUE`)},
		{Config: q("max_redelivery_count = 3\n  dead_message_queue = \"acme/aem/test/nowhere\""), PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Does Not Exist.*acme/aem/test/nowhere`)},
		{Config: q("max_redelivery_count = 3\n  max_ttl = 60"), PlanOnly: true, ExpectError: regexp.MustCompile(`Max TTL Without Respect TTL`)},
		// A dead message queue this configuration creates counts, also by a name written as text when the
		// queue is planned after it.
		{Config: q(`
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = "acme/aem/test/rules/dmq"
  depends_on               = [sapmessaging_aem_dead_message_queue.dmq]
}

resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "acme/aem/test/rules/dmq"
  respect_ttl     = true
  max_ttl         = 3600
  ingress_enabled = true`), PlanOnly: true, ExpectNonEmptyPlan: true},
		{Config: q("max_redelivery_count = 3\n  access_type = \"shared\""), PlanOnly: true, ExpectError: regexp.MustCompile(`access_type`)},
		{Config: env.AEMConfig(`
resource "sapmessaging_aem_dead_message_queue" "bad" {
  name            = "acme/aem/test/a*b"
  respect_ttl     = true
  max_ttl         = 60
  ingress_enabled = true
}
`), PlanOnly: true, ExpectError: acctest.Wrapped(`Invalid Queue Name.*holds "\*"`)},
	})
}

// A queue that exists is not taken over: the create fails and says how to import it. A plan without the
// connection says what to set; a refused password fails the plan.
func TestAccAEMQueue_failures(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/existing"
	if _, err := env.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](2)}}); err != nil {
		t.Fatal(err)
	}
	wrong := env.AEMWrongPasswordProvider()
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
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: wrong + res("acme/aem/test/other"), PlanOnly: true, ExpectError: regexp.MustCompile(`Credentials Refused`)},
		{Config: env.Config(res("acme/aem/test/other")), PlanOnly: true, ExpectError: regexp.MustCompile(`Advanced Event Mesh Not Configured`)},
		{Config: env.AEMConfig(res(name)), ExpectError: regexp.MustCompile(`(?s)Queue Already Exists.*import`)},
	})
}

// A queue that holds messages is not destroyed without force_destroy.
func TestAccAEMQueue_holdsMessages(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/held"
	config := func(force bool) string {
		return env.AEMConfig(aemQueueHCL(name, 3) + fmt.Sprintf("\n# force %v\n", force))
	}
	forced := func() string {
		return env.AEMConfig(aemQueueHCLWith(name, 3, "  force_destroy = true\n"))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: config(false)},
		{
			PreConfig: func() {
				if _, err := env.AEM(t).HTTP().Do(context.Background(), http.MethodPost, "/QUEUE/"+name, []byte("poison"), nil); err != nil {
					t.Fatal(err)
				}
			},
			Config:      config(false),
			Destroy:     true,
			ExpectError: acctest.Wrapped(`Queue Holds Messages.*holds 1 message\. Deleting.*force_destroy`),
		},
		{Config: forced()},
	})
}

// A refresh reads the queues from one paged list per run, not one GET per queue: 151 queues cost two pages
// (and the credential check), whatever their number of resources.
func TestAccAEMQueue_refreshCalls(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const n = 150
	config := env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "acme/aem/test/many/dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  count                    = %d
  name                     = format("acme/aem/test/many/q%%03d", count.index)
  max_redelivery_count     = 3
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}
`, n))
	const list = "GET /SEMP/v2/config/msgVpns/{vpn}/queues"
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: config},
		{PreConfig: env.Srv.ResetStats, Config: config, PlanOnly: true},
		{
			PreConfig: func() {
				r := env.Srv.Stats().Routes
				t.Logf("refresh of %d queues: %v", n+1, r)
				// The refreshing plan: the credential check and the two pages of the list, which the plan's
				// check of every queue's dead message queue shares; the step's other command (a plan without
				// refresh, which checks the dead message queues all the same) adds at most its credential
				// check and its own two pages.
				if r[list+"/{queue}"] != 0 || r[list] < 3 || r[list] > 6 {
					t.Fatalf("the refresh of %d queues made %v, want no GET of a queue and 3 to 6 list requests", n+1, r)
				}
			},
			Config: config, PlanOnly: true,
		},
	})
}

// Two resources of one configuration that name one queue are refused at plan, whichever their types.
func TestAccAEMQueue_duplicateName(t *testing.T) {
	env := acctest.NewTestEnv(t)
	config := env.AEMConfig(aemQueueHCL("acme/aem/test/twice", 3) + `
resource "sapmessaging_aem_dead_message_queue" "again" {
  name            = "acme/aem/test/twice"
  respect_ttl     = true
  max_ttl         = 3600
  ingress_enabled = true
}
`)
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: config, PlanOnly: true, ExpectError: acctest.Wrapped(`Duplicate Queue Name.*name the Advanced Event Mesh queue "acme/aem/test/twice"`)},
	})
}

// Aliased provider configurations that point at the same broker and Message VPN (here with the SEMP URL
// written differently) run in provider processes of their own: a queue both manage is refused at plan all
// the same, naming the other configuration.
func TestAccAEMQueue_aliasedConfigurations(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	c := env.Srv.AdvancedEventMeshCredentials()
	block := func(alias, url string) string {
		return fmt.Sprintf("\nprovider \"sapmessaging\" {\n  %s\n  advanced_event_mesh = {\n    semp_url     = %q\n    msg_vpn_name = %q\n    username     = %q\n    password     = %q\n  }\n}\n",
			alias, url, c.MsgVpnName, c.Username, c.Password)
	}
	queue := func(label, provider string) string {
		return fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" %[1]q {
  provider        = %[2]s
  name            = "acme/aem/test/aliased"
  respect_ttl     = true
  max_ttl         = 600
  ingress_enabled = true
}
`, label, provider)
	}
	hcl := acctest.RequiredProviders + block("", c.SEMPURL) + block(`alias = "b"`, strings.ToUpper(c.SEMPURL[:4])+c.SEMPURL[4:]+"/") +
		queue("a", "sapmessaging") + queue("b", "sapmessaging.b")
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": hcl})
	w.Creds = nil // the configuration connects both aliases
	r := w.MustRun(1, "plan", "-input=false", "-no-color")
	acctest.ExpectFlatContains(t, "the plan of two aliases on one queue", r.Output, "Error: Duplicate Queue Name",
		`name the Advanced Event Mesh queue "acme/aem/test/aliased"`, "another provider configuration (an aliased provider block) that points at the same")
}

// The state stays true under faults: a create whose answer was lost records the queue the broker made (with
// a warning), an update the broker keeps failing leaves the state as the broker holds it, so the next plan
// shows the change again, and a plan that cannot read the broker fails.
func TestAccAEMQueue_faults(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/faulty"
	const queues = "/SEMP/v2/config/msgVpns/{vpn}/queues"
	const addr = "sapmessaging_aem_queue.q"
	acctest.ParallelTest(t, []acc.TestStep{
		{
			PreConfig: func() { env.Srv.InjectNextOn("POST "+queues, emulator.FaultLostResponse) },
			Config:    env.AEMConfig(aemQueueHCL(name, 3)),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt(addr, "max_redelivery_count", 3),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			PreConfig: func() {
				env.Srv.InjectNextOn("PATCH "+queues+"/{queue}", emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
			},
			Config:      env.AEMConfig(aemQueueHCL(name, 7)),
			ExpectError: regexp.MustCompile(`Cannot Write Queue`),
		},
		{
			Config:             env.AEMConfig(aemQueueHCL(name, 7)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{
			PreConfig: func() {
				env.Srv.InjectNextOn("GET "+queues, emulator.Fault503, emulator.Fault503, emulator.Fault503, emulator.Fault503)
			},
			Config:      env.AEMConfig(aemQueueHCL(name, 7)),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`503`),
		},
		{PreConfig: env.Srv.ClearFaults, Config: env.AEMConfig(aemQueueHCL(name, 7))},
	})
}

// changedSettings keeps only what the configuration sets and the state does not hold already.
func TestChangedSettings(t *testing.T) {
	t.Parallel()
	got := tfaem.ChangedSettings(
		aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](5), AccessType: aem.Ptr("exclusive"), IngressEnabled: aem.Ptr(true)},
		aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](3), AccessType: aem.Ptr("exclusive"), EgressEnabled: aem.Ptr(true)},
	)
	if got.AccessType != nil || got.MaxRedeliveryCount == nil || *got.MaxRedeliveryCount != 5 || got.IngressEnabled == nil || got.EgressEnabled != nil {
		t.Errorf("changedSettings = %+v, want max_redelivery_count 5 and ingress_enabled true only", got)
	}
}

// A queue that leaves ingress and egress out takes and delivers messages (the broker's default would take
// nothing); a configuration that relies on that plans the change back when someone switches them off.
func TestAccAEMQueue_defaults(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_queue.q"
	const name = "acme/aem/test/defaults"
	config := env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name = "%[1]s/dmq"
}

resource "sapmessaging_aem_queue" "q" {
  name                     = %[1]q
  max_redelivery_count     = 3
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
  redelivery_delay_enabled = true
}
`, name))
	acctest.ParallelTest(t, []acc.TestStep{
		{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "ingress_enabled", true),
				acctest.ExpectBool(addr, "egress_enabled", true),
				acctest.ExpectBool(addr, "allow_missing_dead_message_queue", false),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			PreConfig: func() {
				if _, err := env.AEM(t).UpdateQueue(context.Background(), name, aem.QueueSettings{EgressEnabled: aem.Ptr(false)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionUpdate,
				acctest.PlannedBool(addr, "egress_enabled", true),
			),
		},
	})
}

// A dead message queue whose ingress is off deletes what it should keep: the plan refuses a queue that names
// one, on every plan, as it refuses a missing one. A dead message queue of the configuration counts with the
// ingress it plans.
func TestAccAEMQueue_dmqTakesNothing(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/deaf"
	ctx := context.Background()
	if _, err := env.AEM(t).CreateQueue(ctx, aem.Queue{Name: name + "/dmq", QueueSettings: aem.QueueSettings{
		RespectTTLEnabled: aem.Ptr(true), MaxTTL: aem.Ptr[int64](3600)}}); err != nil {
		t.Fatal(err)
	}
	queue := fmt.Sprintf(`
resource "sapmessaging_aem_queue" "q" {
  name                     = %q
  max_redelivery_count     = 3
  dead_message_queue       = %q
  redelivery_delay_enabled = true
}
`, name, name+"/dmq")
	adopted := fmt.Sprintf(`
import {
  to = sapmessaging_aem_dead_message_queue.dmq
  id = %[1]q
}

resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name        = %[1]q
  max_ttl     = 3600
}
`, name+"/dmq")
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(queue), PlanOnly: true, ExpectError: acctest.Wrapped(`Dead Message Queue Takes No Messages.*"acme/aem/test/deaf/dmq"`)},
		// Managed in the same configuration, the dead message queue is planned with ingress on.
		{Config: env.AEMConfig(adopted + strings.Replace(queue, "max_redelivery_count", "depends_on = [sapmessaging_aem_dead_message_queue.dmq]\n  max_redelivery_count", 1))},
		{
			// Switched off by hand after the apply: the next plan of the queue (no change of its own) refuses it
			// as long as the configuration does not turn the ingress back on.
			PreConfig: func() {
				if _, err := env.AEM(t).UpdateQueue(ctx, name+"/dmq", aem.QueueSettings{IngressEnabled: aem.Ptr(false)}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.AEMConfig(queue + `
removed {
  from = sapmessaging_aem_dead_message_queue.dmq
  lifecycle {
    destroy = false
  }
}
`),
			PlanOnly: true, ExpectError: acctest.Wrapped(`Dead Message Queue Takes No Messages`),
		},
	})
}

// An adopted queue is checked like a new one: acme/aem/prod/legacy of the AEM sample names the default
// #DEAD_MSG_QUEUE, which does not exist. Adopted as it is (allow_unlimited_redelivery and
// allow_missing_dead_message_queue, which an import sets), then given a bound without
// allow_missing_dead_message_queue, the plan refuses it; the one plan shows every refusal at once.
func TestAccAEMQueue_adoptedCheckedEveryPlan(t *testing.T) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	const addr = "sapmessaging_aem_queue.legacy"
	const name = "acme/aem/prod/legacy"
	hcl := func(body string) string {
		return env.AEMConfig(fmt.Sprintf(`
import {
  to = %s
  id = %q
}

resource "sapmessaging_aem_queue" "legacy" {
  name            = %q
  ingress_enabled = true
  egress_enabled  = true
%s}
`, addr, name, name, body))
	}
	asIs := hcl("  max_redelivery_count             = 0\n  allow_unlimited_redelivery       = true\n  allow_missing_dead_message_queue = true\n")
	acctest.ParallelTest(t, []acc.TestStep{
		// R = 0 and the missing dead message queue: both errors in one plan.
		{Config: hcl("  max_redelivery_count = 0\n"), PlanOnly: true,
			ExpectError: acctest.Wrapped(`(Unlimited Redelivery.*Dead Message Queue Does Not Exist|Dead Message Queue Does Not Exist.*Unlimited Redelivery)`)},
		{
			Config:           asIs,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan(addr, plancheck.ResourceActionNoop),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "allow_missing_dead_message_queue", true),
			},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"timeouts"}},
		// The AEM guide's fix of the redelivery count alone: the plan now refuses the missing dead message queue.
		{Config: hcl("  max_redelivery_count     = 5\n  redelivery_delay_enabled = true\n"), PlanOnly: true,
			ExpectError: acctest.Wrapped(`Dead Message Queue Does Not Exist.*#DEAD_MSG_QUEUE`)},
		{Config: hcl("  max_redelivery_count             = 5\n  redelivery_delay_enabled         = true\n  allow_missing_dead_message_queue = true\n")},
	})
}

// A queue the broker already holds is refused at plan, with the import block, not only by the apply.
func TestAccAEMQueue_existsRefusedAtPlan(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/aem/test/there"
	ctx := context.Background()
	for _, n := range []string{name + "/dmq", name} {
		if _, err := env.AEM(t).CreateQueue(ctx, aem.Queue{Name: n, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
			t.Fatal(err)
		}
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(aemQueueHCL(name, 3)), PlanOnly: true,
			ExpectError: acctest.Wrapped(`Queue Already Exists.*would refuse the create, so this resource cannot be planned.*import \{ to = sapmessaging_aem_dead_message_queue.<resource name> id = "acme/aem/test/there/dmq" \}`)},
		{Config: env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_queue" "q" {
  name                     = %q
  max_redelivery_count     = 3
  dead_message_queue       = %q
  redelivery_delay_enabled = true
}
`, name, name+"/dmq")), PlanOnly: true,
			ExpectError: acctest.Wrapped(`Queue Already Exists.*import \{ to = sapmessaging_aem_queue.<resource name> id = "acme/aem/test/there" \}`)},
	})
}

// A refused SEMP password shows the documented "Credentials Refused" at the refresh of a queue in state.
func TestAccAEMQueue_refreshCredentialsRefused(t *testing.T) {
	env := acctest.NewTestEnv(t)
	wrong := env.AEMWrongPasswordProvider()
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(aemQueueHCL("acme/aem/test/refused", 3))},
		// Not plan-only: the step refreshes the state, so the first read of the broker is the queues' Read.
		{Config: wrong + aemQueueHCL("acme/aem/test/refused", 3),
			ExpectError: regexp.MustCompile(`Advanced Event Mesh SEMP API Credentials Refused`)},
		{Config: env.AEMConfig(aemQueueHCL("acme/aem/test/refused", 3))},
	})
}

// One plan shows every refusal of a queue, each once: R = 0 and a dead message queue that does not exist
// (the second used to appear only after the first was fixed), and the warning about redelivery without delay
// once, not from both the configuration's validation and the plan.
func TestAccAEMQueue_refusalsOnce(t *testing.T) {
	tf := acctest.ParallelCLI(t)
	env := acctest.NewTestEnv(t)
	w := acctest.NewWorkspace(t, tf, env, map[string]string{"main.tf": acctest.RequiredProviders + `
resource "sapmessaging_aem_queue" "q" {
  name                 = "acme/aem/test/once"
  max_redelivery_count = 0
  dead_message_queue   = "acme/aem/test/nowhere"
}
`})
	w.Creds = acctest.AEMCLIEnv(env)
	r := w.MustRun(1, "plan", "-input=false", "-no-color")
	for _, d := range []string{"Error: Unlimited Redelivery", "Error: Dead Message Queue Does Not Exist", "Warning: Redelivery Without Delay"} {
		if n := strings.Count(r.Output, d); n != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", d, n, r.Output)
		}
	}
}
