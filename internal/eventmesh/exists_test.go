package eventmesh

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// Checking 250 queues before creating each of them, 10 at a time, costs one GET /queues in all:
// the client's own writes update what it knows instead of listing the queues again.
func TestQueueExistsListsOnceForManyCreates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	other := "acme/crm/prod/made/in/cockpit"
	if _, _, err := e.mgmt.PutQueue(ctx, other, QueueSettings{MaxRedeliveryCount: ptr[int64](2)}); err != nil {
		t.Fatal(err)
	}
	// A fresh client, as a new provider run has.
	c := New(e.mgmt.HTTP())
	lists, gets := e.routes("GET /queues"), e.routes("GET /queues/{queue}")

	const n = 249 // the emulator's limit of 250 queues, with the one above
	sem := make(chan struct{}, 10)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			name := fmt.Sprintf("acme/crm/prod/many/q%03d", i)
			exists, err := c.QueueExists(ctx, name)
			if err != nil || exists {
				t.Errorf("QueueExists(%s) = %t, %v before its create", name, exists, err)
				return
			}
			if _, _, err := c.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](3)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := e.routes("GET /queues") - lists; got != 1 {
		t.Errorf("queue lists for %d checked creates = %d, want 1", n, got)
	}
	if got := e.routes("GET /queues/{queue}") - gets; got != 0 {
		t.Errorf("single GETs = %d, want 0", got)
	}

	// What the client wrote or deleted, and what the list showed, it answers without a request.
	before := e.emu.Stats().ManagementCalls
	for name, want := range map[string]bool{other: true, "acme/crm/prod/many/q007": true, "acme/crm/prod/nowhere": false} {
		if got, err := c.QueueExists(ctx, name); err != nil || got != want {
			t.Errorf("QueueExists(%s) = %t, %v; want %t", name, got, err, want)
		}
	}
	if err := c.DeleteQueue(ctx, "acme/crm/prod/many/q007"); err != nil {
		t.Fatal(err)
	}
	if got, err := c.QueueExists(ctx, "acme/crm/prod/many/q007"); err != nil || got {
		t.Errorf("QueueExists after the delete = %t, %v; want false", got, err)
	}
	if got := e.emu.Stats().ManagementCalls - before; got != 1 {
		t.Errorf("management calls for 4 checks and a delete = %d, want 1 (the delete)", got)
	}
}

// A write whose outcome is unknown makes the next check of that queue ask the service.
func TestQueueExistsAsksAfterUnknownOutcome(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	c := New(e.mgmt.HTTP())
	name := "acme/crm/prod/unknown"
	if exists, err := c.QueueExists(ctx, name); err != nil || exists {
		t.Fatalf("QueueExists = %t, %v", exists, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := c.PutQueue(cctx, name, QueueSettings{}); err == nil {
		t.Fatal("a PUT with a cancelled context succeeded")
	}
	// Someone else creates it meanwhile; the client must not answer from its list.
	if _, _, err := e.mgmt.PutQueue(ctx, name, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	gets := e.routes("GET /queues/{queue}")
	if exists, err := c.QueueExists(ctx, name); err != nil || !exists {
		t.Errorf("QueueExists after an unknown write = %t, %v; want true", exists, err)
	}
	if got := e.routes("GET /queues/{queue}") - gets; got != 1 {
		t.Errorf("single GETs = %d, want 1", got)
	}
}
