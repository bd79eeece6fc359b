package landscape_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccFunctionRedeliveriesFor(t *testing.T) {
	t.Parallel()
	unitTest(t, []resource.TestStep{
		{
			Config: `
output "r" { value = provider::sapmessaging::redeliveries_for(7) }
output "round_trip" { value = provider::sapmessaging::max_attempts(provider::sapmessaging::redeliveries_for(12), 1) }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectOutput("r", knownvalue.Int64Exact(5)),
				acctest.ExpectOutput("round_trip", knownvalue.Int64Exact(12)),
			},
		},
		{Config: `output "r" { value = provider::sapmessaging::redeliveries_for(2) }`,
			ExpectError: acctest.Wrapped(`total_attempts = 2: total_attempts must be a whole number from 3 to 257 \(2 attempts cannot be reached`)},
		{Config: `output "r" { value = provider::sapmessaging::redeliveries_for(258) }`,
			ExpectError: acctest.Wrapped(`total_attempts = 258: total_attempts must be a whole number from 3 to 257`)},
		{Config: `output "r" { value = provider::sapmessaging::redeliveries_for(7.5) }`,
			ExpectError: acctest.Wrapped(`total_attempts = 7.5: total_attempts must be a whole number from 3 to 257`)},
	})
}
