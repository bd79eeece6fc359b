package aem_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
)

// The dead message queue list resource's example lists the sample's dead message queues, with the queues
// that name each in its display name; the chained error queue is not among them.
func TestAccAEMDeadMessageQueueListResource_example(t *testing.T) {
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	const d = "sapmessaging_aem_dead_message_queue.aem_prod"
	acctest.QueryTest(t,
		acctest.QueryStep(env.AEMConfig(acctest.ReadExample(t, "list-resources/sapmessaging_aem_dead_message_queue/list-resource.tfquery.hcl")),
			querycheck.ExpectLength(d, 3),
			querycheck.ExpectResourceDisplayName(d, acctest.ByAEMName("acme/aem/prod/payments/errors/dmq"),
				knownvalue.StringExact("acme/aem/prod/payments/errors/dmq (dead message queue of acme/aem/prod/payments/errors)")),
			querycheck.ExpectResourceDisplayName(d, acctest.ByAEMName("acme/aem/prod/audit/dmq"),
				knownvalue.StringExact("acme/aem/prod/audit/dmq (dead message queue of acme/aem/prod/audit)")),
		),
	)
}
