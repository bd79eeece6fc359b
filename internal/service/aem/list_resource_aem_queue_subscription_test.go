package aem_test

import (
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func byAEMSubscription(queue, topic string) queryfilter.QueryFilter {
	return acctest.ByIdentity(map[string]string{"msg_vpn_name": emulator.DefaultAEMMsgVpn, "queue_name": queue, "topic": topic})
}

// expectAEMSubscriptionCalls checks the SEMP lists a query made since the step's ResetStats: queueLists paged
// queue lists (beyond the one credential check of the run) and subscriptionLists subscription lists.
func expectAEMSubscriptionCalls(env *acctest.TestEnv, queueLists, subscriptionLists int64) querycheck.QueryResultCheck {
	return env.ExpectCalls(func(st emulator.Stats) error {
		queues, subs := st.Routes["GET /SEMP/v2/config/msgVpns/{vpn}/queues"], st.Routes["GET /SEMP/v2/config/msgVpns/{vpn}/queues/{queue}/subscriptions"]
		if queues > queueLists+1 || subs != subscriptionLists {
			return fmt.Errorf("the query made the SEMP calls %v, want %d queue lists (and a credential check) and %d subscription lists",
				st.Routes, queueLists, subscriptionLists)
		}
		return nil
	})
}

// The subscriptions of one queue, of a prefix and of the Message VPN, with identities, display names and
// with include_resource the state an import reads; a queue or prefix that matches nothing lists nothing; a
// block cut at its limit warns.
func TestAccAEMQueueSubscriptionListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddAEMSubscriptions(t)
	const orders = "sapmessaging_aem_queue_subscription.orders"
	acctest.QueryTest(t,
		env.CountedQueryStep(env.AEMProviderBlock("")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "orders", `queue_name = "acme/aem/prod/orders"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "gone", `queue_name = "acme/gone"`),
			querycheck.ExpectLength(orders, 2),
			acctest.ExpectIdentity(orders, map[string]string{
				"msg_vpn_name": env.Srv.AdvancedEventMeshCredentials().MsgVpnName,
				"queue_name":   "acme/aem/prod/orders",
				"topic":        "acme/orders/eu/>",
			}),
			querycheck.ExpectResourceDisplayName(orders, byAEMSubscription("acme/aem/prod/orders", "acme/orders/*/created"),
				knownvalue.StringExact("acme/aem/prod/orders subscribed to acme/orders/*/created")),
			querycheck.ExpectResourceKnownValues(orders, byAEMSubscription("acme/aem/prod/orders", "acme/orders/*/created"), acctest.KnownValues(map[string]knownvalue.Check{
				"id":         knownvalue.StringExact("acme/aem/prod/orders;acme/orders/*/created"),
				"queue_name": knownvalue.StringExact("acme/aem/prod/orders"),
				"topic":      knownvalue.StringExact("acme/orders/*/created"),
			})),
			querycheck.ExpectLength("sapmessaging_aem_queue_subscription.gone", 0),
			expectAEMSubscriptionCalls(env, 0, 2),
		),
		env.CountedQueryStep(env.AEMProviderBlock("")+acctest.ReadExample(t, "list-resources/sapmessaging_aem_queue_subscription/list-resource.tfquery.hcl"),
			querycheck.ExpectLength("sapmessaging_aem_queue_subscription.acme", 3),
			// acme: one queue list and two subscription lists.
			expectAEMSubscriptionCalls(env, 1, 2),
		),
		acctest.QueryStep(env.AEMProviderBlock("  request_timeout_seconds = 30")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "cut", "", "limit = 2"), querycheck.ExpectLength("sapmessaging_aem_queue_subscription.cut", 2)),
	)
}

// Both queue filters at once, an invalid queue name and an invalid prefix are errors on their argument.
func TestAccAEMQueueSubscriptionListResource_badInput(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.QueryTest(t,
		acctest.QueryErrorStep(env.AEMProviderBlock("")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "both", `queue_name = "acme/aem/prod/orders"
queue_name_prefix = "acme/"`), `Conflicting Queue Filters`),
		acctest.QueryErrorStep(env.AEMProviderBlock("")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "bad", `queue_name = "acme/orders?"`), `Invalid AEM Queue Name`),
		acctest.QueryErrorStep(env.AEMProviderBlock("")+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "bad", `queue_name_prefix = "acme;"`), `Invalid AEM Queue Name Prefix`),
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_aem_queue_subscription", "x", ""), `Advanced Event Mesh Not Configured`),
	)
}

// With the CLI: the configuration terraform query generates plans the imports of every subscription and no
// other change, and the imported subscriptions plan nothing; a block cut at its limit warns with the number
// it selects.
func TestAccAEMQueueSubscriptionListResource_generatedConfiguration(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	env.AddAEMSubscriptions(t)
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.AdoptionMain, "aem.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_queue_subscription", "all", ""))
	w.WithAEM(env)

	w.Generate("generated.tf")
	w.PlanImportsOnly(4)
	w.ApplyImports(4)
	w.PlanEmpty()

	w.WriteFile("aem.tfquery.hcl", acctest.ListHCL("sapmessaging_aem_queue_subscription", "all", "", "limit = 2"))
	r := w.MustRun(0, "query", "-no-color")
	acctest.ExpectContains(t, "terraform query", r.Output, "List Results Truncated", "selects 4 subscriptions but returns only 2", "limit = 4")
}
