package aem_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfaem "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/aem"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// aemSubscriptionHCL subscribes queue to topic; the queue is made out of band (createAEMQueue).
func aemSubscriptionHCL(queue, topic string) string {
	return fmt.Sprintf(`
resource "sapmessaging_aem_queue_subscription" "s" {
  queue_name = %q
  topic      = %q
}
`, queue, topic)
}

// The lifecycle: create with state checks and an empty plan, import by ID, a subscription deleted out of
// band planned again, a new topic replacing the subscription, and the refusals at plan and apply.
func TestAccAEMQueueSubscription_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const (
		addr  = "sapmessaging_aem_queue_subscription.s"
		queue = "acme/orders,eu" // a comma: the import ID separates with ";"
		topic = "acme/orders/>"
	)
	env.CreateAEMQueue(t, queue, aem.QueueSettings{})
	config := env.AEMConfig(aemSubscriptionHCL(queue, topic))
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: config,
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, queue, topic) {
					return fmt.Errorf("the broker does not hold the subscription")
				}
				return nil
			},
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "id", queue+";"+topic),
				acctest.ExpectString(addr, "queue_name", queue),
				acctest.ExpectString(addr, "topic", topic),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			Config:            config,
			ResourceName:      addr,
			ImportState:       true,
			ImportStateId:     queue + ";" + topic,
			ImportStateVerify: true,
		},
		{
			// Deleted out of band: the refresh removes it and the plan creates it again.
			PreConfig: func() {
				if err := env.AEM(t).DeleteSubscription(context.Background(), queue, topic); err != nil {
					t.Fatal(err)
				}
			},
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate)},
			},
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, queue, topic) {
					return fmt.Errorf("the subscription was not created again")
				}
				return nil
			},
		},
		{
			Config: env.AEMConfig(aemSubscriptionHCL(queue, "acme/*/created")),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace)},
			},
			Check: func(*terraform.State) error {
				if env.AEMSubscribed(t, queue, topic) || !env.AEMSubscribed(t, queue, "acme/*/created") {
					return fmt.Errorf("the replacement left the broker's subscriptions wrong")
				}
				return nil
			},
		},
		{
			Config:        config,
			ResourceName:  addr,
			ImportState:   true,
			ImportStateId: queue + "," + topic,
			ExpectError:   acctest.Wrapped(`Invalid Import ID.*not of the form QUEUE;TOPIC`),
		},
		{
			Config:        config,
			ResourceName:  addr,
			ImportState:   true,
			ImportStateId: queue + ";acme//x",
			ExpectError:   acctest.Wrapped("Invalid Import ID.*its `topic` is invalid"),
		},
		{
			Config:      env.AEMConfig(aemSubscriptionHCL(queue, "acme/ord*rs")),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Invalid AEM Topic Subscription.*before its end`),
		},
		{
			Config:      env.AEMConfig(aemSubscriptionHCL("acme;orders", topic)),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Invalid AEM Queue Name`),
		},
		{
			Config:      env.AEMConfig(aemSubscriptionHCL("acme/none", topic)),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`AEM Queue Does Not Exist.*broker has no queue "acme/none"`),
		},
		{Config: config},
	})
}

// A subscription someone made outside the configuration is not taken over: the create says to import it,
// and the import block the message names adopts it with an empty plan.
func TestAccAEMQueueSubscription_existingIsImported(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const queue, topic = "acme/returns", "acme/returns/*"
	env.CreateAEMQueue(t, queue, aem.QueueSettings{})
	if err := env.AEM(t).CreateSubscription(context.Background(), queue, topic); err != nil {
		t.Fatal(err)
	}
	config := env.AEMConfig(aemSubscriptionHCL(queue, topic))
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:      config,
			ExpectError: acctest.Wrapped(`AEM Subscription Already Exists.*Import it instead: an import block with id = "acme/returns;acme/returns/\*"`),
		},
		{
			Config: config + fmt.Sprintf(`
import {
  to = sapmessaging_aem_queue_subscription.s
  id = %q
}
`, queue+";"+topic),
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_aem_queue_subscription.s", plancheck.ResourceActionNoop),
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, queue, topic) {
					return fmt.Errorf("the import changed the broker's subscription")
				}
				return nil
			},
		},
	})
}

// Identity: set from the state, and an import block can name the subscription by it.
func TestAccAEMQueueSubscription_identity(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_aem_queue_subscription.s"
	env.CreateAEMQueue(t, "acme/identity", aem.QueueSettings{})
	config := env.AEMConfig(aemSubscriptionHCL("acme/identity", "acme/identity/>"))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
						"msg_vpn_name": knownvalue.StringExact(env.Srv.AdvancedEventMeshCredentials().MsgVpnName),
						"queue_name":   knownvalue.StringExact("acme/identity"), "topic": knownvalue.StringExact("acme/identity/>"),
					}),
					statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("topic")),
					statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("msg_vpn_name")),
				},
			},
			acctest.ImportByIdentity(config, addr),
		},
	})
}

