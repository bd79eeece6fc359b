package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// A plain sapmessaging_queue that another queue names as its dead message queue is not deleted
// while it is named: the other queue would point at nothing and its dead messages would vanish.
func TestAccDeletionGuard_plainQueueUsedAsDMQ(t *testing.T) {
	env := newTestEnv(t)
	const (
		name  = "acme/crm/prod/returns/parking"
		other = "acme/crm/prod/returns"
	)
	ctx := context.Background()
	config := env.configf(`
resource "sapmessaging_queue" "parking" {
  name                 = %q
  max_redelivery_count = 5
}
`, name)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					// Another team's queue, outside this state, uses the queue as its DMQ.
					five, dmq := int64(5), name
					_, _, err := env.eventMesh(t).PutQueue(ctx, other, eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq})
					return err
				},
			},
			{
				Config:      config,
				Destroy:     true,
				ExpectError: wrapped(`Dead Message Queue Still In Use .*` + other + `.*create_before_destroy`),
			},
			{
				Config: config,
				Check: func(*terraform.State) error {
					if _, ok := env.srv.Queue(name); !ok {
						return fmt.Errorf("the queue named as dead message queue was deleted")
					}
					return env.eventMesh(t).DeleteQueue(ctx, other)
				},
			},
		},
		CheckDestroy: func(*terraform.State) error {
			if _, ok := env.srv.Queue(name); ok {
				return fmt.Errorf("the queue still exists once nothing names it")
			}
			return nil
		},
	})
}

// messageCount counts every message in the queue, the unacknowledged ones included: one message
// consumed and not yet acknowledged is one message, not two.
func TestAccDeletionGuard_messageCount(t *testing.T) {
	env := newTestEnv(t)
	const name = "acme/crm/prod/refunds"
	config := env.configf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 5
  force_destroy        = %t
}
`, name, false)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: func(*terraform.State) error {
					ctx := context.Background()
					m := env.messaging(t)
					if err := m.Publish(ctx, name, []byte(`{"id":1}`), "application/json"); err != nil {
						return err
					}
					msg, err := m.Consume(ctx, name)
					if err != nil || msg == nil {
						return fmt.Errorf("consuming the message: %v", err)
					}
					return nil
				},
			},
			{
				Config:      config,
				Destroy:     true,
				ExpectError: wrapped(`Queue Holds Messages .*holds 1 message\(s\), 1 of them delivered and not yet acknowledged`),
			},
			{Config: env.configf(`
resource "sapmessaging_queue" "q" {
  name                 = %q
  max_redelivery_count = 5
  force_destroy        = true
}
`, name)},
		},
	})
}
