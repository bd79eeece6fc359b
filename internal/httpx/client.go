package httpx

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Client sends requests to one SAP API. It is safe for concurrent use.
type Client struct {
	cfg     Config
	baseURL string
	rc      *retryablehttp.Client
	tokens  *tokenCache

	csrfMu    sync.Mutex
	csrfToken string

	requests      atomic.Int64
	retries       atomic.Int64
	tokenFetches  atomic.Int64
	tokenRequests atomic.Int64
}

// Response is a complete HTTP response; the body has been read and closed.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	// EarlierAttemptMayHaveApplied is set when an attempt of the same call before the one
	// answered here was sent and got no answer that proves it was not carried out (it got no
	// answer, or a 5xx): the service may have carried the request out before this answer. A PUT
	// that creates whatever is missing then answers "updated" to its own earlier attempt.
	EarlierAttemptMayHaveApplied bool
}

// Stats counts what a Client has sent since it was created.
type Stats struct {
	// Requests counts every attempt sent to the API, including retries,
	// repeats after a token refresh or CSRF fetch, and CSRF token fetches.
	Requests int64
	// Retries counts the attempts that repeated an earlier attempt of the same
	// call, at the API or at the token endpoint.
	Retries int64
	// TokenFetches counts the OAuth2 tokens requested (not served from cache).
	TokenFetches int64
	// TokenRequests counts every attempt sent to the token endpoint.
	TokenRequests int64
}

// New validates cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	base := cfg.Transport
	if base == nil {
		base = defaultTransport()
	}
	jar, err := cookiejar.New(nil)
	if err != nil {
		return nil, err
	}
	c := &Client{cfg: cfg, baseURL: strings.TrimRight(cfg.BaseURL, "/")}
	c.rc = c.newRetryClient(&http.Client{
		Transport:     &attemptTransport{base: base, timeout: cfg.RequestTimeout, requests: &c.requests, retries: &c.retries, what: "SAP API request", logsOff: cfg.LogsOff, maxBody: cfg.MaxResponseBytes},
		Jar:           jar,
		CheckRedirect: noRedirects,
	})
	if cfg.TokenURL != "" {
		tokenBase := base
		if cfg.ClientCertificate != "" {
			if tokenBase, err = certificateTransport(cfg, base); err != nil {
				return nil, err
			}
		}
		tokenRC := c.newRetryClient(&http.Client{
			Transport:     &attemptTransport{base: tokenBase, timeout: cfg.RequestTimeout, requests: &c.tokenRequests, retries: &c.retries, what: "OAuth2 token request", logsOff: cfg.LogsOff, maxBody: cfg.MaxResponseBytes},
			CheckRedirect: noRedirects,
		})
		c.tokens = newTokenCache(c, tokenRC.StandardClient())
	}
	return c, nil
}

func (c *Client) newRetryClient(hc *http.Client) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient:   hc,
		Logger:       nil,
		RetryWaitMin: c.cfg.RetryWaitMin,
		RetryWaitMax: c.cfg.RetryWaitMax,
		RetryMax:     c.cfg.MaxRetries,
		CheckRetry:   CheckRetry,
		Backoff:      Backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
}

// defaultTransport is a pooled transport that honours proxy settings and
// verifies TLS certificates.
func defaultTransport() *http.Transport {
	var t *http.Transport
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second}
	}
	t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	// One host takes all requests, up to terraform -parallelism at a time: with the default of 2
	// idle connections per host, a connection that finishes while more than 2 are idle is closed
	// and the next request dials again (a TCP connection, and a TLS handshake on https).
	t.MaxIdleConnsPerHost = maxIdleConnsPerHost
	return t
}

// maxIdleConnsPerHost is the number of idle connections kept per host, above the parallelism
// Terraform is usually run with.
const maxIdleConnsPerHost = 32

// certificateTransport returns a copy of base that presents the client
// certificate of cfg in the TLS handshake (mutual TLS at the token endpoint).
func certificateTransport(cfg Config, base http.RoundTripper) (http.RoundTripper, error) {
	pair, err := cfg.clientCertificate()
	if err != nil {
		return nil, err
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return nil, errors.New("a client certificate needs an *http.Transport to present it")
	}
	t = t.Clone()
	if t.TLSClientConfig == nil {
		t.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	} else {
		t.TLSClientConfig = t.TLSClientConfig.Clone()
	}
	t.TLSClientConfig.Certificates = []tls.Certificate{pair}
	return t, nil
}

func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// BaseURL returns the base URL requests are sent to, without a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

// Stats returns the counters of the requests sent so far.
func (c *Client) Stats() Stats {
	return Stats{
		Requests:      c.requests.Load(),
		Retries:       c.retries.Load(),
		TokenFetches:  c.tokenFetches.Load(),
		TokenRequests: c.tokenRequests.Load(),
	}
}

