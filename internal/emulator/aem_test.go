package emulator_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// aemEnv is an emulator with the Advanced Event Mesh credentials, talked to over raw HTTP so that the
// answers are checked as SEMP v2 writes them.
type aemEnv struct {
	t     *testing.T
	s     *emulator.Server
	creds emulator.AdvancedEventMeshCredentials
}

func newAEMEnv(t *testing.T, opts emulator.Options) *aemEnv {
	t.Helper()
	s := emulator.New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return &aemEnv{t: t, s: s, creds: s.AdvancedEventMeshCredentials()}
}

type sempAnswer struct {
	Status int
	Data   json.RawMessage `json:"data"`
	Links  json.RawMessage `json:"links"`
	Meta   struct {
		ResponseCode int `json:"responseCode"`
		Request      struct {
			Method string `json:"method"`
			URI    string `json:"uri"`
		} `json:"request"`
		Error *struct {
			Code        int    `json:"code"`
			Status      string `json:"status"`
			Description string `json:"description"`
		} `json:"error"`
		Paging *struct {
			CursorQuery string `json:"cursorQuery"`
			NextPageURI string `json:"nextPageUri"`
		} `json:"paging"`
	} `json:"meta"`
}

func (e *aemEnv) raw(method, path string, body any, header http.Header) (*http.Response, []byte) {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.creds.SEMPURL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	req.SetBasicAuth(e.creds.Username, e.creds.Password)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func (e *aemEnv) semp(method, path string, body any) sempAnswer {
	e.t.Helper()
	resp, b := e.raw(method, path, body, nil)
	var a sempAnswer
	if err := json.Unmarshal(b, &a); err != nil {
		e.t.Fatalf("%s %s: %d %s: not a SEMP envelope: %v", method, path, resp.StatusCode, b, err)
	}
	a.Status = resp.StatusCode
	if a.Meta.ResponseCode != resp.StatusCode {
		e.t.Errorf("%s %s: meta.responseCode %d, HTTP %d", method, path, a.Meta.ResponseCode, resp.StatusCode)
	}
	if a.Meta.Request.Method != method {
		e.t.Errorf("%s %s: meta.request.method %q", method, path, a.Meta.Request.Method)
	}
	return a
}

func (e *aemEnv) ok(method, path string, body any) sempAnswer {
	e.t.Helper()
	a := e.semp(method, path, body)
	if a.Status != 200 {
		e.t.Fatalf("%s %s: %d %+v", method, path, a.Status, a.Meta.Error)
	}
	return a
}

func (e *aemEnv) queuesPath() string {
	return "/SEMP/v2/config/msgVpns/" + url.PathEscape(e.creds.MsgVpnName) + "/queues"
}

func (e *aemEnv) queuePath(name string) string { return e.queuesPath() + "/" + url.PathEscape(name) }

func (e *aemEnv) queue(name string) map[string]any {
	e.t.Helper()
	var q map[string]any
	if err := json.Unmarshal(e.ok(http.MethodGet, e.queuePath(name), nil).Data, &q); err != nil {
		e.t.Fatal(err)
	}
	return q
}

func (e *aemEnv) publish(queue string, header http.Header) int {
	e.t.Helper()
	resp, _ := e.raw(http.MethodPost, "/QUEUE/"+url.PathEscape(queue), []byte("poison"), header)
	return resp.StatusCode
}

func wantSEMPError(t *testing.T, a sempAnswer, code int, errStatus string) {
	const status = http.StatusBadRequest // [SOL] SEMP-Error-Handling.htm: a client error is 400
	t.Helper()
	if a.Status != status || a.Meta.Error == nil || a.Meta.Error.Code != code || a.Meta.Error.Status != errStatus || a.Meta.Error.Description == "" {
		t.Fatalf("got %d %+v, want %d with error %d %s and a description", a.Status, a.Meta.Error, status, code, errStatus)
	}
}

func TestAEMBasicAuthRequired(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	for _, tc := range []struct {
		name       string
		user, pass string
	}{{"no credentials", "", ""}, {"wrong password", e.creds.Username, "nope"}, {"wrong user", "admin", e.creds.Password}} {
		for _, p := range []string{e.queuesPath(), "/SEMP/v2/config/about/api", "/QUEUE/q"} {
			method := http.MethodGet
			if strings.HasPrefix(p, "/QUEUE") {
				method = http.MethodPost
			}
			req, _ := http.NewRequest(method, e.creds.SEMPURL+p, nil)
			if tc.user != "" {
				req.SetBasicAuth(tc.user, tc.pass)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("%s: %s %s = %d, want 401", tc.name, method, p, resp.StatusCode)
			}
		}
	}
}

// A queue created with nothing but its name has the broker's defaults ([SPEC] x-default): it accepts and
// delivers nothing and redelivers a failed message for ever, as fast as possible, to #DEAD_MSG_QUEUE.
func TestAEMQueueDefaults(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	e.ok(http.MethodPost, e.queuesPath(), map[string]any{"queueName": "orders"})
	q := e.queue("orders")
	want := map[string]any{
		"msgVpnName": e.creds.MsgVpnName, "queueName": "orders", "ingressEnabled": false, "egressEnabled": false,
		"maxRedeliveryCount": 0.0, "redeliveryEnabled": true, "redeliveryDelayEnabled": false,
		"redeliveryDelayInitialInterval": 1000.0, "redeliveryDelayMaxInterval": 64000.0, "redeliveryDelayMultiplier": 200.0,
		"deadMsgQueue": "#DEAD_MSG_QUEUE", "respectTtlEnabled": false, "maxTtl": 0.0, "respectDmqEligibleEnabled": false,
		"rejectMsgToSenderOnDiscardBehavior": "when-queue-enabled", "deliveryCountEnabled": false, "accessType": "exclusive",
		"maxMsgSpoolUsage": 5000.0, "maxMsgSize": 10000000.0, "maxDeliveredUnackedMsgsPerFlow": 10000.0,
		"permission": "no-access", "owner": "",
	}
	for k, v := range want {
		if q[k] != v {
			t.Errorf("%s = %v, want %v", k, q[k], v)
		}
	}
	wantSEMPError(t, e.semp(http.MethodPost, e.queuesPath(), map[string]any{"queueName": "orders"}), 10, "ALREADY_EXISTS")
}

func TestAEMQueueWrites(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	// PUT creates a missing queue and replaces every attribute; PATCH changes only what it sends.
	e.ok(http.MethodPut, e.queuePath("orders"), map[string]any{"queueName": "orders", "maxRedeliveryCount": 5, "owner": "ops", "ingressEnabled": true})
	e.ok(http.MethodPatch, e.queuePath("orders"), map[string]any{"maxTtl": 3600})
	q := e.queue("orders")
	if q["maxRedeliveryCount"] != 5.0 || q["owner"] != "ops" || q["maxTtl"] != 3600.0 || q["ingressEnabled"] != true {
		t.Errorf("after PUT and PATCH: %v", q)
	}
	e.ok(http.MethodPut, e.queuePath("orders"), map[string]any{"maxTtl": 60})
	q = e.queue("orders")
	if q["maxRedeliveryCount"] != 0.0 || q["owner"] != "" || q["maxTtl"] != 60.0 {
		t.Errorf("PUT did not reset the attributes it left out: %v", q)
	}
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		code   int
		status string
	}{
		{"count above range", http.MethodPatch, e.queuePath("orders"), map[string]any{"maxRedeliveryCount": 256}, 11, "INVALID_PARAMETER"},
		{"multiplier below range", http.MethodPatch, e.queuePath("orders"), map[string]any{"redeliveryDelayMultiplier": 99}, 11, "INVALID_PARAMETER"},
		{"interval zero", http.MethodPatch, e.queuePath("orders"), map[string]any{"redeliveryDelayInitialInterval": 0}, 11, "INVALID_PARAMETER"},
		{"enum", http.MethodPatch, e.queuePath("orders"), map[string]any{"accessType": "shared"}, 11, "INVALID_PARAMETER"},
		{"unknown attribute", http.MethodPatch, e.queuePath("orders"), map[string]any{"maxRedelivery": 1}, 11, "INVALID_PARAMETER"},
		{"other queue name", http.MethodPatch, e.queuePath("orders"), map[string]any{"queueName": "x"}, 11, "INVALID_PARAMETER"},
		{"not JSON", http.MethodPatch, e.queuePath("orders"), []byte("{"), 27, "PARSE_ERROR"},
		{"patch of a missing queue", http.MethodPatch, e.queuePath("missing"), map[string]any{"maxTtl": 1}, 6, "NOT_FOUND"},
		{"get of a missing queue", http.MethodGet, e.queuePath("missing"), nil, 6, "NOT_FOUND"},
		{"delete of a missing queue", http.MethodDelete, e.queuePath("missing"), nil, 6, "NOT_FOUND"},
		{"other Message VPN", http.MethodGet, "/SEMP/v2/config/msgVpns/other/queues", nil, 6, "NOT_FOUND"},
		{"name with a forbidden character", http.MethodPost, e.queuesPath(), map[string]any{"queueName": "a*b"}, 11, "INVALID_PARAMETER"},
		{"name too long", http.MethodPost, e.queuesPath(), map[string]any{"queueName": strings.Repeat("q", 201)}, 11, "INVALID_PARAMETER"},
		{"create without name", http.MethodPost, e.queuesPath(), map[string]any{}, 228, "MISSING_PARAMETER"},
	}
	for _, tc := range cases { //nolint:paralleltest // the cases share the queue, and the test then checks that none changed it
		t.Run(tc.name, func(t *testing.T) {
			wantSEMPError(t, e.semp(tc.method, tc.path, tc.body), tc.code, tc.status)
		})
	}
	if q := e.queue("orders"); q["maxTtl"] != 60.0 {
		t.Errorf("a refused write changed the queue: %v", q)
	}
	e.ok(http.MethodDelete, e.queuePath("orders"), nil)
	wantSEMPError(t, e.semp(http.MethodGet, e.queuePath("orders"), nil), 6, "NOT_FOUND")
}

