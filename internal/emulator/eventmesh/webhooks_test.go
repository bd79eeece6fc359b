package eventmesh_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// endpoint is a webhook endpoint on loopback that records what Event Mesh sends it.
type endpoint struct {
	*httptest.Server
	mu         sync.Mutex
	options    []http.Header
	posts      []http.Header
	bodies     []string
	status     int    // answer to POST
	allowed    string // WebHook-Allowed-Origin of the handshake answer; "" echoes the origin
	noHandshak bool   // answer the handshake without WebHook-Allowed-Origin
}

func newEndpoint(t *testing.T, status int) *endpoint {
	t.Helper()
	e := &endpoint{status: status}
	e.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		switch r.Method {
		case http.MethodOptions:
			e.options = append(e.options, r.Header.Clone())
			if !e.noHandshak {
				v := e.allowed
				if v == "" {
					v = r.Header.Get("WebHook-Request-Origin")
				}
				w.Header().Set("WebHook-Allowed-Origin", v)
			}
			w.WriteHeader(http.StatusOK)
		case http.MethodPost:
			b := new(strings.Builder)
			_, _ = fmt.Fprint(b, readAll(r))
			e.posts = append(e.posts, r.Header.Clone())
			e.bodies = append(e.bodies, b.String())
			w.WriteHeader(e.status)
		}
	}))
	t.Cleanup(e.Close)
	return e
}

func readAll(r *http.Request) string {
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			return sb.String()
		}
	}
}

func (e *endpoint) counts() (options, posts int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.options), len(e.posts)
}

func spath(s *emulator.Server, name string, rest ...string) string {
	p := s.URL() + emulator.MessagingBasePath + "/subscriptions"
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p + strings.Join(rest, "")
}

// setPush sets a pushConfig field of a create body made by webhookBody.
func setPush(t *testing.T, body map[string]any, key string, value any) {
	t.Helper()
	push, ok := body["pushConfig"].(map[string]any)
	if !ok {
		t.Fatalf("body %v has no pushConfig object", body)
	}
	push[key] = value
}

func createWebhook(t *testing.T, s *emulator.Server, tok string, body map[string]any) emulatortest.Resp {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return emulatortest.Do(t, "POST", spath(s, ""), tok, b, map[string]string{"Content-Type": "application/json"})
}

func webhookBody(name, queue string, qos int, endpointURL string, exempt bool) map[string]any {
	return map[string]any{
		"name": name, "address": "queue:" + queue, "qos": qos,
		"pushConfig": map[string]any{"type": "webhook", "endpoint": endpointURL, "exemptHandshake": exempt},
	}
}

