package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/iflow/iflowbuild"
)

// Every JMS sender channel is a result; include_resource carries the settings, the default
// expiration period and the retry guard as an import reads them.
func TestAccJMSSenderListResource_query(t *testing.T) {
	env := newTestEnv(t)
	env.addHandMadeFlows(t)
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Query:  true,
				Config: env.providerBlock + readExample(t, "list-resources/sapmessaging_jms_sender/list-resource.tfquery.hcl"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_jms_sender.crm", 2),
					querycheck.ExpectIdentity("sapmessaging_jms_sender.crm", map[string]knownvalue.Check{
						"iflow_id": knownvalue.StringExact(handJMS), "channel": knownvalue.Null(),
					}),
					querycheck.ExpectResourceDisplayName("sapmessaging_jms_sender.crm", byChannel(handJMS, ""),
						knownvalue.StringExact(handJMS+": JMS sender of queue Retry_Orders (package AcmeCRM)")),
					querycheck.ExpectResourceKnownValues("sapmessaging_jms_sender.crm", byChannel(handJMS, ""), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(handJMS)},
						{Path: tfjsonpath.New("version"), KnownValue: knownvalue.StringExact("active")},
						{Path: tfjsonpath.New("deploy"), KnownValue: knownvalue.Bool(false)},
						{Path: tfjsonpath.New("retry_interval"), KnownValue: knownvalue.Int64Exact(1)},
						{Path: tfjsonpath.New("exponential_backoff"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("max_retry_interval"), KnownValue: knownvalue.Int64Exact(60)},
						{Path: tfjsonpath.New("concurrent_processes"), KnownValue: knownvalue.Int64Exact(1)},
						{Path: tfjsonpath.New("dead_letter_queue"), KnownValue: knownvalue.Bool(true)},
						{Path: tfjsonpath.New("max_retries"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("queue_expiration_days"), KnownValue: knownvalue.Int64Exact(30)},
						{Path: tfjsonpath.New("queue_name"), KnownValue: knownvalue.StringExact("Retry_Orders")},
						{Path: tfjsonpath.New("retry_guard").AtMapKey("limit"), KnownValue: knownvalue.Int64Exact(5)},
						{Path: tfjsonpath.New("give_up_after_minutes"), KnownValue: knownvalue.NotNull()},
						{Path: tfjsonpath.New("runtime_status"), KnownValue: knownvalue.StringExact("STARTED")},
					}),
					// The exclusive queue's channel has neither setting: both are null, so neither is written.
					querycheck.ExpectResourceKnownValues("sapmessaging_jms_sender.crm", byChannel(handExclusive, ""), []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("access_type"), KnownValue: knownvalue.StringExact("Exclusive")},
						{Path: tfjsonpath.New("concurrent_processes"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("dead_letter_queue"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("attempts_before_expiry"), KnownValue: knownvalue.NotNull()},
					}),
					querycheck.ExpectLength("sapmessaging_jms_sender.none", 0),
				},
			},
		},
	})
}

// A package or flow ID prefix that no flow can have is an error on its argument; listing senders
// or deployments without a Cloud Integration connection is an error that says so, while the
// Event Mesh list resources of the same provider configuration still list.
func TestAccFlowListResources_badInput(t *testing.T) {
	env := newTestEnv(t)
	env.addHandMadeQueues(t)
	eventMeshOnly := fmt.Sprintf(`
provider "sapmessaging" {
  event_mesh = { service_key = %q }
}
`, string(env.srv.EventMeshKey()))
	step := func(provider, config, wantErr string) resource.TestStep {
		return resource.TestStep{Query: true, Config: provider + config, ExpectError: wrapped(wantErr)}
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(env.providerBlock, `
list "sapmessaging_amqp_sender" "bad" {
  provider = sapmessaging
  config {
    package_id = "Acme CRM"
  }
}
`, `Invalid Package ID.*package ID "Acme CRM" holds ' '.*Use the package's technical name`),
			step(env.providerBlock, `
list "sapmessaging_iflow_deployment" "bad" {
  provider = sapmessaging
  config {
    package_id = ""
  }
}
`, `Invalid Package ID.*empty.*leave package_id out`),
			step(env.providerBlock, `
list "sapmessaging_jms_sender" "bad" {
  provider = sapmessaging
  config {
    iflow_id_prefix = " Orders"
  }
}
`, `Invalid Integration Flow ID Prefix.*does not start with white space.*Use the start of a flow ID`),
			step(eventMeshOnly, `
list "sapmessaging_amqp_sender" "all" {
  provider = sapmessaging
}
`, `Cloud Integration Not Configured`),
			step(eventMeshOnly, `
list "sapmessaging_jms_sender" "all" {
  provider = sapmessaging
}
`, `Cloud Integration Not Configured`),
			{
				Query: true,
				Config: eventMeshOnly + `
list "sapmessaging_queue" "all" {
  provider = sapmessaging
}

list "sapmessaging_queue_subscription" "all" {
  provider = sapmessaging
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_queue.all", 3),
					querycheck.ExpectLength("sapmessaging_queue_subscription.all", 0),
				},
			},
		},
	})
}

// A channel whose queue is an externalized parameter without a value is listed, and its display
// name says that the queue is not resolved.
func TestAccJMSSenderListResource_unresolvedQueue(t *testing.T) {
	env := newTestEnv(t)
	props := iflowbuild.DefaultJMSSenderProperties("{{JmsQueue}}")
	if err := env.srv.CreateIFlow("Param_Queue", "Param_Queue", "AcmeCRM", iflowbuild.Build(iflowbuild.Options{
		Name: "Param_Queue", Senders: []iflowbuild.Sender{{Adapter: "JMS", Properties: props}},
	})); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Query: true,
				Config: env.providerBlock + `
list "sapmessaging_jms_sender" "all" {
  provider = sapmessaging
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("sapmessaging_jms_sender.all", 1),
					querycheck.ExpectResourceDisplayName("sapmessaging_jms_sender.all", byChannel("Param_Queue", ""),
						knownvalue.StringExact("Param_Queue: JMS sender of a queue its flow does not resolve (an externalized parameter without a value) (package AcmeCRM)")),
				},
			},
		},
	})
}
