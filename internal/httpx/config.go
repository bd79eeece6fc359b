// Package httpx is the HTTP layer shared by the SAP API clients of the provider.
//
// It authenticates with OAuth2 client credentials (or HTTP Basic authentication
// for the SEMP v2 API of a Solace broker), retries transient failures
// with bounded exponential backoff, repeats a request whose token was refused
// with the current or a new token, fetches a CSRF token when a write asks for
// one, caps the response bodies it reads, and logs every attempt through tflog
// without ever logging credentials or tokens.
package httpx

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults applied by New to the zero values of Config. They are written here only: the
// provider leaves the fields it is not given at zero and builds the defaults in its schema
// descriptions from these constants.
const (
	DefaultMaxRetries     = 5
	DefaultRequestTimeout = 60 * time.Second
	DefaultRetryWaitMin   = 500 * time.Millisecond
	DefaultRetryWaitMax   = 30 * time.Second
)

// Response body caps: a body larger than the cap fails the attempt unread beyond it, so that a
// broken or hostile server cannot make the provider hold more (see DESIGN.md, "Response body
// caps").
const (
	// maxQueueObjectBytes is a generous bound of one queue in a GET /queues answer of the Event
	// Mesh management API: its 14 documented fields (the longest key, maxDeliveredUnackedMsgsPerFlow,
	// has 30 characters; a number at most 20 digits) take at most 14 × 54 = 756 bytes, its name and
	// dead message queue (at most 164 characters each, create-a-queue-95357fa.md) at most 2 × 330
	// bytes even with every character escaped; 4 KiB leaves room for about 2.6 KiB of fields SAP
	// may add and for indentation.
	maxQueueObjectBytes = 4 << 10
	// maxQueuesPerInstance is the documented number of queues of an Event Mesh instance (the
	// reference notes on the Event Mesh management API, section 1).
	maxQueuesPerInstance = 250
	// responseMargin multiplies the largest answer SAP can give, for what the documentation does
	// not say (an instance with a raised quota, a larger object).
	responseMargin = 16

	// DefaultMaxResponseBytes is the cap of Config.MaxResponseBytes: the largest answer of the
	// Event Mesh APIs, a GET /queues of a full instance (250 × 4 KiB = 1000 KiB), with the margin
	// of 16: 16000 KiB, rounded up to 16 MiB. The other answers are smaller: a queue's
	// subscriptions (at most 3000 per instance, about 400 bytes each: 1.2 MB), a consumed message
	// (maxMessageSizeInBytes, at most 1 MB on the Integration Suite capability, 10 MB seen on the
	// default plan), a token.
	DefaultMaxResponseBytes = 16 << 20
	// ArtifactMaxResponseBytes is the cap for the Cloud Integration API, whose largest answer is
	// an integration flow archive (GET IntegrationDesigntimeArtifacts(...)/$value): its size is
	// bounded only by the tenant's content limit, so the cap stays where it was.
	ArtifactMaxResponseBytes = 256 << 20
)

