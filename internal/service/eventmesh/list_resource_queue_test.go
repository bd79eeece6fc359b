package eventmesh_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// byName filters query results by the queue name in their identity.
func byName(name string) queryfilter.QueryFilter {
	return acctest.ByIdentity(map[string]string{"name": name})
}

// expectManagementCalls is a query check of the management API calls the query made, counted
// from the ResetStats of the step's PreConfig.
func expectManagementCalls(env *acctest.TestEnv, want int64) querycheck.QueryResultCheck {
	return env.ExpectCalls(func(st emulator.Stats) error {
		if st.ManagementCalls != want || st.Routes["GET /queues"] != 1 {
			return fmt.Errorf("the query made %d management calls %v, want %d (one GET /queues)", st.ManagementCalls, st.Routes, want)
		}
		return nil
	})
}

// Every queue of the instance is listed once: as a dead message queue when another queue names
// it, as a queue otherwise; a name prefix filters; both list blocks cost one management call.
func TestAccQueueListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	acctest.QueryTest(t,
		env.CountedQueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue", "prod", `name_prefix = "acme/crm/prod/"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_dead_message_queue", "all", "", "include_resource = true")+
			acctest.ListHCL("sapmessaging_queue", "none", `name_prefix = "acme/nothing/"`),
			querycheck.ExpectLength("sapmessaging_queue.prod", 2),
			acctest.ExpectIdentity("sapmessaging_queue.prod", map[string]string{"name": "acme/crm/prod/orders"}),
			acctest.ExpectIdentity("sapmessaging_queue.prod", map[string]string{"name": "acme/crm/prod/returns"}),
			querycheck.ExpectResourceDisplayName("sapmessaging_queue.prod", byName("acme/crm/prod/orders"), knownvalue.StringExact("acme/crm/prod/orders")),
			querycheck.ExpectResourceKnownValues("sapmessaging_queue.prod", byName("acme/crm/prod/orders"), acctest.KnownValues(map[string]knownvalue.Check{
				"name":                 knownvalue.StringExact("acme/crm/prod/orders"),
				"max_redelivery_count": knownvalue.Int64Exact(3),
				"dead_message_queue":   knownvalue.StringExact("acme/crm/prod/orders/dmq"),
				"access_type":          knownvalue.StringExact("NON_EXCLUSIVE"),
				"force_destroy":        knownvalue.Bool(false),
			})),
			querycheck.ExpectResourceKnownValues("sapmessaging_queue.prod", byName("acme/crm/prod/returns"), acctest.KnownValues(map[string]knownvalue.Check{
				"max_redelivery_count": knownvalue.Int64Exact(0),
				"dead_message_queue":   knownvalue.Null(),
			})),
			// The dead message queue is listed by the other list resource only, with the queue that names it.
			querycheck.ExpectLength("sapmessaging_dead_message_queue.all", 1),
			querycheck.ExpectResourceDisplayName("sapmessaging_dead_message_queue.all", byName("acme/crm/prod/orders/dmq"),
				knownvalue.StringExact("acme/crm/prod/orders/dmq (dead message queue of acme/crm/prod/orders)")),
			querycheck.ExpectResourceKnownValues("sapmessaging_dead_message_queue.all", byName("acme/crm/prod/orders/dmq"), acctest.KnownValues(map[string]knownvalue.Check{
				"respect_ttl": knownvalue.Bool(true),
				"max_ttl":     knownvalue.Int64Exact(604800),
			})),
			querycheck.ExpectLength("sapmessaging_queue.none", 0),
			expectManagementCalls(env, 1),
		),
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_queue/list-resource.tfquery.hcl"),
			querycheck.ExpectLength("sapmessaging_queue.crm_prod", 2),
			acctest.ExpectIdentity("sapmessaging_queue.crm_prod", map[string]string{"name": "acme/crm/prod/returns"}),
		),
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_dead_message_queue/list-resource.tfquery.hcl"),
			querycheck.ExpectLength("sapmessaging_dead_message_queue.crm_prod", 1),
			acctest.ExpectIdentity("sapmessaging_dead_message_queue.crm_prod", map[string]string{
				"name": "acme/crm/prod/orders/dmq",
			}),
		),
	)
}

// A prefix no queue name can start with is an error on name_prefix; listing without an Event
// Mesh connection says so.
func TestAccQueueListResource_badInput(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.QueryTest(t,
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_dead_message_queue", "bad", `name_prefix = "acme//prod"`), `Invalid Queue Name Prefix.*no queue name starts with "acme//prod".*Use the start of a full queue name`),
		acctest.QueryErrorStep(fmt.Sprintf(`
provider "sapmessaging" {
  cloud_integration = { service_key = %q }
}

list "sapmessaging_queue" "all" {
  provider = sapmessaging
}
`, string(env.Srv.CloudIntegrationKey())), `Event Mesh Not Configured`),
	)
}

