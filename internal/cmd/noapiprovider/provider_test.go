package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
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
  force_destroy        = true
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
					acctest.ExpectString("sapmessaging_queue.q[2]", "name", "acme/crm/prod/bench/q0002"),
					acctest.ExpectInt("sapmessaging_queue.q[2]", "max_redelivery_count", 5),
					acctest.ExpectInt("sapmessaging_queue.q[2]", "max_queue_size_in_bytes", 0),
					acctest.ExpectString("sapmessaging_queue.q[2]", "access_type", "NON_EXCLUSIVE"),
					acctest.ExpectBool("sapmessaging_queue.q[2]", "force_destroy", true),
				},
			},
			{
				Config: queues(6),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					acctest.ExpectUpdate("sapmessaging_queue.q[0]"),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectInt("sapmessaging_queue.q[0]", "max_redelivery_count", 6),
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

// With a wait set, a delete waits twice the wait (the real provider's GET and DELETE), once with
// force_destroy = true (the DELETE alone); without a wait it answers at once.
func TestDeleteWaitsAsForTheCalls(t *testing.T) {
	t.Parallel()
	const wait = time.Second // long beside a loaded machine's scheduling delays, which the bound below allows up to one wait
	ctx := context.Background()
	var sch fwresource.SchemaResponse
	(&noAPIProvider{}).Resources(ctx)[0]().Schema(ctx, fwresource.SchemaRequest{}, &sch)
	state := func(force bool) tfsdk.State {
		st := tfsdk.State{Schema: sch.Schema, Raw: tftypes.NewValue(sch.Schema.Type().TerraformType(ctx), nil)}
		if diags := st.SetAttribute(ctx, path.Root("force_destroy"), force); diags.HasError() {
			t.Fatal(diags)
		}
		return st
	}
	for _, tc := range []struct {
		req  fwresource.DeleteRequest
		want time.Duration
	}{
		{fwresource.DeleteRequest{}, 2 * wait},
		{fwresource.DeleteRequest{State: state(false)}, 2 * wait},
		{fwresource.DeleteRequest{State: state(true)}, wait},
	} {
		r := &queueResource{wait: wait}
		begin := time.Now()
		r.Delete(ctx, tc.req, &fwresource.DeleteResponse{})
		if took := time.Since(begin); took < tc.want || took >= tc.want+wait {
			t.Errorf("a delete with a wait of %s took %s, want %s", wait, took, tc.want)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	r := &queueResource{wait: time.Hour}
	r.Delete(cctx, fwresource.DeleteRequest{}, &fwresource.DeleteResponse{}) // returns: ctx has ended
}

// The bench's AEM section: queues naming a dead message queue, created and planned without changes.
func TestNoAPIProvider_aemConfiguration(t *testing.T) {
	t.Parallel()
	config := `
resource "sapmessaging_aem_dead_message_queue" "dmq" {
  name            = "bench.aem.dmq"
  respect_ttl     = true
  max_ttl         = 604800
  ingress_enabled = true
}

resource "sapmessaging_aem_queue" "q" {
  count                    = 3
  name                     = format("bench.aem.q%04d", count.index)
  max_redelivery_count     = 5
  dead_message_queue       = sapmessaging_aem_dead_message_queue.dmq.name
  respect_ttl              = false
  max_ttl                  = 0
  redelivery_delay_enabled = true
  ingress_enabled          = true
  egress_enabled           = true
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: factories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.ExpectString("sapmessaging_aem_queue.q[2]", "name", "bench.aem.q0002"),
					acctest.ExpectString("sapmessaging_aem_queue.q[2]", "dead_message_queue", "bench.aem.dmq"),
					acctest.ExpectInt("sapmessaging_aem_dead_message_queue.dmq", "max_ttl", 604800),
				},
			},
			{Config: config, PlanOnly: true},
		},
	})
}

// With a call URL, each create and update makes one GET of it, and a process its list call once
// more: the calls the provider makes, without its work.
func TestNoAPIProvider_calls(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		calls.Add(1)
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	t.Setenv(envCall, srv.URL)
	var creates int64
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"sapmessaging": providerserver.NewProtocol6WithError(newProvider()),
		},
		Steps: []resource.TestStep{
			{
				Config: queues(5),
				Check: func(*terraform.State) error {
					creates = calls.Load()
					if creates != 3+1 {
						return fmt.Errorf("%d calls for 3 creates, want 3 and the list", creates)
					}
					return nil
				},
			},
		},
	})
	if creates == 0 {
		t.Fatal("no call was counted")
	}
}
