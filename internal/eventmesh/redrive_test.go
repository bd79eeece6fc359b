package eventmesh

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

const (
	routePublish = "POST /messagingrest/v1/queues/{queue}/messages"
	routeConsume = "POST /messagingrest/v1/queues/{queue}/messages/consumption"
	routeAck     = "POST /messagingrest/v1/queues/{queue}/messages/{id}/acknowledgement"
)

// redriveEnv is an emulator with a queue and its dead message queue holding n messages.
type redriveEnv struct {
	emu       *emulatortest.Emulator
	messaging *Messaging
	from, to  string
	bodies    []string
}

// testAckTimeout is the emulator's acknowledgement timeout in these tests: short, so
// that deliveries whose answers were lost return within the test.
const testAckTimeout = 300 * time.Millisecond

func redriveMessagingConfig(e *emulatortest.Emulator) httpx.Config {
	cfg := fast(e.MessagingConfig())
	cfg.MaxRetries = 50 // rides out a restart of the emulator
	return cfg
}

func newRedriveEnv(t *testing.T, opts emulator.Options, n int) *redriveEnv {
	t.Helper()
	opts.MessagingAckTimeout = testAckTimeout
	emu := emulatortest.Start(t, opts)
	return setUpRedrive(t, emu, n)
}

func setUpRedrive(t *testing.T, emu *emulatortest.Emulator, n int) *redriveEnv {
	t.Helper()
	ns := emu.EventMesh.Namespace
	e := &redriveEnv{emu: emu, from: ns + "/orders/dmq", to: ns + "/orders"}
	mgmt := New(emulatortest.Client(t, fast(emu.ManagementConfig())))
	if _, _, err := mgmt.PutQueue(t.Context(), e.from, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := mgmt.PutQueue(t.Context(), e.to, QueueSettings{MaxRedeliveryCount: ptr[int64](3), DeadMsgQueue: ptr(e.from)}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		body := fmt.Sprintf(`{"order":%d}`, i)
		e.bodies = append(e.bodies, body)
		if _, err := emu.PublishWithHeaders(e.from, []byte(body), "application/json", map[string]string{"ce-id": fmt.Sprint(i), "ce-type": "acme.order.created"}); err != nil {
			t.Fatal(err)
		}
	}
	e.messaging = NewMessaging(emulatortest.Client(t, redriveMessagingConfig(emu)))
	return e
}

// census counts each body in from and in to, after the deliveries whose answers were
// lost have returned to from.
func (e *redriveEnv) census(t *testing.T, emu *emulator.Server) (inFrom, inTo map[string]int) {
	t.Helper()
	time.Sleep(testAckTimeout + 50*time.Millisecond)
	inFrom, inTo = map[string]int{}, map[string]int{}
	from, _ := emu.Messages(e.from)
	for _, m := range from {
		if m.Unacknowledged {
			t.Errorf("message %s of %s still unacknowledged after the acknowledgement timeout", m.ID, e.from)
		}
		inFrom[m.Body]++
	}
	to, _ := emu.Messages(e.to)
	for _, m := range to {
		inTo[m.Body]++
		if m.ContentType != "application/json" || m.Headers["ce-type"] != "acme.order.created" || m.Headers["ce-id"] == "" {
			t.Errorf("message in %s lost its content type or headers: %+v", e.to, m)
		}
	}
	return inFrom, inTo
}

// checkNoneLost holds the census to the result: every message in from or to, none in
// both or twice in to unless the result counted it as a possible duplicate.
func (e *redriveEnv) checkNoneLost(t *testing.T, emu *emulator.Server, res RedriveResult) (moved int) {
	t.Helper()
	inFrom, inTo := e.census(t, emu)
	dups := 0
	for _, b := range e.bodies {
		n := inFrom[b] + inTo[b]
		if n == 0 {
			t.Errorf("message %s is lost: in neither %s nor %s", b, e.from, e.to)
		}
		dups += n - 1
		if inTo[b] > 0 {
			moved++
		}
	}
	if len(inFrom)+len(inTo) > 0 && int64(dups) > res.DuplicatesPossible {
		t.Errorf("%d duplicates, but the redrive counted %d possible: %+v", dups, res.DuplicatesPossible, res)
	}
	if int64(moved) < res.Moved-res.DuplicatesPossible {
		t.Errorf("%d messages in %s, the redrive counted %d moved: %+v", moved, e.to, res.Moved, res)
	}
	return moved
}

func TestRedriveMovesEveryMessage(t *testing.T) {
	t.Parallel()
	e := newRedriveEnv(t, emulator.Options{}, 60)
	var reports []RedriveProgress
	var mu sync.Mutex
	res, err := Redrive(t.Context(), e.messaging, RedriveOptions{
		From: e.from, To: e.to, MaxMessages: 1000, ProgressEvery: 20,
		Progress: func(p RedriveProgress) { mu.Lock(); reports = append(reports, p); mu.Unlock() },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moved != 60 || res.Failed != 0 || res.DuplicatesPossible != 0 || !res.Empty || res.Remaining != 940 {
		t.Fatalf("result %+v", res)
	}
	inFrom, inTo := e.census(t, e.emu.Server)
	if len(inFrom) != 0 || len(inTo) != 60 {
		t.Fatalf("from %v, to %v", inFrom, inTo)
	}
	for _, b := range e.bodies {
		if inTo[b] != 1 {
			t.Errorf("%s is %d times in %s", b, inTo[b], e.to)
		}
	}
	if len(reports) < 3 {
		t.Errorf("progress reports %+v, want one per 20 messages", reports)
	}
	st := e.emu.Stats()
	if st.Routes[routePublish] != 60 || st.Routes[routeAck] != 60 || st.Routes[routeConsume] < 61 || st.Routes[routeConsume] > 60+int64(DefaultRedriveConcurrency) {
		t.Errorf("calls %v: want one publish and one acknowledgement per message, and one consumption per message plus at most one per worker", st.Routes)
	}
}

func TestRedriveStopsAtMaxMessages(t *testing.T) {
	t.Parallel()
	e := newRedriveEnv(t, emulator.Options{}, 30)
	res, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 7, Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res.Moved != 7 || res.Consumed != 7 || res.Empty || res.Remaining != 0 {
		t.Fatalf("result %+v", res)
	}
	inFrom, inTo := e.census(t, e.emu.Server)
	if len(inFrom) != 23 || len(inTo) != 7 {
		t.Fatalf("from %d, to %d", len(inFrom), len(inTo))
	}
}

func TestRedriveOptionsRefused(t *testing.T) {
	t.Parallel()
	for _, opt := range []RedriveOptions{
		{From: "a", To: "b"},
		{From: "a", To: "a", MaxMessages: 1},
		{From: "a", To: "b", MaxMessages: 1, Concurrency: MaxRedriveConcurrency + 1},
		{From: "a", To: "b", MaxMessages: 1, MaxPerSecond: -1},
	} {
		if _, err := Redrive(t.Context(), nil, opt); !errors.Is(err, ErrRedriveOptions) {
			t.Errorf("%+v: error %v, want ErrRedriveOptions", opt, err)
		}
	}
}

func TestRedriveRateLimit(t *testing.T) {
	t.Parallel()
	e := newRedriveEnv(t, emulator.Options{}, 10)
	start := time.Now()
	res, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 10, MaxPerSecond: 20, Concurrency: 4})
	if err != nil || res.Moved != 10 {
		t.Fatalf("%+v %v", res, err)
	}
	// 10 consumptions at 20 per second: the tenth starts 9 × 50 ms after the first.
	if d := time.Since(start); d < 450*time.Millisecond {
		t.Fatalf("10 messages at 20 per second took %v", d)
	}
}

// Faults at every step: afterwards every message is in from or to, and a message is in
// to twice (or in both) only where the redrive counted a possible duplicate.
func TestRedriveFaults(t *testing.T) {
	t.Parallel()
	lost := emulator.FaultLostResponse
	cases := []struct {
		name     string
		route    string
		kinds    []emulator.FaultKind
		faults   emulator.Faults
		wantDups bool // a lost answer: duplicates may be counted
		wantStop string
	}{
		{name: "publish answer lost", route: routePublish, kinds: []emulator.FaultKind{lost, "", "", lost}, wantDups: true},
		{name: "acknowledgement answer lost", route: routeAck, kinds: []emulator.FaultKind{lost, lost}, wantDups: true},
		{name: "consumption answer lost", route: routeConsume, kinds: []emulator.FaultKind{lost}},
		{name: "connection dropped at publish", route: routePublish, kinds: []emulator.FaultKind{emulator.FaultDrop}, wantDups: true},
		{name: "429 everywhere", faults: emulator.Faults{Rate: 0.3, Kinds: []emulator.FaultKind{emulator.Fault429}, RetryAfter: time.Millisecond, Seed: 3}},
		{name: "5xx everywhere", faults: emulator.Faults{Rate: 0.2, Seed: 7, Kinds: []emulator.FaultKind{emulator.Fault500, emulator.Fault502, emulator.Fault503}}, wantDups: true},
		{name: "token expiring", faults: emulator.Faults{TokenExpiryEvery: 15}},
		{name: "publish refused for good", route: routePublish, kinds: repeat(emulator.Fault500, 400), wantDups: true, wantStop: "publish"},
		{name: "acknowledgement refused for good", route: routeAck, kinds: repeat(emulator.Fault502, 400), wantDups: true, wantStop: "acknowledge"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newRedriveEnv(t, emulator.Options{}, 25)
			e.emu.SetFaults(tc.faults)
			for _, k := range tc.kinds {
				if k == "" {
					continue
				}
				e.emu.InjectNextOn(tc.route, k)
			}
			res, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 100, Concurrency: 4})
			e.emu.ClearFaults()
			var rerr *RedriveError
			switch {
			case tc.wantStop == "" && err != nil:
				t.Fatalf("redrive stopped: %v (%+v)", err, res)
			case tc.wantStop != "" && (!errors.As(err, &rerr) || rerr.Step != tc.wantStop):
				t.Fatalf("error %v, want a stop at %s (%+v)", err, tc.wantStop, res)
			}
			moved := e.checkNoneLost(t, e.emu.Server, res)
			if !tc.wantDups && res.DuplicatesPossible != 0 {
				t.Errorf("no answer was lost, but the redrive counted %d possible duplicates", res.DuplicatesPossible)
			}
			if tc.wantStop == "publish" && (res.Failed < 1 || moved != int(res.Moved)) {
				t.Errorf("a failed publish: %+v, %d in to", res, moved)
			}
			if tc.wantStop == "" && moved < 20 {
				t.Errorf("only %d of 25 messages moved: %+v", moved, res)
			}
			// A second run after the faults moves the rest, each message once more at most.
			res2, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 100})
			if err != nil {
				t.Fatal(err)
			}
			inFrom, _ := e.census(t, e.emu.Server)
			if len(inFrom) != 0 || !res2.Empty {
				t.Errorf("after a second run %d messages are left in from: %+v", len(inFrom), res2)
			}
		})
	}
}

