package framework_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework/list"
)

// limitedResults stops at the limit and warns on the last result only when more were selected.
func TestLimitedResults(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name                 string
		limit, total         int64
		wantPushed           int
		wantWarningOnLastOne bool
	}{
		{"below the limit", 100, 50, 50, false},
		{"exactly the limit", 100, 100, 100, false},
		{"above the limit", 100, 110, 100, true},
		{"no limit", 0, 110, 110, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			lim := framework.LimitedResults{Limit: tt.limit, Total: tt.total, What: "queues"}
			var got []list.ListResult
			push := func(r list.ListResult) bool { got = append(got, r); return true }
			for range tt.total {
				if !lim.Push(push, list.ListResult{DisplayName: "q"}) {
					break
				}
			}
			if len(got) != tt.wantPushed {
				t.Fatalf("pushed %d results, want %d", len(got), tt.wantPushed)
			}
			for i, r := range got {
				warned := len(r.Diagnostics) > 0
				if want := tt.wantWarningOnLastOne && i == len(got)-1; warned != want {
					t.Errorf("result %d warns %v, want %v: %v", i, warned, want, r.Diagnostics)
				}
			}
		})
	}
}
