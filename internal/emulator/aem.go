package emulator

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// The Advanced Event Mesh room: a Solace PubSub+ broker service of SAP Integration Suite, advanced event
// mesh (AEM), as its management API SEMP v2 and its REST messaging show it. It is written from the SEMP v2
// specification (semp-v2-swagger-config-extended.10.25.11.3479.vm.json, SEMP 2.49, in
// SolaceProducts/terraform-provider-solacebroker v1.3.0, ci/swagger_spec/; cited below as [SPEC]), the
// Solace documentation (docs.solace.com, cited [SOL] with the page) and the project's reference note
// (shared/reference/aem.md). SEMP 2.34's monitor and action specifications (shared/reference/specs/semp,
// monitor-2.34.json and action-2.34.json, cited [SPEC monitor 2.34] or [MON]) describe the monitor API and
// the query parameters (their info.description; the config spec's does not repeat it). What none says is
// marked "assumed" with the reason. It shares no code with internal/aem or internal/rules.
//
// Enforced limits and behaviours of this room:
//
//	| behaviour                                   | what the emulator does                                                 | source |
//	|---------------------------------------------|------------------------------------------------------------------------|--------|
//	| authentication                              | HTTP Basic with the broker's management user on every SEMP and REST messaging path; anything else 401 | [SPEC] securityDefinitions basicAuth; 401 answer with the meta envelope assumed |
//	| answer envelope                             | {"data", "links", "meta": {"request": {"method", "uri"}, "responseCode", "error"?, "paging"?}} | [SPEC] SempMeta, SempRequest, SempError, SempPaging, *Response |
//	| error codes                                 | 400 with error {code, status, description}: 6 NOT_FOUND, 11 INVALID_PARAMETER, 27 PARSE_ERROR, 14 NOT_SUPPORTED, 10 ALREADY_EXISTS | [SOL] Admin/SEMP/SEMP-Error-Handling.htm (400, 401, 500 and the codes); 10 ALREADY_EXISTS assumed (not in that table) |
//	| paging                                      | count default 10, 1..100 (more is refused with 400 INVALID_PARAMETER), opaque cursor, meta.paging {cursorQuery, nextPageUri} | [SPEC] countQuery (default 10, minimum 1), cursorQuery, SempPaging; the maximum of 100 from the reference note; refusing above it assumed (stricter than capping) |
//	| select                                      | comma-separated attribute names, "*" a wildcard (zero or more characters), "-name" to exclude (after the included ones), "parent.child" for a nested attribute; a name that matches no attribute of the object 400 INVALID_PARAMETER | [SPEC] selectQuery; [SPEC monitor 2.34] info.description "select" ("each attribute name in the list must match at least one attribute in the object"); status and code of the refusal assumed |
//	| where                                       | comma-separated "attr OP value", OP one of == != < > <= >=; "*" a wildcard in the value; < > <= >= numbers only (another value 400 INVALID_PARAMETER); an attribute the object does not have 400 INVALID_PARAMETER | [SPEC] whereQuery; [SPEC monitor 2.34] info.description "where"; refusing an unknown attribute assumed (as select) |
//	| opaquePassword                              | refused (400 INVALID_PARAMETER) outside the config API, over plain HTTP, and with fewer than 8 or more than 128 characters; the room's queues have no opaque attribute | [SPEC monitor 2.34] info.description "opaquePassword" ("only in the configuration API, and only over HTTPS"); status and code assumed |
//	| request bodies                              | one JSON object; anything after it but white space 400 PARSE_ERROR | [SPEC] consumes application/json (RFC 8259: one value); the code assumed |
//	| unknown paths and methods                   | below /SEMP/: 404 NOT_FOUND (6) for a path no resource has, 405 NOT_SUPPORTED (14) with Allow for a method the resource does not take, in the SEMP error envelope, after the credentials | [SPEC] each operation's default answer (SempMetaOnlyResponse); the codes assumed |
//	| Message VPN object                          | GET /SEMP/v2/config/msgVpns/{vpn}: msgVpnName, enabled, authenticationBasicEnabled, authenticationBasicType "internal", serviceRestIncomingPlainTextEnabled true, serviceRestIncomingTlsEnabled false; links uri, queuesUri | [SPEC] getMsgVpn, MsgVpn; only the attributes the room can give truthfully (aem_config.go) |
//	| queue attributes, defaults, ranges, enums   | every attribute of MsgVpnQueue with its x-default, minimum and maximum; out of range or not in the enum 400 INVALID_PARAMETER | [SPEC] MsgVpnQueue |
//	| queue names                                 | 1..200 characters, none of * ? ' < > & ;                                | [SPEC] MsgVpnQueue.queueName (maxLength, pattern) |
//	| deadMsgQueue                                | 0..200 characters, none of * ? ' < > & ; (else 400 INVALID_PARAMETER)  | [SPEC] MsgVpnQueue.deadMsgQueue (maxLength, minLength 0, pattern) |
//	| event thresholds                            | clearPercent with setPercent, clearValue with setValue, never percentages and values in one request (else 400 INVALID_PARAMETER) | [SPEC] MsgVpnQueueEvent*Threshold x-requires, x-conflicts; [SPEC monitor 2.34] info.description (Requires, Conflicts) |
//	| POST queues                                 | creates; missing attributes get their defaults; an existing name 400 ALREADY_EXISTS | [SPEC] POST /msgVpns/{msgVpnName}/queues |
//	| PUT queue                                   | replaces every attribute (missing ones to their defaults); creates a missing queue | [SPEC] PUT (replace); the create on PUT from the reference note, section 2 (Solace's Terraform provider creates with it) |
//	| PATCH queue                                 | changes only the attributes sent; a missing queue 400 NOT_FOUND        | [SPEC] PATCH |
//	| identifying attributes in a body            | msgVpnName and queueName must equal the path's                         | [SPEC] Identifying/Const/Read-Only table of PUT and PATCH; the refusal of a different value assumed |
//	| subscriptions                               | POST creates (topic 1..250 characters), GET lists (paged) or reads one, DELETE; an existing topic 400 ALREADY_EXISTS | [SPEC] MsgVpnQueueSubscription |
//	| /about/api                                  | {"platform": "VMR", "sempVersion": "2.49"}                             | [SPEC] AboutApi; "VMR" (software broker) assumed from the spec's file name (.vm.) |
//	| REST messaging                              | POST /QUEUE/{name}, POST /TOPIC/{topic} on the same listener; headers Solace-Time-To-Live-In-ms, Solace-DMQ-Eligible | [SOL] API/RESTMessagingPrtl/Solace-REST-Message-Encoding.htm; the answers to an unknown queue (404) or a queue whose ingress is off (503) assumed |
//	| rejectMsgToSenderOnDiscardBehavior          | a queue that discards a message (ingress off: administratively disabled; larger than maxMsgSize) returns it to the publisher of a topic with "always", and with "when-queue-enabled" unless its ingress is off; that NACK fails the whole publish and no queue keeps the message; "never" discards silently. A publish to the queue itself is refused unless "never" | [SPEC] rejectMsgToSenderOnDiscardBehavior (enum meanings: "NACKs cause the message to not be delivered to any destination"); the direct publish under "when-queue-enabled" assumed (the queue is its only destination) |
//	| topic matching                              | levels split at "/", "*" one level (or the rest of a level after a prefix), ">" one or more trailing levels | [SOL] Messaging/SMF-Topics.htm (wildcards) |
//	| ingress and egress                          | a queue with ingress off takes no message; with egress off delivers none | [SPEC] ingressEnabled, egressEnabled (default false) |
//	| deliveries and delivery count               | each delivery counts; a failed delivery is redelivered, redeliveryEnabled false means one delivery | [SPEC] redeliveryEnabled, maxRedeliveryCount |
//	| maxRedeliveryCount                          | R > 0: removed after R + 1 failed deliveries; 0: redelivered for ever  | [SPEC] "A value of 0 means to retry forever"; [SOL] Messaging/Guaranteed-Msg/Setting-Dead-Msg-Queues.htm ("exceeds the Max Redelivery value") |
//	| redelivery delay                            | off: at once; on: initial × (multiplier/100)^(k-1) ms before the k-th redelivery, at most the maximum interval; on the AEM clock (Options.AEMMinute) | [SPEC] redeliveryDelay*; that the initial interval comes before the first redelivery is assumed from "the delay to be used between the first 2 redelivery attempts" |
//	| TTL                                         | only with respectTtlEnabled: the earlier of the publisher's TTL (from publish) and maxTtl (from arrival on the queue); 0 is none | [SPEC] respectTtlEnabled, maxTtl; [SOL] Admin/Broker-Manager/configuring-dmqs-broker-manager.htm |
//	| removal (max redeliveries, TTL, reject)     | to the queue named deadMsgQueue when it exists (and takes messages and the message fits its maxMsgSize), and, with respectDmqEligibleEnabled, only a message its publisher flagged DMQ-eligible; otherwise deleted | [SOL] Setting-Dead-Msg-Queues.htm (10.25.10 and later: every removed message to the DMQ unless the DMQ-eligible flag is respected; a DMQ that does not exist means deletion); a DMQ whose ingress is off deletes, assumed; a message larger than the DMQ's maxMsgSize is deleted ([SPEC monitor 2.34] maxMsgSizeExceededDiscardedMsgCount, maxRedeliveryExceededToDmqFailedMsgCount, maxTtlExpiredToDmqFailedMsgCount; that the size makes the move fail assumed) |
//	| maxMsgSpoolUsage 0                          | a queue keeps only the last message received: each message spooled discards the ones before it (not one in flight); other quotas are not enforced | [SPEC] MsgVpnQueue.maxMsgSpoolUsage ("A value of 0 only allows spooling of the last message received and disables quota checking"); a message in flight kept, assumed |
//	| #DEAD_MSG_QUEUE                             | the default deadMsgQueue; it does not exist until created              | [SPEC] deadMsgQueue default; [SOL] Setting-Dead-Msg-Queues.htm ("this queue doesn't pre-exist") |
//	| monitor queues                              | see aem_monitor.go: the attributes of [MON] MsgVpnQueue, spooledMsgCount a running total, txFlows empty | [SPEC monitor 2.34] MsgVpnQueue, MsgVpnQueueTxFlow |
//	| monitor messages                            | GET /SEMP/v2/monitor/msgVpns/{vpn}/queues/{queue}/msgs[/{msgId}] (paged): msgId, replicationGroupMsgId, redeliveryCount, dmqEligible, expiryTime, spooledTime, contentSize, attachmentSize, undelivered | [SPEC monitor 2.34] MsgVpnQueueMsg (the room answers the subset it has) |
//	| control: poison run                         | POST /emulator/v1/aem/queues/{queue}/poison-run?deliveries=N: a consumer that fails the first message at once on every delivery; answers the deliveries with their AEM times and where the message went | the emulator's own (for tests and the demo) |
//	| action copy and delete                      | PUT /SEMP/v2/action/.../queues/{dest}/copyMsgFromQueue {replicationGroupMsgId, sourceQueueName}; PUT .../queues/{q}/msgs/{msgId}/delete {} | [SPEC action 2.34] MsgVpnQueueCopyMsgFromQueue, MsgVpnQueueMsgDelete; a copy is a new message whose delivery count starts again (assumed) |
const (
	// AEMConfigBasePath, AEMMonitorBasePath and AEMActionBasePath are the SEMP v2 APIs ([SPEC] basePath and
	// info).
	AEMConfigBasePath  = "/SEMP/v2/config"
	AEMMonitorBasePath = "/SEMP/v2/monitor"
	AEMActionBasePath  = "/SEMP/v2/action"
	// AdvancedEventMeshKeyFile is the file WriteKeys writes the broker's SEMP credentials to.
	AdvancedEventMeshKeyFile = "advanced-event-mesh.json"
	// DefaultAEMMsgVpn is the Message VPN of the emulated broker service.
	DefaultAEMMsgVpn = "acme-aem-prod"
	// DefaultAEMUsername is the management user of the emulated broker service.
	DefaultAEMUsername = "acme-semp-admin"
	// DefaultAEMMinute: the AEM clock runs in real time unless Options.AEMMinute says otherwise.
	DefaultAEMMinute = time.Minute
	// aemSempVersion is the SEMP version of the specification the room follows ([SPEC] info.version).
	aemSempVersion = "2.49"
	// aemMaxPage is the largest page a SEMP list answers (reference note, section 2).
	aemMaxPage = 100
	// aemDefaultPage is the count of a list without one ([SPEC] countQuery default).
	aemDefaultPage = 10
)

