package aem_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// Every AEM queue of the sample landscape is listed once, by the type that matches what it is: the queue at
// the broker's defaults and the chained error queue as queues, the queues only named as dead message queues
// as dead message queues; the adoption attributes are set where the broker's values break a rule.
func TestAccAEMQueueListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	const q, d = "sapmessaging_aem_queue.prod", "sapmessaging_aem_dead_message_queue.prod"
	acctest.QueryTest(t,
		acctest.QueryStep(env.AEMConfig(acctest.ListHCL("sapmessaging_aem_queue", "prod", `name_prefix = "acme/aem/prod/"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_aem_dead_message_queue", "prod", `name_prefix = "acme/aem/prod/"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_aem_queue", "cut", `prefix = "acme/aem/" # the former name of name_prefix, still read`, "limit = 2")),
			querycheck.ExpectLength(q, 5),
			querycheck.ExpectResourceKnownValues(q, acctest.ByAEMName("acme/aem/prod/legacy"), acctest.KnownValues(map[string]knownvalue.Check{
				"max_redelivery_count":       knownvalue.Int64Exact(0),
				"allow_unlimited_redelivery": knownvalue.Bool(true),
				"dead_message_queue":         knownvalue.StringExact("#DEAD_MSG_QUEUE"),
				// #DEAD_MSG_QUEUE does not exist: adopted as it is, with the warning.
				"allow_missing_dead_message_queue": knownvalue.Bool(true),
				"poison_message_deliveries":        knownvalue.Null(),
			})),
			querycheck.ExpectResourceKnownValues(q, acctest.ByAEMName("acme/aem/prod/payments/errors"), acctest.KnownValues(map[string]knownvalue.Check{
				"max_redelivery_count":             knownvalue.Int64Exact(2),
				"allow_unlimited_redelivery":       knownvalue.Bool(false),
				"allow_missing_dead_message_queue": knownvalue.Bool(false),
				"poison_message_deliveries":        knownvalue.Int64Exact(3),
				"time_to_dead_letter":              knownvalue.StringExact("15 s"),
			})),
			querycheck.ExpectLength(d, 3),
			querycheck.ExpectResourceDisplayName(d, acctest.ByAEMName("acme/aem/prod/orders/dmq"),
				knownvalue.StringExact("acme/aem/prod/orders/dmq (dead message queue of acme/aem/prod/orders)")),
			querycheck.ExpectResourceKnownValues(d, acctest.ByAEMName("acme/aem/prod/audit/dmq"), acctest.KnownValues(map[string]knownvalue.Check{
				"allow_no_ttl":           knownvalue.Bool(true),
				"allow_ingress_disabled": knownvalue.Bool(false),
				// Written as the broker holds it, where the provider's default is true.
				"egress_enabled": knownvalue.Bool(false),
				"force_destroy":  knownvalue.Bool(false),
			})),
			querycheck.ExpectResourceKnownValues(d, acctest.ByAEMName("acme/aem/prod/orders/dmq"), acctest.KnownValues(map[string]knownvalue.Check{
				"allow_no_ttl": knownvalue.Bool(false),
				"max_ttl":      knownvalue.Int64Exact(604800),
			})),
			querycheck.ExpectLength("sapmessaging_aem_queue.cut", 2),
		),
		acctest.QueryStep(env.AEMConfig(acctest.ReadExample(t, "list-resources/sapmessaging_aem_queue/list-resource.tfquery.hcl")),
			querycheck.ExpectLength("sapmessaging_aem_queue.aem_prod", 5),
			acctest.ExpectIdentity("sapmessaging_aem_queue.aem_prod", map[string]string{
				"msg_vpn_name": env.Srv.AdvancedEventMeshCredentials().MsgVpnName,
				"name":         "acme/aem/prod/orders",
			}),
		),
	)
}

// A prefix no queue name can start with is an error on prefix; listing without an AEM connection says so.
func TestAccAEMQueueListResource_badInput(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.QueryTest(t,
		acctest.QueryErrorStep(env.AEMConfig(acctest.ListHCL("sapmessaging_aem_queue", "bad", `name_prefix = "acme/*"`)), `Invalid Queue Name Prefix.*cannot hold "\*"`),
		acctest.QueryErrorStep(env.AEMConfig(acctest.ListHCL("sapmessaging_aem_queue", "both", `name_prefix = "acme/"
prefix = "acme/"`)), `Invalid Attribute Combination`),
		acctest.QueryErrorStep(env.Config(`list "sapmessaging_aem_dead_message_queue" "all" { provider = sapmessaging }`), `Advanced Event Mesh Not Configured`),
	)
}

// The AEM sample landscape adopted with `terraform query -generate-config-out`: the generated configuration
// plans the imports of the eight queues and nothing else, and after the apply the plan is empty.
func TestAccAEMQueueListResource_adoptSampleContent(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.RequiredProviders, "aem.tfquery.hcl",
		acctest.ReadExample(t, "list-resources/sapmessaging_aem_queue/list-resource.tfquery.hcl")+
			acctest.ReadExample(t, "list-resources/sapmessaging_aem_dead_message_queue/list-resource.tfquery.hcl"))
	w.WithAEM(env)
	_, generated := w.Generate("generated.tf")
	acctest.ExpectContains(t, "generated.tf", generated,
		`resource "sapmessaging_aem_queue" "aem_prod_0"`, `resource "sapmessaging_aem_dead_message_queue" "aem_prod_0"`,
		`identity = {`, `"acme/aem/prod/legacy"`, `allow_unlimited_redelivery`, `allow_no_ttl`)
	w.PlanImportsOnly(8, "Unlimited Redelivery Allowed", "Dead Message Queue Without TTL Allowed")
	w.ApplyImports(8)
	w.PlanEmpty()

	// A list block cut at its limit says so, with the number it selects.
	wc := w.Sibling(acctest.RequiredProviders, "cut.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_queue", "cut", `name_prefix = "acme/aem/prod/"`, "limit = 2"))
	r := wc.MustRun(0, "query", "-no-color")
	for _, s := range []string{"List Results Truncated", "selects 5 queues but returns only 2", "limit = 5"} {
		if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(r.Output, "│", " ")), " "), s) {
			t.Errorf("terraform query does not warn %q:\n%s", s, r.Output)
		}
	}
	// The broker still holds every sample queue as it was: the adoption wrote nothing.
	qs, err := env.AEM(t).ListQueues(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		if q.Name == "acme/aem/prod/legacy" && (*q.MaxRedeliveryCount != 0 || *q.DeadMsgQueue != "#DEAD_MSG_QUEUE") {
			t.Errorf("the adoption changed %s: %s", q.Name, fmt.Sprint(q.QueueSettings))
		}
	}
}

