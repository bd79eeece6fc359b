package core

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// FaultKind is a kind of injected fault.
type FaultKind string

// Fault kinds.
const (
	// Fault429 answers 429 Too Many Requests with Retry-After.
	Fault429 FaultKind = "429"
	// Fault500 answers 500 Internal Server Error.
	Fault500 FaultKind = "500"
	// Fault502 answers 502 Bad Gateway.
	Fault502 FaultKind = "502"
	// Fault503 answers 503 Service Unavailable (with Retry-After when Faults.RetryAfter is set).
	Fault503 FaultKind = "503"
	// FaultDrop closes the connection without any response.
	FaultDrop FaultKind = "drop"
	// FaultSlow waits Faults.SlowDelay before handling the request; a client
	// that gives up first has its request dropped unprocessed.
	FaultSlow FaultKind = "slow"
	// FaultTokenExpiry expires all access tokens, then handles the request,
	// which therefore fails with 401 on any API that needs a token.
	FaultTokenExpiry FaultKind = "token-expiry"
	// FaultLostResponse handles the request completely, then closes the
	// connection without sending the response: the change is made, but the
	// client never learns it.
	FaultLostResponse FaultKind = "lost-response"
	// FaultLateResponse handles the request completely, then waits
	// Faults.SlowDelay before it sends the answer: a client that gives up
	// meanwhile (a cancelled run) never learns that the change was made.
	// ResponseLatency does the same for every Event Mesh management request;
	// this kind hits one request of any API, for example one SEMP action.
	FaultLateResponse FaultKind = "late-response"
)

// AllFaultKinds lists every fault kind.
var AllFaultKinds = []FaultKind{Fault429, Fault500, Fault502, Fault503, FaultDrop, FaultSlow, FaultTokenExpiry, FaultLostResponse, FaultLateResponse}

// defaultRandomKinds are drawn from when Faults.Rate > 0 and Faults.Kinds is empty.
var defaultRandomKinds = []FaultKind{Fault429, Fault500, Fault502, Fault503}

// DefaultSlowDelay is the delay of FaultSlow when Faults.SlowDelay is zero:
// longer than a client's default 60s timeout per attempt.
const DefaultSlowDelay = 65 * time.Second

// ParseFaultKind parses a fault kind name such as "503" or "drop".
func ParseFaultKind(s string) (FaultKind, error) {
	k := FaultKind(strings.TrimSpace(strings.ToLower(s)))
	for _, known := range AllFaultKinds {
		if k == known {
			return k, nil
		}
	}
	names := make([]string, len(AllFaultKinds))
	for i, known := range AllFaultKinds {
		names[i] = string(known)
	}
	return "", fmt.Errorf("emulator: unknown fault kind %q; use one of %s", s, strings.Join(names, ", "))
}

// UnmarshalJSON accepts only known fault kinds.
func (k *FaultKind) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, err := ParseFaultKind(s)
	if err != nil {
		return err
	}
	*k = parsed
	return nil
}

// Faults configure the faults injected into API requests. Requests to the
// control endpoints are never affected; the token endpoint only when
// IncludeTokenEndpoint is set.
type Faults struct {
	// Latency is added to every request.
	Latency time.Duration
	// ResponseLatency delays the answer of every management API request
	// after the request was carried out: a client that gives up meanwhile
	// (a cancelled apply) never learns of a change that was made.
	ResponseLatency time.Duration
	// Rate is the probability (0..1) that a request gets a random fault of Kinds.
	Rate float64
	// Kinds are the kinds drawn from at random (default 429, 500, 502, 503).
	Kinds []FaultKind
	// RetryAfter is sent as Retry-After on 429 (default 1s) and 503 (none when zero).
	RetryAfter time.Duration
	// SlowDelay is the wait of FaultSlow (default DefaultSlowDelay).
	SlowDelay time.Duration
	// Seed makes the random faults reproducible.
	Seed int64
	// IncludeTokenEndpoint lets faults hit POST /oauth/token too.
	IncludeTokenEndpoint bool
	// TokenExpiryAfter, when above zero, expires all access tokens once, at
	// the API request with this number counted from SetFaults (token requests
	// count only with IncludeTokenEndpoint), as a FaultTokenExpiry would.
	TokenExpiryAfter int64
	// TokenExpiryEvery, when above zero, expires all access tokens at every
	// API request whose number, counted as for TokenExpiryAfter, is a multiple
	// of it: tokens that expire again and again while requests are in flight.
	TokenExpiryEvery int64
}