// Names travel URL-encoded: #DEAD_MSG_QUEUE, slashes and topics with wildcards.
func TestAEMNamesEncoded(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	for _, name := range []string{"#DEAD_MSG_QUEUE", "acme/erp/orders", "a b+c%d"} {
		e.ok(http.MethodPut, e.queuePath(name), map[string]any{})
		if q := e.queue(name); q["queueName"] != name {
			t.Errorf("queueName = %v, want %q", q["queueName"], name)
		}
		topic := "acme/erp/>"
		e.ok(http.MethodPost, e.queuePath(name)+"/subscriptions", map[string]any{"subscriptionTopic": topic})
		e.ok(http.MethodGet, e.queuePath(name)+"/subscriptions/"+url.PathEscape(topic), nil)
		wantSEMPError(t, e.semp(http.MethodPost, e.queuePath(name)+"/subscriptions", map[string]any{"subscriptionTopic": topic}), 10, "ALREADY_EXISTS")
		e.ok(http.MethodDelete, e.queuePath(name)+"/subscriptions/"+url.PathEscape(topic), nil)
		wantSEMPError(t, e.semp(http.MethodGet, e.queuePath(name)+"/subscriptions/"+url.PathEscape(topic), nil), 6, "NOT_FOUND")
	}
}

func TestAEMPagingAndSelect(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	const n = 250
	for i := range n {
		e.ok(http.MethodPost, e.queuesPath(), map[string]any{"queueName": fmt.Sprintf("q%03d", i)})
	}
	a := e.ok(http.MethodGet, e.queuesPath(), nil)
	var first []map[string]any
	_ = json.Unmarshal(a.Data, &first)
	if len(first) != 10 || a.Meta.Paging == nil {
		t.Fatalf("without count: %d objects, paging %v; want the default page of 10 with a cursor", len(first), a.Meta.Paging)
	}
	wantSEMPError(t, e.semp(http.MethodGet, e.queuesPath()+"?count=101", nil), 11, "INVALID_PARAMETER")
	wantSEMPError(t, e.semp(http.MethodGet, e.queuesPath()+"?count=0", nil), 11, "INVALID_PARAMETER")
	var names []string
	next := e.queuesPath() + "?count=100&select=queueName"
	pages := 0
	for next != "" {
		pages++
		a := e.ok(http.MethodGet, next, nil)
		var objs []map[string]any
		_ = json.Unmarshal(a.Data, &objs)
		if len(objs) > 100 {
			t.Fatalf("page of %d objects", len(objs))
		}
		for _, o := range objs {
			if len(o) != 1 {
				t.Fatalf("select=queueName answered %v", o)
			}
			name, _ := o["queueName"].(string)
			names = append(names, name)
		}
		next = ""
		if a.Meta.Paging != nil {
			u, err := url.Parse(a.Meta.Paging.NextPageURI)
			if err != nil || u.Query().Get("cursor") != a.Meta.Paging.CursorQuery {
				t.Fatalf("nextPageUri %q does not carry cursorQuery %q", a.Meta.Paging.NextPageURI, a.Meta.Paging.CursorQuery)
			}
			next = u.RequestURI()
		}
	}
	if pages != 3 || len(names) != n || names[0] != "q000" || names[n-1] != fmt.Sprintf("q%03d", n-1) {
		t.Errorf("%d pages, %d names (%v ... %v); want 3 pages of all %d", pages, len(names), names[0], names[len(names)-1], n)
	}
	var one []map[string]any
	_ = json.Unmarshal(e.ok(http.MethodGet, e.queuesPath()+"?where=queueName==q24*&select=-owner", nil).Data, &one)
	if len(one) != 10 || one[0]["owner"] != nil || one[0]["maxTtl"] == nil {
		t.Errorf("where and select=-owner: %v", one)
	}
	var about map[string]any
	_ = json.Unmarshal(e.ok(http.MethodGet, "/SEMP/v2/config/about/api", nil).Data, &about)
	if about["sempVersion"] != "2.49" {
		t.Errorf("/about/api: %v", about)
	}
}