// waitFor polls cond for up to 20 s of real time.
func waitWebhook(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func report(t *testing.T, s *emulator.Server, name string) emulator.WebhookReport {
	t.Helper()
	_, rep, ok := s.Webhook(name)
	if !ok {
		t.Fatalf("webhook %q missing", name)
	}
	return rep
}

type webhookEnv struct {
	s        *emulator.Server
	mgmt, ms string
}

func newWebhookEnv(t *testing.T, opts emulator.Options, queues map[string]string) webhookEnv {
	t.Helper()
	s := emulatortest.StartServer(t, opts)
	e := webhookEnv{s: s, mgmt: emulatortest.Token(t, s, emulator.AudienceManagement), ms: emulatortest.Token(t, s, emulator.AudienceMessaging)}
	for _, name := range []string{"acme/crm/prod/dmq", "acme/crm/prod/orders"} {
		if body, ok := queues[name]; ok {
			r := emulatortest.PutQueue(t, s, e.mgmt, name, body)
			if r.Status != http.StatusCreated && r.Status != http.StatusOK {
				t.Fatalf("queue %s: %d %s", name, r.Status, r.Body)
			}
		}
	}
	return e
}

func TestWebhookSubscriptionAPI(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
	ep := newEndpoint(t, http.StatusOK)
	const name = "acme/crm/prod/orders/hook"

	body := webhookBody(name, "acme/crm/prod/orders", 1, ep.URL, false)
	setPush(t, body, "securitySchema", map[string]any{
		"type": "oauth2", "grantType": "client_credentials", "clientId": "c", "clientSecret": "s3cr3t", "tokenUrl": ep.URL + "/token"})
	r := createWebhook(t, e.s, e.ms, body)
	emulatortest.Expect(t, r, http.StatusCreated)
	if strings.Contains(string(r.Body), "s3cr3t") {
		t.Fatalf("the create answer shows the client secret: %s", r.Body)
	}
	// Without a token: 401.
	emulatortest.Expect(t, emulatortest.Do(t, "GET", spath(e.s, name), "", nil, nil), http.StatusUnauthorized)
	// A management token is not a messaging token.
	if st := emulatortest.Do(t, "GET", spath(e.s, name), e.mgmt, nil, nil).Status; st == http.StatusOK {
		t.Fatalf("a management token read a webhook subscription")
	}

	r = emulatortest.Do(t, "GET", spath(e.s, name), e.ms, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var got emulator.WebhookSubscription
	r.JSON(t, &got)
	if got.SubscriptionState != emulator.WebhookActive || got.QoS != 1 || got.Address != "queue:acme/crm/prod/orders" ||
		got.PushConfig.SecuritySchema == nil || got.PushConfig.SecuritySchema.ClientSecret != "" {
		t.Fatalf("GET = %s", r.Body)
	}

	// 409 CONFLICT for a name in use.
	r = createWebhook(t, e.s, e.ms, body)
	emulatortest.Expect(t, r, http.StatusConflict)
	if !strings.Contains(string(r.Body), `"CONFLICT"`) {
		t.Fatalf("conflict body %s has no error.code CONFLICT", r.Body)
	}
	// 400 for a missing queue, a bad qos, an endpoint that is no URL, an unknown security schema.
	for what, b := range map[string]map[string]any{
		"missing queue": webhookBody("x", "acme/crm/prod/nothing", 1, ep.URL, true),
		"qos 2":         webhookBody("x", "acme/crm/prod/orders", 2, ep.URL, true),
		"endpoint":      webhookBody("x", "acme/crm/prod/orders", 1, "not a url", true),
		"basic auth": func() map[string]any {
			b := webhookBody("x", "acme/crm/prod/orders", 1, ep.URL, true)
			setPush(t, b, "securitySchema", map[string]any{"type": "basic"})
			return b
		}(),
	} {
		if r := createWebhook(t, e.s, e.ms, b); r.Status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400; body %s", what, r.Status, r.Body)
		}
	}

	// List, pause, resume.
	r = emulatortest.Do(t, "GET", spath(e.s, ""), e.ms, nil, nil)
	emulatortest.Expect(t, r, http.StatusOK)
	var list []emulator.WebhookSubscription
	r.JSON(t, &list)
	if len(list) != 1 || list[0].Name != name {
		t.Fatalf("list = %s", r.Body)
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, name, "/state"), e.ms, []byte(`{"action":"pause"}`), hdr), http.StatusOK)
	if w, _, _ := e.s.Webhook(name); w.SubscriptionState != emulator.WebhookPaused {
		t.Fatalf("state after pause = %s", w.SubscriptionState)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, name, "/state"), e.ms, []byte(`{"action":"stop"}`), hdr), http.StatusBadRequest)
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, name, "/state"), e.ms, []byte(`{"action":"resume"}`), hdr), http.StatusOK)
	if w, _, _ := e.s.Webhook(name); w.SubscriptionState != emulator.WebhookActive {
		t.Fatalf("state after resume = %s", w.SubscriptionState)
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, "nothing", "/state"), e.ms, []byte(`{"action":"pause"}`), hdr), http.StatusNotFound)

	// Delete, then 404.
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", spath(e.s, name), e.ms, nil, nil), http.StatusNoContent)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", spath(e.s, name), e.ms, nil, nil), http.StatusNotFound)
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", spath(e.s, name), e.ms, nil, nil), http.StatusNotFound)
}

func TestWebhookLimitPerInstance(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{MaxWebhooks: 2}, map[string]string{"acme/crm/prod/orders": ""})
	for i := range 3 {
		r := createWebhook(t, e.s, e.ms, webhookBody(fmt.Sprint("h", i), "acme/crm/prod/orders", 1, "https://example.invalid/h", true))
		want := http.StatusCreated
		if i == 2 {
			want = http.StatusBadRequest
		}
		emulatortest.Expect(t, r, want)
	}
}

