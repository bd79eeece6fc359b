package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccRetryPolicyDataSource(t *testing.T) {
	t.Parallel()
	const ds = "data.sapmessaging_retry_policy.p"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: `data "sapmessaging_retry_policy" "p" {
  total_attempts  = 7
  attempt_seconds = 2.5
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_number_of_retries"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("delivery_status_after_max_retries"), knownvalue.StringExact("REJECTED")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("worst_case_attempts"), knownvalue.Int64Exact(7)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("seconds_to_dead_message_queue"), knownvalue.Float64Exact(17.5)),
				},
			},
			{
				Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("seconds_to_dead_message_queue"), knownvalue.Null()),
				},
			},
			{
				Config:      `data "sapmessaging_retry_policy" "p" { total_attempts = 2 }`,
				ExpectError: regexp.MustCompile(`Unreachable Attempt Budget`),
			},
			{
				Config: `
data "sapmessaging_retry_policy" "p" {
  total_attempts  = 5
  attempt_seconds = 0
}
`,
				ExpectError: regexp.MustCompile(`Invalid Attempt Duration`),
			},
			{Config: `data "sapmessaging_retry_policy" "p" { total_attempts = 3 }`},
		},
	})
}