// aemQueueFor creates queue name with attrs on top of ingress and egress enabled.
func (e *aemEnv) aemQueueFor(name string, attrs map[string]any) {
	e.t.Helper()
	body := map[string]any{"queueName": name, "ingressEnabled": true, "egressEnabled": true}
	for k, v := range attrs {
		body[k] = v
	}
	e.ok(http.MethodPost, e.queuesPath(), body)
}

// The broker's retry path: deliveries until the message leaves the queue and where it goes.
func TestAEMRedeliveryCounts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		attrs      map[string]any
		dmq        bool // create the DMQ
		header     http.Header
		deliveries int
		where      string // "" = still on the queue after the deliveries
	}{
		{"defaults retry for ever", map[string]any{}, true, nil, 300, ""},
		{"R=1", map[string]any{"maxRedeliveryCount": 1, "deadMsgQueue": "dmq"}, true, nil, 2, "dmq"},
		{"R=3", map[string]any{"maxRedeliveryCount": 3, "deadMsgQueue": "dmq"}, true, nil, 4, "dmq"},
		{"R=5 to #DEAD_MSG_QUEUE", map[string]any{"maxRedeliveryCount": 5}, true, nil, 6, "#DEAD_MSG_QUEUE"},
		{"R=255", map[string]any{"maxRedeliveryCount": 255, "deadMsgQueue": "dmq"}, true, nil, 256, "dmq"},
		{"DMQ missing: deleted", map[string]any{"maxRedeliveryCount": 2, "deadMsgQueue": "dmq"}, false, nil, 3, "deleted"},
		{"redelivery off: one delivery", map[string]any{"redeliveryEnabled": false, "deadMsgQueue": "dmq"}, true, nil, 1, "dmq"},
		{"DMQ eligibility respected, message not eligible: deleted", map[string]any{"maxRedeliveryCount": 1, "deadMsgQueue": "dmq", "respectDmqEligibleEnabled": true}, true, nil, 2, "deleted"},
		{"DMQ eligibility respected, message eligible", map[string]any{"maxRedeliveryCount": 1, "deadMsgQueue": "dmq", "respectDmqEligibleEnabled": true}, true, http.Header{"Solace-Dmq-Eligible": {"true"}}, 2, "dmq"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAEMEnv(t, emulator.Options{})
			if tc.dmq {
				name, _ := tc.attrs["deadMsgQueue"].(string)
				if name == "" {
					name = "#DEAD_MSG_QUEUE"
				}
				e.aemQueueFor(name, nil)
			}
			e.aemQueueFor("orders", tc.attrs)
			if st := e.publish("orders", tc.header); st != 200 {
				t.Fatalf("publish: %d", st)
			}
			ds, where, err := e.s.AEMPoisonRun("orders", tc.deliveries, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) != tc.deliveries || where != tc.where {
				t.Fatalf("%d deliveries, then %q; want %d, then %q", len(ds), where, tc.deliveries, tc.where)
			}
			for i, d := range ds {
				if d.DeliveryCount != int64(i+1) {
					t.Fatalf("delivery %d has count %d", i+1, d.DeliveryCount)
				}
			}
			wantOnQueue := 0
			if tc.where == "" {
				wantOnQueue = 1
			}
			if got := e.s.AEMQueueDepth("orders"); got != wantOnQueue {
				t.Errorf("%d messages left on the queue, want %d", got, wantOnQueue)
			}
			if tc.where != "" && tc.where != "deleted" {
				if got := e.s.AEMQueueDepth(tc.where); got != 1 {
					t.Errorf("%d messages on %s, want 1", got, tc.where)
				}
			}
		})
	}
}