func repeat(k emulator.FaultKind, n int) []emulator.FaultKind {
	out := make([]emulator.FaultKind, n)
	for i := range out {
		out[i] = k
	}
	return out
}

// The emulator restarts from its state file in the middle of a redrive: the messages in
// flight return to from, and the redrive acknowledges those it published already without
// publishing them again.
func TestRedriveEmulatorRestart(t *testing.T) {
	t.Parallel()
	opts := emulator.Options{StateFile: filepath.Join(t.TempDir(), "state.json"), MessagingAckTimeout: testAckTimeout,
		Faults: emulator.Faults{Latency: 2 * time.Millisecond}}
	s1 := emulator.New(opts)
	if err := s1.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(s1.URL())
	if err != nil {
		t.Fatal(err)
	}
	e := setUpRedrive(t, emulatortest.FromServer(t, s1), 80)
	var (
		mu      sync.Mutex
		current = s1
		once    sync.Once
	)
	t.Cleanup(func() { mu.Lock(); _ = current.Close(); mu.Unlock() })
	restart := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = s1.Shutdown(ctx)
		s2 := emulator.New(opts)
		if err := s2.Start(u.Host); err != nil {
			t.Errorf("restarting the emulator on %s: %v", u.Host, err)
			return
		}
		mu.Lock()
		current = s2
		mu.Unlock()
	}
	res, err := Redrive(t.Context(), e.messaging, RedriveOptions{
		From: e.from, To: e.to, MaxMessages: 200, Concurrency: 8, ProgressEvery: 20,
		Progress: func(p RedriveProgress) {
			if p.Moved >= 20 {
				once.Do(restart)
			}
		},
	})
	if err != nil {
		t.Fatalf("redrive across a restart: %v (%+v)", err, res)
	}
	mu.Lock()
	s2 := current
	mu.Unlock()
	if s2 == s1 {
		t.Fatal("the emulator was not restarted")
	}
	moved := e.checkNoneLost(t, s2, res)
	inFrom, inTo := e.census(t, s2)
	if moved != 80 || len(inFrom) != 0 {
		t.Fatalf("after the restart %d moved, %d left in from: %+v", moved, len(inFrom), res)
	}
	// Deliveries open at the restart returned to from and were consumed again; the redrive
	// recognised each by its ID and published none of them twice. (A request the restart cut
	// off has an unknown outcome, which DuplicatesPossible counts honestly; what is in To is
	// what counts here.)
	if res.Consumed <= 80 {
		t.Fatalf("no delivery was open at the restart: %+v", res)
	}
	for body, n := range inTo {
		if n != 1 {
			t.Errorf("message %s is in %s %d times after the restart: %+v", body, e.to, n, res)
		}
	}
	if res.AckFailed != 0 {
		t.Fatalf("acknowledgements failed after the restart: %+v", res)
	}
}

