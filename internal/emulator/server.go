package emulator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Base paths of the emulated APIs.
const (
	// TokenPath is the OAuth 2.0 token endpoint shared by all clients.
	TokenPath = "/oauth/token"
	// ManagementBasePath is the base path of the Event Mesh management API.
	ManagementBasePath = "/hub/rest/api/v1/management/messaging"
	// MessagingBasePath is the base path of the Event Mesh messaging REST API.
	MessagingBasePath = "/messagingrest/v1"
	// CloudIntegrationBasePath is the base path of the Cloud Integration OData API.
	CloudIntegrationBasePath = "/api/v1"
	// ControlBasePath is the base path of the emulator's own control endpoints.
	ControlBasePath = "/emulator/v1"
)

// Client audiences: each OAuth client may call one API only.
const (
	AudienceManagement       = "management"
	AudienceMessaging        = "messaging"
	AudienceCloudIntegration = "cloudintegration"
)

// Defaults of Options.
const (
	DefaultTokenTTL         = 12 * time.Hour
	DefaultNamespace        = "acme/crm/prod"
	DefaultMaxQueues        = 250
	DefaultMaxSubscriptions = 3000
	DefaultRedeliveryCap    = 1000
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// TokenTTL is the lifetime of issued access tokens (default 12h).
	TokenTTL time.Duration
	// Logf, when set, receives one line per request and notable events.
	// Secrets, tokens and Authorization headers are never passed to it.
	Logf func(format string, args ...any)
	// StateFile, when set, is loaded at New if it exists and rewritten
	// atomically after every mutation. It holds the client secrets, so keys
	// written by WriteKeys stay valid across restarts.
	StateFile string
	// RequireCSRF makes the Cloud Integration API demand an X-CSRF-Token on writes.
	RequireCSRF bool
	// Namespace is the Event Mesh namespace put into the service key (default "acme/crm/prod").
	Namespace string
	// MaxQueues limits the number of queues per instance (default 250).
	MaxQueues int
	// MaxSubscriptions limits the number of subscriptions per instance (default 3000).
	MaxSubscriptions int
	// JMSMinute is the real duration of one minute of the JMS retry
	// schedule and message expiration (default 1m, real time); 100µs lets
	// the 30 days of the default expiration pass in about 4 seconds.
	JMSMinute time.Duration
	// JMSMaxQueues and JMSMaxCapacity are the tenant's JMS limits (default
	// 30 queues and 9.3 GB, SAP's defaults).
	JMSMaxQueues   int
	JMSMaxCapacity int64
	// RedeliveryCap bounds the redeliveries of a message on a queue with
	// maxRedeliveryCount 0 (unlimited); past it the message is discarded and
	// the event reported (default 1000).
	RedeliveryCap int64
	// Faults are the fault settings in force from the start.
	Faults Faults
	// Now is the clock used for token expiry and message TTL (default time.Now).
	Now func() time.Time
	// RetryInterval is the pause between two executions of a deployed
	// flow's retry loop and before a rejected message is fetched again
	// (default 1ms). The real services retry within seconds, without backoff.
	RetryInterval time.Duration
	// LockDuration is the redelivery lock of a batch of prefetched messages
	// (default 1m): one clock per batch, started when a deployed flow begins
	// processing the batch's first message. Messages of the batch still
	// unsettled when it runs out go back to the broker and are delivered again.
	LockDuration time.Duration
	// MessagingAckTimeout is how long a message consumed with x-qos 1 through the
	// messaging REST API stays unacknowledged before it returns to its queue
	// (default DefaultMessagingAckTimeout; see messaging_consume.go).
	MessagingAckTimeout time.Duration
	// RetryCap bounds the retries of one delivery when a deployed flow's
	// AMQP sender has an empty maxRetries (endless); past it the message is
	// discarded and the event reported (default 1000).
	RetryCap int64
	// KeyType selects the credentials of the service keys (default
	// KeySecret). The certificate types serve the token endpoint on an extra
	// HTTPS listener that requires the client certificate (mutual TLS).
	KeyType KeyType
	// CA signs the HTTPS token endpoint's certificate and the client
	// certificates; one is made at New when it is nil and KeyType needs it.
	CA *CA
	// WebhookMinute is the real duration of one minute of the webhook
	// clock, on which QoS 1 retries wait and held messages reach their time
	// to live (default 1m, real time); 1ms lets the 7 days of the longest
	// time to live pass in about 10 seconds (webhooks.go).
	WebhookMinute time.Duration
	// MaxWebhooks limits the webhook subscriptions per instance (default 10).
	MaxWebhooks int
	// AEMMinute is the real duration of one minute of the Advanced Event
	// Mesh broker's clock, on which redelivery delays and message TTLs run
	// (default 1m, real time; aem.go).
	AEMMinute time.Duration
	// TokenHost, when set, is the loopback IP (for example "127.0.0.2") the
	// token endpoint listens on, apart from the API's host.
	TokenHost string
}