// With the delay on, the k-th redelivery waits initial × multiplier^(k-1), capped at the maximum
// interval, on the AEM clock; with it off, redeliveries follow at once.
func TestAEMRedeliveryDelaySchedule(t *testing.T) {
	t.Parallel()
	// One AEM minute lasts 600 ms: the 1+2+4+8+10+10 s of the schedule below take about 350 ms.
	e := newAEMEnv(t, emulator.Options{AEMMinute: 600 * time.Millisecond})
	e.aemQueueFor("dmq", nil)
	e.aemQueueFor("orders", map[string]any{"maxRedeliveryCount": 6, "deadMsgQueue": "dmq", "redeliveryDelayEnabled": true,
		"redeliveryDelayInitialInterval": 1000, "redeliveryDelayMaxInterval": 10000, "redeliveryDelayMultiplier": 200})
	e.publish("orders", nil)
	ds, where, err := e.s.AEMPoisonRun("orders", 100, 10*time.Second)
	if err != nil || where != "dmq" || len(ds) != 7 {
		t.Fatalf("%d deliveries then %q (%v), want 7 then dmq", len(ds), where, err)
	}
	want := []time.Duration{1 * time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for i := 1; i < len(ds); i++ {
		gap := ds[i].At.Sub(ds[i-1].At)
		w := want[i-1]
		// The poison run's consumer fails each delivery the moment it gets it: the gaps are the delays.
		if gap < w || gap > w+time.Millisecond {
			t.Errorf("redelivery %d after %v, want %v", i, gap, w)
		}
	}

	e.aemQueueFor("fast", map[string]any{"maxRedeliveryCount": 3, "deadMsgQueue": "dmq"})
	e.publish("fast", nil)
	ds, _, _ = e.s.AEMPoisonRun("fast", 100, 10*time.Second)
	if total := ds[len(ds)-1].At.Sub(ds[0].At); len(ds) != 4 || total != 0 {
		t.Errorf("without delay: %d deliveries over %v, want 4 at once", len(ds), total)
	}
}

func TestAEMTTLAndIngressEgress(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{AEMMinute: 60 * time.Millisecond}) // 1 AEM second = 1 ms
	e.aemQueueFor("dmq", nil)
	e.aemQueueFor("ttl", map[string]any{"respectTtlEnabled": true, "maxTtl": 2, "deadMsgQueue": "dmq", "egressEnabled": false})
	e.aemQueueFor("ttl-ignored", map[string]any{"maxTtl": 2, "deadMsgQueue": "dmq"})
	e.publish("ttl", nil)
	e.publish("ttl-ignored", nil)
	time.Sleep(30 * time.Millisecond)
	if d := e.s.AEMQueueDepth("ttl"); d != 0 {
		t.Errorf("expired message still on the queue (%d)", d)
	}
	if d := e.s.AEMQueueDepth("dmq"); d != 1 {
		t.Errorf("%d messages on the DMQ, want the expired one", d)
	}
	if d := e.s.AEMQueueDepth("ttl-ignored"); d != 1 {
		t.Errorf("maxTtl without respectTtlEnabled expired the message (%d left)", d)
	}
	// The publisher's TTL counts too, the earlier of the two wins.
	e.aemQueueFor("msgttl", map[string]any{"respectTtlEnabled": true, "maxTtl": 3600, "deadMsgQueue": "none", "egressEnabled": false})
	e.publish("msgttl", http.Header{"Solace-Time-To-Live-In-Ms": {"1000"}})
	time.Sleep(10 * time.Millisecond)
	if d := e.s.AEMQueueDepth("msgttl"); d != 0 {
		t.Errorf("message past its publisher's TTL still on the queue (%d)", d)
	}

	e.ok(http.MethodPost, e.queuesPath(), map[string]any{"queueName": "closed"})
	if st := e.publish("closed", nil); st != http.StatusServiceUnavailable {
		t.Errorf("publish to a queue with ingress off: %d, want 503", st)
	}
	if st := e.publish("missing", nil); st != http.StatusNotFound {
		t.Errorf("publish to a missing queue: %d, want 404", st)
	}
	e.ok(http.MethodPatch, e.queuePath("closed"), map[string]any{"ingressEnabled": true})
	e.publish("closed", nil)
	if _, ok := e.s.AEMReceive("closed"); ok {
		t.Error("a queue with egress off delivered a message")
	}
	// Topics reach the queues whose subscriptions match.
	e.ok(http.MethodPost, e.queuePath("closed")+"/subscriptions", map[string]any{"subscriptionTopic": "acme/*/orders/>"})
	for _, tc := range []struct {
		topic string
		want  int
	}{{"acme/erp/orders/created", 2}, {"acme/erp/orders", 2}, {"acme/erp/invoices/x", 2}, {"acme/crm/orders/a/b", 3}} {
		topic, want := tc.topic, tc.want
		resp, _ := e.raw(http.MethodPost, "/TOPIC/"+topic, []byte("x"), nil)
		if resp.StatusCode != 200 {
			t.Fatalf("publish to topic %s: %d", topic, resp.StatusCode)
		}
		if d := e.s.AEMQueueDepth("closed"); d != want {
			t.Errorf("after %s: %d messages, want %d", topic, d, want)
		}
	}
}

