package eventmesh

import (
	"fmt"
	"slices"
	"testing"
)

// SubscriptionsOf makes one call per queue, keeps the order of the queues, and lists nothing for
// a queue that no longer exists.
func TestSubscriptionsOf(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	var queues []string
	for i := range 12 {
		q := fmt.Sprintf("%s/q%02d", e.key.Namespace, i)
		queues = append(queues, q)
		if _, _, err := e.mgmt.PutQueue(ctx, q, QueueSettings{}); err != nil {
			t.Fatal(err)
		}
		for j := range i % 3 {
			if err := e.mgmt.PutSubscription(ctx, q, fmt.Sprintf("%s/t%d/*", e.key.Namespace, j)); err != nil {
				t.Fatal(err)
			}
		}
	}
	queues = append(queues, e.key.Namespace+"/gone")
	e.emu.ResetStats()
	got, err := e.mgmt.SubscriptionsOf(ctx, queues, 4)
	if err != nil {
		t.Fatal(err)
	}
	if n := e.routes("GET /queues/{queue}/subscriptions"); n != int64(len(queues)) {
		t.Errorf("calls = %d, want %d (one per queue)", n, len(queues))
	}
	for i := range 12 {
		var topics []string
		for _, s := range got[i] {
			topics = append(topics, s.TopicPattern)
		}
		want := []string{}
		for j := range i % 3 {
			want = append(want, fmt.Sprintf("%s/t%d/*", e.key.Namespace, j))
		}
		if !slices.Equal(topics, want) && (len(topics) != 0 || len(want) != 0) {
			t.Errorf("queue %d: topics %q, want %q", i, topics, want)
		}
	}
	if g := got[12]; g == nil || len(g) != 0 {
		t.Errorf("a missing queue lists %v, want none", g)
	}
}
