package landscape_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccFunctionJMSGiveUpMinutes(t *testing.T) {
	t.Parallel()
	steps := []resource.TestStep{}
	// The worked examples of the JMS sender arithmetic, and the edges of the closed form.
	for _, c := range []struct {
		args string
		want int64
	}{
		{"1, 60, true, 10", 303},
		{"1, 60, true, 5", 31},
		{"5, 60, false, 10", 50},
		{"1, 60, true, 0", 0},
		{"60, 10, true, 4", 40},                       // The maximum below the interval caps every wait.
		{"5, 0, false, 3", 15},                        // The maximum is unused without backoff.
		{"1, 60, true, 1000000", 63 + (1000000-6)*60}, // Closed form: a million retries at once.
		{"1, 43200, true, 100000000", 65535 + (100000000-16)*43200},
	} {
		steps = append(steps, resource.TestStep{
			Config: `output "m" { value = provider::sapmessaging::jms_give_up_minutes(` + c.args + `) }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("m", knownvalue.Int64Exact(c.want)),
			},
		})
	}
	for _, c := range []struct{ args, want string }{
		{"0, 60, true, 1", `retry_interval = 0: retry_interval must be a whole number from 1 to 1099511627776 \(retry interval 0 is below 1 minute`},
		{"1, 0, true, 1", `max_retry_interval = 0: max_retry_interval must be a whole number from 1 to 1099511627776 \(maximum retry interval 0`},
		{"1, 60, true, -1", `retries = -1: retries must be a whole number from 0 to 9223372036854775807 \(-1 retries is negative`},
		{"1.5, 60, true, 1", `retry_interval = 1.5: retry_interval must be a whole number from 1 to 1099511627776`},
		{"1, 60, true, 2.5", `retries = 2.5: retries must be a whole number from 0 to 9223372036854775807`},
		{"1, 60, true, 9223372036854775807", `exceeds the largest number of minutes`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      `output "m" { value = provider::sapmessaging::jms_give_up_minutes(` + c.args + `) }`,
			ExpectError: acctest.Wrapped(c.want),
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// The shipped example runs as it is and prints what its comments say.
func TestAccFunctionJMSGiveUpMinutesExample(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "functions", "jms_give_up_minutes", "function.tf"))
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: string(example),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("defaults_ten_retries", knownvalue.Int64Exact(303)),
				statecheck.ExpectKnownOutputValue("guard_of_five", knownvalue.Int64Exact(63)),
				statecheck.ExpectKnownOutputValue("constant_five_minutes", knownvalue.Int64Exact(50)),
			},
		}},
	})
}