// maxUnauthorizedRetries bounds how often one call repeats a request refused with 401.
const maxUnauthorizedRetries = 3

// Do sends method to BaseURL+path; path is already escaped and may carry a
// query. Every non-2xx answer comes back as a Response, not as an error; the
// error is for transport failures after all retries and for token failures.
// A 401 answer to a token that another call has replaced meanwhile is repeated
// with the current token; a 401 to the current token drops it and is retried
// with a new token, once, or again while the API has accepted this client's
// tokens before; at most maxUnauthorizedRetries times per call.
func (c *Client) Do(ctx context.Context, method, path string, body []byte, header http.Header) (*Response, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if !c.cfg.LogsOff {
		for _, secret := range []string{c.cfg.ClientSecret, c.cfg.ClientKey, c.cfg.Password} {
			if secret != "" {
				ctx = tflog.MaskLogStrings(ctx, secret)
			}
		}
	}
	st := &callState{atMostOnce: ctx.Value(atMostOnceKey{}) != nil}
	ctx = context.WithValue(ctx, callKey{}, st)
	csrf := c.cfg.CSRFFetchPath != "" && isWrite(method)
	fetched, csrfRetried, unauthorized := 0, false, 0
	for {
		tok, gen, err := c.bearer(ctx)
		if err != nil {
			return nil, err
		}
		var csrfToken string
		if csrf {
			csrfToken = c.currentCSRF()
		}
		resp, err := c.send(ctx, st, method, path, body, header, tok, csrfToken)
		if err != nil {
			return nil, err
		}
		if c.tokens != nil && resp.StatusCode != http.StatusUnauthorized {
			c.tokens.accepted.Store(true)
		}
		if resp.StatusCode == http.StatusUnauthorized && c.tokens != nil && unauthorized < maxUnauthorizedRetries {
			// A token that another call replaced meanwhile (it got a 401 with it too and fetched a
			// new one) was refused for being old: repeat with the current one, without a fetch of
			// this call's own. A refused token that is still the current one is dropped and a new
			// one fetched: once per call, or again when the API has accepted this client's tokens
			// before (the credentials work, so the token expired). A new token refused by an API
			// that never accepted one is the answer.
			if c.tokens.replaced(gen, tok) {
				unauthorized++
				if !c.cfg.LogsOff {
					tflog.Debug(ctx, "SAP API answered 401 Unauthorized to a token replaced meanwhile; retrying with the current token", map[string]any{"method": method, "path": logPath(path)})
				}
				continue
			}
			if fetched == 0 || c.tokens.accepted.Load() {
				unauthorized++
				fetched++
				if !c.cfg.LogsOff {
					tflog.Debug(ctx, "SAP API answered 401 Unauthorized; fetching a new OAuth2 token and retrying", map[string]any{"method": method, "path": logPath(path)})
				}
				c.tokens.invalidate(gen)
				continue
			}
		}
		if csrf && !csrfRetried && resp.StatusCode == http.StatusForbidden &&
			strings.EqualFold(strings.TrimSpace(resp.Header.Get("X-CSRF-Token")), "Required") {
			csrfRetried = true
			tflog.Debug(ctx, "SAP API requires a CSRF token; fetching one and retrying once", map[string]any{"method": method, "path": logPath(path)})
			if err := c.fetchCSRF(ctx, csrfToken); err != nil {
				return nil, err
			}
			continue
		}
		return resp, nil
	}
}

func (c *Client) bearer(ctx context.Context) (string, uint64, error) {
	if c.tokens == nil {
		return "", 0, nil
	}
	tok, gen, err := c.tokens.get(ctx)
	if err != nil {
		return "", 0, err
	}
	return tok, gen, nil
}

func (c *Client) send(ctx context.Context, st *callState, method, path string, body []byte, header http.Header, tok, csrfToken string) (*Response, error) {
	var raw any
	if body != nil {
		raw = body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, method, c.baseURL+path, raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("%s %s: %w", method, logPath(path), err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	if c.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.UserAgent)
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if len(body) > 0 && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	} else if c.cfg.Username != "" {
		req.SetBasicAuth(c.cfg.Username, c.cfg.Password)
	}
	if csrfToken != "" {
		req.Header.Set("X-CSRF-Token", csrfToken)
	}
	res, err := c.rc.Do(req)
	if err != nil {
		if res != nil {
			_ = res.Body.Close()
		}
		return nil, c.requestError(ctx, st, method, path, err)
	}
	defer func() { _ = res.Body.Close() }()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		st.sent.Store(true)
		return nil, c.requestError(ctx, st, method, path, err)
	}
	unsettled := st.unsettled.Load()
	if !settles(res, nil) {
		unsettled-- // the answered attempt is not an earlier one
	}
	return &Response{StatusCode: res.StatusCode, Header: res.Header, Body: data, EarlierAttemptMayHaveApplied: unsettled > 0}, nil
}