// AdvancedEventMeshCredentials is what the cloud console shows of a broker service's management access,
// as WriteKeys writes it.
type AdvancedEventMeshCredentials struct {
	SEMPURL    string `json:"semp_url"`
	MsgVpnName string `json:"msg_vpn_name"`
	Username   string `json:"username"`
	Password   string `json:"password"`
}

// advancedEventMesh is the room: the broker service's queues, their subscriptions and messages, its SEMP v2
// and REST messaging handlers, and its clock.
type advancedEventMesh struct {
	*core
	mu       sync.Mutex
	vpn      string
	username string
	password string
	queues   map[string]*aemQueue
	nextMsg  int64
	fates    map[int64]string // msgId -> the DMQ a removed message went to, "" when deleted

	startReal time.Time
	startVirt time.Time
	minute    time.Duration
}

func newAdvancedEventMesh(c *core) *advancedEventMesh {
	minute := c.opts.AEMMinute
	if minute <= 0 {
		minute = DefaultAEMMinute
	}
	return &advancedEventMesh{core: c, vpn: DefaultAEMMsgVpn, username: DefaultAEMUsername, password: randomSecret(),
		queues: map[string]*aemQueue{}, fates: map[int64]string{}, startReal: time.Now(), startVirt: c.now(), minute: minute}
}