// The monitor API lists the messages, the action API copies and deletes them one at a time.
func TestAEMMonitorAndActions(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	e.aemQueueFor("#DEAD_MSG_QUEUE", nil)
	e.aemQueueFor("orders", nil)
	for range 120 {
		e.publish("#DEAD_MSG_QUEUE", http.Header{"Solace-Dmq-Eligible": {"true"}})
	}
	msgs := "/SEMP/v2/monitor/msgVpns/" + e.creds.MsgVpnName + "/queues/" + url.PathEscape("#DEAD_MSG_QUEUE") + "/msgs"
	a := e.ok(http.MethodGet, msgs+"?count=100", nil)
	var page []map[string]any
	_ = json.Unmarshal(a.Data, &page)
	if len(page) != 100 || a.Meta.Paging == nil || page[0]["replicationGroupMsgId"] == "" || page[0]["dmqEligible"] != true {
		t.Fatalf("first page: %d messages, paging %v, first %v", len(page), a.Meta.Paging, page[0])
	}
	u, _ := url.Parse(a.Meta.Paging.NextPageURI)
	var rest []map[string]any
	_ = json.Unmarshal(e.ok(http.MethodGet, u.RequestURI(), nil).Data, &rest)
	if len(rest) != 20 {
		t.Fatalf("second page: %d messages, want 20", len(rest))
	}
	m := page[0]
	act := "/SEMP/v2/action/msgVpns/" + e.creds.MsgVpnName + "/queues/"
	e.ok(http.MethodPut, act+"orders/copyMsgFromQueue", map[string]any{"replicationGroupMsgId": m["replicationGroupMsgId"], "sourceQueueName": "#DEAD_MSG_QUEUE"})
	e.ok(http.MethodPut, fmt.Sprintf("%s%s/msgs/%v/delete", act, url.PathEscape("#DEAD_MSG_QUEUE"), m["msgId"]), map[string]any{})
	if e.s.AEMQueueDepth("orders") != 1 || e.s.AEMQueueDepth("#DEAD_MSG_QUEUE") != 119 {
		t.Errorf("after copy and delete: %d on orders, %d on the DMQ", e.s.AEMQueueDepth("orders"), e.s.AEMQueueDepth("#DEAD_MSG_QUEUE"))
	}
	wantSEMPError(t, e.semp(http.MethodPut, fmt.Sprintf("%s%s/msgs/%v/delete", act, url.PathEscape("#DEAD_MSG_QUEUE"), m["msgId"]), map[string]any{}), 6, "NOT_FOUND")
	wantSEMPError(t, e.semp(http.MethodPut, act+"orders/copyMsgFromQueue", map[string]any{"replicationGroupMsgId": "rmid1:none", "sourceQueueName": "#DEAD_MSG_QUEUE"}), 6, "NOT_FOUND")
}

