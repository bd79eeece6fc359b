package aem

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The SEMP v2 configuration API of the AEM room: queues, their subscriptions and /about/api. Every
// attribute, default, range and enum below is MsgVpnQueue's in [SPEC] (its x-default, minimum, maximum and
// enum); see aem.go for the sources of the behaviours.

type sempAttrKind int

const (
	attrBool sempAttrKind = iota
	attrInt
	attrString
	attrEnum
	attrThreshold // an event threshold object: clearPercent, setPercent, clearValue, setValue
)

type sempAttr struct {
	kind     sempAttrKind
	def      any
	min, max int64
	enum     []string
	maxLen   int
	pattern  *regexp.Regexp // a string's pattern ([SPEC] pattern)
}

// aemQueueAttrs are the writable attributes of MsgVpnQueue with [SPEC]'s defaults and ranges.
var aemQueueAttrs = map[string]sempAttr{
	"accessType":                              {kind: attrEnum, def: "exclusive", enum: []string{"exclusive", "non-exclusive"}},
	"consumerAckPropagationEnabled":           {kind: attrBool, def: true},
	"deadMsgQueue":                            {kind: attrString, def: "#DEAD_MSG_QUEUE", maxLen: 200, pattern: aemDeadMsgQueuePattern},
	"deliveryCountEnabled":                    {kind: attrBool, def: false},
	"deliveryDelay":                           {kind: attrInt, def: int64(0), min: 0, max: 4294967295},
	"egressEnabled":                           {kind: attrBool, def: false},
	"eventBindCountThreshold":                 {kind: attrThreshold, def: threshold(60, 80)},
	"eventMsgSpoolUsageThreshold":             {kind: attrThreshold, def: threshold(18, 25)},
	"eventRejectLowPriorityMsgLimitThreshold": {kind: attrThreshold, def: threshold(60, 80)},
	"ingressEnabled":                          {kind: attrBool, def: false},
	"maxBindCount":                            {kind: attrInt, def: int64(1000), min: 0, max: 10000},
	"maxDeliveredUnackedMsgsPerFlow":          {kind: attrInt, def: int64(10000), min: 1, max: 1000000},
	"maxMsgSize":                              {kind: attrInt, def: int64(10000000), min: 0, max: 30000000},
	"maxMsgSpoolUsage":                        {kind: attrInt, def: int64(5000), min: 0, max: 6000000},
	"maxRedeliveryCount":                      {kind: attrInt, def: int64(0), min: 0, max: 255},
	"maxTtl":                                  {kind: attrInt, def: int64(0), min: 0, max: 4294967295},
	"owner":                                   {kind: attrString, def: "", maxLen: 189},
	"partitionCount":                          {kind: attrInt, def: int64(0), min: 0, max: 1000},
	"partitionRebalanceDelay":                 {kind: attrInt, def: int64(5), min: 0, max: 4294967295},
	"partitionRebalanceMaxHandoffTime":        {kind: attrInt, def: int64(3), min: 0, max: 4294967295},
	"permission":                              {kind: attrEnum, def: "no-access", enum: []string{"no-access", "read-only", "consume", "modify-topic", "delete"}},
	"redeliveryDelayEnabled":                  {kind: attrBool, def: false},
	"redeliveryDelayInitialInterval":          {kind: attrInt, def: int64(1000), min: 1, max: 3600000},
	"redeliveryDelayMaxInterval":              {kind: attrInt, def: int64(64000), min: 1, max: 10800000},
	"redeliveryDelayMultiplier":               {kind: attrInt, def: int64(200), min: 100, max: 500},
	"redeliveryEnabled":                       {kind: attrBool, def: true},
	"rejectLowPriorityMsgEnabled":             {kind: attrBool, def: false},
	"rejectLowPriorityMsgLimit":               {kind: attrInt, def: int64(0), min: 0, max: 4294967295},
	"rejectMsgToSenderOnDiscardBehavior":      {kind: attrEnum, def: "when-queue-enabled", enum: []string{"never", "when-queue-enabled", "always"}},
	"respectDmqEligibleEnabled":               {kind: attrBool, def: false},
	"respectMsgPriorityEnabled":               {kind: attrBool, def: false},
	"respectTtlEnabled":                       {kind: attrBool, def: false},
}

