package httpx_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// certEmulator starts an emulator whose keys are certificate keys and returns it with a
// transport that trusts the emulator's CA.
func certEmulator(t *testing.T) (*emulatortest.Emulator, *http.Transport) {
	t.Helper()
	s := emulatortest.Start(t, emulator.Options{KeyType: emulator.KeyCertificate})
	if !s.EventMesh.UsesCertificate() || !strings.HasPrefix(s.EventMesh.TokenURL, "https://") {
		t.Fatalf("the emulator wrote no certificate key: %+v", s.EventMesh.TokenURL)
	}
	tr := httpx.DefaultTransport()
	tr.TLSClientConfig.RootCAs = s.CA().Pool()
	return s, tr
}

// The token request with a client certificate: mutual TLS, grant_type=client_credentials and
// client_id in the form, no Basic header and no secret.
func TestClientCertificateTokenRequest(t *testing.T) {
	t.Parallel()
	s, tr := certEmulator(t)
	key := s.EventMesh
	var mu sync.Mutex
	var got *http.Request
	var form map[string][]string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/oauth/token" {
			_ = r.ParseForm()
			mu.Lock()
			got, form = r, r.PostForm
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"access_token":"tok","token_type":"bearer","expires_in":3600}`))
			return
		}
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	// The server verifies a client certificate signed by the emulator's CA when one is given;
	// only the token request presents one.
	srv.TLS = &tls.Config{ClientAuth: tls.VerifyClientCertIfGiven, ClientCAs: tr.TLSClientConfig.RootCAs.Clone()}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	tr.TLSClientConfig.RootCAs.AddCert(srv.Certificate())

	c, err := httpx.New(httpx.Config{
		BaseURL: srv.URL, TokenURL: srv.URL + "/oauth/token", ClientID: key.ClientID,
		ClientCertificate: key.Certificate, ClientKey: key.Key, Transport: tr, MaxRetries: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), http.MethodGet, "/x", nil, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("Do = %v, %v", resp, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if got == nil {
		t.Fatal("no token request")
	}
	if got.TLS == nil || len(got.TLS.PeerCertificates) == 0 || got.TLS.PeerCertificates[0].Subject.CommonName != key.ClientID {
		t.Errorf("the token request presented no client certificate of %q", key.ClientID)
	}
	if h := got.Header.Get("Authorization"); h != "" {
		t.Errorf("token request has Authorization %q, want none", h)
	}
	if form["grant_type"][0] != "client_credentials" || form["client_id"][0] != key.ClientID {
		t.Errorf("token form %v, want grant_type=client_credentials and client_id", form)
	}
	if _, ok := form["client_secret"]; ok {
		t.Errorf("token form has client_secret")
	}
}

// Against the emulator: the certificate gets a token; the same client without its certificate
// (over plain TLS) is refused, and the refusal names the certificate, not the secret.
func TestClientCertificateAgainstEmulator(t *testing.T) {
	t.Parallel()
	s, tr := certEmulator(t)
	key := s.EventMesh
	c, err := httpx.New(httpx.Config{BaseURL: key.ManagementURL + emulator.ManagementBasePath, TokenURL: key.TokenURL, ClientID: key.ClientID,
		ClientCertificate: key.Certificate, ClientKey: key.Key, Transport: tr, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(context.Background(), http.MethodGet, "/queues", nil, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /queues with a certificate: %v, %v", resp, err)
	}

	// Another client's certificate under this client id is refused.
	ci := s.CloudIntegration
	wrong, err := httpx.New(httpx.Config{BaseURL: key.ManagementURL + emulator.ManagementBasePath, TokenURL: key.TokenURL, ClientID: key.ClientID,
		ClientCertificate: ci.Certificate, ClientKey: ci.Key, Transport: tr, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = wrong.Do(context.Background(), http.MethodGet, "/queues", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "401") || !strings.Contains(err.Error(), "certificate of the service key") {
		t.Fatalf("a foreign certificate: %v", err)
	}
	if strings.Contains(err.Error(), "PRIVATE KEY") {
		t.Fatalf("error quotes the key: %v", err)
	}
}

func TestClientCertificateConfigErrors(t *testing.T) {
	t.Parallel()
	s, tr := certEmulator(t)
	key := s.EventMesh
	base := httpx.Config{BaseURL: "https://api.example", TokenURL: "https://auth.example/oauth/token", ClientID: "c",
		ClientCertificate: key.Certificate, ClientKey: key.Key, Transport: tr}
	for name, tc := range map[string]struct {
		edit func(*httpx.Config)
		want string
	}{
		"no key":          {func(c *httpx.Config) { c.ClientKey = "" }, "private key of the client certificate is empty"},
		"no certificate":  {func(c *httpx.Config) { c.ClientCertificate = "" }, "client certificate is empty"},
		"with secret":     {func(c *httpx.Config) { c.ClientSecret = "s" }, "set one of them"},
		"no client id":    {func(c *httpx.Config) { c.ClientID = "" }, "token URL and client ID"},
		"http token url":  {func(c *httpx.Config) { c.TokenURL = "http://127.0.0.1:1/oauth/token" }, "cannot present a client certificate"},
		"key of another":  {func(c *httpx.Config) { c.ClientKey = strings.Replace(key.Key, "A", "B", 1) }, "cannot be used"},
		"garbage pem":     {func(c *httpx.Config) { c.ClientCertificate = "not pem" }, "cannot be used"},
		"other transport": {func(c *httpx.Config) { c.Transport = http.NewFileTransport(http.Dir(".")) }, "*http.Transport"},
	} {
		cfg := base
		tc.edit(&cfg)
		_, err := httpx.New(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "PRIVATE KEY") {
			t.Errorf("%s: error quotes the key", name)
		}
	}
}
