package eventmesh_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

const testTopic = "acme/crm/prod/ce/sap/s4/BusinessPartner/*"

func subscriptionHCL(topic string) string {
	return acctest.QueueWithDMQHCL("q", "acme/crm/prod/partners", 4, "") + fmt.Sprintf(`
resource "sapmessaging_queue_subscription" "s" {
  queue_name    = sapmessaging_queue.q.name
  topic_pattern = %q
}
`, topic)
}

func TestAccQueueSubscription_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_queue_subscription.s"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: env.Config(subscriptionHCL(testTopic)),
			Check: func(*terraform.State) error {
				if ok, err := acctest.Subscribed(env, t, "acme/crm/prod/partners", testTopic); err != nil || !ok {
					return fmt.Errorf("subscription missing on the server (err %v)", err)
				}
				return nil
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "id", "acme/crm/prod/partners,"+testTopic),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			ResourceName:      addr,
			ImportState:       true,
			ImportStateId:     "acme/crm/prod/partners," + testTopic,
			ImportStateVerify: true,
		},
		{
			// Removed out of band: planned for creation again.
			PreConfig: func() {
				if err := env.EventMesh(t).DeleteSubscription(context.Background(), "acme/crm/prod/partners", testTopic); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.Config(subscriptionHCL(testTopic)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
			},
		},
		{
			Config: env.Config(subscriptionHCL("acme/crm/prod/ce/sap/s4/SalesOrder/*")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
			},
			Check: func(*terraform.State) error {
				if ok, _ := acctest.Subscribed(env, t, "acme/crm/prod/partners", testTopic); ok {
					return fmt.Errorf("old subscription still on the server")
				}
				return nil
			},
		},
		{
			ResourceName:  addr,
			ImportState:   true,
			ImportStateId: "no-comma-here",
			ExpectError:   regexp.MustCompile(`Invalid Import ID`),
		},
		{
			Config:      env.Config(subscriptionHCL("acme crm")),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`Invalid Topic Pattern`),
		},
		{Config: env.Config(subscriptionHCL(testTopic))},
	})
}
