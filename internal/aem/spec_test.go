package aem_test

// The spec check validates the client's requests and the emulator's answers against SEMP's OpenAPI
// descriptions (Swagger 2.0): the configuration API of 10.25.11 (SEMP 2.49, config-extended-10.25.11.json) and
// the monitoring and action APIs of SEMP 2.34 (monitor-2.34.json, action-2.34.json), kept in
// shared/reference/specs/semp beside the repository. A proxy between the client and the emulator checks every
// exchange:
//   - the request's path and method are an operation of the spec, its query parameters are the operation's;
//   - each select name matches an attribute of the answer's object ("each attribute name in the list must
//     match at least one attribute in the object", monitor info.description), each where expression is
//     "attribute OP value" with one of the six operators and an attribute of the object;
//   - a request body holds only attributes of the operation's body definition;
//   - a 200 answer holds meta.responseCode and only attributes of the operation's object (data) and links;
//   - any other answer is the error envelope: meta.error with code, status and description.
//
// What the descriptions cannot check, and is therefore adjusted: the monitor and action specs are SEMP 2.34,
// the config spec and the emulator 2.49, so the attributes a 2.49 monitor object could add are not known;
// the emulator answers only 2.34's (aem_monitor.go), and the check holds it to them.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

// sempSpec is one SEMP API's description.
type sempSpec struct {
	base  string
	raw   map[string]any
	paths []specPath
}

type specPath struct {
	tmpl string
	re   *regexp.Regexp
	ops  map[string]map[string]any // method (upper case) -> operation
}

var specParam = regexp.MustCompile(`\\\{[^}]+\\\}`)

func loadSEMPSpec(t *testing.T, file string) *sempSpec {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal(readReference(t, "semp/"+file), &raw); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	base, _ := raw["basePath"].(string)
	paths, _ := raw["paths"].(map[string]any)
	if base == "" || len(paths) == 0 {
		t.Fatalf("%s: no basePath or paths", file)
	}
	s := &sempSpec{base: base, raw: raw}
	for tmpl, item := range paths {
		p := specPath{tmpl: tmpl, re: regexp.MustCompile("^" + specParam.ReplaceAllString(regexp.QuoteMeta(tmpl), `[^/]+`) + "$"), ops: map[string]map[string]any{}}
		ops, _ := item.(map[string]any)
		for m, op := range ops {
			if o, ok := op.(map[string]any); ok {
				p.ops[strings.ToUpper(m)] = o
			}
		}
		s.paths = append(s.paths, p)
	}
	return s
}

// ref follows a "#/definitions/X" or "#/parameters/X" reference.
func (s *sempSpec) ref(v any) map[string]any {
	m, _ := v.(map[string]any)
	r, ok := m["$ref"].(string)
	if !ok {
		return m
	}
	parts := strings.Split(strings.TrimPrefix(r, "#/"), "/")
	out, _ := s.raw[parts[0]].(map[string]any)[parts[1]].(map[string]any)
	return out
}

func (s *sempSpec) props(def map[string]any) map[string]any {
	p, _ := def["properties"].(map[string]any)
	return p
}

// answerDefs returns the definitions of the data (object or collection item) and links of op's 200 answer.
func (s *sempSpec) answerDefs(op map[string]any) (data, links map[string]any) {
	r200, _ := op["responses"].(map[string]any)["200"].(map[string]any)
	resp := s.ref(r200["schema"])
	props := s.props(resp)
	one := func(v any) map[string]any {
		m, _ := v.(map[string]any)
		if m["type"] == "array" {
			return s.ref(m["items"])
		}
		return s.ref(m)
	}
	return one(props["data"]), one(props["links"])
}

// sempCheck is the proxy and the violations it found.
type sempCheck struct {
	t      *testing.T
	specs  []*sempSpec
	target string
	mu     sync.Mutex
	bad    []string
	seen   map[string]bool // "METHOD template" exchanged
}

func (c *sempCheck) fail(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bad = append(c.bad, fmt.Sprintf(format, args...))
}

var whereExpr = regexp.MustCompile(`^([A-Za-z0-9_.]+)(==|!=|<=|>=|<|>)(.*)$`)

func nameMatches(pat, s string) bool {
	re := "^" + strings.ReplaceAll(regexp.QuoteMeta(pat), `\*`, ".*") + "$"
	return regexp.MustCompile(re).MatchString(s)
}

