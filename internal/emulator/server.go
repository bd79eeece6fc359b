package emulator

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/aem"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/integration"
)

// Server is the emulator. Create it with New, then call Start or mount
// Handler.
//
// Server only wires the rooms of the emulator, one package per emulated
// product over the core (doc.go, "Rooms"), and serves them: each room owns
// its state, its lock and its handlers. The exported methods of the rooms
// are Server's through embedding.
type Server struct {
	*core.Core
	// The rooms.
	*core.TokenService            // the OAuth token endpoint and its certificate listener (core/auth.go, core/tls.go)
	*eventmesh.EventMesh          // Event Mesh management, messaging and broker (eventmesh/management.go, eventmesh/broker.go)
	*integration.CloudIntegration // Cloud Integration design time and deploy API (integration/cloudintegration.go, cpi_*.go, mpl.go)
	*integration.Runtime          // Cloud Integration runtime: deployed flows, AMQP and JMS senders (integration/runtime.go, behaviour.go, jms*.go, aem_runtime.go)
	*core.FaultInjector           // the middleware around all of them (core/faults.go)
	*eventmesh.Webhooks           // Event Mesh webhook subscriptions and their push delivery (eventmesh/webhooks.go)
	*aem.AdvancedEventMesh        // Advanced Event Mesh: SEMP v2, REST messaging and the broker (aem/)

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
	opts.TokenTTL = core.OrDefault(opts.TokenTTL, DefaultTokenTTL)
	if opts.Namespace == "" {
		opts.Namespace = DefaultNamespace
	}
	opts.MaxQueues = core.OrDefault(opts.MaxQueues, DefaultMaxQueues)
	opts.MaxSubscriptions = core.OrDefault(opts.MaxSubscriptions, DefaultMaxSubscriptions)
	opts.RedeliveryCap = core.OrDefault(opts.RedeliveryCap, DefaultRedeliveryCap)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.RetryInterval = core.OrDefault(opts.RetryInterval, DefaultRetryInterval)
	opts.LockDuration = core.OrDefault(opts.LockDuration, DefaultLockDuration)
	opts.RetryCap = core.OrDefault(opts.RetryCap, DefaultRetryCap)
	c := core.NewCore(opts)
	s := &Server{Core: c}
	c.Save = s.writeState
	s.TokenService = core.NewTokenService(c, s.URL)
	s.EventMesh = eventmesh.New(c, s.TokenService)
	s.Webhooks = eventmesh.NewWebhooks(c, s.EventMesh, s.TokenService) // eventmesh/webhooks.go
	s.AdvancedEventMesh = aem.New(c)                                   // aem/aem.go
	// Cloud Integration's runtime consumes the brokers' queues over the core's interfaces.
	s.CloudIntegration, s.Runtime = integration.New(c, s.TokenService, s.EventMesh.Broker(), s.AdvancedEventMesh.Broker())

	if err := s.loadState(); err != nil {
		s.loadErr = err
		s.Logf("emulator: loading state file: %v", err)
	}
	s.EnsureIdentity()
	s.CertErr = s.EnsureCertificates()

	mux := http.NewServeMux()
	s.FaultInjector = core.NewFaultInjector(c, s.TokenService, mux, s.RouteLabel)
	s.SetFaults(opts.Faults)
	for _, r := range s.rooms() {
		r.Mount(mux)
	}
	s.control = http.NewServeMux()
	s.mountControl(s.control)
	s.handler = http.HandlerFunc(s.serveHTTP)

	if opts.StateFile != "" && s.loadErr == nil {
		s.writeState()
	}
	return s
}

// room is a room with APIs of its own: Mount registers them on the API mux, MountControl its control
// endpoints on the control mux.
type room interface {
	Mount(mux *http.ServeMux)
	MountControl(mux *http.ServeMux)
}

// rooms are the rooms with APIs of their own; the runtime and the fault injector have control endpoints only
// (control.go).
func (s *Server) rooms() []room {
	return []room{s.TokenService, s.EventMesh, s.Webhooks, s.CloudIntegration, s.AdvancedEventMesh}
}

// Handler returns the emulator's HTTP handler (middleware, all APIs and the control endpoints).
func (s *Server) Handler() http.Handler { return s.handler }

// Start listens on addr, which must be a loopback address such as
// "127.0.0.1:0", and serves in the background until Close.
func (s *Server) Start(addr string) error {
	if s.loadErr != nil {
		return fmt.Errorf("emulator: cannot start because the state file %s could not be loaded: %w", s.Opts.StateFile, s.loadErr)
	}
	if s.CertErr != nil {
		return fmt.Errorf("emulator: cannot issue the client certificates: %w", s.CertErr)
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
	if err := s.StartTokenListener(apiHost, s.handler); err != nil {
		_ = ln.Close()
		s.listener, s.url = nil, ""
		return err
	}
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 30 * time.Second,
		IdleTimeout:       s.Opts.IdleTimeout,
		ErrorLog:          nil,
	}
	s.served = make(chan struct{})
	go func(srv *http.Server, done chan struct{}) {
		defer close(done)
		_ = srv.Serve(ln)
	}(s.srv, s.served)
	if s.HasRuntimes() {
		s.KickRuntime()
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
	return s.stop((*http.Server).Close)
}

// Shutdown stops the deployed flows' consumers, then the server gracefully:
// it waits for running requests until ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	return s.stop(func(srv *http.Server) error {
		err := srv.Shutdown(ctx)
		if err != nil {
			_ = srv.Close()
		}
		return err
	})
}

// stop stops the deployed flows' consumers and the webhooks, then ends the token endpoint's listener (when it
// has its own) and the server with end, and waits until each has stopped serving. It returns the server's
// error.
func (s *Server) stop(end func(*http.Server) error) error {
	s.StopRuntime()
	s.StopWebhooks()
	s.lnMu.Lock()
	srv, done := s.srv, s.served
	s.lnMu.Unlock()
	tsrv, tdone := s.Listener()
	if tsrv != nil {
		_ = end(tsrv)
		<-tdone
	}
	if srv == nil {
		return nil
	}
	err := end(srv)
	<-done
	return err
}

// serveHTTP sends the control endpoints to the control mux and every other
// request through the fault middleware to the rooms.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if core.HasPathPrefix(r.URL.Path, ControlBasePath) {
		if !core.IsLoopbackRemote(r.RemoteAddr) {
			core.RespondMessage(w, http.StatusForbidden, "The control endpoints answer loopback clients only.")
			return
		}
		s.control.ServeHTTP(w, r)
		return
	}
	s.ServeAPI(w, r)
}

// Stats returns a copy of the request statistics.
func (s *Server) Stats() Stats { return s.Counters.Snapshot() }

// ResetStats sets all statistics to zero.
func (s *Server) ResetStats() { s.Counters.Reset() }
