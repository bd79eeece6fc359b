package httpx

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// A server that declares a body larger than the cap is refused before the body is read, and the
// answer is not retried: the same server would send it again.
func TestBodyCapDeclaredLength(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(DefaultMaxResponseBytes+1))
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("["))
	})
	_, err := ts.client().Do(t.Context(), http.MethodGet, "/queues", nil, nil)
	var tooLarge *ResponseTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Max != DefaultMaxResponseBytes {
		t.Fatalf("err = %v, want a ResponseTooLargeError at %d bytes", err, DefaultMaxResponseBytes)
	}
	expectCount(t, "API calls (a too large answer is not retried)", ts.apiCalls.Load(), 1)
}

// A hostile server that streams without end (no declared length) is cut off one byte after the
// cap: the client holds at most the cap, however much the server would send.
func TestBodyCapEndlessStream(t *testing.T) {
	t.Parallel()
	var sent atomic.Int64
	chunk := []byte(strings.Repeat(`{"name":"acme/crm/prod/q","maxRedeliveryCount":3},`, 1000))
	ts := newTestServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("["))
		for sent.Load() < 1<<30 { // 1 GiB, if nobody stops it
			n, err := w.Write(chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	})
	const limit = 1 << 20
	_, err := ts.client(func(c *Config) { c.MaxResponseBytes = limit }).Do(t.Context(), http.MethodGet, "/queues", nil, nil)
	var tooLarge *ResponseTooLargeError
	if !errors.As(err, &tooLarge) || tooLarge.Max != limit {
		t.Fatalf("err = %v, want a ResponseTooLargeError at %d bytes", err, limit)
	}
	ts.Close() // waits for the handler
	// What the server wrote beyond the cap sat in socket buffers, never in the client.
	if got := sent.Load(); got > limit+64<<20 {
		t.Errorf("the server wrote %d bytes before the client stopped reading at %d", got, limit)
	}
}

// The cap holds what SAP sends: a body of exactly the cap is read whole.
func TestBodyCapExactlyTheCap(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	ts := newTestServer(t, func(_ int, w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(strings.Repeat("x", limit)))
	})
	resp, err := ts.client(func(c *Config) { c.MaxResponseBytes = limit }).Do(t.Context(), http.MethodGet, "/x", nil, nil)
	if err != nil || len(resp.Body) != limit {
		t.Fatalf("a body of exactly the cap: %v, %d bytes", err, len(resp.Body))
	}
}

// The default cap is the largest queue list SAP documents, 250 queues of at most
// maxQueueObjectBytes each, with the margin.
func TestDefaultMaxResponseBytesArithmetic(t *testing.T) {
	t.Parallel()
	if need := maxQueuesPerInstance * maxQueueObjectBytes * responseMargin; DefaultMaxResponseBytes < need || DefaultMaxResponseBytes > 2*need {
		t.Errorf("DefaultMaxResponseBytes = %d, want the next round number above %d", DefaultMaxResponseBytes, need)
	}
	if cfg := (Config{}).withDefaults(); cfg.MaxResponseBytes != DefaultMaxResponseBytes {
		t.Errorf("default MaxResponseBytes = %d", cfg.MaxResponseBytes)
	}
}