type faultsJSON struct {
	Latency              JSONDuration `json:"latency"`
	ResponseLatency      JSONDuration `json:"responseLatency"`
	Rate                 float64      `json:"rate"`
	Kinds                []FaultKind  `json:"kinds"`
	RetryAfter           JSONDuration `json:"retryAfter"`
	SlowDelay            JSONDuration `json:"slowDelay"`
	Seed                 int64        `json:"seed"`
	IncludeTokenEndpoint bool         `json:"includeTokenEndpoint"`
	TokenExpiryAfter     int64        `json:"tokenExpiryAfter"`
	TokenExpiryEvery     int64        `json:"tokenExpiryEvery"`
}

// MarshalJSON writes durations as Go duration strings such as "250ms".
func (f Faults) MarshalJSON() ([]byte, error) {
	kinds := f.Kinds
	if kinds == nil {
		kinds = []FaultKind{}
	}
	return json.Marshal(faultsJSON{
		Latency: JSONDuration(f.Latency), ResponseLatency: JSONDuration(f.ResponseLatency), Rate: f.Rate, Kinds: kinds, RetryAfter: JSONDuration(f.RetryAfter),
		SlowDelay: JSONDuration(f.SlowDelay), Seed: f.Seed, IncludeTokenEndpoint: f.IncludeTokenEndpoint,
		TokenExpiryAfter: f.TokenExpiryAfter, TokenExpiryEvery: f.TokenExpiryEvery,
	})
}

// UnmarshalJSON reads durations as strings ("1.5s") or numbers of seconds.
func (f *Faults) UnmarshalJSON(b []byte) error {
	var j faultsJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*f = Faults{
		Latency: time.Duration(j.Latency), ResponseLatency: time.Duration(j.ResponseLatency), Rate: j.Rate, Kinds: j.Kinds, RetryAfter: time.Duration(j.RetryAfter),
		SlowDelay: time.Duration(j.SlowDelay), Seed: j.Seed, IncludeTokenEndpoint: j.IncludeTokenEndpoint,
		TokenExpiryAfter: j.TokenExpiryAfter, TokenExpiryEvery: j.TokenExpiryEvery,
	}
	return nil
}

// Validate checks the ranges of the settings.
func (f Faults) Validate() error {
	if f.Rate < 0 || f.Rate > 1 {
		return fmt.Errorf("emulator: fault rate %v is outside 0..1; set a probability between 0 and 1", f.Rate)
	}
	if f.Latency < 0 || f.ResponseLatency < 0 || f.RetryAfter < 0 || f.SlowDelay < 0 {
		return fmt.Errorf("emulator: fault durations must not be negative; set 0 to turn one off")
	}
	if f.TokenExpiryAfter < 0 {
		return fmt.Errorf("emulator: tokenExpiryAfter %d is negative; set the number of the request that expires the tokens, or 0 for none", f.TokenExpiryAfter)
	}
	if f.TokenExpiryEvery < 0 {
		return fmt.Errorf("emulator: tokenExpiryEvery %d is negative; set how many requests apart the tokens expire, or 0 for never", f.TokenExpiryEvery)
	}
	for _, k := range f.Kinds {
		if _, err := ParseFaultKind(string(k)); err != nil {
			return err
		}
	}
	return nil
}

type JSONDuration time.Duration

func (d JSONDuration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

func (d *JSONDuration) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		*d = 0
	case float64:
		*d = JSONDuration(x * float64(time.Second))
	case string:
		parsed, err := time.ParseDuration(x)
		if err != nil {
			return fmt.Errorf("emulator: %q is not a duration such as \"250ms\" or \"2s\"", x)
		}
		*d = JSONDuration(parsed)
	default:
		return fmt.Errorf("emulator: a duration must be a string such as \"2s\" or a number of seconds")
	}
	return nil
}

