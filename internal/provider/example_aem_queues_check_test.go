package provider_test

import (
	"path/filepath"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
)

// The check of the sapmessaging_aem_queues example, applied as shipped against the sandbox's sample content,
// names only the queue that redelivers for ever (acme/aem/prod/legacy): the dead message queues of the sample
// (R = 0, no dead message queue of their own, named by another queue) are inspected, not consumed, and are
// not named.
func TestAccAEMQueuesExample_checkSkipsDeadMessageQueues(t *testing.T) {
	tf := acctest.TerraformCLI(t)
	t.Parallel()
	env := acctest.NewTestEnv(t)
	if err := env.Srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	acctest.BuildProvider(t, plugins)
	dir := filepath.Join(t.TempDir(), "example")
	acctest.CopyTree(t, filepath.Join("..", "..", "examples", "data-sources", "sapmessaging_aem_queues"), dir)
	acctest.WriteFile(t, filepath.Join(dir, "provider_test.tf"), env.AEMProviderBlock(""))
	w := acctest.NewCLIWorkspace(t, tf, plugins, dir, env)
	r := w.MustRun(0, "plan", "-input=false", "-no-color")
	if !acctest.Wrapped(`Queues that redeliver for ever: acme/aem/prod/legacy\.`).MatchString(r.Output) {
		t.Fatalf("the check does not name acme/aem/prod/legacy alone as the queue that redelivers for ever:\n%s", r.Output)
	}
}
