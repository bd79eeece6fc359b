package provider_test

import (
	"path/filepath"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The set-ups the whole-provider tests share.

// queryCLI is the Terraform CLI of the acceptance tests when it has terraform query (1.14 or
// later: needs says what needs it), and the test then runs beside the other parallel tests; with
// an older CLI the test skips.
func queryCLI(t *testing.T, needs string) string {
	t.Helper()
	tf := acctest.TerraformCLI(t)
	if !acctest.TerraformAtLeast(t, tf, 14) {
		t.Skipf("%s has no terraform query: %s Terraform 1.14 or later", tf, needs)
	}
	t.Parallel()
	return tf
}

// newSampleEnv starts an emulator holding the sample content.
func newSampleEnv(t *testing.T) *acctest.TestEnv {
	t.Helper()
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	return env
}

// newWorkspace builds the provider from this tree and returns a CLI workspace on env and its
// directory: a new directory, or a copy of src named as src when src is set, with files (by name)
// written into it.
func newWorkspace(t *testing.T, tf string, env *acctest.TestEnv, src string, files map[string]string) (*acctest.CLIWorkspace, string) {
	t.Helper()
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := t.TempDir()
	if src != "" {
		dir = filepath.Join(dir, filepath.Base(src))
		acctest.CopyTree(t, src, dir)
	}
	for name, content := range files {
		acctest.WriteFile(t, filepath.Join(dir, name), content)
	}
	return acctest.NewCLIWorkspace(t, tf, plugins, dir, env), dir
}

// parallelSteps runs steps against the provider in the test process, beside the other parallel
// tests.
func parallelSteps(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}