// FaultInjector is the middleware around every emulated API: it labels and
// counts each request for the statistics and can inject a fault (429, 5xx,
// a dropped connection, a slow answer, an expired token, a lost response)
// before the request reaches its room, or hold an Event Mesh management
// answer back. Its settings and queued faults are faultState, under their
// own lock.
type FaultInjector struct {
	*Core
	tokens *TokenService
	// mux routes the API requests to the rooms.
	mux *http.ServeMux
	// opLabel names a request by its operation where the mux pattern does
	// not (the Cloud Integration OData API); "" leaves it to the pattern.
	opLabel func(*http.Request) string
	faults  faultState
}

// faultState holds the fault settings, the queue of forced faults and the random source.
type faultState struct {
	mu      sync.Mutex
	f       Faults
	pending []FaultKind
	// routed holds faults queued for the next requests of one route label.
	routed map[string][]FaultKind
	rng    *rand.Rand
	// seen counts the requests that could take a fault since the last set.
	seen int64
}

func (fs *faultState) set(f Faults) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.f = f
	fs.f.Kinds = append([]FaultKind(nil), f.Kinds...)
	seed := uint64(f.Seed)
	fs.rng = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	fs.seen = 0
}

func (fs *faultState) get() Faults {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.f
	f.Kinds = append([]FaultKind(nil), fs.f.Kinds...)
	return f
}

func (fs *faultState) push(kinds ...FaultKind) {
	fs.mu.Lock()
	fs.pending = append(fs.pending, kinds...)
	fs.mu.Unlock()
}

func (fs *faultState) pushOn(route string, kinds ...FaultKind) {
	fs.mu.Lock()
	if fs.routed == nil {
		fs.routed = map[string][]FaultKind{}
	}
	fs.routed[route] = append(fs.routed[route], kinds...)
	fs.mu.Unlock()
}

func (fs *faultState) queued() []FaultKind {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := append([]FaultKind{}, fs.pending...)
	for _, route := range slices.Sorted(maps.Keys(fs.routed)) {
		out = append(out, fs.routed[route]...)
	}
	return out
}

// pick returns the fault for the next request of route: a fault queued for
// the route first, then one queued for any request, otherwise a random one
// with probability Rate.
func (fs *faultState) pick(tokenEndpoint bool, route string) (FaultKind, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if tokenEndpoint && !fs.f.IncludeTokenEndpoint {
		return "", false
	}
	fs.seen++
	if (fs.f.TokenExpiryAfter > 0 && fs.seen == fs.f.TokenExpiryAfter) ||
		(fs.f.TokenExpiryEvery > 0 && fs.seen%fs.f.TokenExpiryEvery == 0) {
		return FaultTokenExpiry, true
	}
	if q := fs.routed[route]; len(q) > 0 {
		fs.routed[route] = q[1:]
		return q[0], true
	}
	if len(fs.pending) > 0 {
		k := fs.pending[0]
		fs.pending = fs.pending[1:]
		return k, true
	}
	if fs.f.Rate <= 0 {
		return "", false
	}
	if fs.rng.Float64() >= fs.f.Rate {
		return "", false
	}
	kinds := fs.f.Kinds
	if len(kinds) == 0 {
		kinds = defaultRandomKinds
	}
	return kinds[fs.rng.IntN(len(kinds))], true
}

// SetFaults replaces the fault settings and reseeds the random source.
func (s *FaultInjector) SetFaults(f Faults) { s.faults.set(f) }

// Faults returns the fault settings in force.
func (s *FaultInjector) Faults() Faults { return s.faults.get() }

// InjectNext queues faults for the next API requests, one fault per request in
// order, regardless of Faults.Rate. Control requests never take one, and token
// requests only when Faults.IncludeTokenEndpoint is set.
func (s *FaultInjector) InjectNext(kinds ...FaultKind) { s.faults.push(kinds...) }

// InjectNextOn queues faults for the next requests of one route, named as in
// Stats.Routes (for example "PUT /queues/{queue}"), one fault per request in
// order; other requests are not affected.
func (s *FaultInjector) InjectNextOn(route string, kinds ...FaultKind) {
	s.faults.pushOn(route, kinds...)
}

