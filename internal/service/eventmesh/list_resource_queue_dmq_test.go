package eventmesh_test

import (
	"testing"

	tfeventmesh "github.com/sapmessaging/terraform-provider-sapmessaging/internal/service/eventmesh"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
)

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
