package httpx

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestDoSendsAuthUserAgentAndBody(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"name":"q"}`)
	})
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodPut, "/queues/a%2Fb?x=1", []byte(`{"maxTtl":5}`), http.Header{"X-Extra": {"yes"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusCreated || string(resp.Body) != `{"name":"q"}` {
		t.Fatalf("got %d %q", resp.StatusCode, resp.Body)
	}
	reqs := ts.recorded()
	if len(reqs) != 1 {
		t.Fatalf("API requests = %d, want 1", len(reqs))
	}
	r := reqs[0]
	checks := map[string][2]string{
		"raw path":      {r.RawPath, "/base/queues/a%2Fb"},
		"query":         {r.Query, "x=1"},
		"authorization": {r.Header.Get("Authorization"), "Bearer tok-1"},
		"user agent":    {r.Header.Get("User-Agent"), "terraform-provider-sapmessaging/test"},
		"content type":  {r.Header.Get("Content-Type"), "application/json"},
		"accept":        {r.Header.Get("Accept"), "application/json"},
		"extra header":  {r.Header.Get("X-Extra"), "yes"},
		"body":          {string(r.Body), `{"maxTtl":5}`},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %q, want %q", name, c[0], c[1])
		}
	}
	if got := ts.tokenAuth[0]; !strings.HasPrefix(got, "Basic ") {
		t.Errorf("token request authorization = %q, want HTTP Basic", got)
	}
}

func TestNoCredentialsSendsNoAuthorization(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	c := ts.client(func(cfg *Config) { cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = "", "", "" })
	if _, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil); err != nil {
		t.Fatal(err)
	}
	if h := ts.recorded()[0].Header.Get("Authorization"); h != "" {
		t.Errorf("Authorization = %q, want none", h)
	}
	if ts.tokenCalls.Load() != 0 {
		t.Errorf("token calls = %d, want 0", ts.tokenCalls.Load())
	}
}

func TestRetryOn5xx(t *testing.T) {
	t.Parallel()
	codes := []int{500, 502, 503}
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n <= len(codes) {
			status(codes[n-1], "busy")(w)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || string(resp.Body) != "ok" {
		t.Fatalf("got %d %q", resp.StatusCode, resp.Body)
	}
	st := c.Stats()
	if st.Requests != 4 || st.Retries != 3 || st.TokenFetches != 1 || st.TokenRequests != 1 {
		t.Errorf("stats = %+v, want 4 requests, 3 retries, 1 token fetch", st)
	}
}

func TestRetriesExhaustedReturnLastResponse(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		status(503, `{"message":"attempt `+string(rune('0'+n))+`"}`)(w)
	})
	c := ts.client(func(cfg *Config) { cfg.MaxRetries = 2 })
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 503 || !strings.Contains(string(resp.Body), "attempt 3") {
		t.Fatalf("got %d %q, want the third 503", resp.StatusCode, resp.Body)
	}
	expectCount(t, "API calls", ts.apiCalls.Load(), 3)
}

func TestNoRetryOnClientErrorsAnd501(t *testing.T) {
	t.Parallel()
	for _, code := range []int{400, 403, 404, 409, 422, 501} {
		ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) { status(code, "no")(w) })
		c := ts.client()
		resp, err := c.Do(t.Context(), http.MethodPost, "/x", []byte("{}"), nil)
		if err != nil {
			t.Fatalf("%d: %v", code, err)
		}
		if resp.StatusCode != code {
			t.Errorf("status = %d, want %d", resp.StatusCode, code)
		}
		if got := ts.apiCalls.Load(); got != 1 {
			t.Errorf("%d: API calls = %d, want 1", code, got)
		}
		if st := c.Stats(); st.Retries != 0 {
			t.Errorf("%d: retries = %d, want 0", code, st.Retries)
		}
	}
}

func TestRetry429HonoursRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, failFirst(func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "1")
		status(429, "slow down")(w)
	}, status(http.StatusOK, "ok")))
	c := ts.client(func(cfg *Config) { cfg.RetryWaitMax = 5 * time.Second })
	start := time.Now()
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d", resp.StatusCode)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("retried after %s, want the 1s of Retry-After", d)
	}
	expectCount(t, "API calls", ts.apiCalls.Load(), 2)
}

func TestRetry429RetryAfterCappedByRetryWaitMax(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, failFirst(func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))
		status(429, "slow down")(w)
	}, status(http.StatusOK, "ok")))
	c := ts.client(func(cfg *Config) { cfg.RetryWaitMax = 20 * time.Millisecond })
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	resp, err := c.Do(ctx, http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 || ts.apiCalls.Load() != 2 {
		t.Fatalf("status %d after %d calls, want 200 after 2", resp.StatusCode, ts.apiCalls.Load())
	}
}

func TestRetryDroppedConnection(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	ts.api = func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 1:
			dropConnection(t, w)
		case 2:
			// Headers promise more body than is sent before the connection closes.
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(200)
			_, _ = io.WriteString(w, "partial")
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			dropConnection(t, w)
		default:
			_, _ = io.WriteString(w, "complete")
		}
	}
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodPost, "/x", []byte("payload"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "complete" {
		t.Fatalf("body = %q, want complete", resp.Body)
	}
	for i, r := range ts.recorded() {
		if string(r.Body) != "payload" {
			t.Errorf("attempt %d body = %q, want the replayed payload", i+1, r.Body)
		}
	}
	if st := c.Stats(); st.Requests != 3 || st.Retries != 2 {
		t.Errorf("stats = %+v, want 3 requests and 2 retries", st)
	}
}

func TestRetriesExhaustedOnTransportError(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	ts.api = func(n int, w http.ResponseWriter, r *http.Request) { dropConnection(t, w) }
	c := ts.client(func(cfg *Config) { cfg.MaxRetries = 2 })
	_, err := c.Do(t.Context(), http.MethodPost, "/queues/x?secret=hidden", []byte("{}"), nil)
	if err == nil {
		t.Fatal("want an error")
	}
	var re *RequestError
	if !errors.As(err, &re) || re.Attempts != 3 {
		t.Fatalf("error %v (%T), want a RequestError after 3 attempts", err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "giving up after 3 attempts") || !strings.Contains(msg, "POST /queues/x") {
		t.Errorf("error = %q, want method, path and attempt count", msg)
	}
	if !strings.Contains(msg, "EOF") && !strings.Contains(msg, "reset") {
		t.Errorf("error = %q, want the last cause", msg)
	}
	assertNoSecrets(t, "error", msg, "tok-1", "hidden")
	expectCount(t, "API calls", ts.apiCalls.Load(), 3)
}

func TestRetrySlowResponsePastRequestTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		_, _ = io.WriteString(w, "fast")
	})
	c := ts.client(func(cfg *Config) { cfg.RequestTimeout = 100 * time.Millisecond })
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if string(resp.Body) != "fast" || ts.apiCalls.Load() != 2 {
		t.Fatalf("body %q after %d calls, want fast after 2", resp.Body, ts.apiCalls.Load())
	}
}

func TestSlowResponseExhaustedSaysTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	c := ts.client(func(cfg *Config) { cfg.RequestTimeout = 50 * time.Millisecond; cfg.MaxRetries = 1 })
	_, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	var te *AttemptTimeoutError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "giving up after 2 attempts") {
		t.Fatalf("error = %v, want a timeout after 2 attempts", err)
	}
}

func TestNoRetryWhenContextCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		cancel()
		status(503, "busy")(w)
	})
	c := ts.client()
	_, err := c.Do(ctx, http.MethodGet, "/x", nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
	expectCount(t, "API calls", ts.apiCalls.Load(), 1)
}

func TestUnauthorizedRefreshesTokenOnce(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer tok-1" {
			status(401, "expired")(w)
			return
		}
		_, _ = io.WriteString(w, "ok")
	})
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodPut, "/x", []byte("b"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("status = %d, want 200 after the refresh", resp.StatusCode)
	}
	if got := ts.recorded()[1].Header.Get("Authorization"); got != "Bearer tok-2" {
		t.Errorf("retry authorization = %q, want the new token", got)
	}
	// The new token is cached for later calls.
	if _, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.TokenFetches != 2 || st.Requests != 3 {
		t.Errorf("stats = %+v, want 2 token fetches and 3 requests", st)
	}
}

func TestSecondUnauthorizedIsReturned(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) { status(401, "denied")(w) })
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 401 {
		t.Fatalf("status = %d, want 401", resp.StatusCode)
	}
	expectCount(t, "API calls (one retry)", ts.apiCalls.Load(), 2)
	expectCount(t, "token calls", ts.tokenCalls.Load(), 2)
}

func TestTokenCachedAcrossCalls(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	c := ts.client()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	expectCount(t, "token calls", ts.tokenCalls.Load(), 1)
	if st := c.Stats(); st.Requests != 8 || st.TokenFetches != 1 {
		t.Errorf("stats = %+v", st)
	}
}

func TestTokenEndpointRetried(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	ts.token = func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 1:
			w.Header().Set("Retry-After", "0")
			status(429, "slow down")(w)
		case 2:
			status(502, "bad gateway")(w)
		default:
			body, _ := io.ReadAll(r.Body)
			issueToken(w, r, body, "tok-ok")
		}
	}
	c := ts.client()
	if _, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil); err != nil {
		t.Fatal(err)
	}
	if got := ts.recorded()[0].Header.Get("Authorization"); got != "Bearer tok-ok" {
		t.Errorf("authorization = %q", got)
	}
	if st := c.Stats(); st.TokenFetches != 1 || st.TokenRequests != 3 {
		t.Errorf("stats = %+v, want 1 token fetch over 3 token requests", st)
	}
}

func TestTokenErrorHasNoSecrets(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	ts.token = func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		status(401, `{"error":"unauthorized","error_description":"Bad credentials `+testClientSecret+`"}`)(w)
	}
	c := ts.client()
	_, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	var te *TokenError
	if !errors.As(err, &te) || te.StatusCode != 401 {
		t.Fatalf("error = %v, want a TokenError with 401", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "401 Unauthorized") || !strings.Contains(msg, "client secret") {
		t.Errorf("error = %q, want the status and a hint", msg)
	}
	assertNoSecrets(t, "error", msg)
	if ts.apiCalls.Load() != 0 {
		t.Errorf("the API was called without a token")
	}
	expectCount(t, "token calls (401 is not retried)", ts.tokenCalls.Load(), 1)
}

func TestTokenEndpointExhausted(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	ts.token = func(n int, w http.ResponseWriter, r *http.Request) { dropConnection(t, w) }
	c := ts.client(func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "after 2 attempts") || !strings.Contains(err.Error(), "/oauth/token") {
		t.Fatalf("error = %v, want the token URL and 2 attempts", err)
	}
	assertNoSecrets(t, "error", err.Error())
}

func TestCSRFFetchAndRetryOnce(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	fetches := 0
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/base/api/v1/" {
			if r.Header.Get("X-CSRF-Token") != "Fetch" {
				t.Errorf("CSRF fetch header = %q", r.Header.Get("X-CSRF-Token"))
			}
			mu.Lock()
			fetches++
			mu.Unlock()
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s1", Path: "/"})
			w.Header().Set("X-CSRF-Token", "csrf-abc")
			return
		}
		cookie, _ := r.Cookie("session")
		if r.Header.Get("X-CSRF-Token") != "csrf-abc" || cookie == nil || cookie.Value != "s1" {
			w.Header().Set("X-CSRF-Token", "Required")
			status(403, "CSRF token validation failed")(w)
			return
		}
		w.WriteHeader(http.StatusCreated)
	})
	c := ts.client(func(cfg *Config) { cfg.CSRFFetchPath = "/api/v1/" })
	for i := range 2 {
		resp, err := c.Do(t.Context(), http.MethodPost, "/api/v1/Thing", []byte("{}"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("call %d: status = %d, want 201", i+1, resp.StatusCode)
		}
	}
	if fetches != 1 {
		t.Errorf("CSRF fetches = %d, want 1 (token cached)", fetches)
	}
	// POST (403), GET fetch, POST (201), POST with cached token (201).
	expectCount(t, "API calls", ts.apiCalls.Load(), 4)
	// Reads never carry or fetch a CSRF token.
	if _, err := c.Do(t.Context(), http.MethodGet, "/api/v1/Thing", nil, nil); err != nil {
		t.Fatal(err)
	}
	if h := ts.recorded()[4].Header.Get("X-CSRF-Token"); h != "" {
		t.Errorf("GET sent X-CSRF-Token %q", h)
	}
}

func TestCSRFRetriedOnlyOnce(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("X-CSRF-Token", "csrf-"+string(rune('a'+n)))
			return
		}
		w.Header().Set("X-CSRF-Token", "Required")
		status(403, "no")(w)
	})
	c := ts.client(func(cfg *Config) { cfg.CSRFFetchPath = "/api/v1/" })
	resp, err := c.Do(t.Context(), http.MethodDelete, "/x", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 403 || ts.apiCalls.Load() != 3 {
		t.Fatalf("status %d after %d calls, want 403 after 3", resp.StatusCode, ts.apiCalls.Load())
	}
}

func TestCSRFDisabledWithoutFetchPath(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-CSRF-Token", "Required")
		status(403, "no")(w)
	})
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodPost, "/x", nil, nil)
	if err != nil || resp.StatusCode != 403 || ts.apiCalls.Load() != 1 {
		t.Fatalf("got %v %v after %d calls, want a single 403", resp, err, ts.apiCalls.Load())
	}
}

func TestLogsHaveNoSecrets(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch n {
		case 1:
			status(401, "expired")(w)
		case 2:
			status(500, "oops")(w)
		default:
			w.WriteHeader(204)
		}
	})
	c := ts.client()
	if _, err := c.Do(ctx, http.MethodPost, "/queues/q?client_secret=qsecret&token=qtoken", []byte(`{"a":1}`), nil); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	for _, want := range []string{`"path":"/base/queues/q"`, `"status":401`, `"status":500`, `"status":204`, `"attempt":3`, "duration_ms", "Fetched OAuth2 token"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %s:\n%s", want, logs)
		}
	}
	assertNoSecrets(t, "logs", logs, "tok-1", "tok-2", "qsecret", "qtoken", "Authorization", "Basic ")
}

// With LogsOff, which the provider sets when its logs are switched off, the requests are sent as
// without it and no log line is written, not even to a logger that would take them.
func TestLogsOffWritesNoLogLine(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	ts := newTestServer(t, failFirst(status(500, "oops"), status(204, "")))
	c := ts.client(func(cfg *Config) { cfg.LogsOff = true })
	resp, err := c.Do(ctx, http.MethodPut, "/queues/q", []byte(`{"a":1}`), nil)
	if err != nil || resp.StatusCode != 204 || ts.apiCalls.Load() != 2 {
		t.Fatalf("got %v %v after %d calls, want 204 after a retry", resp, err, ts.apiCalls.Load())
	}
	if logs := buf.String(); strings.Contains(logs, "SAP API request") {
		t.Fatalf("LogsOff wrote request log lines:\n%s", logs)
	}
}

func TestHTTPSRequiredForNonLoopback(t *testing.T) {
	t.Parallel()
	_, err := New(Config{BaseURL: "http://api.example.com/x"})
	if err == nil || !strings.Contains(err.Error(), "plain http is only allowed for loopback hosts") ||
		!strings.Contains(err.Error(), "use https://api.example.com/x") {
		t.Fatalf("error = %v", err)
	}
	_, err = New(Config{BaseURL: "https://api.example.com", TokenURL: "http://auth.example.com/oauth/token", ClientID: "id", ClientSecret: "secret"})
	if err == nil || !strings.Contains(err.Error(), "token URL") || strings.Contains(err.Error(), "secret") {
		t.Fatalf("error = %v, want a token URL error", err)
	}
	_, err = New(Config{BaseURL: "https://api.example.com", TokenURL: "https://auth.example.com/oauth/token", ClientID: "id"})
	if err == nil || !strings.Contains(err.Error(), "client secret is empty") {
		t.Fatalf("error = %v, want the missing client secret", err)
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	ok := []string{"https://x.example.com", "https://x.example.com:8443/p", "http://127.0.0.1:8080", "http://127.1.2.3", "http://[::1]:9000/p", "http://localhost:1234", "HTTP://LOCALHOST"}
	for _, u := range ok {
		if err := CheckURL(u); err != nil {
			t.Errorf("CheckURL(%q) = %v, want nil", u, err)
		}
	}
	bad := map[string]string{
		"":                        "empty",
		"http://example.com":      "use https://example.com",
		"http://128.0.0.1":        "loopback",
		"http://localhost.evil.x": "loopback",
		"ftp://example.com":       "not an http(s) URL",
		"example.com/path":        "not an http(s) URL",
		"https://":                "no host",
		"https://a b.com/%zz":     "not valid",
	}
	for u, want := range bad {
		err := CheckURL(u)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckURL(%q) = %v, want an error containing %q", u, err, want)
		}
	}
}

func TestTLSVerificationNeverDisabled(t *testing.T) {
	t.Parallel()
	insecure := defaultTransport()
	insecure.TLSClientConfig.InsecureSkipVerify = true
	if _, err := New(Config{BaseURL: "https://x.example.com", Transport: insecure}); err == nil {
		t.Fatal("New accepted a transport that skips TLS verification")
	}

	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "tls ok")
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	// The default transport does not trust the test certificate; that is not retried.
	c, err := New(Config{BaseURL: srv.URL, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(t.Context(), http.MethodGet, "/", nil, nil); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("error = %v, want a certificate error", err)
	}
	if st := c.Stats(); st.Requests != 1 {
		t.Errorf("requests = %d, want 1 (certificate errors are not retried)", st.Requests)
	}
	// With a transport that trusts the test certificate it works.
	c, err = New(Config{BaseURL: srv.URL, Transport: srv.Client().Transport})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(t.Context(), http.MethodGet, "/", nil, nil)
	if err != nil || string(resp.Body) != "tls ok" {
		t.Fatalf("got %v, %v", resp, err)
	}
}

func TestRedirectsNotFollowed(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://example.com/elsewhere", http.StatusFound)
	})
	c := ts.client()
	resp, err := c.Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil || resp.StatusCode != http.StatusFound || ts.apiCalls.Load() != 1 {
		t.Fatalf("got %v %v, want the 302 itself", resp, err)
	}
}

// A Response says whether an earlier attempt of the same call may have been carried out: one
// that got no answer or a 5xx may have been; a 401 (repeated with a new token) and a 429 were not.
func TestEarlierAttemptMayHaveApplied(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		before []func(t *testing.T, w http.ResponseWriter)
		want   bool
	}{
		{"first attempt answered", nil, false},
		{"after a 500", []func(*testing.T, http.ResponseWriter){func(_ *testing.T, w http.ResponseWriter) { status(500, "failed")(w) }}, true},
		{"after a dropped connection", []func(*testing.T, http.ResponseWriter){dropConnection}, true},
		{"after a 429", []func(*testing.T, http.ResponseWriter){func(_ *testing.T, w http.ResponseWriter) { status(429, "slow down")(w) }}, false},
		{"after a 401", []func(*testing.T, http.ResponseWriter){func(_ *testing.T, w http.ResponseWriter) { status(401, "expired")(w) }}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
				if n <= len(tc.before) {
					tc.before[n-1](t, w)
					return
				}
				w.WriteHeader(http.StatusOK)
			})
			resp, err := ts.client().Do(t.Context(), http.MethodPut, "/q", []byte(`{}`), nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 200 || resp.EarlierAttemptMayHaveApplied != tc.want {
				t.Errorf("status %d, EarlierAttemptMayHaveApplied = %t, want %t", resp.StatusCode, resp.EarlierAttemptMayHaveApplied, tc.want)
			}
		})
	}
	// A final 5xx is not an earlier attempt.
	ts := newTestServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) { status(500, "failed")(w) })
	resp, err := ts.client(func(c *Config) { c.SetRetries(0) }).Do(t.Context(), http.MethodPut, "/q", nil, nil)
	if err != nil || resp.StatusCode != 500 || resp.EarlierAttemptMayHaveApplied {
		t.Errorf("a single 500: %v, %+v", err, resp)
	}
}

// Once the API has accepted a token of the client, a new token refused again has expired rather
// than never worked: it is replaced again, up to the bound, instead of the 401 being returned.
func TestUnauthorizedAfterAcceptedTokenRefreshesAgain(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Authorization") {
		case "Bearer tok-1":
			if n == 1 {
				_, _ = io.WriteString(w, "ok")
				return
			}
			status(401, "expired")(w)
		case "Bearer tok-2":
			status(401, "expired")(w)
		default:
			_, _ = io.WriteString(w, "ok")
		}
	})
	c := ts.client()
	for i := range 2 {
		resp, err := c.Do(t.Context(), http.MethodPut, "/x", []byte("b"), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("call %d: %v, %+v", i+1, err, resp)
		}
	}
	expectCount(t, "token calls", ts.tokenCalls.Load(), 3)
	expectCount(t, "API calls (one, then three for the second call)", ts.apiCalls.Load(), 4)
}

// CheckCredentials asks the token endpoint once and keeps the token for the API calls after it; a
// wrong secret is the token endpoint's 401, without a call to the API.
func TestCheckCredentials(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	c := ts.client()
	if err := c.CheckCredentials(context.Background()); err != nil {
		t.Fatalf("CheckCredentials: %v", err)
	}
	if _, err := c.Do(context.Background(), http.MethodGet, "/x", nil, nil); err != nil {
		t.Fatalf("Do: %v", err)
	}
	expectCount(t, "token requests (the proof's token serves the API call)", ts.tokenCalls.Load(), 1)

	bad := newTestServer(t, nil)
	wrong := bad.client(func(cfg *Config) { cfg.ClientSecret = "wrong" })
	err := wrong.CheckCredentials(context.Background())
	var te *TokenError
	if !errors.As(err, &te) || te.StatusCode != http.StatusUnauthorized {
		t.Fatalf("CheckCredentials with a wrong secret = %v, want a TokenError with 401", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Errorf("the error shows the secret: %v", err)
	}
	if n := bad.apiCalls.Load(); n != 0 {
		t.Errorf("API calls = %d, want 0", n)
	}
}
