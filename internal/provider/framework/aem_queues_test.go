package framework_test

import (
	"strings"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// An AEM queue that names, at plan, a dead message queue the same plan deletes is refused whichever of
// the two Terraform plans first; a queue deleted as well, or one naming another queue, is not.
func TestAEMPlanQueueDeletion(t *testing.T) {
	t.Parallel()
	const dmq, q = "acme/aem/f3/d", "acme/aem/f3/q"
	refused := func(diags diag.Diagnostics, onQueue bool) bool {
		for _, d := range diags {
			_, onAttr := d.(diag.DiagnosticWithPath)
			if d.Summary() == "Dead Message Queue Destroyed" && onAttr == onQueue && strings.Contains(d.Detail(), `destroys the queue "`+dmq+`"`) {
				return true
			}
		}
		return false
	}
	var diags diag.Diagnostics
	d := &framework.ProviderData{}
	d.AEMPlanLink(q, dmq, &diags)
	d.AEMPlanQueueDeletion(dmq, &diags)
	if !refused(diags, false) {
		t.Errorf("queue first: the delete was not refused: %v", diags)
	}

	diags, d = nil, &framework.ProviderData{}
	d.AEMPlanQueueDeletion(dmq, &diags)
	d.AEMPlanLink(q, dmq, &diags)
	if !refused(diags, true) {
		t.Errorf("delete first: the queue was not refused: %v", diags)
	}

	// A queue whose name is known only at apply, planned first, then last.
	diags, d = nil, &framework.ProviderData{}
	d.AEMPlanLink("", dmq, &diags)
	d.AEMPlanQueueDeletion(dmq, &diags)
	if !refused(diags, false) || !strings.Contains(diags[0].Detail(), "name known only at apply") {
		t.Errorf("unknown name first: the delete was not refused: %v", diags)
	}

	diags, d = nil, &framework.ProviderData{}
	d.AEMPlanQueueDeletion(dmq, &diags)
	d.AEMPlanLink("", dmq, &diags)
	if !refused(diags, true) || !strings.Contains(diags[0].Detail(), `"<name known only at apply #1>" names it`) {
		t.Errorf("unknown name last: the queue was not refused: %v", diags)
	}

	diags, d = nil, &framework.ProviderData{}
	d.AEMPlanLink(q, dmq, &diags)
	d.AEMPlanQueueDeletion(q, &diags)
	d.AEMPlanLink("acme/aem/f3/other", "acme/aem/f3/kept", &diags)
	d.AEMPlanQueueDeletion(dmq, &diags)
	if diags.HasError() {
		t.Errorf("both deleted, or another queue named: %v", diags)
	}
}