// AEMNow returns the AEM clock: real time scaled so that one minute lasts Options.AEMMinute. Redelivery
// delays and TTLs run on it.
func (a *advancedEventMesh) AEMNow() time.Time {
	scale := float64(time.Minute) / float64(a.minute)
	return a.startVirt.Add(time.Duration(float64(time.Since(a.startReal)) * scale))
}

// aemReal converts a duration of the AEM clock into real time.
func (a *advancedEventMesh) aemReal(d time.Duration) time.Duration {
	return time.Duration(float64(d) * float64(a.minute) / float64(time.Minute))
}

// AdvancedEventMeshCredentials returns the broker service's SEMP URL (the server's URL: SEMP and REST
// messaging share its listener), Message VPN and management user.
func (s *Server) AdvancedEventMeshCredentials() AdvancedEventMeshCredentials {
	return AdvancedEventMeshCredentials{SEMPURL: s.URL(), MsgVpnName: s.vpn, Username: s.username, Password: s.password}
}

// AdvancedEventMeshKey returns AdvancedEventMeshCredentials as JSON, as WriteKeys writes it.
func (s *Server) AdvancedEventMeshKey() []byte {
	b, _ := json.MarshalIndent(s.AdvancedEventMeshCredentials(), "", "  ")
	return b
}

