package integration_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
)

// Every AMQP sender channel is a result, with the channel in the identity when its flow has
// several; the filters select by package and flow ID prefix; include_resource carries every
// setting as an import reads it; each flow is downloaded once for all list blocks of the query.
func TestAccAMQPSenderListResource_query(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddHandMadeFlows(t)
	acctest.QueryTest(t,
		env.CountedQueryStep(env.ProviderBlock+
			acctest.ListHCL("sapmessaging_amqp_sender", "all", "", "include_resource = true")+
			acctest.ListHCL("sapmessaging_amqp_sender", "crm", `package_id = "AcmeCRM"`)+
			acctest.ListHCL("sapmessaging_jms_sender", "all", "")+
			acctest.ListHCL("sapmessaging_amqp_sender", "none", `iflow_id_prefix = "Nothing_"`),
			// Orders_Inbound's two channels, Invoices_Inbound's and Orders_Draft's; Orders_Retry has none.
			acctest.ExpectResults("sapmessaging_amqp_sender.all", 4),
			acctest.ExpectSender("sapmessaging_amqp_sender.all", acctest.HandOrders, "Orders"),
			acctest.ExpectSender("sapmessaging_amqp_sender.all", acctest.HandInvoices, ""),
			acctest.ExpectDisplayName("sapmessaging_amqp_sender.all", acctest.BySender(acctest.HandOrders, "Returns"),
				acctest.HandOrders+" / Returns: AMQP sender of queue acme/crm/prod/returns (package AcmeCRM)"),
			acctest.ExpectDisplayName("sapmessaging_amqp_sender.all", acctest.BySender(acctest.HandInvoices, ""),
				acctest.HandInvoices+": AMQP sender of queue acme/erp/prod/invoices (package AcmeERP)"),
			acctest.ExpectResultValues("sapmessaging_amqp_sender.all", acctest.BySender(acctest.HandOrders, "Returns"), map[string]knownvalue.Check{
				"id":                                knownvalue.StringExact(acctest.HandOrders + ",Returns"),
				"iflow_id":                          knownvalue.StringExact(acctest.HandOrders),
				"channel":                           knownvalue.StringExact("Returns"),
				"version":                           knownvalue.StringExact("active"),
				"deploy":                            knownvalue.Bool(false),
				"max_number_of_retries":             knownvalue.Int64Exact(2),
				"delivery_status_after_max_retries": knownvalue.StringExact("REJECTED"),
				"max_prefetched_messages":           knownvalue.Int64Exact(1),
				"concurrent_processes":              knownvalue.Int64Exact(1),
				"queue_name":                        knownvalue.StringExact("acme/crm/prod/returns"),
				"queue_max_redelivery_count":        knownvalue.Null(),
				"runtime_status":                    knownvalue.StringExact("STARTED"),
				"deployed_version":                  knownvalue.StringExact("1.0.0"),
				"exception_end_events":              acctest.MatchList(`: error$`),
				"revision":                          knownvalue.NotNull(),
			}),
			acctest.ExpectResultValues("sapmessaging_amqp_sender.all", acctest.BySender(acctest.HandDraft, ""), map[string]knownvalue.Check{
				"channel":          knownvalue.Null(),
				"runtime_status":   knownvalue.StringExact("NOT_DEPLOYED"),
				"deployed_version": knownvalue.Null(),
			}),
			acctest.ExpectResults("sapmessaging_amqp_sender.crm", 3),
			acctest.ExpectResults("sapmessaging_jms_sender.all", 2),
			acctest.ExpectResults("sapmessaging_amqp_sender.none", 0),

			env.ExpectCloudIntegrationCalls(map[string]int64{routeDesigntimeList: 4, routeRuntimeList: 1, routeContent: 6}),
		),
		acctest.QueryStep(env.ProviderBlock+acctest.ReadExample(t, "list-resources/sapmessaging_amqp_sender/list-resource.tfquery.hcl"),
			acctest.ExpectResults("sapmessaging_amqp_sender.crm", 3),
		),
	)
}
