package aem_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

type env struct {
	t     *testing.T
	emu   *emulatortest.Emulator
	creds emulator.AdvancedEventMeshCredentials
	c     *aem.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	emu := emulatortest.Start(t, emulator.Options{})
	creds := emu.AdvancedEventMeshCredentials()
	return &env{t: t, emu: emu, creds: creds, c: client(t, creds, nil)}
}

func client(t testing.TB, creds emulator.AdvancedEventMeshCredentials, mutate func(*httpx.Config)) *aem.Client {
	t.Helper()
	cfg := aem.HTTPConfig(creds.SEMPURL, creds.Username, creds.Password)
	cfg.RetryWaitMin, cfg.RetryWaitMax = time.Millisecond, 5*time.Millisecond
	if mutate != nil {
		mutate(&cfg)
	}
	h, err := httpx.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := aem.New(h, creds.MsgVpnName)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// publish sends n messages to queue through the broker's REST messaging.
func (e *env) publish(queue string, n int) {
	e.t.Helper()
	for range n {
		req, _ := http.NewRequest(http.MethodPost, e.creds.SEMPURL+"/QUEUE/"+url.PathEscape(queue), strings.NewReader("poison"))
		req.SetBasicAuth(e.creds.Username, e.creds.Password)
		req.Header.Set("Solace-DMQ-Eligible", "true")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			e.t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			e.t.Fatalf("publish to %s: %d", queue, resp.StatusCode)
		}
	}
}

func TestQueueLifecycle(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	res, err := e.c.CreateQueue(ctx, aem.Queue{Name: "orders", QueueSettings: aem.QueueSettings{
		MaxRedeliveryCount: aem.Ptr[int64](5), IngressEnabled: aem.Ptr(true), EgressEnabled: aem.Ptr(true), DeadMsgQueue: aem.Ptr("orders.dmq"),
	}})
	if err != nil || res.OwnEarlierAttempt {
		t.Fatalf("create: %+v %v", res, err)
	}
	q := res.Queue
	if q.Name != "orders" || q.MsgVpnName != e.creds.MsgVpnName || *q.MaxRedeliveryCount != 5 || *q.DeadMsgQueue != "orders.dmq" ||
		*q.RedeliveryDelayEnabled || *q.RedeliveryDelayMultiplier != 200 || *q.RespectTTLEnabled {
		t.Fatalf("created queue: %+v", q)
	}
	// Something outside the configuration sets the owner; an update of other settings keeps it.
	if _, err := e.c.UpdateQueue(ctx, "orders", aem.QueueSettings{Owner: aem.Ptr("ops-team")}); err != nil {
		t.Fatal(err)
	}
	q, err = e.c.UpdateQueue(ctx, "orders", aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](3), RedeliveryDelayEnabled: aem.Ptr(true)})
	if err != nil {
		t.Fatal(err)
	}
	if *q.MaxRedeliveryCount != 3 || !*q.RedeliveryDelayEnabled || *q.Owner != "ops-team" || *q.DeadMsgQueue != "orders.dmq" || !*q.IngressEnabled {
		t.Errorf("after the update: %+v; want only the two settings changed", q.QueueSettings)
	}
	got, err := e.c.GetQueue(ctx, "orders")
	if err != nil || *got.MaxRedeliveryCount != 3 || *got.Owner != "ops-team" {
		t.Fatalf("read back: %+v %v", got, err)
	}
	_, err = e.c.CreateQueue(ctx, aem.Queue{Name: "orders"})
	if !errors.Is(err, aem.ErrAlreadyExists) || !strings.Contains(err.Error(), "import it") {
		t.Errorf("create of an existing queue: %v; want ErrAlreadyExists saying to import it", err)
	}
	if _, err := e.c.UpdateQueue(ctx, "orders", aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](256)}); err == nil ||
		!strings.Contains(err.Error(), "INVALID_PARAMETER") || !strings.Contains(err.Error(), "correct the setting") {
		t.Errorf("out of range: %v", err)
	}
	if err := e.c.DeleteQueue(ctx, "orders"); err != nil {
		t.Fatal(err)
	}
	_, err = e.c.GetQueue(ctx, "orders")
	if !errors.Is(err, aem.ErrNotFound) || !strings.Contains(err.Error(), "msg_vpn_name") {
		t.Errorf("read of a deleted queue: %v; want ErrNotFound naming msg_vpn_name", err)
	}
	if err := e.c.DeleteQueue(ctx, "orders"); !errors.Is(err, aem.ErrNotFound) {
		t.Errorf("delete of a deleted queue: %v", err)
	}
}