func TestAEMKeyWritten(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{})
	dir := t.TempDir()
	if err := e.s.WriteKeys(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, emulator.AdvancedEventMeshKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	var k map[string]string
	if err := json.Unmarshal(b, &k); err != nil {
		t.Fatal(err)
	}
	if k["semp_url"] != e.s.URL() || k["msg_vpn_name"] == "" || k["username"] == "" || k["password"] == "" || len(k) != 4 {
		t.Errorf("advanced-event-mesh.json: %v", k)
	}
	if fi, _ := os.Stat(filepath.Join(dir, emulator.AdvancedEventMeshKeyFile)); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
}

// The control endpoint runs a poison message through a queue: the broker's defaults (after the queue is
// opened) redeliver it for ever, at once; the provider's settings give R + 1 deliveries on the delay
// schedule, then the DMQ.
func TestAEMPoisonRunControl(t *testing.T) {
	t.Parallel()
	e := newAEMEnv(t, emulator.Options{AEMMinute: 600 * time.Millisecond})
	e.aemQueueFor("#DEAD_MSG_QUEUE", nil)
	e.aemQueueFor("defaults", nil)
	e.aemQueueFor("orders.dmq", map[string]any{"respectTtlEnabled": true, "maxTtl": 604800})
	e.aemQueueFor("orders", map[string]any{"maxRedeliveryCount": 5, "deadMsgQueue": "orders.dmq", "redeliveryDelayEnabled": true})
	e.publish("defaults", nil)
	e.publish("orders", nil)
	type run struct {
		Deliveries []struct {
			DeliveryCount int64 `json:"deliveryCount"`
			AfterMs       int64 `json:"afterMs"`
		} `json:"deliveries"`
		Where string `json:"where"`
	}
	poison := func(queue string, n int) run {
		t.Helper()
		resp, err := http.Post(e.s.URL()+"/emulator/v1/aem/queues/"+url.PathEscape(queue)+fmt.Sprintf("/poison-run?deliveries=%d", n), "", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var out run
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
			t.Fatalf("poison run on %s: %d %v", queue, resp.StatusCode, err)
		}
		return out
	}
	d := poison("defaults", 500)
	if len(d.Deliveries) != 500 || d.Where != "" || d.Deliveries[499].AfterMs != 0 {
		t.Errorf("broker defaults: %d deliveries over %d ms, then %q; want 500 at once and the message still queued",
			len(d.Deliveries), d.Deliveries[len(d.Deliveries)-1].AfterMs, d.Where)
	}
	o := poison("orders", 500)
	var after []int64
	for _, x := range o.Deliveries {
		after = append(after, x.AfterMs)
	}
	if fmt.Sprint(after) != "[0 1000 3000 7000 15000 31000]" || o.Where != "orders.dmq" {
		t.Errorf("provider settings: deliveries after %v ms, then %q; want [0 1000 3000 7000 15000 31000], then orders.dmq", after, o.Where)
	}
}

