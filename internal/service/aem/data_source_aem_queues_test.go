package aem_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// Every queue under a prefix with settings, counters and findings, from one paged configuration list and
// one paged monitor list per read: 150 queues outside the prefix make both lists two pages, and no queue
// is read on its own.
func TestAccAEMQueuesDataSource(t *testing.T) {
	env := acctest.NewTestEnv(t)
	env.AddAEMLandscape(t)
	for i := range 150 {
		env.CreateAEMQueue(t, fmt.Sprintf("bulk/q%03d", i), aem.QueueSettings{})
	}
	const addr = "data.sapmessaging_aem_queues.acme"
	acctest.ParallelTest(t, []resource.TestStep{
		{
			PreConfig: env.Srv.ResetStats,
			Config:    env.AEMConfig(acctest.ReadExample(t, "data-sources/sapmessaging_aem_queues/data-source.tf")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectStrings(addr, "names", "acme/aem/prod/orders", "acme/aem/prod/orders/dmq"),
				acctest.ExpectBool(addr, "queues.1.is_dead_message_queue", true),
				acctest.ExpectInt(addr, "queues.1.max_ttl", 604800),
				acctest.ExpectLen(addr, "queues.1.findings", 0),
				acctest.ExpectInt(addr, "queues.1.message_count", 0),
				acctest.ExpectInt(addr, "queues.0.spooled_msg_count", 2),
				acctest.ExpectInt(addr, "queues.0.message_count", 1),
				acctest.ExpectInt(addr, "queues.0.bind_count", 0),
				acctest.ExpectInt(addr, "queues.0.poison_message_deliveries", 4),
				acctest.ExpectString(addr, "queues.0.time_to_dead_letter", "7 s"),
			},
			Check: func(*terraform.State) error {
				st := env.Srv.Stats()
				config, monitor := st.Routes["GET /SEMP/v2/config/msgVpns/{vpn}/queues"], st.Routes["GET /SEMP/v2/monitor/msgVpns/{vpn}/queues"]
				msgs, flows := st.Routes["GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs"], st.Routes["GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/txFlows"]
				if monitor == 0 || monitor%2 != 0 || config < monitor ||
					st.Routes["GET /SEMP/v2/config/msgVpns/{vpn}/queues/{queue}"] != 0 || st.Routes["GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}"] != 0 {
					return fmt.Errorf("SEMP calls %v: want two pages of each list per read and no read of one queue", st.Routes)
				}
				// The 2 queues under the prefix are counted, each read (one page of msgs and of txFlows each); the
				// 150 others are not.
				if msgs == 0 || msgs != flows || msgs%2 != 0 || msgs > monitor {
					return fmt.Errorf("SEMP calls %v: want one msgs and one txFlows list per queue under the prefix and read", st.Routes)
				}
				return nil
			},
		},
		{
			// A queue with the broker's defaults under the prefix: found retrying for ever (the example's check
			// warns), its findings in the example's output.
			PreConfig: func() {
				if _, err := env.AEM(t).CreateQueue(context.Background(), aem.Queue{Name: "acme/aem/defaults"}); err != nil {
					t.Fatal(err)
				}
			},
			Config: env.AEMConfig(acctest.ReadExample(t, "data-sources/sapmessaging_aem_queues/data-source.tf")),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectString(addr, "queues.0.name", "acme/aem/defaults"),
				acctest.ExpectNull(addr, "queues.0.poison_message_deliveries"),
				statecheck.ExpectKnownOutputValue("findings", knownvalue.MapExact(map[string]knownvalue.Check{
					"acme/aem/defaults": acctest.StringList("aem.redelivery_unlimited", "aem.dmq_missing", "aem.redelivery_without_delay", "aem.ingress_disabled", "aem.egress_disabled"),
				})),
			},
		},
		{
			Config: env.AEMConfig(`data "sapmessaging_aem_queues" "none" { name_prefix = "nothing/" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectLen("data.sapmessaging_aem_queues.none", "queues", 0),
			},
		},
		{
			Config:      env.Config(`data "sapmessaging_aem_queues" "x" {}`),
			ExpectError: acctest.Wrapped(`Advanced Event Mesh Not Configured`),
		},
	})
}