// aemQueueConfigAttrs are the attribute names of a queue object of the config API: the writable ones and
// the identifying msgVpnName and queueName ([SPEC] MsgVpnQueue).
var aemQueueConfigAttrs = func() []string {
	out := []string{"msgVpnName", "queueName"}
	for k := range aemQueueAttrs {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}()

// aemSubscriptionAttrs are the attributes of a queue subscription ([SPEC] MsgVpnQueueSubscription).
var aemSubscriptionAttrs = []string{"msgVpnName", "queueName", "subscriptionTopic"}

func threshold(clearPercent, setPercent int64) map[string]any {
	return map[string]any{"clearPercent": clearPercent, "setPercent": setPercent}
}

// aemDeadMsgQueuePattern is [SPEC]'s pattern of MsgVpnQueue.deadMsgQueue: a queue name (none of * ? ' < > &
// ;), and empty allowed (minLength 0).
var aemDeadMsgQueuePattern = regexp.MustCompile(`^[^*?'<>&;]*$`)

// aemThresholdRules are the x-requires and x-conflicts of the attributes of a queue's event thresholds
// ([SPEC] MsgVpnQueueEventBindCountThreshold, ...EventMsgSpoolUsageThreshold and
// ...EventRejectLowPriorityMsgLimitThreshold, identical for the three): a percentage needs the other
// percentage in the same request and excludes the values, and a value the other value and excludes the
// percentages ([SPEC monitor 2.34] info.description: "Requires: attribute may only be changed by a request if
// a particular attribute ... is also provided in the request"; "Conflicts: ... only be provided in a request if
// a particular attribute ... is not also provided").
var aemThresholdRules = map[string]struct{ requires, conflicts []string }{
	"clearPercent": {[]string{"setPercent"}, []string{"clearValue", "setValue"}},
	"setPercent":   {[]string{"clearPercent"}, []string{"clearValue", "setValue"}},
	"clearValue":   {[]string{"setValue"}, []string{"clearPercent", "setPercent"}},
	"setValue":     {[]string{"clearValue"}, []string{"clearPercent", "setPercent"}},
}

// aemQueueNamePattern is [SPEC]'s pattern of MsgVpnQueue.queueName: no * ? ' < > & ;.
var aemQueueNamePattern = regexp.MustCompile(`^[^*?'<>&;]+$`)

// aemQueue is a queue of the broker service: its configuration, its subscriptions and its messages.
type aemQueue struct {
	name  string
	attrs map[string]any // every attribute of aemQueueAttrs
	subs  []string       // sorted
	msgs  []*aemMsg      // in spool order
	// spooledTotal and spooledBytes count every message ever spooled on the queue and its payload bytes
	// (the monitor API's spooledMsgCount and spooledByteCount, aem_monitor.go).
	spooledTotal, spooledBytes int64
}

func (q *aemQueue) bool(name string) bool {
	b, _ := q.attrs[name].(bool)
	return b
}

func (q *aemQueue) int(name string) int64 {
	n, _ := q.attrs[name].(int64)
	return n
}

func (q *aemQueue) string(name string) string {
	s, _ := q.attrs[name].(string)
	return s
}

func defaultQueueAttrs() map[string]any {
	m := make(map[string]any, len(aemQueueAttrs))
	for k, a := range aemQueueAttrs {
		if t, ok := a.def.(map[string]any); ok {
			m[k] = maps2(t)
			continue
		}
		m[k] = a.def
	}
	return m
}

func maps2(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// applyQueueAttrs checks body's attributes and writes them into attrs.
func applyQueueAttrs(vpn, name string, attrs map[string]any, body map[string]any) *sempError {
	keys := slices.Sorted(maps.Keys(body))
	for _, k := range keys {
		v := body[k]
		switch k {
		case "msgVpnName":
			if s, ok := v.(string); !ok || s != vpn {
				return sempInvalid("msgVpnName is read-only and must be %q, the Message VPN of the path", vpn)
			}
			continue
		case "queueName":
			if s, ok := v.(string); !ok || s != name {
				return sempInvalid("queueName is identifying and must be %q, the queue of the path", name)
			}
			continue
		}
		a, ok := aemQueueAttrs[k]
		if !ok {
			return sempInvalid("Unexpected attribute %q in the Queue object", k)
		}
		val, err := checkAttr(k, a, v)
		if err != nil {
			return err
		}
		attrs[k] = val
	}
	return nil
}

func checkAttr(name string, a sempAttr, v any) (any, *sempError) {
	switch a.kind {
	case attrBool:
		b, ok := v.(bool)
		if !ok {
			return nil, sempInvalid("%s must be true or false", name)
		}
		return b, nil
	case attrInt:
		n, ok := v.(json.Number)
		if !ok {
			return nil, sempInvalid("%s must be a whole number", name)
		}
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err != nil || i < a.min || i > a.max {
			return nil, sempInvalid("%s %s is out of range: it must be from %d to %d", name, n, a.min, a.max)
		}
		return i, nil
	case attrString:
		s, ok := v.(string)
		if !ok {
			return nil, sempInvalid("%s must be a string", name)
		}
		if a.maxLen > 0 && utf8.RuneCountInString(s) > a.maxLen {
			return nil, sempInvalid("%s is longer than %d characters", name, a.maxLen)
		}
		if a.pattern != nil && !a.pattern.MatchString(s) {
			return nil, sempInvalid("%s %q does not match %s: a queue name has none of * ? ' < > & ;", name, s, a.pattern)
		}
		return s, nil
	case attrEnum:
		s, ok := v.(string)
		if !ok || !slices.Contains(a.enum, s) {
			return nil, sempInvalid("%s %v is not one of %v", name, v, a.enum)
		}
		return s, nil
	case attrThreshold:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, sempInvalid("%s must be an object", name)
		}
		out := map[string]any{}
		for k, x := range obj {
			upper := int64(4294967295)
			switch k {
			case "clearPercent", "setPercent":
				upper = 100
			case "clearValue", "setValue":
			default:
				return nil, sempInvalid("Unexpected attribute %q in %s", k, name)
			}
			n, err := checkAttr(name+"."+k, sempAttr{kind: attrInt, min: 0, max: upper}, x)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		for k := range obj {
			rule := aemThresholdRules[k]
			for _, req := range rule.requires {
				if _, ok := obj[req]; !ok {
					return nil, sempInvalid("%s.%s requires %s.%s in the same request", name, k, name, req)
				}
			}
			for _, c := range rule.conflicts {
				if _, ok := obj[c]; ok {
					return nil, sempInvalid("%s.%s conflicts with %s.%s: set percentages or values, not both", name, k, name, c)
				}
			}
		}
		return out, nil
	}
	return nil, sempInvalid("%s cannot be set", name)
}

func (a *AdvancedEventMesh) queueObject(q *aemQueue) map[string]any {
	obj := make(map[string]any, len(q.attrs)+2)
	for k, v := range q.attrs {
		obj[k] = v
	}
	obj["msgVpnName"] = a.vpn
	obj["queueName"] = q.name
	return obj
}

func (a *AdvancedEventMesh) queueLinks(r *http.Request, q *aemQueue) map[string]any {
	uri := objectURI(r, AEMConfigBasePath, "msgVpns", a.vpn, "queues", q.name)
	return map[string]any{"uri": uri, "subscriptionsUri": uri + "/subscriptions"}
}

// queueView is how one SEMP API shows a queue: the attribute names of its object (for select and where), the
// object and its links. obj and links are called under a.mu.
type queueView struct {
	attrs []string
	obj   func(*aemQueue) map[string]any
	links func(*http.Request, *aemQueue) map[string]any
}

// configView is the config API's view of a queue ([SPEC] MsgVpnQueue).
func (a *AdvancedEventMesh) configView() queueView {
	return queueView{attrs: aemQueueConfigAttrs, obj: a.queueObject, links: a.queueLinks}
}

// respond answers 200 with q's object, trimmed by pq's select, and its links.
func (v queueView) respond(w http.ResponseWriter, r *http.Request, pq pageQuery, q *aemQueue) {
	respondSEMP(w, r, selectAttrs(v.obj(q), pq.sel), v.links(r, q), nil)
}

// listQueues answers GET .../msgVpns/{vpn}/queues of v's API: the queues, by name, that the where conditions
// match, one page of them.
func (a *AdvancedEventMesh) listQueues(v queueView) sempHandler {
	return func(w http.ResponseWriter, r *http.Request) *sempError {
		pq, err := a.sempQuery(r, true, v.attrs)
		if err != nil {
			return err
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		es := make([]sempEntry, 0, len(a.queues))
		for n, q := range a.queues {
			es = append(es, sempEntry{key: n, obj: v.obj(q), links: v.links(r, q)})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].key < es[j].key })
		respondPage(w, r, pq, pq.matching(es))
		return nil
	}
}

// getQueue answers GET .../msgVpns/{vpn}/queues/{queue} of v's API.
func (a *AdvancedEventMesh) getQueue(v queueView) sempHandler {
	return func(w http.ResponseWriter, r *http.Request) *sempError {
		return a.onQueue(r, false, v.attrs, func(q *aemQueue, pq pageQuery) *sempError {
			v.respond(w, r, pq, q)
			return nil
		})
	}
}

func (a *AdvancedEventMesh) mountConfig(mux *http.ServeMux) {
	m := a.sempRoutes(mux)
	c := AEMConfigBasePath + "/msgVpns/{vpn}/queues"
	m(http.MethodGet, AEMConfigBasePath+"/about/api", a.handleAboutAPI)
	m(http.MethodGet, AEMConfigBasePath+"/msgVpns/{vpn}", a.handleGetMsgVpn)
	m(http.MethodGet, c, a.listQueues(a.configView()))
	m(http.MethodPost, c, a.handleCreateQueue)
	m(http.MethodGet, c+"/{queue}", a.getQueue(a.configView()))
	m(http.MethodPut, c+"/{queue}", a.writeQueue(true))
	m(http.MethodPatch, c+"/{queue}", a.writeQueue(false))
	m(http.MethodDelete, c+"/{queue}", a.handleDeleteQueue)
	m(http.MethodGet, c+"/{queue}/subscriptions", a.handleListSubscriptions)
	m(http.MethodPost, c+"/{queue}/subscriptions", a.handleCreateSubscription)
	m(http.MethodGet, c+"/{queue}/subscriptions/{topic}", a.subscription(false))
	m(http.MethodDelete, c+"/{queue}/subscriptions/{topic}", a.subscription(true))

	mon := AEMMonitorBasePath + "/msgVpns/{vpn}/queues/{queue}/msgs"
	m(http.MethodGet, mon, a.handleListMsgs)
	m(http.MethodGet, mon+"/{msgId}", a.handleGetMsg)
	act := AEMActionBasePath + "/msgVpns/{vpn}/queues/{queue}"
	m(http.MethodPut, act+"/copyMsgFromQueue", a.handleCopyMsg)
	m(http.MethodPut, act+"/msgs/{msgId}/delete", a.handleDeleteMsg)

	m(http.MethodPost, "/QUEUE/{queue...}", a.handlePublishQueue)
	m(http.MethodPost, "/TOPIC/{topic...}", a.handlePublishTopic)

	// Every other path below /SEMP/ (after the credentials are checked): the SEMP error envelope.
	mux.HandleFunc(aemSEMPPrefix, a.basicAuth(a.unknownSEMP(mux)))
	a.Labels[aemSEMPPrefix] = "SEMP (no route)"
}

// aemSEMPPrefix is the root of SEMP's paths on the broker's listener.
const aemSEMPPrefix = "/SEMP/"

// unknownSEMP answers a SEMP request no route takes: 405 when the path is served with other methods, 404
// otherwise, both in the SEMP error envelope ([SPEC] every operation's "default" answer is the error response,
// schema SempMetaOnlyResponse, meta.error a SempError). The codes are assumed: NOT_FOUND (6) for a path that
// names no resource, as for an object that does not exist ([SOL] SEMP-Error-Handling.htm), and NOT_SUPPORTED (14)
// for a method the resource does not have.
func (a *AdvancedEventMesh) unknownSEMP(mux *http.ServeMux) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var allowed []string
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			r2 := r.Clone(r.Context())
			r2.Method = m
			if _, p := mux.Handler(r2); p != "" && p != aemSEMPPrefix {
				allowed = append(allowed, m)
			}
		}
		if len(allowed) > 0 {
			w.Header().Set("Allow", strings.Join(allowed, ", "))
			respondSEMPError(w, r, &sempError{http.StatusMethodNotAllowed, 14, "NOT_SUPPORTED",
				fmt.Sprintf("The method %s is not supported on %s; it takes %s", r.Method, r.URL.Path, strings.Join(allowed, ", "))})
			return
		}
		respondSEMPError(w, r, &sempError{http.StatusNotFound, 6, "NOT_FOUND", fmt.Sprintf("No SEMP resource at %s", r.URL.Path)})
	}
}

