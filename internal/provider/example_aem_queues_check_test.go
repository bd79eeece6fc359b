package provider

import (
	"path/filepath"
	"testing"
)

// The check of the sapmessaging_aem_queues example, applied as shipped against the sandbox's sample content,
// names only the queue that redelivers for ever (acme/aem/prod/legacy): the dead message queues of the sample
// (R = 0, no dead message queue of their own, named by another queue) are inspected, not consumed, and are
// not named.
func TestAccAEMQueuesExample_checkSkipsDeadMessageQueues(t *testing.T) {
	tf := terraformCLI(t)
	t.Parallel()
	env := newTestEnv(t)
	if err := env.srv.LoadSampleContent(); err != nil {
		t.Fatal(err)
	}
	plugins := filepath.Join(t.TempDir(), "plugins")
	buildProvider(t, plugins)
	dir := filepath.Join(t.TempDir(), "example")
	copyTree(t, filepath.Join("..", "..", "examples", "data-sources", "sapmessaging_aem_queues"), dir)
	writeFile(t, filepath.Join(dir, "provider_test.tf"), env.aemProviderBlock(""))
	w := newCLIWorkspace(t, tf, plugins, dir, env)
	r := w.mustRun(0, "plan", "-input=false", "-no-color")
	if !wrapped(`Queues that redeliver for ever: acme/aem/prod/legacy\.`).MatchString(r.output) {
		t.Fatalf("the check does not name acme/aem/prod/legacy alone as the queue that redelivers for ever:\n%s", r.output)
	}
}
