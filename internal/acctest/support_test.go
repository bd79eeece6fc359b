package acctest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// TestCheckEmulator holds CheckEmulator to the check it shortens: it passes the state by and returns check's error.
func TestCheckEmulator(t *testing.T) {
	t.Parallel()
	calls := 0
	want := errors.New("the emulator holds 2 queues, want 3")
	check := CheckEmulator(func() error { calls++; return want })
	if err := check(&terraform.State{}); !errors.Is(err, want) || calls != 1 {
		t.Errorf("CheckEmulator's check returned %v after %d calls, want %v after 1", err, calls, want)
	}
	if err := CheckEmulator(func() error { return nil })(nil); err != nil {
		t.Errorf("CheckEmulator's check of a passing check returned %v", err)
	}
}

// TestChangeBeforeApply holds ChangeBeforeApply to the plan checks it shortens: one ChangeOnTenant before the apply
// that makes the change (a function compares equal only to nil, so the check is run).
func TestChangeBeforeApply(t *testing.T) {
	t.Parallel()
	changed := 0
	got := ChangeBeforeApply(func() error { changed++; return nil })
	if len(got.PreApply) != 1 || got.PostApplyPreRefresh != nil || got.PostApplyPostRefresh != nil {
		t.Fatalf("ChangeBeforeApply = %#v, want one check before the apply", got)
	}
	change, ok := got.PreApply[0].(ChangeOnTenant)
	if !ok {
		t.Fatalf("ChangeBeforeApply's check is a %T, want a ChangeOnTenant", got.PreApply[0])
	}
	if err := change(); err != nil || changed != 1 {
		t.Errorf("ChangeBeforeApply's check returned %v after %d changes, want nil after 1", err, changed)
	}
}

// TestExpectUpdatesThenEmptyPlan holds ExpectUpdatesThenEmptyPlan to the plan checks it shortens.
func TestExpectUpdatesThenEmptyPlan(t *testing.T) {
	t.Parallel()
	a, b := "sapmessaging_iflow_deployment.a", "sapmessaging_iflow_deployment.b"
	want := resource.ConfigPlanChecks{
		PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(a, plancheck.ResourceActionUpdate),
			plancheck.ExpectResourceAction(b, plancheck.ResourceActionUpdate),
		},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	if got := ExpectUpdatesThenEmptyPlan(a, b); !reflect.DeepEqual(got, want) {
		t.Errorf("ExpectUpdatesThenEmptyPlan = %#v, want %#v", got, want)
	}
	if got := ExpectUpdatesThenEmptyPlan(); len(got.PreApply) != 0 || !reflect.DeepEqual(got.PostApplyPostRefresh, want.PostApplyPostRefresh) {
		t.Errorf("ExpectUpdatesThenEmptyPlan() = %#v, want no check before the apply and an empty plan after it", got)
	}
}
