package eventmesh

import "testing"

func TestSnapshotQueuesSortedCopies(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	for _, n := range []string{"acme/crm/prod/b", "acme/crm/prod/a"} {
		if _, _, err := e.mgmt.PutQueue(ctx, n, QueueSettings{MaxRedeliveryCount: ptr[int64](3)}); err != nil {
			t.Fatal(err)
		}
	}
	s, err := e.mgmt.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	qs := s.Queues()
	if len(qs) != 2 || qs[0].Name != "acme/crm/prod/a" || qs[1].Name != "acme/crm/prod/b" || *qs[0].MaxRedeliveryCount != 3 {
		t.Fatalf("Queues() = %+v, want a and b in order with R = 3", qs)
	}
	*qs[0].MaxRedeliveryCount = 9 // callers get copies
	if q, _ := s.Queue("acme/crm/prod/a"); *q.MaxRedeliveryCount != 3 {
		t.Fatalf("a caller's change reached the snapshot: R = %d", *q.MaxRedeliveryCount)
	}
}

func TestFirstSnapshotKeepsTheListBeforeTheFirstWrite(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	if _, _, err := e.mgmt.PutQueue(ctx, "acme/crm/prod/a", QueueSettings{MaxRedeliveryCount: ptr[int64](0)}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.mgmt.Snapshot(ctx); err != nil { // a read of the run, before its writes
		t.Fatal(err)
	}
	if _, _, err := e.mgmt.PutQueue(ctx, "acme/crm/prod/a", QueueSettings{MaxRedeliveryCount: ptr[int64](5)}); err != nil {
		t.Fatal(err)
	}
	first, err := e.mgmt.FirstSnapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := first.Queue("acme/crm/prod/a"); *q.MaxRedeliveryCount != 0 {
		t.Errorf("FirstSnapshot shows R = %d, want 0: the list the run read before its write", *q.MaxRedeliveryCount)
	}
	now, err := e.mgmt.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if q, _ := now.Queue("acme/crm/prod/a"); *q.MaxRedeliveryCount != 5 {
		t.Errorf("Snapshot shows R = %d after the write, want 5", *q.MaxRedeliveryCount)
	}
}
