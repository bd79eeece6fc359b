package eventmesh

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

type env struct {
	emu       *emulatortest.Emulator
	key       servicekey.EventMesh
	mgmt      *Client
	messaging *Messaging
}

// fast shortens the request timeout of a test client.
func fast(cfg httpx.Config) httpx.Config {
	cfg.RequestTimeout, cfg.UserAgent = 5*time.Second, "terraform-provider-sapmessaging/test"
	return cfg
}

func newEnv(t *testing.T) *env {
	t.Helper()
	emu := emulatortest.Start(t, emulator.Options{})
	return &env{
		emu: emu, key: emu.EventMesh,
		mgmt:      New(emulatortest.Client(t, fast(emu.ManagementConfig()))),
		messaging: NewMessaging(emulatortest.Client(t, fast(emu.MessagingConfig()))),
	}
}

func (e *env) routes(route string) int64 { return e.emu.Stats().Routes[route] }

func ptr[T any](v T) *T { return &v }

// expectCount checks a count of requests the emulator received; what names them.
func expectCount(t *testing.T, what string, got, want int64) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

func TestQueueCRUD(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	name := e.key.Namespace + "/orders/in"
	// A dead message queue must exist before a queue names it.
	if _, _, err := e.mgmt.PutQueue(ctx, e.key.Namespace+"/orders/dmq", QueueSettings{}); err != nil {
		t.Fatal(err)
	}

	q, created, err := e.mgmt.PutQueue(ctx, name, QueueSettings{
		MaxRedeliveryCount: ptr[int64](3),
		DeadMsgQueue:       ptr(e.key.Namespace + "/orders/dmq"),
		RespectTTL:         ptr(true),
		MaxTTL:             ptr[int64](3600),
	})
	if err != nil {
		t.Fatal(err)
	}
	if !created.Created {
		t.Error("first PUT: created = false, want true (201)")
	}
	if q.Name != name || *q.MaxRedeliveryCount != 3 || *q.DeadMsgQueue != e.key.Namespace+"/orders/dmq" || !*q.RespectTTL || *q.MaxTTL != 3600 {
		t.Errorf("PUT answer = %+v", q)
	}
	if _, ok := e.emu.Queue(name); !ok {
		t.Fatalf("the emulator has no queue %q: the name was not sent as one path segment", name)
	}
	expectCount(t, "PUT /queues/{queue}", e.routes("PUT /queues/{queue}"), 2)

	q, created, err = e.mgmt.PutQueue(ctx, name, QueueSettings{MaxRedeliveryCount: ptr[int64](5)})
	if err != nil {
		t.Fatal(err)
	}
	if created.Created || created.OwnEarlierWrite {
		t.Errorf("second PUT: %+v, want neither created (200) nor an own earlier write", created)
	}
	// PUT replaces: the unset settings are back to null.
	if *q.MaxRedeliveryCount != 5 || q.DeadMsgQueue != nil || q.RespectTTL != nil || q.MaxTTL != nil {
		t.Errorf("after replacing PUT: %+v", q)
	}

	got, err := e.mgmt.GetQueue(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != name || *got.MaxRedeliveryCount != 5 || got.MaxQueueMessageCount != nil || got.MessageCount == nil {
		t.Errorf("GET = %+v", got)
	}
	list, err := e.mgmt.ListQueues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[1].Name != name {
		t.Errorf("list = %+v", list)
	}

	if err := e.mgmt.DeleteQueue(ctx, name); err != nil {
		t.Fatal(err)
	}
	_, err = e.mgmt.GetQueue(ctx, name)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), name) {
		t.Errorf("GET after delete = %v, want ErrNotFound naming the queue", err)
	}
	if err := e.mgmt.DeleteQueue(ctx, name); !errors.Is(err, ErrNotFound) {
		t.Errorf("second DELETE = %v, want ErrNotFound", err)
	}
}