// Server is the emulator. Create it with New, then call Start or mount
// Handler.
//
// Server only wires the rooms of the emulator, one per emulated product,
// and serves them: each room owns its state, its lock and its handlers.
// The exported methods of the rooms are Server's through embedding.
type Server struct {
	*core
	// The rooms.
	*tokenService       // the OAuth token endpoint and its certificate listener (auth.go, tls.go)
	*eventMesh          // Event Mesh management, messaging and broker (management.go, broker.go)
	*cloudIntegration   // Cloud Integration design time and deploy API (cloudintegration.go, cpi_*.go, mpl.go)
	*integrationRuntime // Cloud Integration runtime: deployed flows, AMQP and JMS senders (runtime.go, behaviour.go, jms*.go)
	*faultInjector      // the middleware around all of them (faults.go)
	*webhookService     // Event Mesh webhook subscriptions and their push delivery (webhooks.go)
	*advancedEventMesh  // Advanced Event Mesh: SEMP v2, REST messaging and the broker (aem*.go)

	handler http.Handler   // control endpoints, or the middleware and the rooms
	control *http.ServeMux // the control endpoints (control.go and each room's)

	saveMu  sync.Mutex // serializes the state file writes
	loadErr error

	lnMu     sync.Mutex
	srv      *http.Server
	listener net.Listener
	url      string
	served   chan struct{}
}

// New creates a Server: it loads Options.StateFile if it exists, otherwise it
// generates fresh client credentials (and writes the state file when one is set).
func New(opts Options) *Server {
	if opts.TokenTTL <= 0 {
		opts.TokenTTL = DefaultTokenTTL
	}
	if opts.Namespace == "" {
		opts.Namespace = DefaultNamespace
	}
	if opts.MaxQueues <= 0 {
		opts.MaxQueues = DefaultMaxQueues
	}
	if opts.MaxSubscriptions <= 0 {
		opts.MaxSubscriptions = DefaultMaxSubscriptions
	}
	if opts.RedeliveryCap <= 0 {
		opts.RedeliveryCap = DefaultRedeliveryCap
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = DefaultRetryInterval
	}
	if opts.LockDuration <= 0 {
		opts.LockDuration = DefaultLockDuration
	}
	if opts.RetryCap <= 0 {
		opts.RetryCap = DefaultRetryCap
	}
	c := newCore(opts)
	s := &Server{core: c}
	c.save = s.writeState
	s.tokenService = newTokenService(c, s.URL)
	s.eventMesh = newEventMesh(c, s.tokenService)
	tenant := newCPIState()
	s.integrationRuntime = &integrationRuntime{core: c, broker: s.eventMesh, cpi: tenant, rt: newRuntimeState(),
		jms: newJMSState(opts, opts.Now())} // jms.go
	s.webhookService = newWebhookService(c, s.eventMesh, s.tokenService) // webhooks.go
	s.advancedEventMesh = newAdvancedEventMesh(c)                        // aem.go
	s.aem = s.advancedEventMesh                                          // the runtime consumes its queues (aem_runtime.go)
	s.cloudIntegration = &cloudIntegration{core: c, auth: s.tokenService, cpi: tenant, runtime: s.integrationRuntime}

	if err := s.loadState(); err != nil {
		s.loadErr = err
		s.logf("emulator: loading state file: %v", err)
	}
	s.ensureIdentity()
	s.certErr = s.ensureCertificates()

	mux := http.NewServeMux()
	s.faultInjector = &faultInjector{core: c, tokens: s.tokenService, mux: mux, opLabel: tenant.routeLabel}
	s.faults.set(opts.Faults)
	s.mountTokenEndpoint(mux)
	s.mountManagement(mux)
	s.mountMessaging(mux)
	s.mountWebhooks(mux)
	s.mountCloudIntegration(mux)
	s.mountAdvancedEventMesh(mux)
	s.mountAEMMonitor(mux)
	s.control = http.NewServeMux()
	s.mountControl(s.control)
	s.handler = http.HandlerFunc(s.serveHTTP)

	if opts.StateFile != "" && s.loadErr == nil {
		s.writeState()
	}
	return s
}