func anyAttr(pat string, props map[string]any) bool {
	top, _, _ := strings.Cut(pat, ".")
	for k := range props {
		if nameMatches(top, k) {
			return true
		}
	}
	return false
}

// checkRequest checks r against the specs and returns its operation with its spec (nil when none).
func (c *sempCheck) checkRequest(r *http.Request, body []byte) (*sempSpec, map[string]any, string) {
	for _, s := range c.specs {
		rest, ok := strings.CutPrefix(r.URL.EscapedPath(), s.base)
		if !ok {
			continue
		}
		for _, p := range s.paths {
			if !p.re.MatchString(rest) {
				continue
			}
			label := r.Method + " " + s.base + p.tmpl
			op, ok := p.ops[r.Method]
			if !ok {
				c.fail("%s: the spec has no %s on %s", label, r.Method, p.tmpl)
				return nil, nil, label
			}
			c.mu.Lock()
			c.seen[label] = true
			c.mu.Unlock()
			c.checkParams(s, op, r, body, label)
			return s, op, label
		}
		c.fail("%s %s: no path of the spec %s", r.Method, r.URL.EscapedPath(), s.base)
		return nil, nil, ""
	}
	c.fail("%s %s: outside SEMP's APIs", r.Method, r.URL.Path)
	return nil, nil, ""
}

func (c *sempCheck) checkParams(s *sempSpec, op map[string]any, r *http.Request, body []byte, label string) {
	query := map[string]bool{}
	var bodyDef map[string]any
	params, _ := op["parameters"].([]any)
	for _, p := range params {
		pm := s.ref(p)
		switch pm["in"] {
		case "query":
			name, _ := pm["name"].(string)
			query[name] = true
		case "body":
			bodyDef = s.ref(pm["schema"])
		}
	}
	dataDef, _ := s.answerDefs(op)
	objProps := s.props(dataDef)
	for k, vs := range r.URL.Query() {
		if !query[k] {
			c.fail("%s: query parameter %q is not one of the operation's", label, k)
			continue
		}
		for _, v := range vs {
			switch k {
			case "select":
				for _, name := range strings.Split(v, ",") {
					if !anyAttr(strings.TrimPrefix(name, "-"), objProps) {
						c.fail("%s: select name %q matches no attribute of the object", label, name)
					}
				}
			case "where":
				for _, e := range strings.Split(v, ",") {
					m := whereExpr.FindStringSubmatch(e)
					if m == nil {
						c.fail("%s: where %q is not attribute OP value", label, e)
					} else if _, ok := objProps[m[1]]; !ok {
						c.fail("%s: where attribute %q is not an attribute of the object", label, m[1])
					}
				}
			}
		}
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return
	}
	if bodyDef == nil {
		c.fail("%s: a body, where the operation takes none", label)
		return
	}
	var obj map[string]any
	if err := json.Unmarshal(body, &obj); err != nil {
		c.fail("%s: the body is not a JSON object: %v", label, err)
		return
	}
	for k := range obj {
		if _, ok := s.props(bodyDef)[k]; !ok {
			c.fail("%s: body attribute %q is not in the operation's definition", label, k)
		}
	}
}