// Cancelling ends the redrive after the messages in flight: none stays unacknowledged
// or in between.
func TestRedriveCancelled(t *testing.T) {
	t.Parallel()
	e := newRedriveEnv(t, emulator.Options{Faults: emulator.Faults{Latency: 5 * time.Millisecond}}, 200)
	ctx, cancel := context.WithCancel(t.Context())
	res, err := Redrive(ctx, e.messaging, RedriveOptions{
		From: e.from, To: e.to, MaxMessages: 200, Concurrency: 4, ProgressEvery: 10,
		Progress: func(p RedriveProgress) {
			if p.Moved >= 10 {
				cancel()
			}
		},
	})
	if !errors.Is(err, context.Canceled) || !res.Cancelled {
		t.Fatalf("error %v, result %+v", err, res)
	}
	if res.Moved < 10 || res.Moved > 60 {
		t.Fatalf("moved %d after a cancel at 10", res.Moved)
	}
	inFrom, inTo := e.census(t, e.emu.Server)
	if int64(len(inTo)) != res.Moved || len(inFrom)+len(inTo) != 200 {
		t.Fatalf("from %d, to %d, result %+v", len(inFrom), len(inTo), res)
	}
}

// CarriedHeaders keeps the message's headers and drops the delivery's and the exchange's.
func TestCarriedHeaders(t *testing.T) {
	t.Parallel()
	got := CarriedHeaders(map[string][]string{
		"Content-Type": {"application/json"}, "Ce-Type": {"x"}, "X-Message-Id": {"1"}, "X-Qos": {"1"},
		"Content-Length": {"3"}, "Date": {"now"}, "Set-Cookie": {"a=b"}, "X-Vcap-Request-Id": {"r"}, "Sap-Custom": {"kept"},
	})
	var names []string
	for k := range got {
		names = append(names, k)
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "Ce-Type,Content-Type,Sap-Custom" {
		t.Fatalf("carried %v", names)
	}
}

// A from queue that delivers one unacknowledged message at a time answers "none available"
// to the other workers: the redrive goes on with fewer, and moves every message.
func TestRedriveUnacknowledgedLimit(t *testing.T) {
	t.Parallel()
	e := newRedriveEnv(t, emulator.Options{}, 0)
	mgmt := New(emulatortest.Client(t, fast(e.emu.ManagementConfig())))
	if _, _, err := mgmt.PutQueue(t.Context(), e.from, QueueSettings{MaxDeliveredUnackedMsgsPerFlow: ptr[int64](1)}); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		body := fmt.Sprintf(`{"order":%d}`, i)
		e.bodies = append(e.bodies, body)
		if _, err := e.emu.PublishWithHeaders(e.from, []byte(body), "application/json", map[string]string{"ce-id": fmt.Sprint(i), "ce-type": "acme.order.created"}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 100, Concurrency: 8})
	if err != nil || res.Moved != 20 || !res.Empty {
		t.Fatalf("%+v %v", res, err)
	}
	if inFrom, inTo := e.census(t, e.emu.Server); len(inFrom) != 0 || len(inTo) != 20 {
		t.Fatalf("from %d, to %d", len(inFrom), len(inTo))
	}
}