// Config configures a Client.
type Config struct {
	// BaseURL is prefixed to every request path. It must use https unless its
	// host is a loopback address (127.0.0.0/8, ::1 or localhost).
	BaseURL string

	// TokenURL, ClientID and ClientSecret are the OAuth2 client credentials.
	// All three empty means requests are sent without an Authorization header.
	TokenURL     string
	ClientID     string
	ClientSecret string

	// ClientCertificate and ClientKey (PEM) authenticate the client at the
	// token endpoint with mutual TLS instead of a client secret: the token
	// request presents the certificate and sends grant_type and client_id in
	// the form, without a Basic header. Set them together with TokenURL and
	// ClientID, and leave ClientSecret empty. The key is never logged.
	ClientCertificate string
	ClientKey         string

	// Username and Password authenticate every request with HTTP Basic
	// authentication (RFC 7617) instead of OAuth2, as SEMP v2 of a Solace
	// broker asks. Set both, and none of the OAuth2 credentials. The password
	// is masked in the logs and scrubbed from errors.
	Username string
	Password string

	// MaxRetries is the number of retries after the first attempt. Zero means
	// DefaultMaxRetries; a negative value disables retries. SetRetries sets it
	// from a count in which 0 means no retries.
	MaxRetries int

	// RequestTimeout bounds each attempt, including reading the response body.
	// Zero means DefaultRequestTimeout.
	RequestTimeout time.Duration

	// RetryWaitMin and RetryWaitMax bound the backoff between attempts and cap
	// the wait a Retry-After header can ask for. Zero means the defaults.
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration

	// MaxResponseBytes caps the body of a response; a larger one fails the attempt. Zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64

	// UserAgent is sent as the User-Agent header when not empty.
	UserAgent string

	// CSRFFetchPath, when set, enables CSRF handling: a write answered with 403
	// and "X-CSRF-Token: Required" fetches a token with a GET of this path and
	// the header "X-CSRF-Token: Fetch", then is sent once more with the token.
	CSRFFetchPath string

	// Transport replaces the default HTTP transport. A transport that skips TLS
	// verification is refused.
	Transport http.RoundTripper

	// LogsOff skips the log line of each attempt and the masking of secrets in
	// the log context of each request. Set it only when the provider's logs are
	// switched off for the process (provider.SilenceUnwantedLogs did so): tflog
	// then discards every line, after building, masking and sorting its fields.
	LogsOff bool
}

// CheckURL reports whether raw is acceptable as a base or token URL: an
// absolute https URL, or a plain http URL whose host is a loopback address.
func CheckURL(raw string) error {
	if strings.TrimSpace(raw) == "" {
		return errors.New("the URL is empty; set an absolute https:// URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("the URL is not valid (%v); set an absolute https:// URL", err)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		if u.Host == "" {
			return fmt.Errorf("the URL %s has no host; set an absolute https:// URL", u.Redacted())
		}
		return nil
	case "http":
		if u.Host == "" {
			return fmt.Errorf("the URL %s has no host; set an absolute https:// URL", u.Redacted())
		}
		if IsLoopbackHost(u.Hostname()) {
			return nil
		}
		s := *u
		s.Scheme = "https"
		s.User = nil
		return fmt.Errorf("the URL %s uses plain http, which would send credentials unencrypted: "+
			"plain http is only allowed for loopback hosts (127.0.0.0/8, ::1, localhost); use %s instead",
			u.Redacted(), s.String())
	default:
		return fmt.Errorf("the URL %s is not an http(s) URL; set an absolute https:// URL", u.Redacted())
	}
}

// IsLoopbackHost reports whether host (without port) is localhost or a
// loopback IP address.
func IsLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// SetRetries sets the number of retries after the first attempt to n; 0 means none.
func (cfg *Config) SetRetries(n int) {
	if n == 0 {
		n = -1 // Zero in MaxRetries means the default.
	}
	cfg.MaxRetries = n
}

func (cfg Config) withDefaults() Config {
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = DefaultRequestTimeout
	}
	if cfg.RetryWaitMin <= 0 {
		cfg.RetryWaitMin = DefaultRetryWaitMin
	}
	if cfg.RetryWaitMax <= 0 {
		cfg.RetryWaitMax = DefaultRetryWaitMax
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		cfg.RetryWaitMax = cfg.RetryWaitMin
	}
	if cfg.MaxResponseBytes <= 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	return cfg
}

