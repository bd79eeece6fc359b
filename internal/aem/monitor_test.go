package aem_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
)

// The counters of every queue come in pages of 100 (here 2 requests for 150 queues), each queue's counters
// as the broker holds them; one queue's counters in one request; a missing queue matches ErrNotFound.
func TestQueueStats(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	for i := range 149 {
		if _, err := e.c.CreateQueue(ctx, aem.Queue{Name: fmt.Sprintf("q%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.c.CreateQueue(ctx, aem.Queue{Name: "acme/orders#1", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
		t.Fatal(err)
	}
	e.publish("acme/orders#1", 4)

	before := e.c.HTTP().Stats().Requests
	all, err := e.c.ListQueueStats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if calls := e.c.HTTP().Stats().Requests - before; len(all) != 150 || calls != 2 {
		t.Fatalf("%d queues in %d requests, want 150 in 2", len(all), calls)
	}
	want := aem.QueueStats{Name: "acme/orders#1", SpooledMsgCount: 4, MsgSpoolUsage: 4 * int64(len("poison"))}
	if all[0] != want {
		t.Errorf("first queue: %+v, want %+v", all[0], want)
	}
	if all[1] != (aem.QueueStats{Name: "q000"}) {
		t.Errorf("second queue: %+v, want q000 empty", all[1])
	}

	one, err := e.c.GetQueueStats(ctx, "acme/orders#1")
	if err != nil || *one != want {
		t.Errorf("GetQueueStats: %+v, %v; want %+v", one, err, want)
	}
	if _, err := e.c.GetQueueStats(ctx, "gone"); !errors.Is(err, aem.ErrNotFound) {
		t.Errorf("missing queue: %v, want ErrNotFound", err)
	}
}
