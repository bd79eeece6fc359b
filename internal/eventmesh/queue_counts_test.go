package eventmesh

import (
	"errors"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// QueueCounters answers from the cached queue list, which holds the message count, without a GET;
// a queue the list does not hold is read with one GET (404: ErrNotFound), and a list that fails is
// an error, not a queue without messages.
func TestQueueCountersFromTheList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	const name = "acme/crm/prod/counted"
	if _, _, err := e.mgmt.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](3)}); err != nil {
		t.Fatal(err)
	}
	if err := e.messaging.Publish(ctx, name, []byte(`{"id":1}`), "application/json"); err != nil {
		t.Fatal(err)
	}
	c := New(e.mgmt.HTTP()) // a fresh client, as a new provider run has
	lists, gets := e.routes("GET /queues"), e.routes("GET /queues/{queue}")
	for range 2 {
		q, err := c.QueueCounters(ctx, name)
		if err != nil || q.MessageCount == nil || *q.MessageCount != 1 {
			t.Fatalf("QueueCounters = %+v, %v, want a message count of 1", q, err)
		}
	}
	expectCount(t, "lists", e.routes("GET /queues")-lists, 1)
	expectCount(t, "GETs of a queue", e.routes("GET /queues/{queue}")-gets, 0)
	if _, err := c.QueueCounters(ctx, "acme/crm/prod/none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("QueueCounters of a missing queue: %v, want ErrNotFound", err)
	}
	expectCount(t, "GETs of a queue", e.routes("GET /queues/{queue}")-gets, 1)

	fresh := New(e.mgmt.HTTP())
	e.emu.InjectNextOn("GET /queues", emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500, emulator.Fault500)
	if q, err := fresh.QueueCounters(ctx, name); err == nil {
		t.Errorf("QueueCounters with a failing list = %+v, want an error", q)
	}
	e.emu.ClearFaults()
}
