package aem_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

const (
	copyRoute   = "PUT " + aem.ActionBasePath + "/msgVpns/{vpn}/queues/{queue}/copyMsgFromQueue"
	deleteRoute = "PUT " + aem.ActionBasePath + "/msgVpns/{vpn}/queues/{queue}/msgs/{msgId}/delete"
)

// redriveEnv has a dead message queue holding n messages and a destination queue that takes messages.
// cancelOnCopy returns a context that ends once the broker made the copy to "orders" whose answer
// it holds back.
func (e *env) cancelOnCopy(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for e.emu.AEMQueueDepth("orders") == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	return ctx
}

func redriveEnv(t *testing.T, n int) *env {
	t.Helper()
	e := newEnv(t)
	for _, name := range []string{"orders/dmq", "orders"} {
		if _, err := e.c.CreateQueue(t.Context(), aem.Queue{Name: name, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
			t.Fatal(err)
		}
	}
	e.publish("orders/dmq", n)
	return e
}

func (e *env) depth(queue string) int {
	e.t.Helper()
	msgs, err := e.c.ListMessages(context.Background(), queue)
	if err != nil {
		e.t.Fatal(err)
	}
	return len(msgs)
}

func TestRedriveMovesBounded(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 150)
	var seen []aem.RedriveProgress
	res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", MaxMessages: 120,
		Progress: func(p aem.RedriveProgress) { seen = append(seen, p) }})
	if err != nil {
		t.Fatal(err)
	}
	if res.Listed != 120 || res.Moved != 120 || res.Left != 30 || len(seen) != 120 || seen[119].Moved != 120 {
		t.Errorf("result %+v, %d progress reports", res, len(seen))
	}
	if from, to := e.depth("orders/dmq"), e.depth("orders"); from != 30 || to != 120 {
		t.Errorf("after the redrive: %d on the DMQ, %d on the queue; want 30 and 120", from, to)
	}
}

func TestRedriveOptions(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, opt := range []aem.RedriveOptions{
		{From: "a", To: "a"}, {From: "", To: "a"}, {From: "a", To: "b", MaxMessages: -1}, {From: "a", To: "b", MaxMessages: aem.MaxRedriveMessages + 1},
		{From: "a", To: "b", Concurrency: aem.MaxRedriveConcurrency + 1}, {From: "a", To: "b", Concurrency: -1},
		{From: "a", To: "b", PageSize: aem.PageSize + 1}, {From: "a", To: "b", PageSize: -1},
	} {
		if _, err := e.c.Redrive(t.Context(), opt); !errors.Is(err, aem.ErrRedriveOptions) {
			t.Errorf("%+v: %v, want ErrRedriveOptions", opt, err)
		}
	}
}

// A destination that takes no messages stops the redrive at the first message, which stays on the DMQ.
func TestRedriveStopsAtDestinationThatRefuses(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 5)
	if _, err := e.c.UpdateQueue(t.Context(), "orders", aem.QueueSettings{IngressEnabled: aem.Ptr(false)}); err != nil {
		t.Fatal(err)
	}
	res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders"})
	var re *aem.RedriveError
	if !errors.As(err, &re) || re.OnBoth || res.Moved != 0 || res.Left != 5 {
		t.Fatalf("redrive into a queue with ingress off: %+v, %v", res, err)
	}
	if from, to := e.depth("orders/dmq"), e.depth("orders"); from != 5 || to != 0 {
		t.Errorf("%d on the DMQ, %d on the queue; want 5 and 0", from, to)
	}
}

