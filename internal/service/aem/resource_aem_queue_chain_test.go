package aem_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	acc "github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// A queue that a sapmessaging_aem_queue of the same configuration creates counts as a dead message queue when
// dead_message_queue refers to that resource's name (chained dead message queues), as one a
// sapmessaging_aem_dead_message_queue creates does; with its ingress off it takes nothing, and the plan says so
// rather than that it does not exist.
func TestAccAEMQueue_chainedDeadMessageQueueCreatedHere(t *testing.T) {
	env := acctest.NewTestEnv(t)
	cfg := func(ingress bool) string {
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "c" {
  name = "acme/aem/chain/c"
}

resource "sapmessaging_aem_queue" "b" {
  name                     = "acme/aem/chain/b"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = sapmessaging_aem_dead_message_queue.c.name
  ingress_enabled          = %t
}

resource "sapmessaging_aem_queue" "a" {
  name                     = "acme/aem/chain/a"
  max_redelivery_count     = 3
  redelivery_delay_enabled = true
  dead_message_queue       = sapmessaging_aem_queue.b.name
}
`, ingress))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg(true), PlanOnly: true, ExpectNonEmptyPlan: true},
		{Config: cfg(false), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Takes No Messages.*acme/aem/chain/b`)},
	})
}