func TestWebhookHandshake(t *testing.T) {
	t.Parallel()

	t.Run("completed, with the configured credentials", func(t *testing.T) {
		t.Parallel()
		e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
		var tokenCalls int
		var mu sync.Mutex
		tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			id, secret, _ := r.BasicAuth()
			mu.Lock()
			tokenCalls++
			mu.Unlock()
			if id != "hook-client" || secret != "hook-secret" || r.FormValue("grant_type") != "client_credentials" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"hook-token","expires_in":3600}`))
		}))
		t.Cleanup(tokens.Close)
		ep := newEndpoint(t, http.StatusOK)
		b := webhookBody("hs-ok", "acme/crm/prod/orders", 1, ep.URL, false)
		setPush(t, b, "securitySchema", map[string]any{
			"type": "oauth2", "grantType": "client_credentials", "clientId": "hook-client", "clientSecret": "hook-secret", "tokenUrl": tokens.URL})
		emulatortest.Expect(t, createWebhook(t, e.s, e.ms, b), http.StatusCreated)
		waitWebhook(t, "handshake completed", func() bool {
			w, _, _ := e.s.Webhook("hs-ok")
			return w.HandshakeStatus == emulator.HandshakeCompleted
		})
		ep.mu.Lock()
		h := ep.options[0]
		ep.mu.Unlock()
		if h.Get("WebHook-Request-Origin") == "" || h.Get("Authorization") != "Bearer hook-token" {
			t.Fatalf("handshake headers = %v", h)
		}
		if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`{"a":1}`), ""); err != nil {
			t.Fatal(err)
		}
		waitWebhook(t, "delivery", func() bool { return report(t, e.s, "hs-ok").Delivered == 1 })
		ep.mu.Lock()
		if got := ep.posts[0].Get("Authorization"); got != "Bearer hook-token" {
			t.Errorf("delivery Authorization = %q", got)
		}
		ep.mu.Unlock()
		emulatortest.Expect(t, emulatortest.Do(t, "DELETE", spath(e.s, "hs-ok"), e.ms, nil, nil), http.StatusNoContent)
	})

	t.Run("failed: no allowed origin, nothing pushed", func(t *testing.T) {
		t.Parallel()
		e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
		ep := newEndpoint(t, http.StatusOK)
		ep.noHandshak = true
		emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("hs-fail", "acme/crm/prod/orders", 1, ep.URL, false)), http.StatusCreated)
		waitWebhook(t, "handshake failed", func() bool {
			w, _, _ := e.s.Webhook("hs-fail")
			return w.HandshakeStatus == emulator.HandshakeFailed
		})
		if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`x`), ""); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		if _, posts := ep.counts(); posts != 0 {
			t.Fatalf("%d messages pushed before a completed handshake", posts)
		}
		// A wrong origin fails too; the handshake call runs it again.
		ep.mu.Lock()
		ep.noHandshak, ep.allowed = false, "someone-else"
		ep.mu.Unlock()
		emulatortest.Expect(t, emulatortest.Do(t, "POST", spath(e.s, "hs-fail", "/handshake"), e.ms, nil, nil), http.StatusAccepted)
		waitWebhook(t, "second handshake", func() bool { return report(t, e.s, "hs-fail").Handshakes == 2 })
		if w, _, _ := e.s.Webhook("hs-fail"); w.HandshakeStatus != emulator.HandshakeFailed {
			t.Fatalf("status after a wrong origin = %s", w.HandshakeStatus)
		}
		ep.mu.Lock()
		ep.allowed = "*"
		ep.mu.Unlock()
		emulatortest.Expect(t, emulatortest.Do(t, "POST", spath(e.s, "hs-fail", "/handshake"), e.ms, nil, nil), http.StatusAccepted)
		waitWebhook(t, "delivery after a completed handshake", func() bool { return report(t, e.s, "hs-fail").Delivered == 1 })
		emulatortest.Expect(t, emulatortest.Do(t, "DELETE", spath(e.s, "hs-fail"), e.ms, nil, nil), http.StatusNoContent)
	})

	t.Run("exempted: no OPTIONS", func(t *testing.T) {
		t.Parallel()
		e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
		ep := newEndpoint(t, http.StatusOK)
		emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("hs-exempt", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
		if w, _, _ := e.s.Webhook("hs-exempt"); w.HandshakeStatus != emulator.HandshakeExempted {
			t.Fatalf("status = %s", w.HandshakeStatus)
		}
		if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`x`), ""); err != nil {
			t.Fatal(err)
		}
		waitWebhook(t, "delivery", func() bool { return report(t, e.s, "hs-exempt").Delivered == 1 })
		if options, _ := ep.counts(); options != 0 {
			t.Fatalf("%d handshakes sent to an exempted endpoint", options)
		}
	})
}

func TestWebhookQoS0FailureLosesTheMessage(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{WebhookMinute: time.Millisecond},
		map[string]string{"acme/crm/prod/dmq": "", "acme/crm/prod/orders": `{"deadMsgQueue":"acme/crm/prod/dmq","maxRedeliveryCount":3}`})
	ep := newEndpoint(t, http.StatusInternalServerError)
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("q0", "acme/crm/prod/orders", 0, ep.URL, true)), http.StatusCreated)
	if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`poison`), ""); err != nil {
		t.Fatal(err)
	}
	waitWebhook(t, "the one try", func() bool { return report(t, e.s, "q0").Lost == 1 })
	time.Sleep(100 * time.Millisecond) // 100 webhook minutes: long past a first QoS 1 retry
	rep := report(t, e.s, "q0")
	if rep.Attempts != 1 || rep.Delivered != 0 || rep.Retried != 0 {
		t.Fatalf("report = %+v, want one attempt and nothing else", rep)
	}
	for _, q := range []string{"acme/crm/prod/orders", "acme/crm/prod/dmq"} {
		if msgs, _ := e.s.Messages(q); len(msgs) != 0 {
			t.Fatalf("queue %s holds %d messages; QoS 0 deletes the message after its one try", q, len(msgs))
		}
	}
}

func TestWebhookQoS1RetriesUntilTTL(t *testing.T) {
	t.Parallel()
	const minute = 4 * time.Millisecond
	for _, tc := range []struct {
		name, queue  string
		deadLettered bool
	}{
		{"to the dead message queue", `{"deadMsgQueue":"acme/crm/prod/dmq","respectTtl":true,"maxTtl":3600}`, true},
		{"purged without one", `{"respectTtl":true,"maxTtl":3600}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newWebhookEnv(t, emulator.Options{WebhookMinute: minute},
				map[string]string{"acme/crm/prod/dmq": "", "acme/crm/prod/orders": tc.queue})
			ep := newEndpoint(t, http.StatusServiceUnavailable)
			emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("q1", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
			if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`poison`), "text/plain"); err != nil {
				t.Fatal(err)
			}
			waitWebhook(t, "the end of the message", func() bool {
				rep := report(t, e.s, "q1")
				return rep.DeadLettered+rep.Purged == 1
			})
			rep := report(t, e.s, "q1")
			// Tries at 0, 15 and 45 minutes; the next one would be at 105, past the hour.
			if rep.Attempts != 3 || rep.Retried != 3 || (rep.DeadLettered == 1) != tc.deadLettered {
				t.Fatalf("report = %+v, want 3 attempts, then dead-lettered %v", rep, tc.deadLettered)
			}
			ep.mu.Lock()
			ct := ep.posts[0].Get("Content-Type")
			ep.mu.Unlock()
			assertTries(t, rep, 0, 15*time.Minute, 45*time.Minute)
			if ct != "text/plain" {
				t.Errorf("Content-Type = %q, want the message's own", ct)
			}
			dmq, _ := e.s.Messages("acme/crm/prod/dmq")
			if got := len(dmq); got != map[bool]int{true: 1, false: 0}[tc.deadLettered] {
				t.Fatalf("DMQ holds %d messages", got)
			}
			if msgs, _ := e.s.Messages("acme/crm/prod/orders"); len(msgs) != 0 {
				t.Fatalf("queue still holds %d messages", len(msgs))
			}
		})
	}
}

