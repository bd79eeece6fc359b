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
	env := newSampleEnv(t)
	w, _ := newWorkspace(t, tf, env, filepath.Join("..", "..", "examples", "data-sources", "sapmessaging_aem_queues"),
		map[string]string{"provider_test.tf": env.AEMProviderBlock("")})
	r := w.MustRun(0, "plan", "-input=false", "-no-color")
	if !acctest.Wrapped(`Queues that redeliver for ever: acme/aem/prod/legacy\.`).MatchString(r.Output) {
		t.Fatalf("the check does not name acme/aem/prod/legacy alone as the queue that redelivers for ever:\n%s", r.Output)
	}
}