// noIDAPI hands out one message without an X-Message-Id and records the calls.
type noIDAPI struct {
	mu        sync.Mutex
	consumed  bool
	published int
	acked     int
}

func (a *noIDAPI) Consume(context.Context, string) (*Message, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.consumed {
		return nil, nil
	}
	a.consumed = true
	return &Message{Body: []byte("x"), ContentType: "text/plain"}, nil
}

func (a *noIDAPI) Resend(context.Context, string, *Message) (Outcome, error) {
	a.mu.Lock()
	a.published++
	a.mu.Unlock()
	return Outcome{}, nil
}

func (a *noIDAPI) Acknowledge(context.Context, string, string) (Outcome, error) {
	a.mu.Lock()
	a.acked++
	a.mu.Unlock()
	return Outcome{}, nil
}

// A message without an X-Message-Id is not published: it could not be acknowledged after.
func TestRedriveRefusesMessageWithoutID(t *testing.T) {
	t.Parallel()
	api := &noIDAPI{}
	res, err := Redrive(t.Context(), api, RedriveOptions{From: "a", To: "b", MaxMessages: 5, Concurrency: 1})
	var rerr *RedriveError
	if !errors.As(err, &rerr) || !errors.Is(err, ErrNoMessageID) || api.published != 0 || api.acked != 0 || res.Moved != 0 {
		t.Fatalf("error %v, result %+v, published %d, acknowledged %d", err, res, api.published, api.acked)
	}
}