func (c *sempCheck) checkAnswer(s *sempSpec, op map[string]any, label string, status int, body []byte) {
	var env struct {
		Data  json.RawMessage `json:"data"`
		Links json.RawMessage `json:"links"`
		Meta  map[string]any  `json:"meta"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Meta == nil {
		c.fail("%s: answer %d is not a SEMP envelope: %q", label, status, body)
		return
	}
	if rc, _ := env.Meta["responseCode"].(float64); int(rc) != status {
		c.fail("%s: meta.responseCode %v, HTTP %d", label, env.Meta["responseCode"], status)
	}
	if status != http.StatusOK {
		e, _ := env.Meta["error"].(map[string]any)
		if e == nil || e["code"] == nil || e["status"] == nil || e["description"] == nil {
			c.fail("%s: answer %d without meta.error {code, status, description}: %s", label, status, body)
		}
		return
	}
	if op == nil {
		return
	}
	dataDef, linksDef := s.answerDefs(op)
	check := func(what string, raw json.RawMessage, def map[string]any) {
		if len(raw) == 0 || string(raw) == "null" {
			return
		}
		if def == nil {
			c.fail("%s: the answer has %s, where the spec's answer has none", label, what)
			return
		}
		var objs []map[string]any
		if raw[0] == '[' {
			_ = json.Unmarshal(raw, &objs)
		} else {
			var one map[string]any
			_ = json.Unmarshal(raw, &one)
			objs = append(objs, one)
		}
		for _, o := range objs {
			for k := range o {
				if _, ok := s.props(def)[k]; !ok {
					c.fail("%s: %s attribute %q is not in the spec's definition", label, what, k)
				}
			}
		}
	}
	check("data", env.Data, dataDef)
	check("links", env.Links, linksDef)
}

func (c *sempCheck) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s, op, label := c.checkRequest(r, body)
	req, _ := http.NewRequestWithContext(r.Context(), r.Method, c.target+r.URL.RequestURI(), bytes.NewReader(body))
	req.Header = r.Header.Clone()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer func() { _ = resp.Body.Close() }()
	answer, _ := io.ReadAll(resp.Body)
	if s != nil {
		c.checkAnswer(s, op, label, resp.StatusCode, answer)
	}
	for k, v := range resp.Header {
		w.Header()[k] = v
	}
	w.WriteHeader(resp.StatusCode)
	_, _ = w.Write(answer)
}

// specEnv is an emulator behind the checking proxy, with a client of the proxy.
type specEnv struct {
	*env
	check *sempCheck
	url   string // the proxy's
}

func newSpecEnv(t *testing.T) *specEnv {
	t.Helper()
	specs := []*sempSpec{loadSEMPSpec(t, "config-extended-10.25.11.json"), loadSEMPSpec(t, "monitor-2.34.json"), loadSEMPSpec(t, "action-2.34.json")}
	emu := emulatortest.Start(t, emulator.Options{})
	creds := emu.AdvancedEventMeshCredentials()
	check := &sempCheck{t: t, specs: specs, target: creds.SEMPURL, seen: map[string]bool{}}
	proxy := httptest.NewServer(check)
	t.Cleanup(proxy.Close)
	viaProxy := creds
	viaProxy.SEMPURL = proxy.URL
	e := &env{t: t, emu: emu, creds: creds, c: client(t, viaProxy, nil)}
	return &specEnv{env: e, check: check, url: proxy.URL}
}

func (s *specEnv) report(t *testing.T) {
	t.Helper()
	s.check.mu.Lock()
	defer s.check.mu.Unlock()
	bad := append([]string(nil), s.check.bad...)
	sort.Strings(bad)
	for _, b := range slicesCompact(bad) {
		t.Error(b)
	}
}

func slicesCompact(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// Every request the client makes is an operation of SEMP's specs, with the operation's parameters, select
// names and where attributes of the object and body attributes of the definition; every answer of the
// emulator holds what the spec's definitions list, or the error envelope.
func TestClientAndEmulatorHoldToTheSEMPSpec(t *testing.T) {
	t.Parallel()
	s := newSpecEnv(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	c := s.c
	must := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	must("CheckAccess", c.CheckAccess(ctx))
	_, err := c.AboutAPI(ctx)
	must("AboutAPI", err)
	full := aem.QueueSettings{
		AccessType: aem.Ptr("non-exclusive"), DeadMsgQueue: aem.Ptr("orders.dmq"), DeliveryCountEnabled: aem.Ptr(true),
		EgressEnabled: aem.Ptr(true), IngressEnabled: aem.Ptr(true), MaxDeliveredUnackedMsgsPerFlow: aem.Ptr[int64](100),
		MaxMsgSize: aem.Ptr[int64](1000), MaxMsgSpoolUsage: aem.Ptr[int64](100), MaxRedeliveryCount: aem.Ptr[int64](3),
		MaxTTL: aem.Ptr[int64](60), Owner: aem.Ptr("acme"), Permission: aem.Ptr("consume"), RedeliveryDelayEnabled: aem.Ptr(true),
		RedeliveryDelayInitialInterval: aem.Ptr[int64](100), RedeliveryDelayMaxInterval: aem.Ptr[int64](1000),
		RedeliveryDelayMultiplier: aem.Ptr[int64](150), RedeliveryEnabled: aem.Ptr(true),
		RejectMsgToSenderOnDiscardBehavior: aem.Ptr("always"), RespectDmqEligibleEnabled: aem.Ptr(true), RespectTTLEnabled: aem.Ptr(true),
	}
	_, err = c.CreateQueue(ctx, aem.Queue{Name: "orders.dmq", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}})
	must("CreateQueue dmq", err)
	_, err = c.CreateQueue(ctx, aem.Queue{Name: "acme/orders", QueueSettings: full})
	must("CreateQueue", err)
	_, err = c.CreateQueue(ctx, aem.Queue{Name: "acme/orders"})
	if err == nil {
		t.Error("a second create succeeded")
	}
	_, err = c.GetQueue(ctx, "acme/orders")
	must("GetQueue", err)
	_, err = c.GetQueue(ctx, "gone")
	if err == nil {
		t.Error("GetQueue of a missing queue succeeded")
	}
	_, err = c.UpdateQueue(ctx, "acme/orders", aem.QueueSettings{MaxRedeliveryCount: aem.Ptr[int64](4), RejectMsgToSenderOnDiscardBehavior: aem.Ptr("when-queue-enabled")})
	must("UpdateQueue", err)
	_, err = c.ListQueues(ctx)
	must("ListQueues", err)
	must("CreateSubscription", c.CreateSubscription(ctx, "acme/orders", "acme/orders/>"))
	_, err = c.ListSubscriptions(ctx, "acme/orders")
	must("ListSubscriptions", err)
	_, err = c.GetSubscription(ctx, "acme/orders", "acme/orders/>")
	must("GetSubscription", err)

	s.publish("acme/orders", 3)
	_, err = c.ListQueueStats(ctx)
	must("ListQueueStats", err)
	_, err = c.GetQueueStats(ctx, "acme/orders")
	must("GetQueueStats", err)
	n, err := c.CountMessages(ctx, "acme/orders")
	must("CountMessages", err)
	if n != 3 {
		t.Errorf("CountMessages: %d, want 3", n)
	}
	flows, err := c.CountTxFlows(ctx, "acme/orders")
	must("CountTxFlows", err)
	if flows != 0 {
		t.Errorf("CountTxFlows: %d, want 0", flows)
	}
	msgs, err := c.ListMessages(ctx, "acme/orders")
	must("ListMessages", err)
	if len(msgs) != 3 {
		t.Fatalf("ListMessages: %d, want 3", len(msgs))
	}
	_, err = c.GetMessage(ctx, "acme/orders", msgs[0].MsgID)
	must("GetMessage", err)
	must("CopyMessage", c.CopyMessage(ctx, "orders.dmq", "acme/orders", msgs[0].ReplicationGroupMsgID))
	must("DeleteMessage", c.DeleteMessage(ctx, "acme/orders", msgs[0].MsgID))

	must("DeleteSubscription", c.DeleteSubscription(ctx, "acme/orders", "acme/orders/>"))
	must("DeleteQueue", c.DeleteQueue(ctx, "acme/orders"))
	s.report(t)
}

// The emulator's own answers to what a client might send, beyond what this client sends: each is in the spec's
// terms (the error envelope for what it refuses, and only attributes of the definitions for what it serves).
func TestEmulatorAnswersHoldToTheSEMPSpec(t *testing.T) {
	t.Parallel()
	s := newSpecEnv(t)
	ctx := t.Context()
	if _, err := s.c.CreateQueue(ctx, aem.Queue{Name: "orders", QueueSettings: aem.QueueSettings{IngressEnabled: aem.Ptr(true)}}); err != nil {
		t.Fatal(err)
	}
	s.publish("orders", 1)
	vpn := url.PathEscape(s.creds.MsgVpnName)
	for _, p := range []string{
		"/SEMP/v2/config/msgVpns/" + vpn,
		"/SEMP/v2/config/msgVpns/" + vpn + "/queues?count=100",
		"/SEMP/v2/config/msgVpns/" + vpn + "/queues/orders",
		"/SEMP/v2/monitor/msgVpns/" + vpn + "/queues?count=100",
		"/SEMP/v2/monitor/msgVpns/" + vpn + "/queues/orders",
		"/SEMP/v2/monitor/msgVpns/" + vpn + "/queues/orders/msgs",
		"/SEMP/v2/monitor/msgVpns/" + vpn + "/queues/orders/txFlows",
		"/SEMP/v2/config/msgVpns/" + vpn + "/queues?where=maxRedeliveryCount%3E%3D0",
		"/SEMP/v2/config/about/api",
	} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.url+p, nil)
		req.SetBasicAuth(s.creds.Username, s.creds.Password)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d", p, resp.StatusCode)
		}
	}
	s.report(t)
}