func (cfg Config) validate() error {
	if err := CheckURL(cfg.BaseURL); err != nil {
		return fmt.Errorf("base URL: %w", err)
	}
	if u, _ := url.Parse(cfg.BaseURL); u.RawQuery != "" || u.Fragment != "" {
		return errors.New("base URL: the URL has a query or fragment; set the URL without them")
	}
	if cfg.Username != "" || cfg.Password != "" {
		return cfg.validateBasic()
	}
	if cfg.ClientCertificate != "" || cfg.ClientKey != "" {
		return cfg.validateCertificate()
	}
	creds := map[string]string{"token URL": cfg.TokenURL, "client ID": cfg.ClientID, "client secret": cfg.ClientSecret}
	set := 0
	for _, v := range creds {
		if v != "" {
			set++
		}
	}
	if set != 0 && set != len(creds) {
		for _, name := range []string{"token URL", "client ID", "client secret"} {
			if creds[name] == "" {
				return fmt.Errorf("the OAuth2 %s is empty; set the token URL, client ID and client secret together", name)
			}
		}
	}
	if cfg.TokenURL != "" {
		if err := CheckURL(cfg.TokenURL); err != nil {
			return fmt.Errorf("token URL: %w", err)
		}
	}
	return cfg.validateRest()
}

// validateBasic checks the credentials of HTTP Basic authentication.
func (cfg Config) validateBasic() error {
	switch {
	case cfg.Username == "":
		return errors.New("the username is empty; set the username together with the password")
	case cfg.Password == "":
		return errors.New("the password is empty; set the password together with the username")
	case strings.Contains(cfg.Username, ":"):
		return errors.New("the username contains a colon, which HTTP Basic authentication cannot carry; set the management user's name as the service shows it")
	case cfg.TokenURL != "" || cfg.ClientID != "" || cfg.ClientSecret != "" || cfg.ClientCertificate != "" || cfg.ClientKey != "":
		return errors.New("both a username and password and OAuth2 credentials are set; set one of them")
	}
	return cfg.validateRest()
}

// validateCertificate checks the credentials of a client certificate.
func (cfg Config) validateCertificate() error {
	switch {
	case cfg.ClientCertificate == "":
		return errors.New("the client certificate is empty; set the certificate together with its private key")
	case cfg.ClientKey == "":
		return errors.New("the private key of the client certificate is empty; set the certificate together with its private key")
	case cfg.ClientSecret != "":
		return errors.New("both a client secret and a client certificate are set; set one of them")
	case cfg.TokenURL == "" || cfg.ClientID == "":
		return errors.New("a client certificate needs the OAuth2 token URL and client ID too; set them together")
	}
	if err := CheckURL(cfg.TokenURL); err != nil {
		return fmt.Errorf("token URL: %w", err)
	}
	if u, _ := url.Parse(cfg.TokenURL); !strings.EqualFold(u.Scheme, "https") {
		return fmt.Errorf("token URL: %s uses plain http, which cannot present a client certificate; use the https token URL of the service key", u.Redacted())
	}
	if _, err := cfg.clientCertificate(); err != nil {
		return err
	}
	if cfg.Transport != nil {
		if _, ok := cfg.Transport.(*http.Transport); !ok {
			return errors.New("a client certificate needs an *http.Transport to present it; use one or leave Transport unset")
		}
	}
	return cfg.validateRest()
}

// clientCertificate parses the client certificate and its key. The error
// never quotes either.
func (cfg Config) clientCertificate() (tls.Certificate, error) {
	pair, err := tls.X509KeyPair([]byte(cfg.ClientCertificate), []byte(cfg.ClientKey))
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("the client certificate and private key cannot be used (%s); "+
			"set the certificate and key of the service key as PEM text, the key belonging to the certificate", strings.TrimPrefix(err.Error(), "tls: "))
	}
	return pair, nil
}

func (cfg Config) validateRest() error {
	if t, ok := cfg.Transport.(*http.Transport); ok && t.TLSClientConfig != nil && t.TLSClientConfig.InsecureSkipVerify {
		return errors.New("the HTTP transport skips TLS certificate verification, which is never allowed; use a transport that verifies certificates")
	}
	if cfg.CSRFFetchPath != "" && !strings.HasPrefix(cfg.CSRFFetchPath, "/") {
		return errors.New("the CSRF fetch path must start with \"/\"")
	}
	return nil
}