func (s *Server) writeAdvancedEventMeshKey(dir string) error {
	return writeFileAtomic(filepath.Join(dir, AdvancedEventMeshKeyFile), s.AdvancedEventMeshKey(), 0o600)
}

// --- the SEMP envelope ---

// sempError is an error answer of SEMP ([SPEC] SempError; [SOL] SEMP-Error-Handling.htm).
type sempError struct {
	http   int
	code   int
	status string
	desc   string
}

func (e *sempError) Error() string { return e.desc }

func sempNotFound(format string, args ...any) *sempError {
	return &sempError{http.StatusBadRequest, 6, "NOT_FOUND", fmt.Sprintf(format, args...)}
}

func sempInvalid(format string, args ...any) *sempError {
	return &sempError{http.StatusBadRequest, 11, "INVALID_PARAMETER", fmt.Sprintf(format, args...)}
}

func sempExists(format string, args ...any) *sempError {
	return &sempError{http.StatusBadRequest, 10, "ALREADY_EXISTS", fmt.Sprintf(format, args...)}
}

func sempParse(format string, args ...any) *sempError {
	return &sempError{http.StatusBadRequest, 27, "PARSE_ERROR", fmt.Sprintf(format, args...)}
}

// sempNotAllowed is the answer to a request the object's state does not allow ([SOL] Admin/SEMP/SEMP-Error-Handling.htm, NOT_ALLOWED 89).
func sempNotAllowed(format string, args ...any) *sempError {
	return &sempError{http.StatusBadRequest, 89, "NOT_ALLOWED", fmt.Sprintf(format, args...)}
}