// A message that to cannot take (too large for it, or to full) stops the redrive with that
// message named, and is put back into from without spending a delivery: from has a redelivery
// count and no dead message queue, so a failed delivery after another would make Event Mesh
// discard the message. Every run keeps the count: each message is in from or in to.
func TestRedriveFailedMoveSpendsNoDelivery(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		to    QueueSettings
		large int // the index of a message too large for to, -1 for none
	}{
		{name: "message too large", to: QueueSettings{MaxMessageSizeInBytes: ptr[int64](100)}, large: 3},
		{name: "to full", to: QueueSettings{MaxQueueMessageCount: ptr[int64](5)}, large: -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			emu := emulatortest.Start(t, emulator.Options{MessagingAckTimeout: testAckTimeout})
			ns := emu.EventMesh.Namespace
			e := &redriveEnv{emu: emu, from: ns + "/orders/parked", to: ns + "/orders"}
			mgmt := New(emulatortest.Client(t, fast(emu.ManagementConfig())))
			// from: R = 1 and no dead message queue, so the second failed delivery discards a message.
			if _, _, err := mgmt.PutQueue(t.Context(), e.from, QueueSettings{MaxRedeliveryCount: ptr[int64](1)}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := mgmt.PutQueue(t.Context(), e.to, tc.to); err != nil {
				t.Fatal(err)
			}
			for i := range 12 {
				body := fmt.Sprintf(`{"order":%d}`, i)
				if i == tc.large {
					body = fmt.Sprintf(`{"order":%d,"note":%q}`, i, strings.Repeat("x", 200))
				}
				e.bodies = append(e.bodies, body)
				if _, err := emu.PublishWithHeaders(e.from, []byte(body), "application/json", map[string]string{"ce-id": fmt.Sprint(i), "ce-type": "acme.order.created"}); err != nil {
					t.Fatal(err)
				}
			}
			e.messaging = NewMessaging(emulatortest.Client(t, redriveMessagingConfig(emu)))
			for run := range 4 {
				res, err := Redrive(t.Context(), e.messaging, RedriveOptions{From: e.from, To: e.to, MaxMessages: 100, Concurrency: 1})
				var rerr *RedriveError
				if !errors.As(err, &rerr) || rerr.Step != "publish" || rerr.MessageID == "" || !strings.Contains(err.Error(), rerr.MessageID) {
					t.Fatalf("run %d: error %v, want a stop at the publish naming the message (%+v)", run, err, res)
				}
				if !rerr.Returned || rerr.ReturnErr != nil || res.Returned != res.Failed || res.Failed != 1 {
					t.Errorf("run %d: the message to refused was not put back into from: %+v, %v", run, res, rerr.ReturnErr)
				}
				e.checkNoneLost(t, emu.Server, res)
				if st := emu.Stats(); st.Broker.Discarded != 0 {
					t.Fatalf("run %d: Event Mesh discarded %d messages", run, st.Broker.Discarded)
				}
			}
		})
	}
}
