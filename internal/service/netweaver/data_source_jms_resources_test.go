package netweaver_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccJMSResourcesDataSource(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_jms_resources.app"
	seed := acctest.ReadFile(t, filepath.Join("..", "..", "jms", "testdata", "seed-jms-resources.xml"))
	dir := t.TempDir()
	seedPath := filepath.Join(dir, "seed.xml")
	if err := os.WriteFile(seedPath, seed, 0o600); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `
data "sapmessaging_jms_resources" "app" {
  application_name = "OrderApp"
  connection_factories = [{ name = "OrderFactory", client_id = "orderApp" }]
  destinations = [
    { name = "Orders", type = "queue", max_delivery_attempts = 3, delivery_delay_interval_ms = 5000, error_destination = "OrdersError" },
    { name = "OrdersError", type = "queue", error_destination = "sapDefaultErrorQueue" },
  ]
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectMatch(ds, "xml",
						`(?s)<application-name>OrderApp</application-name>.*<config-property-name>maxDeliveryAttempts</config-property-name>\s*<config-property-value>3</config-property-value>`),
					acctest.ExpectInt(ds, "time_to_dead_ms.Orders", 15000),
					acctest.ExpectInt(ds, "time_to_dead_ms.OrdersError", 10000),
				},
			},
			{
				Config: `
data "sapmessaging_jms_resources" "app" {
  destinations = [{ name = "Orders", type = "queue", delivery_attempts_limited = false }]
}
`,
				ExpectError: regexp.MustCompile(`(?i)unlimited`),
			},
			{
				Config: `
data "sapmessaging_jms_resources" "app" {
  destinations = [
    { name = "A", type = "queue", error_destination = "B" },
    { name = "B", type = "queue", error_destination = "A" },
  ]
}
`,
				ExpectError: regexp.MustCompile(`(?i)cycle`),
			},
			{
				// The seed's example names an error destination it does not declare.
				Config:      `data "sapmessaging_jms_resources" "app" { source_xml = file(` + "\"" + filepath.ToSlash(seedPath) + "\"" + `) }`,
				ExpectError: regexp.MustCompile(`MyErrorDestination`),
			},
			{
				Config: `
data "sapmessaging_jms_resources" "app" {
  source_xml   = "<jms-resources/>"
  destinations = [{ name = "A", type = "queue" }]
}
`,
				ExpectError: regexp.MustCompile(`(?i)conflict|cannot be configured together|These attributes cannot`),
			},
			{Config: `data "sapmessaging_jms_resources" "app" {
  destinations = [{ name = "Orders", type = "queue" }]
}`},
		},
	})
}