// Names go URL-encoded into paths: #DEAD_MSG_QUEUE, slashes, spaces, plus and percent signs, topics with
// wildcards.
func TestNamesEncoded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	for _, name := range []string{"#DEAD_MSG_QUEUE", "acme/erp/orders", "a b+c%d"} {
		if _, err := e.c.CreateQueue(ctx, aem.Queue{Name: name}); err != nil {
			t.Fatalf("create %q: %v", name, err)
		}
		q, err := e.c.GetQueue(ctx, name)
		if err != nil || q.Name != name {
			t.Fatalf("read %q: %+v %v", name, q, err)
		}
		for _, topic := range []string{"acme/erp/>", "acme/*/orders", "a b#c"} {
			if err := e.c.CreateSubscription(ctx, name, topic); err != nil {
				t.Fatalf("subscribe %q to %q: %v", name, topic, err)
			}
			if s, err := e.c.GetSubscription(ctx, name, topic); err != nil || s.Topic != topic {
				t.Fatalf("read subscription %q of %q: %+v %v", topic, name, s, err)
			}
		}
		topics, err := e.c.ListSubscriptions(ctx, name)
		if err != nil || len(topics) != 3 {
			t.Fatalf("subscriptions of %q: %v %v", name, topics, err)
		}
		if err := e.c.DeleteSubscription(ctx, name, "acme/erp/>"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.c.GetSubscription(ctx, name, "acme/erp/>"); !errors.Is(err, aem.ErrNotFound) {
			t.Errorf("deleted subscription: %v", err)
		}
	}
	if got := e.c.QueuePath("#DEAD_MSG_QUEUE"); !strings.HasSuffix(got, "/queues/%23DEAD_MSG_QUEUE") {
		t.Errorf("QueuePath(#DEAD_MSG_QUEUE) = %s", got)
	}
}

