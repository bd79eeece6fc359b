package eventmesh_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

func TestAccDeadMessageQueue_lifecycle(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const addr = "sapmessaging_dead_message_queue.dmq"
	const name = "acme/crm/prod/billing/dmq"
	hcl := func(ttl int) string {
		return env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name    = %q
  max_ttl = %d
}
`, name, ttl)
	}
	ctx := context.Background()
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: hcl(3600),
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectBool(addr, "respect_ttl", true),
				acctest.ExpectInt(addr, "max_ttl", 3600),
			},
			ConfigPlanChecks: acctest.EmptyPlanAfterApply(),
		},
		{
			// Someone switches off respect TTL in the cockpit: the DMQ would grow for ever, so the plan turns it back on.
			PreConfig: func() {
				em := env.EventMesh(t)
				q, err := em.GetQueue(ctx, name)
				if err != nil {
					t.Fatal(err)
				}
				off := false
				s := q.Settings()
				s.RespectTTL = &off
				if _, _, err := em.PutQueue(ctx, name, s); err != nil {
					t.Fatal(err)
				}
			},
			Config: hcl(3600),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate(addr),
					acctest.PlannedBool(addr, "respect_ttl", true),
				},
			},
		},
		{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true},
		{Config: hcl(0), PlanOnly: true, ExpectError: regexp.MustCompile(`Invalid Max TTL`)},
		{Config: hcl(604801), PlanOnly: true, ExpectError: regexp.MustCompile(`Invalid Max TTL`)},
		{Config: hcl(3600), PlanOnly: true},
	})
}

// A DMQ still named by a queue outside Terraform is not destroyed; once nothing names it, it goes.
func TestAccDeadMessageQueue_inUse(t *testing.T) {
	env := acctest.NewTestEnv(t)
	const name = "acme/crm/prod/shipping/dmq"
	ctx := context.Background()
	config := env.Configf(`
resource "sapmessaging_dead_message_queue" "dmq" {
  name = %q
}
`, name)
	acctest.ParallelTest(t, []resource.TestStep{
		{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				acctest.ExpectInt("sapmessaging_dead_message_queue.dmq", "max_ttl", 604800),
			},
		},
		{
			PreConfig: func() {
				five, dmq := int64(5), name
				if _, _, err := env.EventMesh(t).PutQueue(ctx, "acme/crm/prod/shipping", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &dmq}); err != nil {
					t.Fatal(err)
				}
			},
			Config:      config,
			Destroy:     true,
			ExpectError: regexp.MustCompile(`(?s)Dead Message Queue Still In Use.*acme/crm/prod/shipping`),
		},
		{
			PreConfig: func() {
				if err := env.EventMesh(t).DeleteQueue(ctx, "acme/crm/prod/shipping"); err != nil {
					t.Fatal(err)
				}
			},
			Config: config,
		},
	})
}