// A queue whose deadMsgQueue is "" names no dead message queue: it makes no queue a dead message queue, the
// broker's #DEAD_MSG_QUEUE included, as the rules and the dead message queue resource read "" too.
func TestAEMDMQUsersEmpty(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	users := tfaem.AEMDMQUsers([]*aem.Queue{
		{Name: "a", QueueSettings: aem.QueueSettings{DeadMsgQueue: str("")}},
		{Name: "b"},
		{Name: "c", QueueSettings: aem.QueueSettings{DeadMsgQueue: str("c.dmq")}},
	})
	if got := users["#DEAD_MSG_QUEUE"]; len(got) != 1 || got[0] != "b" {
		t.Errorf("users of #DEAD_MSG_QUEUE = %v, want [b]", got)
	}
	if _, ok := users[""]; ok || len(users) != 2 {
		t.Errorf("users = %v, want #DEAD_MSG_QUEUE and c.dmq only", users)
	}
}

// A queue with redelivery off delivers a message once: its max_redelivery_count of 0 retries nothing for ever, so an
// import (and terraform query -generate-config-out) does not set allow_unlimited_redelivery for it, and the
// configuration that keeps it anyway is told that it changes nothing (aem.allow_unlimited_unused). A queue that
// redelivers with 0 still gets it.
func TestAEMQueueAdoptionRedeliveryOff(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		enabled *bool
		want    bool
	}{{aem.Ptr(false), false}, {aem.Ptr(true), true}, {nil, true}} {
		q := &aem.Queue{Name: "acme/aem/prod/once", QueueSettings: aem.QueueSettings{
			RedeliveryEnabled: tc.enabled, MaxRedeliveryCount: aem.Ptr[int64](0), DeadMsgQueue: aem.Ptr("acme/aem/prod/once"),
		}}
		var m tfaem.AEMQueueModel
		m.FromBroker(q, "acme-prod", nil)
		if got := m.AllowUnlimitedRedelivery.ValueBool(); got != tc.want {
			t.Errorf("redelivery_enabled %v: allow_unlimited_redelivery = %v, want %v", fmt.Sprint(framework.Deref(tc.enabled)), got, tc.want)
		}
	}
}
