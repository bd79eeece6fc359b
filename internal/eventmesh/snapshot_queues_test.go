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
