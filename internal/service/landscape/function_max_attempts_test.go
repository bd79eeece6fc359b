package landscape_test

import (
	"strconv"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccFunctionMaxAttempts(t *testing.T) {
	t.Parallel()
	steps := []resource.TestStep{}
	// The observed totals of one always-failing message.
	for _, c := range []struct{ r, n, want int64 }{{1, 1, 3}, {2, 2, 7}, {1, 4, 9}, {255, 99, 25345}} {
		steps = append(steps, resource.TestStep{
			Config: `output "n" { value = provider::sapmessaging::max_attempts(` + strconv.FormatInt(c.r, 10) + `, ` + strconv.FormatInt(c.n, 10) + `) }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("n", knownvalue.Int64Exact(c.want)),
			},
		})
	}
	for _, c := range []struct{ args, want string }{
		{"0, 1", `redeliveries = 0: redeliveries must be a whole number from 1 to 255 \(a max redelivery count of 0 means unlimited`},
		{"-1, 1", `redeliveries = -1: redeliveries must be a whole number from 1 to 255 \(max redelivery count -1 is negative`},
		{"256, 1", `redeliveries = 256: redeliveries must be a whole number from 1 to 255`},
		{"5, 0", `retries = 0: retries must be a whole number from 1 to 99`},
		{"5, 100", `retries = 100: retries must be a whole number from 1 to 99`},
		{"1.5, 1", `redeliveries = 1.5: redeliveries must be a whole number from 1 to 255`},
		{"5, 1e20", `retries = 1e\+20: retries must be a whole number from 1 to 99`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      `output "n" { value = provider::sapmessaging::max_attempts(` + c.args + `) }`,
			ExpectError: acctest.Wrapped(c.want),
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}
