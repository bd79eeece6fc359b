package landscape_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// functionCase is one call of a provider function from HCL: its arguments and either the result or the error.
type functionCase struct {
	args    string
	want    int64
	wantErr string
}

// testFunction calls the function name from HCL with each case, then, unless example is nil, applies its shipped
// example and checks the outputs its comments state.
func testFunction(t *testing.T, name string, cases []functionCase, example map[string]int64) {
	t.Helper()
	steps := []resource.TestStep{}
	for _, c := range cases {
		step := resource.TestStep{Config: `output "v" { value = provider::sapmessaging::` + name + `(` + c.args + `) }`}
		if c.wantErr != "" {
			step.ExpectError = acctest.Wrapped(c.wantErr)
		} else {
			step.ConfigStateChecks = []statecheck.StateCheck{acctest.ExpectOutput("v", knownvalue.Int64Exact(c.want))}
		}
		steps = append(steps, step)
	}
	if example != nil {
		outputs := map[string]knownvalue.Check{}
		for output, want := range example {
			outputs[output] = knownvalue.Int64Exact(want)
		}
		steps = append(steps, exampleStep(t, "functions/"+name+"/function.tf", outputs))
	}
	unitTest(t, steps)
}

// unitTest runs the steps with the provider in process and no service to talk to (resource.UnitTest): the functions
// and the data sources that only compute.
func unitTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// exampleStep applies the shipped example examples/<rel> as it is and checks the outputs its comments state.
func exampleStep(t *testing.T, rel string, outputs map[string]knownvalue.Check) resource.TestStep {
	t.Helper()
	checks := []statecheck.StateCheck{}
	for output, want := range outputs {
		checks = append(checks, acctest.ExpectOutput(output, want))
	}
	return resource.TestStep{Config: acctest.ReadExample(t, rel), ConfigStateChecks: checks}
}
