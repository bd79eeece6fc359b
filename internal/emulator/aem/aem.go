package aem

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

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

// AdvancedEventMesh is the room: the broker service's queues, their subscriptions and messages, its SEMP v2
// and REST messaging handlers, and its clock.
type AdvancedEventMesh struct {
	*core.Core
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

func New(c *core.Core) *AdvancedEventMesh {
	return &AdvancedEventMesh{Core: c, vpn: DefaultAEMMsgVpn, username: DefaultAEMUsername, password: core.RandomSecret(),
		queues: map[string]*aemQueue{}, fates: map[int64]string{}, startReal: time.Now(), startVirt: c.Now(),
		minute: core.OrDefault(c.Opts.AEMMinute, DefaultAEMMinute)}
}

// AEMNow returns the AEM clock: real time scaled so that one minute lasts Options.AEMMinute. Redelivery
// delays and TTLs run on it.
func (a *AdvancedEventMesh) AEMNow() time.Time {
	scale := float64(time.Minute) / float64(a.minute)
	return a.startVirt.Add(time.Duration(float64(time.Since(a.startReal)) * scale))
}

// aemReal converts a duration of the AEM clock into real time.
func (a *AdvancedEventMesh) aemReal(d time.Duration) time.Duration {
	return time.Duration(float64(d) * float64(a.minute) / float64(time.Minute))
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
	core.RespondJSON(w, e.http, map[string]any{"meta": meta})
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
	core.RespondJSON(w, http.StatusOK, body)
}

// basicAuth wraps h with the check of the management user ([SPEC] securityDefinitions: basicAuth).
func (a *AdvancedEventMesh) basicAuth(h http.HandlerFunc) http.HandlerFunc {
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

// sempHandler answers a SEMP request, or returns the error its route answers in the SEMP envelope.
type sempHandler func(http.ResponseWriter, *http.Request) *sempError

// sempRoutes returns the function that mounts a SEMP handler on mux: behind the check of the management user
// (basicAuth) and of opaquePassword (checkOpaquePassword), with the error the handler returns answered in the
// SEMP envelope ([SPEC] every operation's "default" answer, SempMetaOnlyResponse).
func (a *AdvancedEventMesh) sempRoutes(mux *http.ServeMux) func(method, rel string, h sempHandler) {
	return func(method, rel string, h sempHandler) {
		a.Route(mux, method, rel, method+" "+rel, a.basicAuth(func(w http.ResponseWriter, r *http.Request) {
			if err := checkOpaquePassword(r); err != nil {
				respondSEMPError(w, r, err)
				return
			}
			if err := h(w, r); err != nil {
				respondSEMPError(w, r, err)
			}
		}))
	}
}

// checkVpn answers NOT_FOUND for a Message VPN other than the service's.
func (a *AdvancedEventMesh) checkVpn(r *http.Request) *sempError {
	if vpn := r.PathValue("vpn"); vpn != a.vpn {
		return sempNotFound("Could not find match for msgVpnName %s", vpn)
	}
	return nil
}

// sempQuery checks the path's Message VPN (checkVpn) and reads the query of a request on an object (list
// false) or on a collection (list true) whose objects have the attributes attrs (parsePageQuery).
func (a *AdvancedEventMesh) sempQuery(r *http.Request, list bool, attrs []string) (pageQuery, *sempError) {
	if err := a.checkVpn(r); err != nil {
		return pageQuery{}, err
	}
	return parsePageQuery(r, list, attrs)
}

// onQueue checks the request as sempQuery does and calls f with the path's queue (NOT_FOUND when there is
// none) and the query, under a.mu.
func (a *AdvancedEventMesh) onQueue(r *http.Request, list bool, attrs []string, f func(*aemQueue, pageQuery) *sempError) *sempError {
	pq, err := a.sempQuery(r, list, attrs)
	if err != nil {
		return err
	}
	return a.lockQueue(r.PathValue("queue"), func(q *aemQueue) *sempError { return f(q, pq) })
}

// sempBody checks the path's Message VPN (checkVpn) and reads the request's JSON object (readJSONObject).
func (a *AdvancedEventMesh) sempBody(r *http.Request) (map[string]any, *sempError) {
	if err := a.checkVpn(r); err != nil {
		return nil, err
	}
	return readJSONObject(r)
}

// lockQueue calls f with the named queue (NOT_FOUND when there is none) under a.mu.
func (a *AdvancedEventMesh) lockQueue(name string, f func(*aemQueue) *sempError) *sempError {
	a.mu.Lock()
	defer a.mu.Unlock()
	q, err := a.queue(name)
	if err != nil {
		return err
	}
	return f(q)
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

// sempEntry is one object of a collection: its key (the order of the pages, and the cursor's), the object and
// its links.
type sempEntry struct {
	key   string
	obj   map[string]any
	links map[string]any
}

// matching returns the entries whose objects every where condition of pq matches.
func (pq pageQuery) matching(es []sempEntry) []sempEntry {
	out := make([]sempEntry, 0, len(es))
	for _, e := range es {
		keep := true
		for _, c := range pq.wheres {
			keep = keep && c.match(e.obj)
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// respondPage answers 200 with the page of the entries (sorted by key) that pq's cursor and count cut, each
// object trimmed by pq's select, and the paging meta (page).
func respondPage(w http.ResponseWriter, r *http.Request, pq pageQuery, es []sempEntry) {
	es, paging := page(r, es, func(e sempEntry) string { return e.key }, pq)
	data := make([]map[string]any, 0, len(es))
	links := make([]map[string]any, 0, len(es))
	for _, e := range es {
		data = append(data, selectAttrs(e.obj, pq.sel))
		links = append(links, e.links)
	}
	respondSEMP(w, r, data, links, paging)
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

// Credentials returns the broker service's management access: SEMP answers on sempURL, the emulator's
// listener.
func (a *AdvancedEventMesh) Credentials(sempURL string) AdvancedEventMeshCredentials {
	return AdvancedEventMeshCredentials{SEMPURL: sempURL, MsgVpnName: a.vpn, Username: a.username, Password: a.password}
}

// settleAt settles a delivery at a time of the AEM clock (zero: now), as a consumer whose attempts ended
// then does.
func (a *AdvancedEventMesh) settleAt(queue string, msgID int64, outcome core.AEMOutcome, at time.Time) (string, error) {
	return a.settle(queue, msgID, outcome, at)
}