func TestWebhookQoS1BackoffReachesOnceADay(t *testing.T) {
	t.Parallel()
	// 7 days of retries: 15, 30, ..., 960, then 1440 minutes between tries.
	e := newWebhookEnv(t, emulator.Options{WebhookMinute: 100 * time.Microsecond},
		map[string]string{"acme/crm/prod/dmq": "", "acme/crm/prod/orders": `{"deadMsgQueue":"acme/crm/prod/dmq"}`})
	ep := newEndpoint(t, http.StatusBadGateway)
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("q1", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
	if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`poison`), ""); err != nil {
		t.Fatal(err)
	}
	waitWebhook(t, "the time to live of 7 days", func() bool { return report(t, e.s, "q1").DeadLettered == 1 })
	// Tries at 0, 15, 45, 105, 225, 465, 945, 1905, 3345, 4785, 6225, 7665, 9105 minutes;
	// the next at 10545 is past 7 days (10080).
	if rep := report(t, e.s, "q1"); rep.Attempts != 13 {
		t.Fatalf("report = %+v, want 13 attempts in 7 days", rep)
	}
	m := time.Minute
	assertTries(t, report(t, e.s, "q1"), 0, 15*m, 45*m, 105*m, 225*m, 465*m, 945*m, 1905*m, 3345*m, 4785*m, 6225*m, 7665*m, 9105*m)
}

// assertTries checks the due times of the tries of the only message the report has.
func assertTries(t *testing.T, rep emulator.WebhookReport, want ...time.Duration) {
	t.Helper()
	if len(rep.Tries) != 1 {
		t.Fatalf("tries of %d messages, want 1", len(rep.Tries))
	}
	for _, got := range rep.Tries {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("tries due at %v, want %v", got, want)
		}
	}
}