// No message is lost whatever request fails, at any position: each message is on the DMQ, on the queue, or
// on both; and what the error says of the message it stopped at is where the message is.
func TestRedriveNeverLosesAMessageUnderFaults(t *testing.T) {
	t.Parallel()
	const n = 4
	for _, route := range []string{copyRoute, deleteRoute} {
		for _, kind := range []emulator.FaultKind{emulator.Fault500, emulator.Fault503, emulator.FaultDrop, emulator.FaultLostResponse} {
			for pos := range n {
				t.Run(fmt.Sprintf("%s %s at message %d", route[len(route)-20:], kind, pos+1), func(t *testing.T) {
					t.Parallel()
					e := redriveEnv(t, n)
					c := client(t, e.creds, func(cfg *httpx.Config) { cfg.SetRetries(0) })
					// The fault is armed once pos messages have moved, so it hits the request of message pos+1.
					arm := func() { e.emu.InjectNextOn(route, kind) }
					if pos == 0 {
						arm()
					}
					res, err := c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", Concurrency: 1, Progress: func(p aem.RedriveProgress) {
						if p.Moved == pos {
							arm()
						}
					}})
					from, to := e.depth("orders/dmq"), e.depth("orders")
					if from+to < n {
						t.Fatalf("messages lost: %d on the DMQ and %d on the queue of %d (result %+v, %v)", from, to, n, res, err)
					}
					if err == nil {
						// A lost answer to a copy or delete that the broker carried out is no failure.
						if from != 0 || to < n || res.Moved != n {
							t.Errorf("no error, but %d on the DMQ, %d on the queue, result %+v", from, to, res)
						}
						return
					}
					var re *aem.RedriveError
					if !errors.As(err, &re) {
						t.Fatalf("error %v is not a RedriveError", err)
					}
					if res.Moved != pos || from != n-pos || from+to > n+1 {
						t.Errorf("stopped at message %d: moved %d, %d on the DMQ, %d on the queue", pos+1, res.Moved, from, to)
					}
					if re.OnBoth != (route == deleteRoute) {
						t.Errorf("OnBoth = %v after a fault on %s: %v", re.OnBoth, route, err)
					}
				})
			}
		}
	}
}

// A cancelled context stops the redrive between messages (one at a time here); the message whose copy was
// made is deleted from the DMQ all the same.
func TestRedriveCancelled(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 10)
	ctx, cancel := context.WithCancel(t.Context())
	res, err := e.c.Redrive(ctx, aem.RedriveOptions{From: "orders/dmq", To: "orders", Concurrency: 1, Progress: func(p aem.RedriveProgress) {
		if p.Moved == 3 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || res.Moved != 3 {
		t.Fatalf("cancelled after 3: %+v, %v", res, err)
	}
	if from, to := e.depth("orders/dmq"), e.depth("orders"); from != 7 || to != 3 {
		t.Errorf("%d on the DMQ, %d on the queue; want 7 and 3", from, to)
	}
}

const listRoute = "GET " + aem.MonitorBasePath + "/msgVpns/{vpn}/queues/{queue}/msgs"

// SEMP's copyMsgFromQueue is not idempotent: a copy whose answer is lost is not sent again (the broker would
// then hold two copies), and the redrive stops there, naming the message as on the DMQ and perhaps on the
// queue as well. The retries of the HTTP layer are on, as in the provider.
func TestRedriveDoesNotRepeatACopyWhoseAnswerIsLost(t *testing.T) {
	t.Parallel()
	for _, kind := range []emulator.FaultKind{emulator.FaultLostResponse, emulator.Fault500} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			const n = 5
			e := redriveEnv(t, n)
			e.emu.InjectNextOn(copyRoute, kind)
			res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", Concurrency: 1})
			copies := e.emu.Stats().Routes[copyRoute]
			from, to := e.depth("orders/dmq"), e.depth("orders")
			if copies != 1 {
				t.Errorf("the copy was sent %d times, want once", copies)
			}
			if from != n || to > 1 || res.Moved != 0 {
				t.Errorf("%d on the DMQ, %d on the queue, result %+v; want %d, at most 1 and nothing moved", from, to, res, n)
			}
			var re *aem.RedriveError
			if !errors.As(err, &re) || !re.MaybeCopied || re.OnBoth {
				t.Fatalf("error %v: want a RedriveError with MaybeCopied", err)
			}
			for _, want := range []string{"may also be on queue orders", "still on queue orders/dmq"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("the error lacks %q: %v", want, err)
				}
			}
		})
	}
}