// `terraform query -generate-config-out` writes a resource and an import block for each queue
// listed, and the configuration works as written: the plan imports the queues and changes
// nothing else, and after the apply the next plan is empty.
func TestAccQueueListResource_generateConfig(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	i64 := func(v int64) *int64 { return &v }
	str := func(v string) *string { return &v }
	yes, exclusive := true, "EXCLUSIVE"
	env.PutQueues(t,
		acctest.EventMeshQueue{Name: "acme/sales/prod/quotes/dmq", Settings: eventmesh.QueueSettings{RespectTTL: &yes, MaxTTL: i64(86400)}},
		acctest.EventMeshQueue{Name: "acme/sales/prod/quotes", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: i64(4), DeadMsgQueue: str("acme/sales/prod/quotes/dmq")}},
		acctest.EventMeshQueue{Name: "acme/sales/prod/leads", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: i64(2), AccessType: &exclusive, MaxMessageSizeInBytes: i64(500000)}},
	)
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.RequiredProviders, "landscape.tfquery.hcl", acctest.ListHCL("sapmessaging_dead_message_queue", "dmq", `name_prefix = "acme/sales/"`)+
		acctest.ListHCL("sapmessaging_queue", "queue", `name_prefix = "acme/sales/"`))
	_, generated := w.Generate("generated.tf")
	acctest.ExpectContains(t, "generated.tf", generated,
		`resource "sapmessaging_dead_message_queue" "dmq_0"`, `resource "sapmessaging_queue" "queue_0"`, `resource "sapmessaging_queue" "queue_1"`,
		`identity = {`, `name = "acme/sales/prod/quotes/dmq"`, `dead_message_queue`, `"EXCLUSIVE"`, `500000`)
	w.ImportAsItIs(3)
}

// Queues made in the cockpit that the resource refuses are adopted as they are: those whose time to live
// takes no effect (respectTtl without maxTtl, maxTtl without respectTtl), one whose dead message queue lies
// in another namespace and one that names itself as its dead message queue. terraform query
// -generate-config-out writes them with allow_ineffective_ttl, allow_dead_message_queue_outside_namespace and
// allow_self_as_dead_message_queue = true, the plan imports only and warns, the apply imports them and changes
// nothing, and the next plan is empty but still warns. Without the attributes the generated blocks would fail
// the plan ("Respect TTL Without Max TTL", "Max TTL Without Respect TTL", "Dead Message Queue Outside
// Namespace", "Dead Message Queue Cycle").
func TestAccQueueListResource_adoptAsItIs(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	yes, no, three, day, shared, self := true, false, int64(3), int64(86400), "acme/shared/prod/dmq", "acme/ttl/prod/self"
	env.PutQueues(t,
		acctest.EventMeshQueue{Name: shared, Settings: eventmesh.QueueSettings{RespectTTL: &yes, MaxTTL: &day}},
		acctest.EventMeshQueue{Name: "acme/ttl/prod/respect-only", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &yes}},
		acctest.EventMeshQueue{Name: "acme/ttl/prod/max-only", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &no, MaxTTL: &day}},
		acctest.EventMeshQueue{Name: "acme/ttl/prod/both", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &yes, MaxTTL: &day}},
		acctest.EventMeshQueue{Name: "acme/ttl/prod/shared-dmq", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &yes, MaxTTL: &day, DeadMsgQueue: &shared}},
		// Event Mesh names only an existing queue as dead message queue: the queue first, then itself.
		acctest.EventMeshQueue{Name: self, Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &yes, MaxTTL: &day}},
		acctest.EventMeshQueue{Name: self, Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, RespectTTL: &yes, MaxTTL: &day, DeadMsgQueue: &self}},
	)
	acctest.AdoptAsItIs(t, tf, env, "queues.tfquery.hcl", acctest.ListHCL("sapmessaging_queue", "ttl", `name_prefix = "acme/ttl/prod/"`), map[string]int{
		"allow_ineffective_ttl":                      2, // respect-only, max-only
		"allow_dead_message_queue_outside_namespace": 1, // shared-dmq
		"allow_self_as_dead_message_queue":           1, // self
	}, 5, "Respect TTL Without Max TTL Allowed", "Max TTL Without Respect TTL Allowed", "Dead Message Queue Outside Namespace Allowed",
		"Dead Message Queue Cycle Allowed")
	if q, err := env.EventMesh(t).GetQueue(t.Context(), "acme/ttl/prod/max-only"); err != nil || q.RespectTTL == nil || *q.RespectTTL || q.MaxTTL == nil || *q.MaxTTL != day {
		t.Errorf("acme/ttl/prod/max-only after the apply: %+v, %v; want respectTtl false and maxTtl %d, as before", q, err, day)
	}
}