// RequestError is a transport failure of a request after all its attempts.
type RequestError struct {
	Method   string
	Path     string
	Attempts int
	Err      error
	// MaybeSent is set when at least one attempt wrote the request on a
	// connection: the service may have carried it out even though no answer
	// arrived. It is false when every attempt failed before sending anything
	// (connection refused, name lookup or TLS handshake failed, the context
	// was cancelled first).
	MaybeSent bool
	msg       string
}

// MaybeSent reports whether err is a failed request that may still have
// reached the service: a *RequestError with MaybeSent set.
func MaybeSent(err error) bool {
	var re *RequestError
	return errors.As(err, &re) && re.MaybeSent
}

// Error returns the method, path, attempt count and last cause.
func (e *RequestError) Error() string { return e.msg }

// Unwrap returns the last cause.
func (e *RequestError) Unwrap() error { return e.Err }

func (c *Client) requestError(ctx context.Context, st *callState, method, path string, err error) error {
	attempts := int(st.attempts.Load())
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if ctxErr := ctx.Err(); ctxErr != nil && !errors.Is(err, ctxErr) {
		err = ctxErr
	}
	p := logPath(path)
	var msg string
	switch {
	case ctx.Err() != nil:
		msg = fmt.Sprintf("%s %s: request abandoned after %d attempt(s): %v", method, p, attempts, err)
	case attempts > 1:
		msg = fmt.Sprintf("%s %s: giving up after %d attempts, last error: %v", method, p, attempts, err)
	default:
		msg = fmt.Sprintf("%s %s: %v", method, p, err)
	}
	return &RequestError{Method: method, Path: p, Attempts: attempts, Err: err, MaybeSent: st.sent.Load(), msg: c.scrub(msg)}
}

// scrub removes the client secret and the cached access token from s.
func (c *Client) scrub(s string) string {
	for _, secret := range []string{c.cfg.ClientSecret, c.cfg.ClientKey, c.cfg.Password} {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "***")
		}
	}
	if c.tokens != nil {
		if t := c.tokens.current(); t != "" {
			s = strings.ReplaceAll(s, t, "***")
		}
	}
	return s
}

func (c *Client) currentCSRF() string {
	c.csrfMu.Lock()
	defer c.csrfMu.Unlock()
	return c.csrfToken
}

// fetchCSRF fetches a new CSRF token unless another call already replaced
// the stale one.
func (c *Client) fetchCSRF(ctx context.Context, stale string) error {
	c.csrfMu.Lock()
	defer c.csrfMu.Unlock()
	if c.csrfToken != "" && c.csrfToken != stale {
		return nil
	}
	tok, _, err := c.bearer(ctx)
	if err != nil {
		return err
	}
	st := &callState{}
	fctx := context.WithValue(ctx, callKey{}, st)
	resp, err := c.send(fctx, st, http.MethodGet, c.cfg.CSRFFetchPath, nil, http.Header{"X-CSRF-Token": {"Fetch"}}, tok, "")
	if err != nil {
		return fmt.Errorf("fetching a CSRF token: %w", err)
	}
	t := strings.TrimSpace(resp.Header.Get("X-CSRF-Token"))
	if t == "" || strings.EqualFold(t, "Required") || strings.EqualFold(t, "Fetch") {
		return fmt.Errorf("the API asked for a CSRF token, but GET %s answered %s without one; check that the service key grants access to %s",
			c.cfg.CSRFFetchPath, statusText(resp.StatusCode), c.cfg.CSRFFetchPath)
	}
	c.csrfToken = t
	return nil
}

func isWrite(method string) bool {
	switch strings.ToUpper(method) {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// logPath returns path without its query, which may carry values that must
// not be logged.
func logPath(path string) string {
	if i := strings.IndexAny(path, "?#"); i >= 0 {
		return path[:i]
	}
	return path
}

func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return fmt.Sprintf("%d %s", code, t)
	}
	return fmt.Sprintf("%d", code)
}

// CheckCredentials proves the client's credentials with a token request, as a caller-identity
// check does, without calling the API: it returns nil when the token endpoint issues a token
// (kept for the requests that follow, so a run that goes on to call the API sends no extra
// token request), and the *TokenError of the refusal otherwise. A client without a token URL has
// no credentials to prove.
func (c *Client) CheckCredentials(ctx context.Context) error {
	_, _, err := c.bearer(ctx)
	return err
}