// A list follows the cursor in pages of 100: 250 queues take 3 requests.
func TestListQueuesPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	const n = 250
	for i := range n {
		if _, err := e.c.CreateQueue(ctx, aem.Queue{Name: fmt.Sprintf("q%03d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	before := e.c.HTTP().Stats().Requests
	qs, err := e.c.ListQueues(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if calls := e.c.HTTP().Stats().Requests - before; calls != 3 {
		t.Errorf("listing %d queues took %d requests, want 3", n, calls)
	}
	names := make([]string, len(qs))
	for i, q := range qs {
		names[i] = q.Name
	}
	if len(qs) != n || !slices.IsSorted(names) || names[0] != "q000" || names[n-1] != "q249" {
		t.Errorf("listed %d queues", len(qs))
	}
	if len(slices.Compact(names)) != n {
		t.Error("a queue was listed twice")
	}
}

func TestCredentialsAndVpnErrors(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	wrong := e.creds
	wrong.Password = "wr0ng-pa55word"
	_, err := client(t, wrong, nil).ListQueues(ctx)
	if !errors.Is(err, aem.ErrUnauthorized) || !strings.Contains(err.Error(), "`username` and `password`") {
		t.Errorf("wrong password: %v; want ErrUnauthorized saying which settings to check", err)
	}
	other := e.creds
	other.MsgVpnName = "other-vpn"
	_, err = client(t, other, nil).ListQueues(ctx)
	if !errors.Is(err, aem.ErrNotFound) || !strings.Contains(err.Error(), "`msg_vpn_name` (other-vpn)") {
		t.Errorf("wrong Message VPN: %v", err)
	}
	// Secrets appear neither in errors nor in the logs.
	if _, err := e.c.GetQueue(ctx, "missing"); err == nil {
		t.Fatal("want an error")
	}
	for _, secret := range []string{e.creds.Password, wrong.Password, base64.StdEncoding.EncodeToString([]byte(e.creds.Username + ":" + e.creds.Password))} {
		if strings.Contains(buf.String(), secret) || strings.Contains(fmt.Sprint(err), secret) {
			t.Errorf("a secret appears in the logs or an error")
		}
	}
	if !strings.Contains(buf.String(), "/SEMP/v2/config/msgVpns/") {
		t.Errorf("the requests were not logged: %s", buf.String())
	}
	if _, err := aem.New(e.c.HTTP(), " "); err == nil {
		t.Error("an empty Message VPN name was accepted")
	}
}

func TestHTTPSRequiredExceptLoopback(t *testing.T) {
	t.Parallel()
	if _, err := httpx.New(aem.HTTPConfig("http://mr-abc.messaging.solace.cloud:943", "u", "p")); err == nil || !strings.Contains(err.Error(), "https://mr-abc.messaging.solace.cloud:943") {
		t.Errorf("plain http to a remote broker: %v", err)
	}
	if _, err := httpx.New(aem.HTTPConfig("https://mr-abc.messaging.solace.cloud:943/", "u", "p")); err != nil {
		t.Errorf("https: %v", err)
	}
}

// Transient failures are retried as for the other services; a create whose first answer was lost and whose
// retry finds the queue reports it as its own.
func TestRetries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	e.emu.InjectNext(emulator.Fault503, emulator.Fault429)
	if _, err := e.c.ListQueues(ctx); err != nil {
		t.Fatalf("list after a 503 and a 429: %v", err)
	}
	e.emu.InjectNext(emulator.FaultLostResponse)
	res, err := e.c.CreateQueue(ctx, aem.Queue{Name: "orders", QueueSettings: aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](4)}})
	if err != nil || !res.OwnEarlierAttempt || *res.Queue.MaxRedeliveryCount != 4 {
		t.Fatalf("create with a lost answer: %+v %v", res, err)
	}
	e.emu.InjectNext(emulator.FaultLostResponse)
	if err := e.c.CreateSubscription(ctx, "orders", "acme/>"); err != nil {
		t.Fatalf("subscription with a lost answer: %v", err)
	}
	e.emu.InjectNext(emulator.Fault500, emulator.Fault500, emulator.Fault500)
	c := client(t, e.creds, func(cfg *httpx.Config) { cfg.SetRetries(2) })
	if _, err := c.GetQueue(ctx, "orders"); err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("three 500s with two retries: %v", err)
	} else if !strings.Contains(err.Error(), "the broker's own failure") || strings.Contains(err.Error(), "refused a value") {
		// A 5xx is the broker's failure, not a value of the request: the fix is to run again later.
		t.Errorf("three 500s: %v; want the broker's failure and a later run as the fix", err)
	}
}

// The messages of a DMQ, listed in pages of 100, moved back one at a time: copy, then delete.
func TestMessagesCopyAndDelete(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	for _, name := range []string{"#DEAD_MSG_QUEUE", "orders"} {
		if _, err := e.c.CreateQueue(ctx, aem.Queue{Name: name, QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
			t.Fatal(err)
		}
	}
	e.publish("#DEAD_MSG_QUEUE", 150)
	before := e.c.HTTP().Stats().Requests
	msgs, err := e.c.ListMessages(ctx, "#DEAD_MSG_QUEUE")
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 150 || e.c.HTTP().Stats().Requests-before != 2 {
		t.Fatalf("%d messages in %d requests, want 150 in 2", len(msgs), e.c.HTTP().Stats().Requests-before)
	}
	for _, m := range msgs[:10] {
		if m.ReplicationGroupMsgID == "" || !m.DMQEligible {
			t.Fatalf("message %+v", m)
		}
		if err := e.c.CopyMessage(ctx, "orders", "#DEAD_MSG_QUEUE", m.ReplicationGroupMsgID); err != nil {
			t.Fatal(err)
		}
		if err := e.c.DeleteMessage(ctx, "#DEAD_MSG_QUEUE", m.MsgID); err != nil {
			t.Fatal(err)
		}
	}
	left, _ := e.c.ListMessages(ctx, "#DEAD_MSG_QUEUE")
	moved, _ := e.c.ListMessages(ctx, "orders")
	if len(left) != 140 || len(moved) != 10 {
		t.Errorf("after moving 10: %d left, %d moved", len(left), len(moved))
	}
	if err := e.c.DeleteMessage(ctx, "#DEAD_MSG_QUEUE", msgs[0].MsgID); !errors.Is(err, aem.ErrNotFound) {
		t.Errorf("delete of a deleted message: %v", err)
	}
	a, err := e.c.AboutAPI(context.Background())
	if err != nil || a.SEMPVersion == "" {
		t.Errorf("about: %+v %v", a, err)
	}
}