func sempMeta(r *http.Request, code int) map[string]any {
	return map[string]any{"request": map[string]any{"method": r.Method, "uri": requestURI(r)}, "responseCode": code}
}

func requestURI(r *http.Request) string {
	return "http://" + r.Host + r.URL.RequestURI()
}

func respondSEMPError(w http.ResponseWriter, r *http.Request, e *sempError) {
	meta := sempMeta(r, e.http)
	meta["error"] = map[string]any{"code": e.code, "status": e.status, "description": e.desc}
	respondJSON(w, e.http, map[string]any{"meta": meta})
}

// respondSEMP answers 200 with data and links; paging, when set, goes into meta.
func respondSEMP(w http.ResponseWriter, r *http.Request, data, links any, paging map[string]any) {
	meta := sempMeta(r, http.StatusOK)
	if paging != nil {
		meta["paging"] = paging
	}
	body := map[string]any{"meta": meta}
	if data != nil {
		body["data"] = data
	}
	if links != nil {
		body["links"] = links
	}
	respondJSON(w, http.StatusOK, body)
}

// basicAuth wraps h with the check of the management user ([SPEC] securityDefinitions: basicAuth).
func (a *advancedEventMesh) basicAuth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || subtle.ConstantTimeCompare([]byte(user), []byte(a.username)) != 1 ||
			subtle.ConstantTimeCompare([]byte(pass), []byte(a.password)) != 1 {
			// Assumed: the answer carries the meta envelope like every other SEMP error.
			w.Header().Set("WWW-Authenticate", `Basic realm="Solace Element Management Protocol"`)
			respondSEMPError(w, r, &sempError{http.StatusUnauthorized, 72, "UNAUTHORIZED", "Authentication failed: the username or password is wrong"})
			return
		}
		h(w, r)
	}
}

// checkVpn answers NOT_FOUND for a Message VPN other than the service's.
func (a *advancedEventMesh) checkVpn(r *http.Request) *sempError {
	if vpn := r.PathValue("vpn"); vpn != a.vpn {
		return sempNotFound("Could not find match for msgVpnName %s", vpn)
	}
	return nil
}

// --- paging, select, where ---

type pageQuery struct {
	count  int
	after  string // the key of the last object of the previous page
	sel    []string
	wheres []whereCond
}

type whereCond struct {
	attr string
	op   string // one of whereOps
	val  string
}

// whereOps are the operators of a where expression ([SPEC monitor 2.34] info.description, "where":
// OP = '==' | '!=' | '<' | '>' | '<=' | '>='), the two-character ones first so that "<=" is not read as "<".
var whereOps = []string{"==", "!=", "<=", ">=", "<", ">"}

