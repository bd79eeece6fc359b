package framework_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/acctest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// The creates reserve the names again, whatever the plans did: the second create of a name in
// one run is refused before it writes, and a name is free in the next run.
func TestReserveQueueCreate(t *testing.T) {
	t.Parallel()
	var d framework.ProviderData
	var diags diag.Diagnostics
	if !d.ReserveQueueCreate("sapmessaging_queue", "acme/crm/prod/x", &diags) || diags.HasError() {
		t.Fatalf("first create refused: %v", diags)
	}
	if !d.ReserveQueueCreate("sapmessaging_queue", "acme/crm/prod/y", &diags) || diags.HasError() {
		t.Fatalf("another name refused: %v", diags)
	}
	if d.ReserveQueueCreate("sapmessaging_dead_message_queue", "acme/crm/prod/x", &diags) || !diags.HasError() {
		t.Fatal("second create of one name in one run was not refused")
	}
	if got := diags[0].Detail(); !acctest.Wrapped(`create the queue "acme/crm/prod/x" in this apply: this sapmessaging_dead_message_queue resource and a sapmessaging_queue resource`).MatchString(got) {
		t.Errorf("detail = %s", got)
	}
	var next framework.ProviderData
	diags = nil
	if !next.ReserveQueueCreate("sapmessaging_queue", "acme/crm/prod/x", &diags) {
		t.Errorf("the next run refused the name: %v", diags)
	}
}
