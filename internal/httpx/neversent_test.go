package httpx

import (
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// A refused connection never reached the service: it is retried like a 503, and once the
// service listens the call succeeds within the retry budget.
func TestRetryConnectionRefused(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close() // nothing listens: the first attempts are refused

	c, err := New(Config{BaseURL: "http://" + addr, MaxRetries: 20, RetryWaitMin: 20 * time.Millisecond, RetryWaitMax: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	go func() {
		time.Sleep(150 * time.Millisecond)
		ln2, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("listening again on %s: %v", addr, err)
			close(started)
			return
		}
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.WriteString(w, "up")
		}), ReadHeaderTimeout: time.Second}
		t.Cleanup(func() { _ = srv.Close() })
		close(started)
		_ = srv.Serve(ln2)
	}()
	resp, err := c.Do(t.Context(), http.MethodPut, "/queues/x", []byte("{}"), nil)
	<-started
	if err != nil {
		t.Fatalf("error = %v, want the refused attempts retried until the service listens", err)
	}
	if string(resp.Body) != "up" {
		t.Fatalf("body = %q", resp.Body)
	}
	if st := c.Stats(); st.Retries == 0 {
		t.Errorf("stats = %+v, want the refused attempts counted as retries", st)
	}
}

// After the retry budget, a refused connection fails with MaybeSent unset: nothing was written.
func TestConnectionRefusedNeverSent(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	c, err := New(Config{BaseURL: "http://" + addr, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(t.Context(), http.MethodPut, "/queues/x", []byte("{}"), nil)
	var re *RequestError
	if !errors.As(err, &re) || re.Attempts != 3 {
		t.Fatalf("error = %v, want a RequestError after 3 attempts", err)
	}
	if re.MaybeSent || MaybeSent(err) {
		t.Errorf("MaybeSent = true for a refused connection: %v", err)
	}
	if !NeverSent(re.Err) {
		t.Errorf("NeverSent(%v) = false", re.Err)
	}
}

// A request whose connection closes after it was written may have been carried out: MaybeSent.
func TestDroppedAfterSendingMaybeSent(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(n int, w http.ResponseWriter, r *http.Request) { dropConnection(t, w) })
	c := ts.client(func(cfg *Config) { cfg.MaxRetries = 1 })
	_, err := c.Do(t.Context(), http.MethodPut, "/queues/x", []byte("{}"), nil)
	if !MaybeSent(err) {
		t.Fatalf("error = %v, want MaybeSent: the service received the request", err)
	}
}

func TestNeverSentClassifies(t *testing.T) {
	t.Parallel()
	dns := &net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{dns, true},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}, true},
		{&net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}, false},
		{io.EOF, false},
		{errors.New("remote error: tls: handshake failure"), true},
	} {
		if got := NeverSent(tc.err); got != tc.want {
			t.Errorf("NeverSent(%v) = %t, want %t", tc.err, got, tc.want)
		}
		if tc.want && !RetryableError(tc.err) {
			t.Errorf("RetryableError(%v) = false; a request that never left is retried", tc.err)
		}
	}
}
