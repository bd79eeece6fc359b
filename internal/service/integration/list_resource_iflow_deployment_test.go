package integration_test

import (
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

const (
	routeRuntimeList    = "GET /api/v1/IntegrationRuntimeArtifacts"
	routeDesigntimeList = "GET /api/v1/IntegrationDesigntimeArtifacts"
	routeContent        = "GET /api/v1/IntegrationDesigntimeArtifacts(Id,Version)/$value"
)

// Every deployed flow is listed, from one call; a package filter adds the call for the packages;
// a prefix that matches nothing lists nothing.
func TestAccIFlowDeploymentListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeFlows(t)
	acctest.QueryTest(t,
		env.CountedQueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_iflow_deployment", "all", "", "include_resource = true")+
			acctest.ListHCL("sapmessaging_iflow_deployment", "none", `iflow_id_prefix = "Nothing_"`),
			acctest.ExpectResults("sapmessaging_iflow_deployment.all", 4),
			acctest.ExpectIdentity("sapmessaging_iflow_deployment.all", map[string]string{"iflow_id": acctest.HandInvoices}),
			acctest.ExpectIdentity("sapmessaging_iflow_deployment.all", map[string]string{"iflow_id": acctest.HandJMS}),
			acctest.ExpectDisplayName("sapmessaging_iflow_deployment.all", acctest.ByIdentity(map[string]string{"iflow_id": acctest.HandOrders}),
				acctest.HandOrders+" (version 1.0.0, STARTED)"),
			acctest.ExpectResultValues("sapmessaging_iflow_deployment.all", acctest.ByIdentity(map[string]string{"iflow_id": acctest.HandOrders}), map[string]knownvalue.Check{
				"id":               knownvalue.StringExact(acctest.HandOrders),
				"iflow_id":         knownvalue.StringExact(acctest.HandOrders),
				"version":          knownvalue.StringExact("active"),
				"triggers":         knownvalue.Null(),
				"runtime_status":   knownvalue.StringExact("STARTED"),
				"deployed_version": knownvalue.StringExact("1.0.0"),
			}),
			acctest.ExpectResults("sapmessaging_iflow_deployment.none", 0),
			env.ExpectCloudIntegrationCalls(map[string]int64{routeRuntimeList: 2}),
		),
		env.CountedQueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_iflow_deployment/list-resource.tfquery.hcl"),
			// Orders_Inbound, Orders_Retry and Orders_Exclusive; Orders_Draft is not deployed.
			acctest.ExpectResults("sapmessaging_iflow_deployment.crm", 3),
			acctest.ExpectIdentity("sapmessaging_iflow_deployment.crm", map[string]string{"iflow_id": acctest.HandJMS}),
			env.ExpectCloudIntegrationCalls(map[string]int64{routeRuntimeList: 1, routeDesigntimeList: 1}),
		),
	)
}

// `terraform query -generate-config-out` of the Cloud Integration list resources and the
// subscriptions writes a resource and an import block per result, and the configuration works
// as written: the plan imports them and changes nothing else, with the plan-time rules' warnings,
// the apply deploys nothing, and the next plan is empty.
func TestAccFlowListResources_generateConfig(t *testing.T) {
	tf := acctest.QueryCLI(t)
	env := acctest.NewTestEnv(t)
	env.AddHandMadeQueues(t)
	env.AddHandMadeSubscriptions(t)
	env.AddHandMadeFlows(t)
	w := acctest.NewQueryWorkspace(t, tf, env, acctest.RequiredProviders, "landscape.tfquery.hcl", acctest.ListHCL("sapmessaging_queue_subscription", "orders", `queue_name = "acme/crm/prod/orders"`)+
		acctest.ListHCL("sapmessaging_amqp_sender", "crm", `package_id = "AcmeCRM"
iflow_id_prefix = "Orders_In"`)+
		acctest.ListHCL("sapmessaging_amqp_sender", "invoices", `iflow_id_prefix = "Invoices_"`)+
		acctest.ListHCL("sapmessaging_jms_sender", "jms", "")+
		acctest.ListHCL("sapmessaging_iflow_deployment", "deployed", ""))
	r, generated := w.Generate("generated.tf")
	// The flow whose JMS sender cannot be read is left out, saying why; the others are listed.
	if !strings.Contains(r.Output, "Integration Flow Left Out") || !strings.Contains(r.Output, acctest.HandBroken) || !strings.Contains(r.Output, "not a boolean") {
		t.Errorf("the query does not warn that %s is left out:\n%s", acctest.HandBroken, r.Output)
	}
	acctest.ExpectContains(t, "generated.tf", generated,
		`resource "sapmessaging_queue_subscription" "orders_1"`, `topic_pattern = "acme/crm/prod/ce/orders/created"`,
		`resource "sapmessaging_amqp_sender" "crm_1"`, `channel                           = "Returns"`, `max_number_of_retries             = 2`,
		`resource "sapmessaging_amqp_sender" "invoices_0"`, `resource "sapmessaging_jms_sender" "jms_0"`, `queue_expiration_days        = 30`,
		`resource "sapmessaging_iflow_deployment" "deployed_3"`, `identity = {`, `resource "sapmessaging_jms_sender" "jms_1"`)
	// The exclusive queue's channel has no concurrent processes and no dead-letter option: neither is written.
	for _, block := range strings.Split(generated, "\nresource ") {
		if strings.Contains(block, `"`+acctest.HandExclusive+`"`) && strings.HasPrefix(block, `"sapmessaging_jms_sender"`) &&
			(strings.Contains(block, "concurrent_processes") || strings.Contains(block, "dead_letter_queue")) {
			t.Errorf("the block of the exclusive queue's channel sets a setting the channel does not have:\n%s", block)
		}
	}
	// The recommended pattern: the senders are written only, the deployments deploy.
	if acctest.CountTrue(generated, "deploy") > 0 {
		t.Errorf("generated.tf sets deploy = true on a sender, beside the generated deployments:\n%s", generated)
	}
	senders := strings.Count(generated, `resource "sapmessaging_amqp_sender"`) + strings.Count(generated, `resource "sapmessaging_jms_sender"`)
	if n := acctest.CountSet(generated, "deploy", "false"); n != senders || n == 0 {
		t.Errorf("generated.tf sets deploy = false on %d senders, want all %d:\n%s", n, senders, generated)
	}
	if strings.Contains(generated, acctest.HandBroken) {
		t.Errorf("generated.tf holds the flow that cannot be read:\n%s", generated)
	}
	env.Srv.ResetStats()
	// The plan-time rules speak about what was adopted: Returns retries twice in memory.
	w.PlanImportsOnly(11, "Inner Retries", "max_number_of_retries = 2")
	w.ApplyImports(11)
	if st := env.Srv.Stats(); st.Routes[acctest.DeployRoute] != 0 || st.Routes["PUT /api/v1/IntegrationDesigntimeArtifacts(Id,Version)"] != 0 {
		t.Errorf("adopting the flows wrote or deployed them: %v", st.Routes)
	}
	w.PlanEmpty()
}
