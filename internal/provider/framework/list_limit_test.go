package framework_test

import (
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"
	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
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

// Each queue is listed by exactly one of the two queue list resources, by what it is.
func TestListedAsDeadMessageQueue(t *testing.T) {
	t.Parallel()
	i64 := func(v int64) *int64 { return &v }
	str := func(v string) *string { return &v }
	for _, tt := range []struct {
		name  string
		q     eventmesh.QueueSettings
		users []string
		want  bool
	}{
		{"named by nobody", eventmesh.QueueSettings{}, nil, false},
		{"named, no redelivery count, no dead message queue", eventmesh.QueueSettings{}, []string{"a/b/c/orders"}, true},
		{"named, redelivery count 0", eventmesh.QueueSettings{MaxRedeliveryCount: i64(0), DeadMsgQueue: str("")}, []string{"a/b/c/orders"}, true},
		{"named, with a redelivery count", eventmesh.QueueSettings{MaxRedeliveryCount: i64(3)}, []string{"a/b/c/orders"}, false},
		{"named, with a dead message queue of its own", eventmesh.QueueSettings{DeadMsgQueue: str("a/b/c/dmq")}, []string{"a/b/c/orders"}, false},
		{"chained error queue", eventmesh.QueueSettings{MaxRedeliveryCount: i64(2), DeadMsgQueue: str("a/b/c/dmq")}, []string{"a/b/c/orders"}, false},
	} {
		q := eventmesh.Queue{Name: "a/b/c/errors", QueueSettings: tt.q}
		if got := tfeventmesh.ListedAsDeadMessageQueue(&q, tt.users); got != tt.want {
			t.Errorf("%s: listed as dead message queue %v, want %v", tt.name, got, tt.want)
		}
	}
}
