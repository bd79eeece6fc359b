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

// An AEM queue re-pointed to a dead message queue that the same plan destroys is refused at plan, in
// whichever order Terraform plans the two (the queue names it by its text, so nothing orders them):
// the delete's check that no queue names the dead message queue may run before the queue's write, and
// the queue would name a deleted queue, where a message that uses up its redeliveries is dropped.
func TestAccAEMQueue_deadMessageQueueDestroyedByTheSamePlan(t *testing.T) {
	env := acctest.NewTestEnv(t)
	cfg := func(stage int) string {
		d, dmq := `
resource "sapmessaging_aem_dead_message_queue" "d" {
  name = "acme/aem/f3/d"
}
`, "sapmessaging_aem_dead_message_queue.d0.name"
		if stage == 2 {
			d, dmq = "", `"acme/aem/f3/d"`
		}
		return env.AEMConfig(fmt.Sprintf(`
resource "sapmessaging_aem_dead_message_queue" "d0" {
  name = "acme/aem/f3/d0"
}
%s
resource "sapmessaging_aem_queue" "q" {
  name                 = "acme/aem/f3/q"
  max_redelivery_count = 3
  dead_message_queue   = %s
}
`, d, dmq))
	}
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: cfg(1)},
		{
			Config:      cfg(2),
			ExpectError: acctest.Wrapped(`Error: Dead Message Queue Destroyed .*This plan destroys the queue "acme/aem/f3/d".*"acme/aem/f3/q" names it as its dead message queue`),
		},
		{
			PreConfig: func() {
				q := env.AEM(t)
				if _, err := q.GetQueue(t.Context(), "acme/aem/f3/d"); err != nil {
					t.Fatalf("the refused plan's dead message queue: %v", err)
				}
				if got, err := q.GetQueue(t.Context(), "acme/aem/f3/q"); err != nil || got.DeadMsgQueue == nil || *got.DeadMsgQueue != "acme/aem/f3/d0" {
					t.Fatalf("the queue was changed by the refused plan: %+v %v", got, err)
				}
			},
			Config: cfg(1),
		},
	})
}

// A queue whose name is known only at apply has its dead message queue checked at plan as well: one that the
// same plan destroys is refused.
func TestAccAEMQueue_unknownNameDeadMessageQueueDestroyed(t *testing.T) {
	env := acctest.NewTestEnv(t)
	dmq := `
resource "sapmessaging_aem_dead_message_queue" "d" {
  name = "acme/aem/f3u/d"
}
`
	queue := `
resource "terraform_data" "name" {
  input = "acme/aem/f3u/q"
}

resource "sapmessaging_aem_queue" "q" {
  name                 = terraform_data.name.output
  max_redelivery_count = 3
  dead_message_queue   = "acme/aem/f3u/d"
}
`
	acctest.ParallelTest(t, []acc.TestStep{
		{Config: env.AEMConfig(dmq)},
		{
			Config:      env.AEMConfig(queue),
			ExpectError: acctest.Wrapped(`Error: Dead Message Queue Destroyed .*This plan destroys the queue "acme/aem/f3u/d"`),
		},
		{Config: env.AEMConfig(dmq)},
	})
}
