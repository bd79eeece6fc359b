package framework

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// SameRawAttribute reports whether the objects a and b (a plan and a prior state as Terraform sends
// them) hold the same value at the top-level attribute name, reading the raw values without decoding
// either object into a model: a plan-time check that matters only when an attribute changed (the
// refusal of a queue's replacement, which a new `name` forces) answers the common case, a plan that
// keeps it, at the cost of two attribute lookups. False when either is null or not an object.
func SameRawAttribute(a, b tftypes.Value, name string) bool {
	if a.IsNull() || b.IsNull() || !a.IsKnown() || !b.IsKnown() {
		return false
	}
	var am, bm map[string]tftypes.Value
	if a.As(&am) != nil || b.As(&bm) != nil {
		return false
	}
	av, aok := am[name]
	bv, bok := bm[name]
	return aok && bok && av.Equal(bv)
}

// DeletedName is the `name` in the prior state of a plan that deletes the object so named: one that
// destroys the resource or gives it a new name; "" for any other plan.
func DeletedName(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) string {
	if req.State.Raw.IsNull() || SameRawAttribute(req.Plan.Raw, req.State.Raw, "name") {
		return ""
	}
	var name types.String
	diags.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	return name.ValueString()
}

// ForceDestroyInState reports whether the prior state of a plan holds force_destroy = true, reading the
// one attribute: a plan that destroys a queue decodes no more of its state. False after an error.
func ForceDestroyInState(ctx context.Context, req resource.ModifyPlanRequest, diags *diag.Diagnostics) bool {
	var force types.Bool
	d := req.State.GetAttribute(ctx, path.Root("force_destroy"), &force)
	diags.Append(d...)
	return !d.HasError() && force.ValueBool()
}
