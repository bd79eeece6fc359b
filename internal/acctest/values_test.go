package acctest

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestGoValue(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    tftypes.Value
		want any
	}{
		{tftypes.NewValue(tftypes.String, nil), nil},
		{tftypes.NewValue(tftypes.String, "acme/crm/prod/orders"), "acme/crm/prod/orders"},
		{tftypes.NewValue(tftypes.Bool, true), true},
		{tftypes.NewValue(tftypes.Number, big.NewFloat(1572864000)), int64(1572864000)},
		{tftypes.NewValue(tftypes.Number, big.NewFloat(1.5)), tftypes.NewValue(tftypes.Number, big.NewFloat(1.5)).String()},
		{tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{}), tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{}).String()},
	} {
		if got := GoValue(t, tc.v); got != tc.want {
			t.Errorf("GoValue(%s) = %#v, want %#v", tc.v, got, tc.want)
		}
	}
}