// aemMsgVpnAttrs are the attributes of the Message VPN object the room answers ([SPEC] MsgVpn), those it can
// give truthfully: its name; enabled (the service serves it); authenticationBasicEnabled and
// authenticationBasicType "internal" (the room's REST messaging checks the management user itself);
// serviceRestIncomingPlainTextEnabled (REST messaging on the plain HTTP listener) and
// serviceRestIncomingTlsEnabled false (no TLS listener for it). The other attributes describe parts of a
// broker the room does not have; "any non-identifying attribute may not be returned in a GET" ([SPEC monitor
// 2.34] info.description), which a client must expect anyway.
var aemMsgVpnAttrs = []string{"authenticationBasicEnabled", "authenticationBasicType", "enabled", "msgVpnName",
	"serviceRestIncomingPlainTextEnabled", "serviceRestIncomingTlsEnabled"}

// handleGetMsgVpn answers GET /SEMP/v2/config/msgVpns/{vpn} ([SPEC] getMsgVpn), the first request Solace's own
// Terraform provider's generate command makes.
func (a *AdvancedEventMesh) handleGetMsgVpn(w http.ResponseWriter, r *http.Request) *sempError {
	pq, err := a.sempQuery(r, false, aemMsgVpnAttrs)
	if err != nil {
		return err
	}
	obj := map[string]any{
		"msgVpnName": a.vpn, "enabled": true, "authenticationBasicEnabled": true, "authenticationBasicType": "internal",
		"serviceRestIncomingPlainTextEnabled": true, "serviceRestIncomingTlsEnabled": false,
	}
	uri := objectURI(r, AEMConfigBasePath, "msgVpns", a.vpn)
	respondSEMP(w, r, selectAttrs(obj, pq.sel), map[string]any{"uri": uri, "queuesUri": uri + "/queues"}, nil)
	return nil
}