func TestQueueAPIError(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, _, err := e.mgmt.PutQueue(t.Context(), "q", QueueSettings{MaxRedeliveryCount: ptr[int64](300)})
	var apiErr *httpx.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 {
		t.Fatalf("error = %v, want a 400 APIError", err)
	}
	if !strings.Contains(apiErr.Message, "maxRedeliveryCount") || !strings.HasPrefix(err.Error(), "PUT "+ManagementBasePath+"/queues/q: 400 Bad Request: ") {
		t.Errorf("error = %q", err)
	}
	if errors.Is(err, ErrNotFound) {
		t.Error("a 400 is not ErrNotFound")
	}
}

func TestSubscriptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	q := e.key.Namespace + "/orders"
	topic := e.key.Namespace + "/order/created/*"
	if err := e.mgmt.PutSubscription(ctx, q, topic); !errors.Is(err, ErrNotFound) {
		t.Fatalf("subscribing a missing queue = %v, want ErrNotFound", err)
	}
	if _, _, err := e.mgmt.PutQueue(ctx, q, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second PUT finds it existing (200)
		if err := e.mgmt.PutSubscription(ctx, q, topic); err != nil {
			t.Fatal(err)
		}
	}
	subs, err := e.mgmt.ListSubscriptions(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if len(subs) != 1 || subs[0] != (Subscription{QueueName: q, TopicPattern: topic}) {
		t.Errorf("subscriptions = %+v", subs)
	}
	if topics, _ := e.emu.Subscriptions(q); len(topics) != 1 || topics[0] != topic {
		t.Errorf("emulator subscriptions = %v", topics)
	}
	if err := e.mgmt.DeleteSubscription(ctx, q, topic); err != nil {
		t.Fatal(err)
	}
	if err := e.mgmt.DeleteSubscription(ctx, q, topic); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete = %v, want ErrNotFound", err)
	}
	subs, err = e.mgmt.ListSubscriptions(ctx, q)
	if err != nil || len(subs) != 0 {
		t.Errorf("subscriptions after delete = %+v, %v", subs, err)
	}
	if _, err := e.mgmt.ListSubscriptions(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("list of a missing queue = %v, want ErrNotFound", err)
	}
}

func TestSnapshotServesReadsFromOneList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	names := []string{"acme/crm/prod/a", "acme/crm/prod/b", "acme/crm/prod/c"}
	for _, n := range names {
		if _, _, err := e.mgmt.PutQueue(ctx, n, QueueSettings{MaxRedeliveryCount: ptr[int64](2)}); err != nil {
			t.Fatal(err)
		}
	}
	lists, gets := e.routes("GET /queues"), e.routes("GET /queues/{queue}")

	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() {
			n := names[i%len(names)]
			q, err := e.mgmt.CachedGetQueue(ctx, n)
			if err != nil {
				t.Error(err)
				return
			}
			if q.Name != n || q.MaxRedeliveryCount == nil || *q.MaxRedeliveryCount != 2 {
				t.Errorf("cached %s = %+v", n, q)
			}
			q.Name = "mutated" // callers get copies
		})
	}
	wg.Wait()
	expectCount(t, "list calls for 30 concurrent cached reads", e.routes("GET /queues")-lists, 1)
	expectCount(t, "single GETs", e.routes("GET /queues/{queue}")-gets, 0)

	// A write through the client invalidates the snapshot.
	if _, _, err := e.mgmt.PutQueue(ctx, names[0], QueueSettings{MaxRedeliveryCount: ptr[int64](7)}); err != nil {
		t.Fatal(err)
	}
	q, err := e.mgmt.CachedGetQueue(ctx, names[0])
	if err != nil {
		t.Fatal(err)
	}
	if *q.MaxRedeliveryCount != 7 {
		t.Errorf("after the write: maxRedeliveryCount = %d, want 7", *q.MaxRedeliveryCount)
	}
	expectCount(t, "list calls after a write", e.routes("GET /queues")-lists, 2)
	for _, write := range []func() error{
		func() error { return e.mgmt.PutSubscription(ctx, names[1], "acme/crm/prod/t") },
		func() error { return e.mgmt.DeleteSubscription(ctx, names[1], "acme/crm/prod/t") },
		func() error { return e.mgmt.DeleteQueue(ctx, names[2]) },
	} {
		before := e.routes("GET /queues")
		if err := write(); err != nil {
			t.Fatal(err)
		}
		if _, err := e.mgmt.CachedGetQueue(ctx, names[0]); err != nil {
			t.Fatal(err)
		}
		expectCount(t, "list calls after a subscription or delete write", e.routes("GET /queues")-before, 1)
	}
}