// PendingFaults returns the faults queued by InjectNext that no request took yet.
func (s *FaultInjector) PendingFaults() []FaultKind { return s.faults.queued() }

// ClearFaults turns random faults and latency off and drops queued faults.
func (s *FaultInjector) ClearFaults() {
	s.faults.set(Faults{})
	s.faults.mu.Lock()
	s.faults.pending = nil
	s.faults.routed = nil
	s.faults.mu.Unlock()
}

// applyFault carries out kind and reports whether the request is finished.
func (s *FaultInjector) applyFault(kind FaultKind, f Faults, w http.ResponseWriter, r *http.Request) bool {
	switch kind {
	case Fault429:
		w.Header().Set("Retry-After", strconv.FormatInt(CeilSeconds(OrDefault(f.RetryAfter, time.Second)), 10))
		s.Counters.countStatus(http.StatusTooManyRequests)
		RespondMessage(w, http.StatusTooManyRequests, "Too many requests. Retry after the time in the Retry-After header.")
		return true
	case Fault500, Fault502, Fault503:
		code, _ := strconv.Atoi(string(kind))
		if kind == Fault503 && f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.FormatInt(CeilSeconds(f.RetryAfter), 10))
		}
		s.Counters.countStatus(code)
		RespondMessage(w, code, http.StatusText(code)+" (injected fault).")
		return true
	case FaultDrop:
		dropConnection(w)
		return true
	case FaultSlow:
		return !SleepCtx(r.Context(), OrDefault(f.SlowDelay, DefaultSlowDelay))
	case FaultTokenExpiry:
		s.tokens.expireTokensRecorded()
		return false
	case FaultLostResponse:
		s.mux.ServeHTTP(&discardWriter{header: http.Header{}}, r)
		dropConnection(w)
		return true
	case FaultLateResponse:
		buf := &bufferedWriter{header: http.Header{}}
		s.mux.ServeHTTP(&statusWriter{ResponseWriter: buf, stats: &s.Counters}, r)
		if !SleepCtx(r.Context(), OrDefault(f.SlowDelay, DefaultSlowDelay)) {
			return true
		}
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		w.WriteHeader(max(buf.status, http.StatusOK))
		_, _ = w.Write(buf.body.Bytes())
		return true
	}
	return false
}

// dropConnection closes the connection of w without a response.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// discardWriter takes a response that is never sent.
type discardWriter struct {
	header http.Header
}

func (d *discardWriter) Header() http.Header         { return d.header }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

// BrokerStats count what the broker did with messages.
type BrokerStats struct {
	Published            int64 `json:"published"`
	Delivered            int64 `json:"delivered"`
	Redelivered          int64 `json:"redelivered"`
	Acknowledged         int64 `json:"acknowledged"`
	Rejected             int64 `json:"rejected"`
	DeadLettered         int64 `json:"deadLettered"`
	Discarded            int64 `json:"discarded"`
	Expired              int64 `json:"expired"`
	RedeliveryCapReached int64 `json:"redeliveryCapReached"`
	// AckTimedOut counts QoS 1 REST deliveries that returned to their queue unacknowledged.
	AckTimedOut int64 `json:"ackTimedOut"`
}