func (a *AdvancedEventMesh) handleAboutAPI(w http.ResponseWriter, r *http.Request) *sempError {
	obj := map[string]any{"platform": "VMR", "sempVersion": aemSempVersion}
	pq, err := parsePageQuery(r, false, keysOf(obj))
	if err != nil {
		return err
	}
	data := selectAttrs(obj, pq.sel)
	respondSEMP(w, r, data, map[string]any{"uri": objectURI(r, AEMConfigBasePath+"/about/api")}, nil)
	return nil
}

// queue returns the named queue or NOT_FOUND; the caller holds a.mu.
func (a *AdvancedEventMesh) queue(name string) (*aemQueue, *sempError) {
	q, ok := a.queues[name]
	if !ok {
		return nil, sempNotFound("Could not find match for queueName %s", name)
	}
	return q, nil
}

func checkQueueName(name string) *sempError {
	if name == "" || utf8.RuneCountInString(name) > 200 || !aemQueueNamePattern.MatchString(name) {
		return sempInvalid("Invalid queueName %q: a queue name has 1 to 200 characters and none of * ? ' < > & ;", name)
	}
	return nil
}

func (a *AdvancedEventMesh) handleCreateQueue(w http.ResponseWriter, r *http.Request) *sempError {
	pq, err := a.sempQuery(r, false, aemQueueConfigAttrs)
	if err != nil {
		return err
	}
	body, err := readJSONObject(r)
	if err != nil {
		return err
	}
	name, _ := body["queueName"].(string)
	if _, ok := body["queueName"]; !ok {
		return &sempError{http.StatusBadRequest, 228, "MISSING_PARAMETER", "queueName is required to create a Queue"}
	}
	if err := checkQueueName(name); err != nil {
		return err
	}
	attrs := defaultQueueAttrs()
	if err := applyQueueAttrs(a.vpn, name, attrs, body); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.queues[name]; ok {
		return sempExists("Queue %s already exists in Message VPN %s", name, a.vpn)
	}
	q := &aemQueue{name: name, attrs: attrs}
	a.queues[name] = q
	a.configView().respond(w, r, pq, q)
	return nil
}