// Queues that hold a queue size or message count of 0, which Event Mesh shows on a queue created without these
// limits, are adopted as they are: terraform query -generate-config-out writes them with allow_no_queue_limits =
// true (a queue and a dead message queue), the plan imports only and warns, the apply imports them and changes
// nothing, and the next plan is empty but still warns. Without the attribute the generated blocks would fail the
// plan ("Queue Without Size Limit", "Queue Without Message Count Limit").
func TestAccQueueListResource_adoptNoQueueLimits(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	em := env.EventMesh(t)
	yes, zero, three, day, dmq := true, int64(0), int64(3), int64(86400), "acme/lim/prod/dmq"
	env.PutQueues(t,
		acctest.EventMeshQueue{Name: dmq, Settings: eventmesh.QueueSettings{RespectTTL: &yes, MaxTTL: &day, MaxQueueSizeInBytes: &zero}},
		acctest.EventMeshQueue{Name: "acme/lim/prod/no-size", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, DeadMsgQueue: &dmq, MaxQueueSizeInBytes: &zero}},
		acctest.EventMeshQueue{Name: "acme/lim/prod/no-count", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, DeadMsgQueue: &dmq, MaxQueueMessageCount: &zero}},
		acctest.EventMeshQueue{Name: "acme/lim/prod/limited", Settings: eventmesh.QueueSettings{MaxRedeliveryCount: &three, DeadMsgQueue: &dmq}},
	)
	// allow_no_queue_limits: no-size, no-count, dmq.
	acctest.AdoptAsItIs(t, tf, env, "queues.tfquery.hcl", acctest.ListHCL("sapmessaging_queue", "lim", `name_prefix = "acme/lim/prod/"`)+
		acctest.ListHCL("sapmessaging_dead_message_queue", "lim", `name_prefix = "acme/lim/prod/"`),
		map[string]int{"allow_no_queue_limits": 3}, 4, "Queue Without Size Limit Allowed", "Queue Without Message Count Limit Allowed")
	for _, name := range []string{dmq, "acme/lim/prod/no-size"} {
		if q, err := em.GetQueue(t.Context(), name); err != nil || q.MaxQueueSizeInBytes == nil || *q.MaxQueueSizeInBytes != 0 {
			t.Errorf("%s after the apply: %+v, %v; want maxQueueSizeInBytes 0, as before", name, q, err)
		}
	}
}

// Queues that hold a max_message_size_in_bytes above the 1 MB SAP documents for the Integration Suite capability, as
// a queue of the default plan of Event Mesh does (10000000, reference note sap-apis.md), are adopted as they are:
// terraform query -generate-config-out writes them with allow_message_size_above_documented_max = true (a queue and a
// dead message queue), the plan imports only and warns, the apply imports them and changes nothing, and the next plan
// is empty but still warns. A later change of another setting keeps the size. Without the attribute the generated
// blocks would fail the plan ("Message Size Above Documented Maximum").
func TestAccQueueListResource_adoptMessageSizeAboveDocumentedMax(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	em := env.EventMesh(t)
	ctx := context.Background()
	dmq, large, small := "acme/big/prod/dmq", "acme/big/prod/large", "acme/big/prod/small"
	// Seeded as a default-plan service holds them: the management API of the emulator, like the Integration Suite
	// capability, refuses to set a message size above 1 MB.
	for _, q := range []struct{ name, body string }{
		{dmq, `{"respectTtl":true,"maxTtl":86400,"maxMessageSizeInBytes":10000000}`},
		{large, `{"maxRedeliveryCount":3,"deadMsgQueue":"acme/big/prod/dmq","maxMessageSizeInBytes":10000000}`},
	} {
		if err := env.Srv.SeedQueue(q.name, []byte(q.body)); err != nil {
			t.Fatal(err)
		}
	}
	two := int64(2)
	if _, _, err := em.PutQueue(ctx, small, eventmesh.QueueSettings{MaxRedeliveryCount: &two, DeadMsgQueue: &dmq}); err != nil {
		t.Fatal(err)
	}
	// allow_message_size_above_documented_max: large, dmq.
	w, generated := acctest.AdoptAsItIs(t, tf, env, "queues.tfquery.hcl", acctest.ListHCL("sapmessaging_queue", "big", `name_prefix = "acme/big/prod/"`)+
		acctest.ListHCL("sapmessaging_dead_message_queue", "big", `name_prefix = "acme/big/prod/"`),
		map[string]int{"allow_message_size_above_documented_max": 2}, 3, "Message Size Above Documented Maximum Allowed")
	// Another setting changed: the update writes the size back, and the queue keeps it.
	changed := regexp.MustCompile(`(max_redelivery_count\s*=\s*)3\n`).ReplaceAllString(generated, "${1}4\n")
	if changed == generated {
		t.Fatalf("generated.tf has no max_redelivery_count = 3:\n%s", generated)
	}
	w.WriteFile("generated.tf", changed)
	r := w.MustRun(0, "apply", "-auto-approve", "-input=false", "-no-color")
	acctest.ExpectContains(t, "the apply of the changed redelivery count", r.Output, "0 added, 1 changed, 0 destroyed")
	for name, redeliveries := range map[string]int64{large: 4, dmq: 0} {
		q, err := em.GetQueue(ctx, name)
		if err != nil || q.MaxMessageSizeInBytes == nil || *q.MaxMessageSizeInBytes != 10000000 {
			t.Errorf("%s after the apply: %+v, %v; want maxMessageSizeInBytes 10000000, as before", name, q, err)
		} else if redeliveries > 0 && (q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != redeliveries) {
			t.Errorf("%s after the apply: maxRedeliveryCount %v, want %d", name, q.MaxRedeliveryCount, redeliveries)
		}
	}
}