// Handler returns the emulator's HTTP handler (middleware, all APIs and the control endpoints).
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on addr, which must be a loopback address such as
// "127.0.0.1:0", and serves in the background until Close.
func (s *Server) Start(addr string) error {
	if s.loadErr != nil {
		return fmt.Errorf("emulator: cannot start because the state file %s could not be loaded: %w", s.opts.StateFile, s.loadErr)
	}
	if s.certErr != nil {
		return fmt.Errorf("emulator: cannot issue the client certificates: %w", s.certErr)
	}
	bind, err := LoopbackAddr(addr)
	if err != nil {
		return err
	}
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	if s.srv != nil {
		return errors.New("emulator: the server is already started")
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return fmt.Errorf("emulator: listen on %s: %w", bind, err)
	}
	s.listener = ln
	s.url = "http://" + ln.Addr().String()
	apiHost, _, _ := net.SplitHostPort(ln.Addr().String())
	if err := s.startTokenListener(apiHost, s.handler); err != nil {
		_ = ln.Close()
		s.listener, s.url = nil, ""
		return err
	}
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 30 * time.Second,
		ErrorLog:          nil,
	}
	s.served = make(chan struct{})
	go func(srv *http.Server, done chan struct{}) {
		defer close(done)
		_ = srv.Serve(ln)
	}(s.srv, s.served)
	if s.hasRuntimes() {
		s.kickRuntime()
	}
	return nil
}

// URL returns the base URL of the started server, for example http://127.0.0.1:41234.
// It is empty before Start.
func (s *Server) URL() string {
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	return s.url
}

// Close stops the deployed flows' consumers and the server and closes all
// connections, waking slow requests.
func (s *Server) Close() error {
	s.stopRuntime()
	s.stopWebhooks()
	s.lnMu.Lock()
	srv, done := s.srv, s.served
	s.lnMu.Unlock()
	tsrv, tdone := s.tokenService.listener()
	if tsrv != nil {
		_ = tsrv.Close()
		<-tdone
	}
	if srv == nil {
		return nil
	}
	err := srv.Close()
	<-done
	return err
}

// Shutdown stops the deployed flows' consumers, then the server gracefully:
// it waits for running requests until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopRuntime()
	s.stopWebhooks()
	s.lnMu.Lock()
	srv, done := s.srv, s.served
	s.lnMu.Unlock()
	tsrv, tdone := s.tokenService.listener()
	if tsrv != nil {
		if tsrv.Shutdown(ctx) != nil {
			_ = tsrv.Close()
		}
		<-tdone
	}
	if srv == nil {
		return nil
	}
	err := srv.Shutdown(ctx)
	if err != nil {
		_ = srv.Close()
	}
	<-done
	return err
}