// parsePageQuery reads count, cursor, select, where and opaquePassword. attrs are the attribute names of
// the object (or of the collection's objects) the path answers with: every select name must match one of
// them ([SPEC monitor 2.34] info.description, "select": "each attribute name in the list must match at least
// one attribute in the object"), and so must every where attribute (assumed: a condition on an attribute the
// object does not have is refused as a select name is, rather than matching nothing).
func parsePageQuery(r *http.Request, list bool, attrs []string) (pageQuery, *sempError) {
	q := r.URL.Query()
	pq := pageQuery{count: aemDefaultPage}
	if v := q.Get("count"); v != "" {
		if !list {
			return pq, sempInvalid("count is a parameter of collections only")
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > aemMaxPage {
			return pq, sempInvalid("Invalid count %q: count must be a whole number from 1 to %d", v, aemMaxPage)
		}
		pq.count = n
	}
	if v := q.Get("cursor"); v != "" {
		b, err := base64.RawURLEncoding.DecodeString(v)
		if err != nil || !strings.HasPrefix(string(b), "after:") {
			return pq, sempInvalid("Invalid cursor %q: use the cursorQuery of the previous page", v)
		}
		pq.after = strings.TrimPrefix(string(b), "after:")
	}
	for _, v := range q["select"] {
		for _, f := range strings.Split(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				pq.sel = append(pq.sel, f)
			}
		}
	}
	if err := checkSelect(pq.sel, attrs); err != nil {
		return pq, err
	}
	for _, v := range q["where"] {
		if !list {
			return pq, sempInvalid("where is a parameter of collections only")
		}
		for _, f := range strings.Split(v, ",") {
			c, err := parseWhere(f, attrs)
			if err != nil {
				return pq, err
			}
			pq.wheres = append(pq.wheres, c)
		}
	}
	return pq, nil
}

// checkOpaquePassword refuses the opaquePassword query parameter where [SPEC monitor 2.34] info.description
// ("opaquePassword") does not allow it: "The query parameter can only be used in the configuration API, and
// only over HTTPS", with a password of "a minimum of 8 characters and a maximum of 128 characters". The
// status and code of the refusal are assumed (400 INVALID_PARAMETER, as for every other refused parameter).
func checkOpaquePassword(r *http.Request) *sempError {
	vs, ok := r.URL.Query()["opaquePassword"]
	if !ok || !strings.HasPrefix(r.URL.Path, "/SEMP/") {
		return nil
	}
	switch {
	case !strings.HasPrefix(r.URL.Path, AEMConfigBasePath+"/"):
		return sempInvalid("opaquePassword can only be used in the configuration API")
	case r.TLS == nil:
		return sempInvalid("opaquePassword can only be used over HTTPS: this request came over plain HTTP")
	}
	for _, v := range vs {
		if n := utf8.RuneCountInString(v); n < 8 || n > 128 {
			return sempInvalid("opaquePassword must have 8 to 128 characters, not %d", n)
		}
	}
	return nil
}

// checkSelect checks the select names against the object's attributes: each name ("-" prefixed to exclude,
// "*" a wildcard of zero or more characters, "parent.child" a nested attribute) must match at least one of
// them, and the excluded names must follow the included ones ([SPEC monitor 2.34] info.description, "select").
// The refusal's status and code are assumed (400 INVALID_PARAMETER).
func checkSelect(sel, attrs []string) *sempError {
	excluding := false
	for _, s := range sel {
		name, neg := strings.CutPrefix(s, "-")
		if neg {
			excluding = true
		} else if excluding {
			return sempInvalid("Invalid select %q: the names prefixed with - must follow the others", strings.Join(sel, ","))
		}
		if name == "*" && !neg {
			continue
		}
		top, _, _ := strings.Cut(name, ".")
		found := false
		for _, a := range attrs {
			if wildcardMatch(top, a) {
				found = true
				break
			}
		}
		if !found {
			return sempInvalid("Invalid select name %q: it matches no attribute of the object", name)
		}
	}
	return nil
}

