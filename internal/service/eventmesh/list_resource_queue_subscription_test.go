package eventmesh_test

import (
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// bySubscription filters query results by the parts of a subscription's identity.
func bySubscription(queue, topic string) queryfilter.QueryFilter {
	return acctest.ByIdentity(map[string]string{"queue_name": queue, "topic_pattern": topic})
}

// expectSubscriptionCalls is a query check of the management calls the query made, counted from
// the ResetStats of the step's PreConfig: queueLists GET /queues and subscriptionLists GET
// /queues/{queue}/subscriptions.
func expectSubscriptionCalls(env *acctest.TestEnv, queueLists, subscriptionLists int64) querycheck.QueryResultCheck {
	return env.ExpectCalls(func(st emulator.Stats) error {
		if st.Routes["GET /queues"] != queueLists || st.Routes["GET /queues/{queue}/subscriptions"] != subscriptionLists ||
			st.ManagementCalls != queueLists+subscriptionLists {
			return fmt.Errorf("the query made the management calls %v, want %d GET /queues and %d subscription lists",
				st.Routes, queueLists, subscriptionLists)
		}
		return nil
	})
}

// The subscriptions of one queue cost one call; those of a prefix the queue list and one call
// per matching queue; a queue or prefix that matches nothing lists nothing.
func TestAccQueueSubscriptionListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	env.AddHandMadeSubscriptions(t)
	acctest.QueryTest(t,
		env.CountedQueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue_subscription", "orders", `queue_name = "acme/crm/prod/orders"`, "include_resource = true")+
			acctest.ListHCL("sapmessaging_queue_subscription", "gone", `queue_name = "acme/crm/prod/gone"`),
			querycheck.ExpectLength("sapmessaging_queue_subscription.orders", 2),
			acctest.ExpectIdentity("sapmessaging_queue_subscription.orders", map[string]string{
				"queue_name":    "acme/crm/prod/orders",
				"topic_pattern": "acme/crm/prod/ce/orders/*",
			}),
			querycheck.ExpectResourceDisplayName("sapmessaging_queue_subscription.orders",
				bySubscription("acme/crm/prod/orders", "acme/crm/prod/ce/orders/created"),
				knownvalue.StringExact("acme/crm/prod/orders subscribed to acme/crm/prod/ce/orders/created")),
			querycheck.ExpectResourceKnownValues("sapmessaging_queue_subscription.orders",
				bySubscription("acme/crm/prod/orders", "acme/crm/prod/ce/orders/created"), acctest.KnownValues(map[string]knownvalue.Check{
					"id":            knownvalue.StringExact("acme/crm/prod/orders,acme/crm/prod/ce/orders/created"),
					"queue_name":    knownvalue.StringExact("acme/crm/prod/orders"),
					"topic_pattern": knownvalue.StringExact("acme/crm/prod/ce/orders/created"),
				})),
			querycheck.ExpectLength("sapmessaging_queue_subscription.gone", 0),
			expectSubscriptionCalls(env, 0, 2),
		),
		env.CountedQueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue_subscription", "crm", `queue_name_prefix = "acme/crm/"`)+
			acctest.ListHCL("sapmessaging_queue_subscription", "none", `queue_name_prefix = "acme/nothing/"`),
			// orders/dmq, orders and returns match; the dead message queue has no subscription.
			querycheck.ExpectLength("sapmessaging_queue_subscription.crm", 3),
			acctest.ExpectIdentity("sapmessaging_queue_subscription.crm", map[string]string{
				"queue_name":    "acme/crm/prod/returns",
				"topic_pattern": "acme/crm/prod/ce/returns/*",
			}),
			querycheck.ExpectLength("sapmessaging_queue_subscription.none", 0),
			// One queue list for the run, one subscription list per matching queue.
			expectSubscriptionCalls(env, 1, 3),
		),
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_queue_subscription/list-resource.tfquery.hcl"),
			querycheck.ExpectLength("sapmessaging_queue_subscription.crm_prod", 3),
		),
	)
}

// Both queue filters at once, an invalid queue name and an invalid prefix are errors on their
// argument.
func TestAccQueueSubscriptionListResource_badInput(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.QueryTest(t,
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue_subscription", "both", `queue_name = "acme/crm/prod/orders"
queue_name_prefix = "acme/crm/"`), `Conflicting Queue Filters.*Keep queue_name for one queue`),
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue_subscription", "bad", `queue_name = "acme/crm/prod/orders in"`), `Invalid Queue Name.*Use the queue's full name`),
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_queue_subscription", "bad", `queue_name_prefix = "acme//"`), `Invalid Queue Name Prefix.*Use the start of a full queue name`),
	)
}