func TestSnapshotConfirmsMissingQueueWithGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	if _, err := e.mgmt.CachedGetQueue(ctx, "acme/crm/prod/none"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing queue = %v, want ErrNotFound", err)
	}
	expectCount(t, "confirming GETs", e.routes("GET /queues/{queue}"), 1)
	// A queue created by someone else after the snapshot is found by the confirming GET.
	other := New(e.mgmt.HTTP())
	if _, _, err := other.PutQueue(ctx, "acme/crm/prod/late", QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	q, err := e.mgmt.CachedGetQueue(ctx, "acme/crm/prod/late")
	if err != nil || q.Name != "acme/crm/prod/late" {
		t.Fatalf("late queue = %+v, %v", q, err)
	}
	expectCount(t, "list calls (the snapshot is kept)", e.routes("GET /queues"), 1)
	expectCount(t, "confirming GETs", e.routes("GET /queues/{queue}"), 2)
}

func TestSnapshotWaiterRetriesWhenLeaderGivesUp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if _, _, err := e.mgmt.PutQueue(t.Context(), "q", QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := e.mgmt.CachedGetQueue(ctx, "q"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled read = %v, want context.Canceled", err)
	}
	q, err := e.mgmt.CachedGetQueue(t.Context(), "q")
	if err != nil || q.Name != "q" {
		t.Fatalf("read after a cancelled one = %+v, %v", q, err)
	}
}

func TestRetriesAgainstEmulatorFaults(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	if _, _, err := e.mgmt.PutQueue(ctx, "q", QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	e.emu.InjectNext(emulator.Fault429, emulator.Fault500, emulator.Fault502, emulator.Fault503, emulator.FaultDrop, emulator.FaultTokenExpiry)
	before := e.mgmt.HTTP().Stats()
	q, err := e.mgmt.GetQueue(ctx, "q")
	if err != nil || q.Name != "q" {
		t.Fatalf("GET through faults = %+v, %v", q, err)
	}
	st := e.mgmt.HTTP().Stats()
	// Go's transport may itself resend an idempotent request on a dropped
	// reused connection, so the drop costs one or two faults.
	if r := st.Retries - before.Retries; r < 5 || r > 6 || st.TokenFetches-before.TokenFetches != 1 {
		t.Errorf("stats %+v -> %+v, want 5 or 6 retries and 1 token refresh", before, st)
	}
	if pending := e.emu.PendingFaults(); len(pending) != 0 {
		t.Errorf("faults not taken: %v", pending)
	}
}

func TestMessaging(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	q := "acme/crm/prod/test"
	if _, _, err := e.mgmt.PutQueue(ctx, q, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	msg, err := e.messaging.Consume(ctx, q)
	if err != nil || msg != nil {
		t.Fatalf("consume from empty queue = %+v, %v; want nil, nil", msg, err)
	}
	if err := e.messaging.Publish(ctx, q, []byte(`{"n":1}`), "application/json"); err != nil {
		t.Fatal(err)
	}
	msg, err = e.messaging.Consume(ctx, q)
	if err != nil || msg == nil {
		t.Fatalf("consume = %+v, %v", msg, err)
	}
	if string(msg.Body) != `{"n":1}` || msg.ID == "" || msg.ContentType != "application/json" {
		t.Errorf("message = %+v", msg)
	}
	if err := e.messaging.Ack(ctx, q, msg.ID); err != nil {
		t.Fatal(err)
	}
	if msgs, _ := e.emu.Messages(q); len(msgs) != 0 {
		t.Errorf("messages left after ack: %+v", msgs)
	}
	if err := e.messaging.Publish(ctx, "acme/crm/prod/missing", []byte("x"), ""); !errors.Is(err, ErrNotFound) {
		t.Errorf("publish to a missing queue = %v, want ErrNotFound", err)
	}
	var apiErr *httpx.APIError
	if err := e.messaging.Ack(ctx, q, "no-such-id"); !errors.As(err, &apiErr) {
		t.Errorf("ack of an unknown id = %v, want an APIError", err)
	}
}
