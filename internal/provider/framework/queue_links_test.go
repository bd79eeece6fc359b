package framework_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

// The check before a write sees the queues the service holds and the links of this run, takes
// one GET /queues per run, and reports chains only at plan.
func TestCheckDMQLinks(t *testing.T) {
	t.Parallel()
	env := acctest.NewTestEnv(t)
	ctx := context.Background()
	five, a := int64(5), "acme/crm/prod/a"
	// Event Mesh refuses a dead message queue that does not exist: a first, then b → a.
	if _, _, err := env.EventMesh(t).PutQueue(ctx, a, eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := env.EventMesh(t).PutQueue(ctx, "acme/crm/prod/b", eventmesh.QueueSettings{MaxRedeliveryCount: &five, DeadMsgQueue: &a}); err != nil {
		t.Fatal(err)
	}
	env.Srv.ResetStats()
	d := &framework.ProviderData{EventMesh: env.EventMesh(t)}

	var diags diag.Diagnostics
	if d.CheckDMQLinks(ctx, "acme/crm/prod/a", "acme/crm/prod/b", false, &diags) || !strings.Contains(queueLinksDiagText(diags), "acme/crm/prod/a → acme/crm/prod/b → acme/crm/prod/a") {
		t.Fatalf("a → b with b → a on the service: %s", queueLinksDiagText(diags))
	}

	// Links of the run: c → d, then d → c closes a cycle.
	diags = nil
	if !d.CheckDMQLinks(ctx, "acme/crm/prod/c", "acme/crm/prod/d", false, &diags) || diags.HasError() {
		t.Fatalf("c → d alone: %s", queueLinksDiagText(diags))
	}
	if d.CheckDMQLinks(ctx, "acme/crm/prod/d", "acme/crm/prod/c", false, &diags) {
		t.Fatalf("d → c after c → d was not refused: %s", queueLinksDiagText(diags))
	}

	// A chain warns at plan only.
	diags = nil
	d.CheckDMQLinks(ctx, "acme/crm/prod/x", "acme/crm/prod/b", false, &diags)
	if len(diags) != 0 {
		t.Fatalf("chain before a write: %s", queueLinksDiagText(diags))
	}
	d.CheckDMQLinks(ctx, "acme/crm/prod/y", "acme/crm/prod/b", true, &diags)
	if diags.WarningsCount() != 1 || !strings.Contains(queueLinksDiagText(diags), "Dead Message Queue Chain") {
		t.Fatalf("chain at plan: %s", queueLinksDiagText(diags))
	}
	if n := env.Srv.Stats().Routes["GET /queues"]; n != 1 {
		t.Errorf("%d GET /queues for one run, want 1", n)
	}
}

func queueLinksDiagText(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary() + ": " + d.Detail() + "\n")
	}
	return b.String()
}

// A queue that names, at plan, a dead message queue the same plan deletes is refused whichever of the
// two Terraform plans first: the delete refuses a queue planned before it, and the queue planned after
// the delete is refused by its link's check, new (CheckDMQLinks) or kept (RecordDMQLink). A queue that
// the plan deletes as well, or that names another queue, is not.
func TestPlanQueueDeletion(t *testing.T) {
	t.Parallel()
	env := acctest.NewTestEnv(t)
	ctx := context.Background()
	const dmq, q = "acme/crm/prod/f3/d", "acme/crm/prod/f3/q"
	five := int64(5)
	if _, _, err := env.EventMesh(t).PutQueue(ctx, dmq, eventmesh.QueueSettings{MaxRedeliveryCount: &five}); err != nil {
		t.Fatal(err)
	}
	refused := func(diags diag.Diagnostics, onQueue bool) bool {
		t.Helper()
		for _, d := range diags {
			if d.Summary() != "Dead Message Queue Destroyed" {
				continue
			}
			_, onAttr := d.(diag.DiagnosticWithPath)
			return onAttr == onQueue && strings.Contains(d.Detail(), `destroys the queue "`+dmq+`"`)
		}
		return false
	}
	for _, tc := range []struct {
		name string
		plan func(d *framework.ProviderData, diags *diag.Diagnostics)
	}{
		{"new link", func(d *framework.ProviderData, diags *diag.Diagnostics) { d.CheckDMQLinks(ctx, q, dmq, true, diags) }},
		{"kept link", func(d *framework.ProviderData, diags *diag.Diagnostics) { d.RecordDMQLink(q, dmq, diags) }},
	} {
		for _, queueFirst := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s, queue first %t", tc.name, queueFirst), func(t *testing.T) {
				t.Parallel()
				d := &framework.ProviderData{EventMesh: env.EventMesh(t)}
				var diags diag.Diagnostics
				first, second := func() { tc.plan(d, &diags) }, func() { d.PlanQueueDeletion(dmq, &diags) }
				if !queueFirst {
					first, second = second, first
				}
				first()
				if diags.HasError() {
					t.Fatalf("the first plan alone: %s", queueLinksDiagText(diags))
				}
				second()
				// The second of the two gets the error: the delete without a path, the queue on dead_message_queue.
				if !refused(diags, !queueFirst) {
					t.Fatalf("the second plan was not refused: %s", queueLinksDiagText(diags))
				}
			})
		}
	}
	t.Run("both deleted, or another queue named", func(t *testing.T) {
		t.Parallel()
		d := &framework.ProviderData{EventMesh: env.EventMesh(t)}
		var diags diag.Diagnostics
		d.RecordDMQLink(q, dmq, &diags)
		d.PlanQueueDeletion(q, &diags)
		d.RecordDMQLink("acme/crm/prod/f3/other", "acme/crm/prod/f3/kept", &diags)
		d.PlanQueueDeletion(dmq, &diags)
		if diags.HasError() {
			t.Fatalf("refused: %s", queueLinksDiagText(diags))
		}
	})
}