// Stats count the API requests since the start or the last ResetStats.
// Control requests are not counted.
type Stats struct {
	// Requests is the number of API requests, token requests included.
	Requests int64 `json:"requests"`
	// Routes counts requests by route, e.g. "GET /queues", "PUT /queues/{queue}",
	// "POST /messagingrest/v1/queues/{queue}/messages", "POST /oauth/token".
	Routes map[string]int64 `json:"routes"`
	// Statuses counts answers by HTTP status code (dropped connections have none).
	Statuses map[int]int64 `json:"statuses"`
	// ManagementCalls counts requests to the Event Mesh management API.
	ManagementCalls int64 `json:"managementCalls"`
	// MessagingCalls counts requests to the messaging REST API.
	MessagingCalls int64 `json:"messagingCalls"`
	// SEMPCalls counts requests to the Advanced Event Mesh broker's SEMP v2 APIs (config, monitor and
	// action; REST messaging not included), so that the bench can count what a refresh costs the broker
	// (assumed: test instrumentation; a broker has no such counter).
	SEMPCalls int64 `json:"sempCalls"`
	// CloudIntegrationCalls counts requests to the Cloud Integration API.
	CloudIntegrationCalls int64 `json:"cloudIntegrationCalls"`
	// TokenRequests counts requests to the token endpoint; TokensIssued the successful ones.
	TokenRequests int64 `json:"tokenRequests"`
	TokensIssued  int64 `json:"tokensIssued"`
	// ResponseBytes counts the bytes of the response bodies the APIs sent (token answers
	// included, injected faults not), so that a test or the bench can tell how much a command
	// made the service send.
	ResponseBytes int64 `json:"responseBytes"`
	// Faults counts injected faults by kind; FaultsInjected is their total.
	Faults         map[FaultKind]int64 `json:"faults"`
	FaultsInjected int64               `json:"faultsInjected"`
	// Broker counts message events.
	Broker BrokerStats `json:"broker"`
	// MaxInFlight is the most API requests the emulator served at the same time (assumed: test
	// instrumentation, no service reports it), so that a test can tell that a client works concurrently
	// without timing it.
	MaxInFlight int64 `json:"maxInFlight"`
}

type StatsState struct {
	mu       sync.Mutex
	st       Stats
	inFlight int64
}

// begin counts a request being served; the returned func ends it.
func (ss *StatsState) begin() func() {
	ss.mu.Lock()
	ss.inFlight++
	if ss.inFlight > ss.st.MaxInFlight {
		ss.st.MaxInFlight = ss.inFlight
	}
	ss.mu.Unlock()
	return func() {
		ss.mu.Lock()
		ss.inFlight--
		ss.mu.Unlock()
	}
}

func (ss *StatsState) Reset() {
	ss.mu.Lock()
	ss.st = Stats{Routes: map[string]int64{}, Statuses: map[int]int64{}, Faults: map[FaultKind]int64{}}
	ss.mu.Unlock()
}

func (ss *StatsState) countRequest(label string, cat category) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.st.Requests++
	ss.st.Routes[label]++
	switch cat {
	case catManagement:
		ss.st.ManagementCalls++
	case catMessaging:
		ss.st.MessagingCalls++
	case catSEMP:
		ss.st.SEMPCalls++
	case catCloudIntegration:
		ss.st.CloudIntegrationCalls++
	case catToken:
		ss.st.TokenRequests++
	}
}

func (ss *StatsState) countStatus(code int) {
	ss.mu.Lock()
	ss.st.Statuses[code]++
	ss.mu.Unlock()
}

func (ss *StatsState) countBytes(n int) {
	ss.mu.Lock()
	ss.st.ResponseBytes += int64(n)
	ss.mu.Unlock()
}

func (ss *StatsState) countFault(k FaultKind) {
	ss.mu.Lock()
	ss.st.Faults[k]++
	ss.st.FaultsInjected++
	ss.mu.Unlock()
}

func (ss *StatsState) countTokenIssued() {
	ss.mu.Lock()
	ss.st.TokensIssued++
	ss.mu.Unlock()
}

func (ss *StatsState) CountBroker(f func(*BrokerStats)) {
	ss.mu.Lock()
	f(&ss.st.Broker)
	ss.mu.Unlock()
}

func (ss *StatsState) Snapshot() Stats {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := ss.st
	out.Routes = make(map[string]int64, len(ss.st.Routes))
	for k, v := range ss.st.Routes {
		out.Routes[k] = v
	}
	out.Statuses = make(map[int]int64, len(ss.st.Statuses))
	for k, v := range ss.st.Statuses {
		out.Statuses[k] = v
	}
	out.Faults = make(map[FaultKind]int64, len(ss.st.Faults))
	for k, v := range ss.st.Faults {
		out.Faults[k] = v
	}
	return out
}

// NewFaultInjector returns the middleware around mux: tokens expires the
// access tokens of token-expiry faults, opLabel names a request by its
// operation where the mux pattern does not ("" leaves it to the pattern).
func NewFaultInjector(c *Core, tokens *TokenService, mux *http.ServeMux, opLabel func(*http.Request) string) *FaultInjector {
	return &FaultInjector{Core: c, tokens: tokens, mux: mux, opLabel: opLabel}
}
