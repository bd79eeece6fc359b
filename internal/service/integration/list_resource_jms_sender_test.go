package integration_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// Every JMS sender channel is a result; include_resource carries the settings, the default
// expiration period and the retry guard as an import reads them.
func TestAccJMSSenderListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeFlows(t)
	acctest.QueryTest(t,
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_jms_sender/list-resource.tfquery.hcl"),
			acctest.ExpectResults("sapmessaging_jms_sender.crm", 2),
			acctest.ExpectSender("sapmessaging_jms_sender.crm", acctest.HandJMS, ""),
			acctest.ExpectDisplayName("sapmessaging_jms_sender.crm", acctest.BySender(acctest.HandJMS, ""),
				acctest.HandJMS+": JMS sender of queue Retry_Orders (package AcmeCRM)"),
			acctest.ExpectResultValues("sapmessaging_jms_sender.crm", acctest.BySender(acctest.HandJMS, ""), map[string]knownvalue.Check{
				"id":                    knownvalue.StringExact(acctest.HandJMS),
				"version":               knownvalue.StringExact("active"),
				"deploy":                knownvalue.Bool(false),
				"retry_interval":        knownvalue.Int64Exact(1),
				"exponential_backoff":   knownvalue.Bool(true),
				"max_retry_interval":    knownvalue.Int64Exact(60),
				"concurrent_processes":  knownvalue.Int64Exact(1),
				"dead_letter_queue":     knownvalue.Bool(true),
				"max_retries":           knownvalue.Null(),
				"queue_expiration_days": knownvalue.Int64Exact(30),
				"queue_name":            knownvalue.StringExact("Retry_Orders"),
				"retry_guard.limit":     knownvalue.Int64Exact(5),
				"give_up_after_minutes": knownvalue.NotNull(),
				"runtime_status":        knownvalue.StringExact("STARTED"),
			}),
			// The exclusive queue's channel has neither setting: both are null, so neither is written.
			acctest.ExpectResultValues("sapmessaging_jms_sender.crm", acctest.BySender(acctest.HandExclusive, ""), map[string]knownvalue.Check{
				"access_type":            knownvalue.StringExact("Exclusive"),
				"concurrent_processes":   knownvalue.Null(),
				"dead_letter_queue":      knownvalue.Null(),
				"attempts_before_expiry": knownvalue.NotNull(),
			}),
			acctest.ExpectResults("sapmessaging_jms_sender.none", 0),
		),
	)
}

// A package or flow ID prefix that no flow can have is an error on its argument; listing senders
// or deployments without a Cloud Integration connection is an error that says so, while the
// Event Mesh list resources of the same provider configuration still list.
func TestAccFlowListResources_badInput(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	eventMeshOnly := fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh = { service_key = %q }
}
`, string(env.Srv.EventMeshKey()))
	acctest.QueryTest(t,
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_amqp_sender", "bad", `package_id = "Acme CRM"`), `Invalid Package ID.*package ID "Acme CRM" holds ' '.*Use the package's technical name`),
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_iflow_deployment", "bad", `package_id = ""`), `Invalid Package ID.*empty.*leave package_id out`),
		acctest.QueryErrorStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_jms_sender", "bad", `iflow_id_prefix = " Orders"`), `Invalid Integration Flow ID Prefix.*does not start with white space.*Use the start of a flow ID`),
		acctest.QueryErrorStep(eventMeshOnly+
			acctest.ListHCL("sapmessaging_amqp_sender", "all", ""), `Cloud Integration Not Configured`),
		acctest.QueryErrorStep(eventMeshOnly+
			acctest.ListHCL("sapmessaging_jms_sender", "all", ""), `Cloud Integration Not Configured`),
		acctest.QueryStep(eventMeshOnly+
			acctest.ListHCL("sapmessaging_queue", "all", "")+
			acctest.ListHCL("sapmessaging_queue_subscription", "all", ""),
			acctest.ExpectResults("sapmessaging_queue.all", 3),
			acctest.ExpectResults("sapmessaging_queue_subscription.all", 0),
		),
	)
}

// A channel whose queue is an externalized parameter without a value is listed, and its display
// name says that the queue is not resolved.
func TestAccJMSSenderListResource_unresolvedQueue(t *testing.T) {
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultJMSSenderProperties("{{JmsQueue}}")
	if err := env.Srv.CreateIFlow("Param_Queue", "Param_Queue", "AcmeCRM", iflowbuild.Build(iflowbuild.Options{
		Name: "Param_Queue", Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: props}},
	})); err != nil {
		t.Fatal(err)
	}
	acctest.QueryTest(t,
		acctest.QueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_jms_sender", "all", ""),
			acctest.ExpectResults("sapmessaging_jms_sender.all", 1),
			acctest.ExpectDisplayName("sapmessaging_jms_sender.all", acctest.BySender("Param_Queue", ""),
				"Param_Queue: JMS sender of a queue its flow does not resolve (an externalized parameter without a value) (package AcmeCRM)"),
		),
	)
}

// JMS sender channels that the resource refuses are adopted as they are: one of an exclusive queue whose flow
// still holds settings of a non-exclusive one (two concurrent processes, the dead-letter queue on, as the channel
// keeps them after its access type was switched), and one whose flow's guard ends a message after 1000 retries,
// 41 days after its first failure, when the queue has deleted it after 30. terraform query -generate-config-out
// writes them with allow_non_exclusive_settings = true and allow_give_up_after_expiry = true, the plan imports
// only and warns, the apply imports them and changes nothing in the flows, and the next plan is empty but still
// warns. Without the attributes the generated blocks would fail the plan ("Concurrent Processes on Exclusive
// Queue", "Dead-Letter Queue on Exclusive Queue", "Give-Up After Expiration").
func TestAccJMSSenderListResource_adoptAsItIs(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	props := iflowbuild.DefaultJMSSenderProperties("Exclusive_Orders")
	props["AccessType"], props["NumberConcurrentProcesses"], props["useDeadLetterQueue"] = "Exclusive", "2", "1"
	ci := env.CloudIntegration(t)
	for id, o := range map[string]iflowbuild.Options{
		"Orders_Exclusive_Kept": {
			Senders:       []iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: props}},
			ExceptionEnds: [][]string{{"error"}},
		},
		"Orders_Guard_Late": {
			Senders:       []iflowbuild.Sender{{ID: "MessageFlow_JMS", Name: "JMS_In", Adapter: "JMS", Properties: iflowbuild.DefaultJMSSenderProperties("Late_Orders")}},
			ExceptionEnds: [][]string{{"escalation", "error"}},
			Routers:       []iflowbuild.Router{{Condition: "${header.SAPJMSRetries} > 1000", InException: 1}},
		},
	} {
		o.Name = id
		if err := env.Srv.CreateIFlow(id, id, "AcmeCRM", iflowbuild.Build(o)); err != nil {
			t.Fatal(err)
		}
		if _, err := ci.DeployAndWait(context.Background(), id, "", 5*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	acctest.AdoptAsItIs(t, tf, env, "senders.tfquery.hcl", acctest.ListHCL("sapmessaging_jms_sender", "crm", `package_id = "AcmeCRM"`),
		map[string]int{"allow_non_exclusive_settings": 1, "allow_give_up_after_expiry": 1}, 2,
		"Concurrent Processes on Exclusive Queue Allowed", "Dead-Letter Queue on Exclusive Queue Allowed", "Give-Up After Expiration Allowed")
}