// writeQueue answers PUT (replace, creating a missing queue) and PATCH (update of the attributes sent).
func (a *AdvancedEventMesh) writeQueue(replace bool) sempHandler {
	return func(w http.ResponseWriter, r *http.Request) *sempError {
		pq, err := a.sempQuery(r, false, aemQueueConfigAttrs)
		if err != nil {
			return err
		}
		name := r.PathValue("queue")
		if err := checkQueueName(name); err != nil {
			return err
		}
		body, err := readJSONObject(r)
		if err != nil {
			return err
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		q, exists := a.queues[name]
		if !exists && !replace {
			return sempNotFound("Could not find match for queueName %s", name)
		}
		var attrs map[string]any
		if replace {
			attrs = defaultQueueAttrs()
		} else {
			attrs = maps2(q.attrs)
		}
		if err := applyQueueAttrs(a.vpn, name, attrs, body); err != nil {
			return err
		}
		if !exists {
			q = &aemQueue{name: name}
			a.queues[name] = q
		}
		q.attrs = attrs
		a.configView().respond(w, r, pq, q)
		return nil
	}
}

func (a *AdvancedEventMesh) handleDeleteQueue(w http.ResponseWriter, r *http.Request) *sempError {
	if err := a.checkVpn(r); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	name := r.PathValue("queue")
	if _, err := a.queue(name); err != nil {
		return err
	}
	// A queue holding messages is deleted with them; a queue other queues name as their DMQ can be deleted
	// (the name is a string: their removed messages are deleted from then on) [SOL] Setting-Dead-Msg-Queues.htm.
	delete(a.queues, name)
	respondSEMP(w, r, nil, nil, nil)
	return nil
}

func (a *AdvancedEventMesh) subObject(q *aemQueue, topic string) map[string]any {
	return map[string]any{"msgVpnName": a.vpn, "queueName": q.name, "subscriptionTopic": topic}
}

func (a *AdvancedEventMesh) subLinks(r *http.Request, q *aemQueue, topic string) map[string]any {
	return map[string]any{"uri": objectURI(r, AEMConfigBasePath, "msgVpns", a.vpn, "queues", q.name, "subscriptions", topic)}
}

func (a *AdvancedEventMesh) handleListSubscriptions(w http.ResponseWriter, r *http.Request) *sempError {
	return a.onQueue(r, true, aemSubscriptionAttrs, func(q *aemQueue, pq pageQuery) *sempError {
		es := make([]sempEntry, 0, len(q.subs))
		for _, t := range q.subs { // sorted
			es = append(es, sempEntry{key: t, obj: a.subObject(q, t), links: a.subLinks(r, q, t)})
		}
		respondPage(w, r, pq, pq.matching(es))
		return nil
	})
}

func (a *AdvancedEventMesh) handleCreateSubscription(w http.ResponseWriter, r *http.Request) *sempError {
	body, err := a.sempBody(r)
	if err != nil {
		return err
	}
	return a.lockQueue(r.PathValue("queue"), func(q *aemQueue) *sempError {
		topic, ok := body["subscriptionTopic"].(string)
		if !ok {
			return &sempError{http.StatusBadRequest, 228, "MISSING_PARAMETER", "subscriptionTopic is required to create a Queue Subscription"}
		}
		for k, v := range body {
			switch k {
			case "subscriptionTopic":
			case "msgVpnName", "queueName":
				if want := map[string]string{"msgVpnName": a.vpn, "queueName": q.name}[k]; v != want {
					return sempInvalid("%s is read-only and must be %q", k, want)
				}
			default:
				return sempInvalid("Unexpected attribute %q in the Queue Subscription object", k)
			}
		}
		if topic == "" || utf8.RuneCountInString(topic) > 250 {
			return sempInvalid("Invalid subscriptionTopic: a topic has 1 to 250 characters")
		}
		i, found := slices.BinarySearch(q.subs, topic)
		if found {
			return sempExists("Subscription %s already exists on Queue %s", topic, q.name)
		}
		q.subs = slices.Insert(q.subs, i, topic)
		respondSEMP(w, r, a.subObject(q, topic), a.subLinks(r, q, topic), nil)
		return nil
	})
}

// subscription answers GET (del false) and DELETE (del true) of .../queues/{queue}/subscriptions/{topic}.
func (a *AdvancedEventMesh) subscription(del bool) sempHandler {
	return func(w http.ResponseWriter, r *http.Request) *sempError {
		return a.onQueue(r, false, aemSubscriptionAttrs, func(q *aemQueue, pq pageQuery) *sempError {
			topic := r.PathValue("topic")
			i, found := slices.BinarySearch(q.subs, topic)
			if !found {
				return sempNotFound("Could not find match for subscriptionTopic %s on Queue %s", topic, q.name)
			}
			if del {
				q.subs = slices.Delete(q.subs, i, i+1)
				respondSEMP(w, r, nil, nil, nil)
				return nil
			}
			respondSEMP(w, r, selectAttrs(a.subObject(q, topic), pq.sel), a.subLinks(r, q, topic), nil)
			return nil
		})
	}
}

// String names a queue for the log.
func (q *aemQueue) String() string { return fmt.Sprintf("queue %s", q.name) }
