package framework

import (
	"context"
	"fmt"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// wholeNumberType is the type of the whole-number attributes. Terraform numbers can hold 1.5 or
// 1e20, which an int64 cannot: the framework's Int64Type then fails the conversion with "Value
// 1.5 is not an integer ... This is always an error in the provider". This type reads such a
// value as unknown, so that nothing acts on it, and its Validate, which the framework calls with
// the raw value and the attribute's path, refuses it with the attribute's range. Models keep
// types.Int64.
type wholeNumberType struct {
	basetypes.Int64Type
	lo, hi int64
}

var _ basetypes.Int64Typable = wholeNumberType{}

// WholeNumber returns the type of a whole-number attribute that accepts lo to hi.
func WholeNumber(lo, hi int64) wholeNumberType { return wholeNumberType{lo: lo, hi: hi} }

// Equal also accepts basetypes.Int64Type, the type of the values this type produces, so that
// objects holding those values (a resource's whole state) are accepted as of this type.
func (t wholeNumberType) Equal(o attr.Type) bool {
	switch other := o.(type) {
	case wholeNumberType:
		return other.lo == t.lo && other.hi == t.hi
	case basetypes.Int64Type:
		return true
	}
	return false
}

func (t wholeNumberType) String() string {
	return fmt.Sprintf("wholeNumberType(%d..%d)", t.lo, t.hi)
}

func (t wholeNumberType) ValueType(context.Context) attr.Value { return types.Int64{} }

func (t wholeNumberType) ValueFromInt64(_ context.Context, v basetypes.Int64Value) (basetypes.Int64Valuable, diag.Diagnostics) {
	return v, nil
}

// ValueFromTerraform reads a number that is no int64 as unknown; Validate reports it.
func (t wholeNumberType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	if in.IsKnown() && !in.IsNull() && in.Type().Equal(tftypes.Number) {
		var f *big.Float
		if err := in.As(&f); err == nil {
			if _, ok := wholeInt64(f); !ok {
				return types.Int64Unknown(), nil
			}
		}
	}
	return t.Int64Type.ValueFromTerraform(ctx, in)
}

func (t wholeNumberType) Validate(_ context.Context, in tftypes.Value, p path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	if in.Type() == nil || !in.Type().Equal(tftypes.Number) || !in.IsKnown() || in.IsNull() {
		return diags
	}
	var f *big.Float
	if err := in.As(&f); err != nil {
		return diags
	}
	if _, ok := wholeInt64(f); !ok {
		diags.AddAttributeError(p, "Invalid Whole Number", wholeNumberDetail(p.String(), f, t.lo, t.hi))
	}
	return diags
}

// wholeInt64 returns f as an int64, and whether it is a whole number that fits one.
func wholeInt64(f *big.Float) (int64, bool) {
	if f == nil || f.IsInf() || !f.IsInt() {
		return 0, false
	}
	n, acc := f.Int64()
	return n, acc == big.Exact
}

func wholeNumberDetail(name string, f *big.Float, lo, hi int64) string {
	return fmt.Sprintf("`%s = %s`: `%s` must be a whole number from %d to %d. Set `%s` to a whole number from %d to %d.",
		name, f.Text('g', -1), name, lo, hi, name, lo, hi)
}

// WholeArgument returns function argument i, named name, as an int64 when it is a whole number
// from lo to hi; otherwise it returns an error against the argument that says so, with why(n),
// when why is given and the number is whole, as the reason.
func WholeArgument(f *big.Float, i int, name string, lo, hi int64, why func(n int64) error) (int64, *function.FuncError) {
	n, ok := wholeInt64(f)
	if ok && n >= lo && n <= hi {
		return n, nil
	}
	detail := wholeNumberDetail(name, f, lo, hi)
	if ok && why != nil {
		if err := why(n); err != nil {
			detail = fmt.Sprintf("%s = %s: %s must be a whole number from %d to %d (%s). Set %s to a whole number from %d to %d.",
				name, f.Text('g', -1), name, lo, hi, Clause(err), name, lo, hi)
		}
	}
	// Terraform ends the message with a period of its own.
	return 0, function.NewArgumentFuncError(int64(i), strings.TrimSuffix(detail, "."))
}
