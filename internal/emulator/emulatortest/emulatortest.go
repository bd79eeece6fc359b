// Package emulatortest starts an emulator for one test and hands out its
// service keys, typed, and HTTP clients of its APIs. Tests of every package
// use it instead of starting the emulator themselves. The emulator's own
// tests, in each room's package, also use its raw HTTP helpers (raw.go:
// Do, Expect, Token, QPath, PutQueue, Clock, ...; aem.go: SEMP over Basic
// auth), which check the answers as the emulator writes them.
//
// It builds on httpx and servicekey, so their own tests cannot import it
// from inside their packages (an import cycle); they use it from an
// external test package (package httpx_test).
package emulatortest

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

// Emulator is a started emulator with its service keys.
type Emulator struct {
	*emulator.Server

	// EventMesh and CloudIntegration are the service keys as the provider
	// reads them. With emulator.KeyExternalCertificate, CloudIntegration.Key
	// holds the private key the service key leaves out.
	EventMesh        servicekey.EventMesh
	CloudIntegration servicekey.CloudIntegration

	// EventMeshDoc and CloudIntegrationDoc are the same keys as the emulator
	// writes them (secret or certificate variant, by Options.KeyType).
	EventMeshDoc        emulator.EventMeshServiceKey
	CloudIntegrationDoc emulator.CloudIntegrationServiceKey
}

// NewServer creates an emulator with opts that does not listen (its handlers and Go API serve the test) and
// closes it when the test ends.
func NewServer(t testing.TB, opts emulator.Options) *emulator.Server {
	t.Helper()
	s := emulator.New(opts)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// Start creates an emulator with opts, starts it on a random loopback port
// and closes it when the test ends. A failure to start ends the test.
func Start(t testing.TB, opts emulator.Options) *Emulator {
	t.Helper()
	s := emulator.New(opts)
	if err := s.Start("127.0.0.1:0"); err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return FromServer(t, s)
}

// FromServer reads the service keys of s, an emulator the test started
// itself (for example again on the address of one it stopped).
func FromServer(t testing.TB, s *emulator.Server) *Emulator {
	t.Helper()
	e := &Emulator{Server: s}
	if err := json.Unmarshal(s.EventMeshKey(), &e.EventMeshDoc); err != nil {
		t.Fatalf("the emulator's Event Mesh key: %v", err)
	}
	if err := json.Unmarshal(s.CloudIntegrationKey(), &e.CloudIntegrationDoc); err != nil {
		t.Fatalf("the emulator's Cloud Integration key: %v", err)
	}
	var err error
	if e.EventMesh, err = servicekey.ParseEventMesh(s.EventMeshKey()); err != nil {
		t.Fatalf("the emulator's Event Mesh key: %v", err)
	}
	if e.CloudIntegration, err = servicekey.ParseCloudIntegration(s.CloudIntegrationKey()); err != nil {
		t.Fatalf("the emulator's Cloud Integration key: %v", err)
	}
	if e.CloudIntegration.Key == "" {
		e.CloudIntegration.Key = string(s.CloudIntegrationPrivateKey())
	}
	return e
}

// Short retry waits, so that tests of retries and faults run fast.
const (
	retryWaitMin = time.Millisecond
	retryWaitMax = 10 * time.Millisecond
)

// config is the httpx configuration of one API with its credentials
// (secret, or certificate and key) and short retry waits.
func config(baseURL, tokenURL, clientID, secret, certificate, key string) httpx.Config {
	return httpx.Config{
		BaseURL: baseURL, TokenURL: tokenURL, ClientID: clientID, ClientSecret: secret,
		ClientCertificate: certificate, ClientKey: key,
		RetryWaitMin: retryWaitMin, RetryWaitMax: retryWaitMax,
	}
}

// ManagementConfig is the httpx configuration the provider builds from the
// Event Mesh key for the management API, with short retry waits.
func (e *Emulator) ManagementConfig() httpx.Config {
	k := e.EventMesh
	return config(k.ManagementURL, k.TokenURL, k.ClientID, k.ClientSecret, k.Certificate, k.Key)
}

// MessagingConfig is the httpx configuration the provider builds from the
// Event Mesh key for the messaging REST API, with short retry waits.
func (e *Emulator) MessagingConfig() httpx.Config {
	k := e.EventMesh
	return config(k.MessagingURL, k.MessagingTokenURL, k.MessagingClientID, k.MessagingClientSecret, k.MessagingCertificate, k.MessagingKey)
}

// CloudIntegrationConfig is the httpx configuration the provider builds
// from the Cloud Integration key, with short retry waits and the cap for
// integration flow archives. The caller adds the CSRF fetch path
// (cpi.CSRFFetchPath) where it needs one.
func (e *Emulator) CloudIntegrationConfig() httpx.Config {
	k := e.CloudIntegration
	cfg := config(k.URL, k.TokenURL, k.ClientID, k.ClientSecret, k.Certificate, k.Key)
	cfg.MaxResponseBytes = httpx.ArtifactMaxResponseBytes
	return cfg
}

// Client creates an HTTP client from cfg, usually one of the configurations
// above with the test's changes; an invalid configuration ends the test.
func Client(t testing.TB, cfg httpx.Config) *httpx.Client {
	t.Helper()
	c, err := httpx.New(cfg)
	if err != nil {
		t.Fatalf("creating the HTTP client of %s: %v", cfg.BaseURL, err)
	}
	return c
}

// ManagementClient is a client of the Event Mesh management API.
func (e *Emulator) ManagementClient(t testing.TB) *httpx.Client {
	t.Helper()
	return Client(t, e.ManagementConfig())
}

// MessagingClient is a client of the Event Mesh messaging REST API.
func (e *Emulator) MessagingClient(t testing.TB) *httpx.Client {
	t.Helper()
	return Client(t, e.MessagingConfig())
}

// CloudIntegrationClient is a client of the Cloud Integration API.
func (e *Emulator) CloudIntegrationClient(t testing.TB) *httpx.Client {
	t.Helper()
	return Client(t, e.CloudIntegrationConfig())
}