// wildcardMatch reports whether s matches pat, where "*" stands for zero or more characters and every other
// character for itself ([SPEC monitor 2.34] info.description: "A * in a string value is interpreted as a
// wildcard (zero or more characters)"; "Names may include the * wildcard").
func wildcardMatch(pat, s string) bool {
	parts := strings.Split(pat, "*")
	if len(parts) == 1 {
		return pat == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(s, p)
		if i < 0 {
			return false
		}
		s = s[i+len(p):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}

func parseWhere(f string, attrs []string) (whereCond, *sempError) {
	for _, op := range whereOps {
		a, v, ok := strings.Cut(f, op)
		if !ok || a == "" {
			continue
		}
		if attrs != nil && !slices.Contains(attrs, a) {
			return whereCond{}, sempInvalid("Invalid where %q: %s is not an attribute of the object", f, a)
		}
		if op != "==" && op != "!=" {
			// "Greater-than and less-than comparisons only work for numbers" ([SPEC monitor 2.34] "where").
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				return whereCond{}, sempInvalid("Invalid where %q: %s compares numbers only", f, op)
			}
		}
		return whereCond{attr: a, op: op, val: v}, nil
	}
	return whereCond{}, sempInvalid("Invalid where %q: an expression is attribute OP value with OP one of == != < > <= >=", f)
}

// match evaluates the condition on obj: == and != compare the value's text, with "*" as a wildcard; <, >,
// <= and >= compare numbers, and an attribute that is not a number never satisfies them (assumed).
func (c whereCond) match(obj map[string]any) bool {
	v, ok := obj[c.attr]
	s := fmt.Sprint(v)
	if !ok {
		s = ""
	}
	switch c.op {
	case "==":
		return wildcardMatch(c.val, s)
	case "!=":
		return !wildcardMatch(c.val, s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !ok {
		return false
	}
	y, _ := strconv.ParseFloat(c.val, 64)
	switch c.op {
	case "<":
		return x < y
	case ">":
		return x > y
	case "<=":
		return x <= y
	default:
		return x >= y
	}
}

// selectAttrs applies select to obj ([SPEC] selectQuery; names with the "*" wildcard; "parent.child" keeps
// the parent).
func selectAttrs(obj map[string]any, sel []string) map[string]any {
	if len(sel) == 0 {
		return obj
	}
	var include, exclude []string
	for _, s := range sel {
		if name, neg := strings.CutPrefix(s, "-"); neg {
			exclude = append(exclude, name)
		} else {
			top, _, _ := strings.Cut(s, ".")
			include = append(include, top)
		}
	}
	if len(include) == 0 {
		include = []string{"*"}
	}
	matches := func(pats []string, k string) bool {
		for _, p := range pats {
			if wildcardMatch(p, k) {
				return true
			}
		}
		return false
	}
	out := map[string]any{}
	for k, v := range obj {
		if matches(include, k) && !matches(exclude, k) {
			out[k] = v
		}
	}
	return out
}

// keysOf returns the attribute names of obj, for parsePageQuery.
func keysOf(obj map[string]any) []string {
	out := make([]string, 0, len(obj))
	for k := range obj {
		out = append(out, k)
	}
	return out
}

// page cuts the objects (sorted by key) after pq.after into one page and returns it with the paging meta.
func page[T any](r *http.Request, items []T, key func(T) string, pq pageQuery) ([]T, map[string]any) {
	start := 0
	if pq.after != "" {
		start = sort.Search(len(items), func(i int) bool { return key(items[i]) > pq.after })
	}
	items = items[start:]
	if len(items) <= pq.count {
		return items, nil
	}
	items = items[:pq.count]
	cursor := base64.RawURLEncoding.EncodeToString([]byte("after:" + key(items[len(items)-1])))
	q := r.URL.Query()
	q.Set("count", strconv.Itoa(pq.count))
	q.Set("cursor", cursor)
	next := "http://" + r.Host + r.URL.EscapedPath() + "?" + q.Encode()
	return items, map[string]any{"cursorQuery": cursor, "nextPageUri": next}
}

func objectURI(r *http.Request, base string, parts ...string) string {
	u := "http://" + r.Host + base
	for _, p := range parts {
		u += "/" + url.PathEscape(p)
	}
	return u
}

func readJSONObject(r *http.Request) (map[string]any, *sempError) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return nil, sempParse("The request body could not be read: %v", err)
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil || obj == nil {
		return nil, sempParse("The request body is not a JSON object: %v", err)
	}
	// One JSON object and nothing after it but white space: a body with trailing bytes is not JSON
	// (RFC 8259, JSON-text = ws value ws; the spec's consumes is application/json). The PARSE_ERROR is assumed.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, sempParse("The request body has bytes after its JSON object")
	}
	return obj, nil
}
