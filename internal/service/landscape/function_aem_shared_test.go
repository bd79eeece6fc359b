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

// aemFunctionCase is one call of an AEM function from HCL: its arguments and either the result or the error.
type aemFunctionCase struct {
	args    string
	want    int64
	wantErr string
}

// testAEMFunction calls the function name from HCL with each case, then applies its shipped example and checks
// the outputs its comments state.
func testAEMFunction(t *testing.T, name string, cases []aemFunctionCase, example map[string]int64) {
	t.Helper()
	steps := []resource.TestStep{}
	for _, c := range cases {
		step := resource.TestStep{Config: `output "v" { value = provider::sapmessaging::` + name + `(` + c.args + `) }`}
		if c.wantErr != "" {
			step.ExpectError = acctest.Wrapped(c.wantErr)
		} else {
			step.ConfigStateChecks = []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("v", knownvalue.Int64Exact(c.want))}
		}
		steps = append(steps, step)
	}
	shipped, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "functions", name, "function.tf"))
	if err != nil {
		t.Fatal(err)
	}
	checks := []statecheck.StateCheck{}
	for output, want := range example {
		checks = append(checks, statecheck.ExpectKnownOutputValue(output, knownvalue.Int64Exact(want)))
	}
	steps = append(steps, resource.TestStep{Config: string(shipped), ConfigStateChecks: checks})
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}