// A removed message larger than its dead message queue's maxMsgSize does not move there: the dead message
// queue discards it as it would on publish, the move fails, and the broker deletes it ([SPEC monitor 2.34]
// MsgVpnQueue maxMsgSizeExceededDiscardedMsgCount, maxRedeliveryExceededToDmqFailedMsgCount).
func TestAEMDeadMessageQueueMaxMsgSize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		maxSize int
		where   string
	}{{"fits", 6, "dmq"}, {"too big: deleted", 5, "deleted"}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAEMEnv(t, emulator.Options{})
			e.aemQueueFor("dmq", map[string]any{"maxMsgSize": tc.maxSize})
			e.aemQueueFor("orders", map[string]any{"maxRedeliveryCount": 1, "deadMsgQueue": "dmq"})
			if st := e.publish("orders", nil); st != 200 { // "poison": 6 bytes
				t.Fatalf("publish: %d", st)
			}
			_, where, err := e.s.AEMPoisonRun("orders", 2, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if where != tc.where {
				t.Fatalf("the removed message went to %q, want %q", where, tc.where)
			}
			want := 0
			if tc.where == "dmq" {
				want = 1
			}
			if got := e.s.AEMQueueDepth("dmq"); got != want {
				t.Errorf("%d messages on the dead message queue, want %d", got, want)
			}
		})
	}
}