// LoopbackAddr checks that addr (host:port) names a loopback interface and
// returns the address to bind. "localhost" binds 127.0.0.1; an empty host or
// any non-loopback address is refused.
func LoopbackAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("emulator: the listen address %q is not host:port; set a loopback address such as 127.0.0.1:0", addr)
	}
	if strings.EqualFold(host, "localhost") {
		return net.JoinHostPort("127.0.0.1", port), nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return "", fmt.Errorf("emulator: the listen address %q is not a loopback address, and the emulator serves secrets and unauthenticated control endpoints; set a loopback address such as 127.0.0.1:0", addr)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

// API categories used by the statistics.
type category int

const (
	catOther category = iota
	catToken
	catManagement
	catMessaging
	catCloudIntegration
	catSEMP // the AEM broker's SEMP v2 APIs (aem.go)
)

func categorize(path string) category {
	switch {
	case path == TokenPath:
		return catToken
	case hasPathPrefix(path, ManagementBasePath):
		return catManagement
	case hasPathPrefix(path, MessagingBasePath):
		return catMessaging
	case hasPathPrefix(path, CloudIntegrationBasePath):
		return catCloudIntegration
	case hasPathPrefix(path, "/SEMP/v2"):
		return catSEMP
	}
	return catOther
}

func hasPathPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// routeLabel names the route of r for the statistics, e.g. "PUT /queues/{queue}".
func (s *faultInjector) routeLabel(r *http.Request) string {
	if categorize(r.URL.Path) == catCloudIntegration {
		if label := s.opLabel(r); label != "" {
			return label
		}
	}
	_, pattern := s.mux.Handler(r)
	if pattern == "" {
		return r.Method + " (no route)"
	}
	if label, ok := s.labels[pattern]; ok {
		return label
	}
	if !strings.Contains(pattern, " ") {
		return r.Method + " " + pattern
	}
	return pattern
}

// serveHTTP sends the control endpoints to the control mux and every other
// request through the fault middleware to the rooms.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if hasPathPrefix(r.URL.Path, ControlBasePath) {
		if !isLoopbackRemote(r.RemoteAddr) {
			respondMessage(w, http.StatusForbidden, "The control endpoints answer loopback clients only.")
			return
		}
		s.control.ServeHTTP(w, r)
		return
	}
	s.serveAPI(w, r)
}

// serveAPI is the single middleware every API request passes.
func (s *faultInjector) serveAPI(w http.ResponseWriter, r *http.Request) {
	cat := categorize(r.URL.Path)
	label := s.routeLabel(r)
	s.stats.countRequest(label, cat)
	defer s.stats.begin()()
	s.logf("emulator: %s %s", r.Method, r.URL.EscapedPath())

	f := s.faults.get()
	if f.Latency > 0 && !sleepCtx(r.Context(), f.Latency) {
		return
	}
	if kind, ok := s.faults.pick(cat == catToken, label); ok {
		s.stats.countFault(kind)
		s.logf("emulator: injecting fault %s into %s", kind, label)
		if s.applyFault(kind, f, w, r) {
			return
		}
	}
	if f.ResponseLatency > 0 && cat == catManagement {
		// Carry the request out, then hold the answer back.
		buf := &bufferedWriter{header: http.Header{}}
		s.mux.ServeHTTP(&statusWriter{ResponseWriter: buf, stats: &s.stats}, r)
		if !sleepCtx(r.Context(), f.ResponseLatency) {
			return
		}
		for k, v := range buf.header {
			w.Header()[k] = v
		}
		w.WriteHeader(buf.status)
		_, _ = w.Write(buf.body.Bytes())
		return
	}
	s.mux.ServeHTTP(&statusWriter{ResponseWriter: w, stats: &s.stats}, r)
}

// bufferedWriter keeps a response to send it later.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.header }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.WriteHeader(http.StatusOK)
	return b.body.Write(p)
}

func isLoopbackRemote(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sleepCtx sleeps d and reports whether it slept fully (false when ctx ended first).
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// statusWriter counts the status code of each response before it is sent.
type statusWriter struct {
	http.ResponseWriter
	stats *statsState
	wrote bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote && code >= 200 {
		w.wrote = true
		w.stats.countStatus(code)
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	n, err := w.ResponseWriter.Write(b)
	w.stats.countBytes(n)
	return n, err
}

// Flush implements http.Flusher.
func (w *statusWriter) Flush() {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	_ = http.NewResponseController(w.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
