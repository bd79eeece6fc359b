package core

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"time"
)

// KeyType selects the credentials the emulator's service keys carry.
type KeyType string

// Key types. KeyCertificate writes Event Mesh x509 bindings and Cloud
// Integration keys of type "Certificate" (clientid, certificate, key,
// tokenurl, url); KeyExternalCertificate writes Cloud Integration keys of
// type "External Certificate", whose private key is kept apart (see
// CloudIntegrationPrivateKey), and Event Mesh x509 bindings. Both point
// their token endpoint at an HTTPS listener that requires the certificate.
const (
	KeySecret              KeyType = "secret"
	KeyCertificate         KeyType = "certificate"
	KeyExternalCertificate KeyType = "external-certificate"
)

// ParseKeyType parses a KeyType name; "" is KeySecret.
func ParseKeyType(s string) (KeyType, error) {
	switch k := KeyType(strings.TrimSpace(s)); k {
	case "", KeySecret:
		return KeySecret, nil
	case KeyCertificate, KeyExternalCertificate:
		return k, nil
	}
	return "", fmt.Errorf("key type %q is not one of %s, %s, %s", s, KeySecret, KeyCertificate, KeyExternalCertificate)
}

func (k KeyType) certificates() bool { return k == KeyCertificate || k == KeyExternalCertificate }

// CA is a certificate authority made at start: it signs the certificate of
// the emulator's HTTPS token endpoint and the client certificates of
// certificate service keys. Clients trust it through CertPEM (for example
// with SSL_CERT_FILE pointing at a file holding it).
type CA struct {
	cert    *x509.Certificate
	key     *ecdsa.PrivateKey
	certPEM []byte
}

// NewCA creates a CA with a fresh P-256 key, valid for 30 days.
func NewCA() (*CA, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "sapmessaging emulator CA " + RandomHex(4)},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &CA{cert: cert, key: key, certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}, nil
}

// CertPEM returns the CA certificate in PEM.
func (ca *CA) CertPEM() []byte { return bytes.Clone(ca.certPEM) }

// Pool returns a pool holding the CA certificate.
func (ca *CA) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(ca.cert)
	return p
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 120))
	return n
}

// issued is a certificate signed by the CA with its key, in PEM and parsed.
type issued struct {
	certPEM, keyPEM string
	leaf            *x509.Certificate
	pair            tls.Certificate
}

// issue signs a certificate: a server certificate for the loopback hosts, or
// a client certificate for the OAuth client cn.
func (ca *CA) issue(cn string, server bool, ips []net.IP) (issued, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return issued{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: cn, OrganizationalUnit: []string{"sapmessaging emulator"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	if server {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		tmpl.DNSNames = []string{"localhost"}
		tmpl.IPAddresses = ips
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		return issued{}, err
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return issued{}, err
	}
	out := issued{
		certPEM: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		keyPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})),
	}
	if out.leaf, err = x509.ParseCertificate(der); err != nil {
		return issued{}, err
	}
	if out.pair, err = tls.X509KeyPair([]byte(out.certPEM), []byte(out.keyPEM)); err != nil {
		return issued{}, err
	}
	return out, nil
}

// StartTokenListener starts the extra token endpoint listener, when one is
// needed: HTTPS with the CA's server certificate for certificate keys, or
// plain HTTP on Options.TokenHost. Called after the API listener is up on
// apiHost; the listener serves handler, the emulator's whole handler.
func (s *TokenService) StartTokenListener(apiHost string, handler http.Handler) error {
	host := s.Opts.TokenHost
	if host == "" {
		host = apiHost
	}
	if !s.Opts.KeyType.certificates() && s.Opts.TokenHost == "" {
		return nil
	}
	bind, err := LoopbackAddr(net.JoinHostPort(host, "0"))
	if err != nil {
		return fmt.Errorf("emulator: token host: %w", err)
	}
	ln, err := net.Listen("tcp", bind)
	if err != nil {
		return fmt.Errorf("emulator: listen on %s for the token endpoint: %w", bind, err)
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 30 * time.Second}
	scheme := "http"
	if s.Opts.KeyType.certificates() {
		ips := []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback}
		if ip := net.ParseIP(host); ip != nil {
			ips = append(ips, ip)
		}
		server, err := s.ca.issue("localhost", true, ips)
		if err != nil {
			_ = ln.Close()
			return err
		}
		srv.TLSConfig = &tls.Config{
			MinVersion:   tls.VersionTLS12,
			Certificates: []tls.Certificate{server.pair},
			// A client certificate is verified when one is presented; whether
			// the client needs one is decided per client by handleToken.
			ClientAuth: tls.VerifyClientCertIfGiven,
			ClientCAs:  s.ca.Pool(),
		}
		ln = tls.NewListener(ln, srv.TLSConfig)
		scheme = "https"
	}
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	s.srv = srv
	s.url = scheme + "://" + ln.Addr().String() + TokenPath
	s.served = make(chan struct{})
	go func(done chan struct{}) {
		defer close(done)
		_ = srv.Serve(ln)
	}(s.served)
	return nil
}

// Listener returns the token listener's server and the channel closed when it
// stops serving, or nil when the token endpoint shares the API's listener.
func (s *TokenService) Listener() (*http.Server, chan struct{}) {
	s.lnMu.Lock()
	defer s.lnMu.Unlock()
	return s.srv, s.served
}

// EnsureCertificates issues a client certificate for every OAuth client
// when the keys are certificate keys. The CA is made at start, so the
// certificates are too; they are not kept in the state file.
func (s *TokenService) EnsureCertificates() error {
	if !s.Opts.KeyType.certificates() {
		return nil
	}
	if s.ca == nil {
		ca, err := NewCA()
		if err != nil {
			return err
		}
		s.ca = ca
	}
	for _, c := range s.Clients {
		if c.cert != nil {
			continue
		}
		is, err := s.ca.issue(c.ID, false, nil)
		if err != nil {
			return err
		}
		c.cert = &is
	}
	return nil
}

// CA returns the certificate authority of the HTTPS token endpoint, or nil
// when the keys are secret keys.
func (s *TokenService) CA() *CA { return s.ca }

// TokenURL returns the token endpoint the service keys name.
func (s *TokenService) TokenURL() string {
	s.lnMu.Lock()
	u := s.url
	s.lnMu.Unlock()
	if u != "" {
		return u
	}
	return s.apiURL() + TokenPath
}

// matchCertificateClient returns the audience of the client id whose
// certificate the TLS peer presented.
func (s *TokenService) matchCertificateClient(id string, peer *x509.Certificate) (string, bool) {
	for aud, c := range s.Clients {
		if c.cert != nil && c.ID == id && bytes.Equal(c.cert.leaf.Raw, peer.Raw) {
			return aud, true
		}
	}
	return "", false
}