// Failure paths at plan: a wrong password, no Advanced Event Mesh connection, and two resources for one
// subscription.
func TestAccAEMQueueSubscription_planFailures(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueue(t, "acme/plan", aem.QueueSettings{})
	wrongPassword := env.AEMWrongPasswordProvider()
	twice := aemSubscriptionHCL("acme/plan", "acme/plan/>") + `
resource "sapmessaging_aem_queue_subscription" "again" {
  queue_name = "acme/plan"
  topic      = "acme/plan/>"
}
`
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config:      wrongPassword + aemSubscriptionHCL("acme/plan", "acme/plan/>"),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Advanced Event Mesh SEMP API Credentials Refused`),
		},
		{
			Config:      env.Config(aemSubscriptionHCL("acme/plan", "acme/plan/>")),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Advanced Event Mesh Not Configured`),
		},
		{
			Config:      env.AEMConfig(twice),
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`Subscription Managed Twice`),
		},
	})
}

// A queue that the run plans (claimed by an AEM queue resource under aemQueueClaimKey) counts as existing
// without a read; one that is neither planned nor listed does not, and the broker's list is read once per run.
func TestAEMQueueExistsOrPlanned(t *testing.T) {
	t.Parallel()
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueue(t, "acme/listed", aem.QueueSettings{})
	d := &framework.ProviderData{AEM: env.AEM(t), AEMBroker: "advanced-event-mesh test"}
	d.Owners.Planned = map[string]framework.OwnerClaim{d.AEMBroker + "\x00" + framework.AEMQueueClaimKey("acme/planned"): {TypeName: "sapmessaging_aem_queue"}}
	ctx := context.Background()
	before := d.AEM.HTTP().Stats().Requests
	for _, tc := range []struct {
		name string
		want bool
	}{{"acme/planned", true}, {"acme/listed", true}, {"acme/none", false}, {"acme/listed", true}} {
		got, err := d.AEMQueueExistsOrPlanned(ctx, tc.name)
		if err != nil || got != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	if calls := d.AEM.HTTP().Stats().Requests - before; calls != 1 {
		t.Errorf("%d SEMP requests, want the one queue list", calls)
	}
}

// The validators refuse what the rules refuse, in the provider's diagnostic style.
func TestAEMSubscriptionValidators(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v       validator.String
		value   string
		wantErr string
	}{
		{tfaem.AEMTopicValidator{}, "acme/orders/>", ""},
		{tfaem.AEMTopicValidator{}, "acme/>/x", "Invalid AEM Topic Subscription"},
		{tfaem.AEMQueueNameValidator{}, "acme/orders", ""},
		{tfaem.AEMQueueNameValidator{}, "acme?", "Invalid AEM Queue Name"},
	} {
		resp := &validator.StringResponse{}
		tc.v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("x"), ConfigValue: types.StringValue(tc.value)}, resp)
		got := ""
		if resp.Diagnostics.HasError() {
			got = resp.Diagnostics.Errors()[0].Summary()
		}
		if got != tc.wantErr {
			t.Errorf("%T %q: %q, want %q", tc.v, tc.value, got, tc.wantErr)
		}
	}
}

// A queue deleted out of band takes its subscriptions with it: the refresh removes the subscription from the
// state, and the plan refuses to create it again on a queue that is gone, until the queue is back.
func TestAccAEMQueueSubscription_queueDeletedOutOfBand(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const queue, topic = "acme/gone", "acme/gone/>"
	env.CreateAEMQueue(t, queue, aem.QueueSettings{})
	config := env.AEMConfig(aemSubscriptionHCL(queue, topic))
	acctest.ParallelTest(t, []resource.TestStep{
		{Config: config},
		{
			PreConfig: func() {
				if err := env.AEM(t).DeleteQueue(context.Background(), queue); err != nil {
					t.Fatal(err)
				}
			},
			Config:      config,
			PlanOnly:    true,
			ExpectError: acctest.Wrapped(`AEM Queue Does Not Exist.*broker has no queue "acme/gone"`),
		},
		{
			PreConfig:        func() { env.CreateAEMQueue(t, queue, aem.QueueSettings{}) },
			Config:           config,
			ConfigPlanChecks: acctest.ExpectActionThenEmptyPlan("sapmessaging_aem_queue_subscription.s", plancheck.ResourceActionCreate),
			Check: func(*terraform.State) error {
				if !env.AEMSubscribed(t, queue, topic) {
					return fmt.Errorf("the subscription was not created on the queue made again")
				}
				return nil
			},
		},
	})
}

// A connection known only at apply (a password from another resource) checks nothing at plan, and the apply
// subscribes the queue.
func TestAccAEMQueueSubscription_connectionKnownAtApply(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.CreateAEMQueue(t, "acme/later", aem.QueueSettings{})
	c := env.Srv.AdvancedEventMeshCredentials()
	config := fmt.Sprintf(`
resource "terraform_data" "password" {
  input = %q
}

provider "sapmessaging" {
  advanced_event_mesh = {
    semp_url     = %q
    msg_vpn_name = %q
    username     = %q
    password     = terraform_data.password.output
  }
}
`, c.Password, c.SEMPURL, c.MsgVpnName, c.Username) + aemSubscriptionHCL("acme/later", "acme/later/>")
	acctest.ParallelTest(t, []resource.TestStep{{
		Config: config,
		Check: func(*terraform.State) error {
			if !env.AEMSubscribed(t, "acme/later", "acme/later/>") {
				return fmt.Errorf("the apply did not subscribe the queue")
			}
			return nil
		},
	}})
}