func TestWebhookQoS1MaxRedeliveryCount(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{WebhookMinute: time.Millisecond},
		map[string]string{"acme/crm/prod/dmq": "", "acme/crm/prod/orders": `{"deadMsgQueue":"acme/crm/prod/dmq","maxRedeliveryCount":2}`})
	ep := newEndpoint(t, http.StatusInternalServerError)
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("q1", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
	if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`poison`), ""); err != nil {
		t.Fatal(err)
	}
	waitWebhook(t, "dead-lettered", func() bool { return report(t, e.s, "q1").DeadLettered == 1 })
	if rep := report(t, e.s, "q1"); rep.Attempts != 3 {
		t.Fatalf("report = %+v, want 3 attempts (1 + maxRedeliveryCount 2)", rep)
	}
}

func TestWebhookEighteenInFlightStallTheQueue(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
	ep := newEndpoint(t, http.StatusInternalServerError)
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("q1", "acme/crm/prod/orders", 1, ep.URL, true)), http.StatusCreated)
	for i := range 20 {
		if _, err := e.s.Publish("acme/crm/prod/orders", []byte(fmt.Sprint(i)), ""); err != nil {
			t.Fatal(err)
		}
	}
	waitWebhook(t, "18 in flight", func() bool { return report(t, e.s, "q1").Stalled })
	time.Sleep(50 * time.Millisecond)
	rep := report(t, e.s, "q1")
	if rep.InFlight != emulator.WebhookMaxInFlight || rep.Attempts != emulator.WebhookMaxInFlight {
		t.Fatalf("report = %+v, want 18 in flight and 18 attempts", rep)
	}
	msgs, _ := e.s.Messages("acme/crm/prod/orders")
	waiting := 0
	for _, m := range msgs {
		if !m.Unacknowledged {
			waiting++
		}
	}
	if len(msgs) != 20 || waiting != 2 {
		t.Fatalf("queue holds %d messages, %d not taken; want 20 and 2", len(msgs), waiting)
	}
	// A delete hands the held messages back to the queue.
	emulatortest.Expect(t, emulatortest.Do(t, "DELETE", spath(e.s, "q1"), e.ms, nil, nil), http.StatusNoContent)
	msgs, _ = e.s.Messages("acme/crm/prod/orders")
	for _, m := range msgs {
		if m.Unacknowledged {
			t.Fatalf("message %s still in flight after the webhook was deleted", m.ID)
		}
	}
}

func TestWebhookPauseAndResume(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
	ep := newEndpoint(t, http.StatusOK)
	b := webhookBody("q1", "acme/crm/prod/orders", 1, ep.URL, true)
	setPush(t, b, "defaultContentType", "application/xml")
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, b), http.StatusCreated)
	hdr := map[string]string{"Content-Type": "application/json"}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, "q1", "/state"), e.ms, []byte(`{"action":"pause"}`), hdr), http.StatusOK)
	if _, err := e.s.Publish("acme/crm/prod/orders", []byte(`<a/>`), ""); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if _, posts := ep.counts(); posts != 0 {
		t.Fatalf("a paused webhook pushed %d messages", posts)
	}
	if msgs, _ := e.s.Messages("acme/crm/prod/orders"); len(msgs) != 1 {
		t.Fatalf("the queue holds %d messages while paused, want 1", len(msgs))
	}
	emulatortest.Expect(t, emulatortest.Do(t, "PUT", spath(e.s, "q1", "/state"), e.ms, []byte(`{"action":"resume"}`), hdr), http.StatusOK)
	waitWebhook(t, "delivery after resume", func() bool { return report(t, e.s, "q1").Delivered == 1 })
	waitWebhook(t, "the acknowledged message leaves the queue", func() bool {
		msgs, _ := e.s.Messages("acme/crm/prod/orders")
		return len(msgs) == 0
	})
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if ct := ep.posts[0].Get("Content-Type"); ct != "application/xml" {
		t.Errorf("Content-Type = %q, want the configured default for a message without one", ct)
	}
}

func TestWebhookPushesToLoopbackOnly(t *testing.T) {
	t.Parallel()
	e := newWebhookEnv(t, emulator.Options{}, map[string]string{"acme/crm/prod/orders": ""})
	emulatortest.Expect(t, createWebhook(t, e.s, e.ms, webhookBody("remote", "acme/crm/prod/orders", 1, "https://orders.example.com/hook", false)), http.StatusCreated)
	waitWebhook(t, "handshake failed", func() bool {
		w, _, _ := e.s.Webhook("remote")
		return w.HandshakeStatus == emulator.HandshakeFailed
	})
}
