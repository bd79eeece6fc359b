package main

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

var factories = map[string]func() (tfprotov6.ProviderServer, error){
	"sapmessaging": providerserver.NewProtocol6WithError(newProvider()),
}

func queues(redeliveries int) string {
	return fmt.Sprintf(`
resource "sapmessaging_queue" "q" {
  count                = 3
  name                 = format("acme/crm/prod/bench/q%%04d", count.index)
  max_redelivery_count = %d
  dead_message_queue   = "acme/crm/prod/bench/dmq"
}
`, redeliveries)
}

// The bench's configuration creates, plans without changes and updates with the real CLI.
func TestNoAPIProvider_benchConfiguration(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: queues(5),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("sapmessaging_queue.q[2]", tfjsonpath.New("name"), knownvalue.StringExact("acme/crm/prod/bench/q0002")),
					statecheck.ExpectKnownValue("sapmessaging_queue.q[2]", tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(5)),
					statecheck.ExpectKnownValue("sapmessaging_queue.q[2]", tfjsonpath.New("max_queue_size_in_bytes"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue("sapmessaging_queue.q[2]", tfjsonpath.New("access_type"), knownvalue.StringExact("NON_EXCLUSIVE")),
				},
			},
			{
				Config: queues(6),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("sapmessaging_queue.q[0]", plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("sapmessaging_queue.q[0]", tfjsonpath.New("max_redelivery_count"), knownvalue.Int64Exact(6)),
				},
			},
			{
				Config:   queues(6),
				PlanOnly: true,
			},
		},
	})
}

// It has the real schema, so the plan-time attribute rules of the schema apply.
func TestNoAPIProvider_realSchema(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{{
			Config:      `resource "sapmessaging_queue" "q" { max_redelivery_count = 5 }`,
			ExpectError: regexp.MustCompile(`"name" is required`),
		}},
	})
}

func TestWaitFrom(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]time.Duration{"": 0, "100ms": 100 * time.Millisecond, "20ms": 20 * time.Millisecond, "-1s": 0, "soon": 0} {
		if got := waitFrom(v); got != want {
			t.Errorf("waitFrom(%q) = %s, want %s", v, got, want)
		}
	}
}

// With a wait set, a delete waits twice the wait (the real provider's GET and DELETE); without
// one it answers at once.
func TestDeleteWaitsAsForTwoCalls(t *testing.T) {
	t.Parallel()
	r := &queueResource{wait: 30 * time.Millisecond}
	begin := time.Now()
	r.Delete(context.Background(), fwresource.DeleteRequest{}, &fwresource.DeleteResponse{})
	if took := time.Since(begin); took < 60*time.Millisecond {
		t.Errorf("a delete with a wait of 30ms took %s, want at least 60ms", took)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = &queueResource{wait: time.Hour}
	r.Delete(ctx, fwresource.DeleteRequest{}, &fwresource.DeleteResponse{}) // returns: ctx has ended
}
