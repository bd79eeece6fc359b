package httpx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const (
	testClientID     = "sb-client!b1|app!b2"
	testClientSecret = "s3cr3t-value$with=chars"
)

// recorded is one request the test API received.
type recorded struct {
	Method, Path, RawPath, Query string
	Header                       http.Header
	Body                         []byte
}

// testServer is a token endpoint plus a scripted API on one loopback server.
type testServer struct {
	*httptest.Server
	t *testing.T

	// token answers the n-th token request (n from 1); nil issues "tok-n".
	token func(n int, w http.ResponseWriter, r *http.Request)
	// api answers the n-th API request (n from 1); nil answers 200 {}.
	api func(n int, w http.ResponseWriter, r *http.Request)

	tokenCalls atomic.Int32
	apiCalls   atomic.Int32
	mu         sync.Mutex
	requests   []recorded
	tokenAuth  []string
}

func newTestServer(t *testing.T, api func(n int, w http.ResponseWriter, r *http.Request)) *testServer {
	t.Helper()
	ts := &testServer{t: t, api: api}
	ts.Server = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.Close)
	return ts
}

func (ts *testServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.URL.Path == "/oauth/token" {
		n := int(ts.tokenCalls.Add(1))
		ts.mu.Lock()
		ts.tokenAuth = append(ts.tokenAuth, r.Header.Get("Authorization"))
		ts.mu.Unlock()
		if ts.token != nil {
			ts.token(n, w, r)
			return
		}
		issueToken(w, r, body, fmt.Sprintf("tok-%d", n))
		return
	}
	n := int(ts.apiCalls.Add(1))
	ts.mu.Lock()
	ts.requests = append(ts.requests, recorded{Method: r.Method, Path: r.URL.Path, RawPath: r.URL.EscapedPath(), Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body})
	ts.mu.Unlock()
	if ts.api != nil {
		ts.api(n, w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, "{}")
}

// issueToken checks the client credentials (Basic, form-encoded as RFC 6749
// asks) and answers with token tok.
func issueToken(w http.ResponseWriter, r *http.Request, body []byte, tok string) {
	user, pass, ok := r.BasicAuth()
	if ok {
		user, _ = url.QueryUnescape(user)
		pass, _ = url.QueryUnescape(pass)
	}
	form, _ := url.ParseQuery(string(body))
	if !ok || user != testClientID || pass != testClientSecret || form.Get("grant_type") != "client_credentials" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"error":"unauthorized","error_description":"Bad credentials"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": tok, "token_type": "bearer", "expires_in": 3600})
}

func (ts *testServer) recorded() []recorded {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return append([]recorded(nil), ts.requests...)
}

func (ts *testServer) config() Config {
	return Config{
		BaseURL:        ts.URL + "/base",
		TokenURL:       ts.URL + "/oauth/token",
		ClientID:       testClientID,
		ClientSecret:   testClientSecret,
		MaxRetries:     5,
		RequestTimeout: 5 * time.Second,
		RetryWaitMin:   time.Millisecond,
		RetryWaitMax:   10 * time.Millisecond,
		UserAgent:      "terraform-provider-sapmessaging/test",
	}
}

func (ts *testServer) client(mutate ...func(*Config)) *Client {
	ts.t.Helper()
	cfg := ts.config()
	for _, m := range mutate {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		ts.t.Fatalf("New: %v", err)
	}
	return c
}

// dropConnection closes the connection without an answer.
func dropConnection(t *testing.T, w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot hijack")
		return
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		t.Errorf("hijack: %v", err)
		return
	}
	_ = conn.Close()
}

// failFirst is a server's API that answers the first request with first and every later one with then:
// an attempt that fails and its retries.
func failFirst(first, then func(w http.ResponseWriter)) func(n int, w http.ResponseWriter, r *http.Request) {
	return func(n int, w http.ResponseWriter, _ *http.Request) {
		if n == 1 {
			first(w)
			return
		}
		then(w)
	}
}

func status(code int, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

func assertNoSecrets(t *testing.T, what, text string, secrets ...string) {
	t.Helper()
	for _, s := range append(secrets, testClientSecret, "Bearer ") {
		if s != "" && strings.Contains(text, s) {
			t.Errorf("%s contains %q: %s", what, s, text)
		}
	}
}

// expectCount checks a count of requests the test server received; what names them.
func expectCount(t *testing.T, what string, got, want int32) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}
