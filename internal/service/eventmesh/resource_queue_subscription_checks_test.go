package eventmesh_test

import (
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// literalSubscriptionHCL subscribes the queue named as text, not through a queue resource.
func literalSubscriptionHCL(env *acctest.TestEnv, queue, topic string) string {
	return env.Configf(`
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = %q
  topic_pattern = %q
}
`, queue, topic)
}

// A subscription of a queue that does not exist, and that this configuration does not create, fails at plan
// (from the run's queue list), not at apply; a queue the configuration creates counts.
func TestAccQueueSubscription_queueDoesNotExist(t *testing.T) {
	env := acctest.NewTestEnv(t)
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:      literalSubscriptionHCL(env, "acme/crm/prod/does-not-exist", "acme/crm/prod/ce/x/*"),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Queue Does Not Exist.*"acme/crm/prod/does-not-exist"`),
		},
		{
			Config: env.Config(subscriptionHCL(testTopic)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("sapmessaging_queue_subscription.s", plancheck.ResourceActionCreate)},
			},
		},
	})
}

// Creating a subscription that the queue holds already, made outside this configuration, is refused with the
// import ID that adopts it, and leaves the subscription as it is; with the import block it is adopted.
func TestAccQueueSubscription_alreadyExists(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const queue, topic = "acme/erp/prod/invoices", "acme/erp/prod/ce/invoices/*"
	importHCL := fmt.Sprintf("\nimport {\n  to = sapmessaging_queue_subscription.s\n  id = %q\n}\n", queue+","+topic)
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig: func() {
				env.AddHandMadeQueues(t)
				env.AddHandMadeSubscriptions(t)
			},
			Config:      literalSubscriptionHCL(env, queue, topic),
			ExpectError: acctest.Wrapped(`Subscription Already Exists.*id = "acme/erp/prod/invoices,acme/erp/prod/ce/invoices/\*"`),
		},
		{
			PreConfig: func() {
				if ok, err := acctest.Subscribed(env, t, queue, topic); err != nil || !ok {
					t.Fatalf("the subscription made outside the configuration is gone (err %v)", err)
				}
			},
			Config:           literalSubscriptionHCL(env, queue, topic) + importHCL,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_queue_subscription.s", plancheck.ResourceActionNoop),
		},
	})
}