// A dead message queue with maxMsgSpoolUsage 0 keeps only the last message it received ([SPEC]
// MsgVpnQueue.maxMsgSpoolUsage: "A value of 0 only allows spooling of the last message received"): of three
// poison messages removed from its queue, one is left there; with the default quota all three are.
func TestAEMDeadMessageQueueSpoolQuotaZero(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		quota any
		want  int
	}{{"quota 0: the last one", 0, 1}, {"default quota: all", nil, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAEMEnv(t, emulator.Options{})
			dmq := map[string]any{}
			if tc.quota != nil {
				dmq["maxMsgSpoolUsage"] = tc.quota
			}
			e.aemQueueFor("dmq", dmq)
			e.aemQueueFor("orders", map[string]any{"maxRedeliveryCount": 1, "deadMsgQueue": "dmq"})
			for range 3 {
				if st := e.publish("orders", nil); st != 200 {
					t.Fatalf("publish: %d", st)
				}
				if _, where, err := e.s.AEMPoisonRun("orders", 2, 10*time.Second); err != nil || where != "dmq" {
					t.Fatalf("poison run: %q %v", where, err)
				}
			}
			if got := e.s.AEMQueueDepth("dmq"); got != tc.want {
				t.Errorf("%d messages on the dead message queue, want %d", got, tc.want)
			}
		})
	}
}
