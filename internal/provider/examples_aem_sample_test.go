package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// aemExampleQueueRef finds the AEM queues an example reads or subscribes without creating them: the name
// of a sapmessaging_aem_queue data source and every literal queue_name, in a commented-out alternative as well.
var aemExampleQueueRef = regexp.MustCompile(`(?m)^[\s#]*(?:name|queue_name)\s*=\s*"([^"]+)"`)

// The Advanced Event Mesh examples that read queues they do not create read queues `make sandbox` holds
// (the emulator's sample content), so that each runs as shipped against the sandbox. TestAccExamples applies
// them against the sample content with nothing made out of band.
func TestAEMExamplesReadTheSandboxQueues(t *testing.T) {
	t.Parallel()
	sample := map[string]bool{}
	for _, q := range emulator.SampleAEMQueues {
		sample[q.Name] = true
	}
	for _, rel := range []string{
		"data-sources/sapmessaging_aem_queue/data-source.tf",
		"resources/sapmessaging_aem_queue_subscription/resource.tf",
		"resources/sapmessaging_aem_queue_subscription/import.sh",
		"resources/sapmessaging_aem_queue_subscription/import/import-by-identity.tf",
		"list-resources/sapmessaging_aem_queue_subscription/list-resource.tfquery.hcl",
	} {
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		refs := aemExampleQueueRef.FindAllSubmatch(b, -1)
		if rel == "resources/sapmessaging_aem_queue_subscription/import.sh" {
			refs = regexp.MustCompile(`'([^';]+);`).FindAllSubmatch(b, -1)
		}
		if len(refs) == 0 {
			t.Errorf("examples/%s: no queue name found", rel)
		}
		for _, m := range refs {
			if !sample[string(m[1])] {
				t.Errorf("examples/%s reads queue %q, which the sandbox's sample content does not hold", rel, m[1])
			}
		}
	}
}