// A redrive cancelled while a copy is under way finishes the message (the copy, then the delete): it is not
// left on both queues with a report that says it was finished.
func TestRedriveCancelledDuringACopy(t *testing.T) {
	t.Parallel()
	const n = 6
	e := redriveEnv(t, n)
	e.emu.SetFaults(emulator.Faults{SlowDelay: 500 * time.Millisecond})
	e.emu.InjectNextOn(copyRoute, emulator.FaultLateResponse)
	ctx := e.cancelOnCopy(t)
	res, err := e.c.Redrive(ctx, aem.RedriveOptions{From: "orders/dmq", To: "orders", Concurrency: 1})
	from, to := e.depth("orders/dmq"), e.depth("orders")
	if from+to != n || res.Moved != to {
		t.Fatalf("cancelled during a copy: %d on the DMQ, %d on the queue, result %+v, %v; want %d in all and every copied message moved", from, to, res, err, n)
	}
	if !errors.Is(err, context.Canceled) || res.Moved != 1 {
		t.Errorf("result %+v, %v; want the message in flight moved, then context.Canceled", res, err)
	}
}

// A copy whose answer does not come within FinishTimeout of the cancellation is reported as perhaps on both.
func TestRedriveCancelledDuringACopyThatDoesNotAnswer(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 3)
	e.emu.SetFaults(emulator.Faults{SlowDelay: 5 * time.Second})
	e.emu.InjectNextOn(copyRoute, emulator.FaultLateResponse)
	ctx := e.cancelOnCopy(t)
	res, err := e.c.Redrive(ctx, aem.RedriveOptions{From: "orders/dmq", To: "orders", Concurrency: 1, FinishTimeout: 200 * time.Millisecond})
	var re *aem.RedriveError
	if !errors.As(err, &re) || !re.MaybeCopied || res.Moved != 0 {
		t.Fatalf("result %+v, %v; want a RedriveError with MaybeCopied", res, err)
	}
	if from, to := e.depth("orders/dmq"), e.depth("orders"); from != 3 || to != 1 {
		t.Errorf("%d on the DMQ, %d on the queue; want 3 and 1", from, to)
	}
}

// The DMQ is read a page at a time: the first message moves after one page is read, and pages past
// max_messages are never read.
func TestRedriveReadsAPageAtATime(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 350)
	var listsAtFirst int64 = -1
	res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", MaxMessages: 120, Progress: func(aem.RedriveProgress) {
		if listsAtFirst < 0 {
			listsAtFirst = e.emu.Stats().Routes[listRoute]
		}
	}})
	if err != nil || res.Moved != 120 {
		t.Fatalf("result %+v, %v", res, err)
	}
	if listsAtFirst != 1 {
		t.Errorf("%d list requests before the first message moved, want 1", listsAtFirst)
	}
	if lists := e.emu.Stats().Routes[listRoute]; lists != 2 {
		t.Errorf("%d list requests for 120 messages in pages of 100, want 2", lists)
	}
	if res.Left != 80 || !res.MoreLeft {
		t.Errorf("left %d (more: %v); want 80 read and not moved, and more unread", res.Left, res.MoreLeft)
	}
}

// With a page of 10, 25 messages take 3 list requests, and the count left is exact once the last page is read.
func TestRedriveSmallPages(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 25)
	res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", MaxMessages: 25, PageSize: 10})
	if err != nil || res.Moved != 25 || res.Left != 0 || res.MoreLeft {
		t.Fatalf("result %+v, %v", res, err)
	}
	if lists := e.emu.Stats().Routes[listRoute]; lists != 3 {
		t.Errorf("%d list requests for 25 messages in pages of 10, want 3", lists)
	}
}

// Messages move several at a time: at 30 ms a request, 48 messages one at a time take at least 2.9 s.
func TestRedriveMovesConcurrently(t *testing.T) {
	t.Parallel()
	const n = 48
	e := redriveEnv(t, n)
	// Each request waits 30 ms in the emulator, so moves that run at once overlap there; the emulator
	// counts the most requests it served at the same time (no timing in the test).
	e.emu.SetFaults(emulator.Faults{Latency: 30 * time.Millisecond})
	e.emu.ResetStats()
	res, err := e.c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", MaxMessages: n})
	if err != nil || res.Moved != n {
		t.Fatalf("result %+v, %v", res, err)
	}
	// The default of 8 moves at once, each one request at a time, and the read of the next page.
	if got := e.emu.Stats().MaxInFlight; got < 4 || got > 9 {
		t.Errorf("the emulator served at most %d requests at once; want moves side by side (4 to 8, and a page read)", got)
	}
}
