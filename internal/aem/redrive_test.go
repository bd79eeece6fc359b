package aem_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

const (
	copyRoute   = "PUT " + aem.ActionBasePath + "/msgVpns/{vpn}/queues/{queue}/copyMsgFromQueue"
	deleteRoute = "PUT " + aem.ActionBasePath + "/msgVpns/{vpn}/queues/{queue}/msgs/{msgId}/delete"
)

// redriveEnv has a dead message queue holding n messages and a destination queue that takes messages.
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
					res, err := c.Redrive(t.Context(), aem.RedriveOptions{From: "orders/dmq", To: "orders", Progress: func(p aem.RedriveProgress) {
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

// A cancelled context stops the redrive between messages; the message whose copy was made is deleted from
// the DMQ all the same.
func TestRedriveCancelled(t *testing.T) {
	t.Parallel()
	e := redriveEnv(t, 10)
	ctx, cancel := context.WithCancel(t.Context())
	res, err := e.c.Redrive(ctx, aem.RedriveOptions{From: "orders/dmq", To: "orders", Progress: func(p aem.RedriveProgress) {
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
