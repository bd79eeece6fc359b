package acctest

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// GoValue is the primitive v as Go holds it: nil when v is null, a string, a bool, or an int64 for a
// whole number; any other value is its String form. A value that does not convert fails the test.
func GoValue(tb testing.TB, v tftypes.Value) any {
	tb.Helper()
	if v.IsNull() {
		return nil
	}
	var err error
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		if err = v.As(&s); err == nil {
			return s
		}
	case v.Type().Is(tftypes.Bool):
		var b bool
		if err = v.As(&b); err == nil {
			return b
		}
	case v.Type().Is(tftypes.Number):
		var f big.Float
		if err = v.As(&f); err == nil {
			if n, acc := f.Int64(); acc == big.Exact {
				return n
			}
			return v.String()
		}
	default:
		return v.String()
	}
	tb.Fatalf("reading %s: %v", v, err)
	return nil
}
