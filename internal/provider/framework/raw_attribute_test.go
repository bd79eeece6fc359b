package framework

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestSameRawAttribute(t *testing.T) {
	t.Parallel()
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "n": tftypes.Number}}
	obj := func(name string, n int64) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, name), "n": tftypes.NewValue(tftypes.Number, n)})
	}
	for _, tc := range []struct {
		what string
		a, b tftypes.Value
		want bool
	}{
		{"same name, other attribute changed", obj("q", 1), obj("q", 2), true},
		{"new name", obj("q", 1), obj("r", 1), false},
		{"destroy: null plan", tftypes.NewValue(typ, nil), obj("q", 1), false},
		{"create: null state", obj("q", 1), tftypes.NewValue(typ, nil), false},
		{"unknown plan", tftypes.NewValue(typ, tftypes.UnknownValue), obj("q", 1), false},
		{"unknown name", tftypes.NewValue(typ, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "n": tftypes.NewValue(tftypes.Number, 1)}), obj("q", 1), false},
	} {
		if got := SameRawAttribute(tc.a, tc.b, "name"); got != tc.want {
			t.Errorf("%s: SameRawAttribute = %v, want %v", tc.what, got, tc.want)
		}
	}
	if SameRawAttribute(obj("q", 1), obj("q", 1), "missing") {
		t.Error("an attribute neither object has counts as the same")
	}
}
