package httpx

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

type callKey struct{}

// callState is shared by all attempts of one call.
type callState struct {
	attempts atomic.Int32
	// sent is set once any attempt began writing the request on a connection:
	// from then on the service may have received it.
	sent atomic.Bool
	// unsettled counts the attempts that were sent and got no answer that
	// proves the service did not carry them out: no answer at all, or a 5xx
	// (a server may fail after the change). A 401, a 403 and a 429 refuse a
	// request before carrying it out.
	unsettled atomic.Int32
	// atMostOnce is set for a call made with AtMostOnce.
	atMostOnce bool
}

type atMostOnceKey struct{}

// AtMostOnce marks the calls made with ctx as not idempotent: an attempt that may have been carried out (it
// was sent and got no answer, or a 5xx) is not repeated, and the call ends with it: a *RequestError with
// MaybeSent, or the 5xx answer. Attempts that provably were not carried out (never sent: connection refused,
// name lookup or TLS handshake failed; answered 429) are repeated as for every call. For a request whose
// repeat would do the work twice, such as SEMP's copyMsgFromQueue, which spools another copy each time.
func AtMostOnce(ctx context.Context) context.Context {
	return context.WithValue(ctx, atMostOnceKey{}, true)
}

// settles reports whether an attempt that was sent and ended with err and
// resp proves its outcome: an answer other than a 5xx.
func settles(resp *http.Response, err error) bool {
	return err == nil && resp != nil && resp.StatusCode < 500
}

// attemptTransport applies the per-attempt timeout, reads the whole response
// body inside the attempt (so a body cut off mid-way is retried), counts the
// attempts and logs each of them.
type attemptTransport struct {
	base     http.RoundTripper
	timeout  time.Duration
	requests *atomic.Int64
	retries  *atomic.Int64
	what     string
	logsOff  bool // Config.LogsOff: no log line, no fields built for one
	// maxBody caps the response body (Config.MaxResponseBytes).
	maxBody int64
}

// ResponseTooLargeError is an answer whose body is larger than the cap (Config.MaxResponseBytes).
type ResponseTooLargeError struct {
	Max int64
}

// Error names the cap.
func (e *ResponseTooLargeError) Error() string {
	return fmt.Sprintf("the response body is larger than %d bytes, more than the API sends", e.Max)
}

// AttemptTimeoutError reports an attempt that got no complete response within
// the request timeout.
type AttemptTimeoutError struct {
	After time.Duration
}

// Error describes the timeout.
func (e *AttemptTimeoutError) Error() string {
	return fmt.Sprintf("no complete response within the request timeout of %s", e.After)
}

// Timeout reports true.
func (e *AttemptTimeoutError) Timeout() bool { return true }

// Unwrap returns os.ErrDeadlineExceeded.
func (e *AttemptTimeoutError) Unwrap() error { return os.ErrDeadlineExceeded }

func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	parent := req.Context()
	attempt := 1
	st, _ := parent.Value(callKey{}).(*callState)
	var sentNow atomic.Bool // this attempt's own mark
	if st != nil {
		attempt = int(st.attempts.Add(1))
		// Nothing leaves this machine before the first header field is
		// written on an established connection: a refused connection, a
		// failed name lookup or TLS handshake never gets this far.
		mark := func() { st.sent.Store(true); sentNow.Store(true) }
		req = req.WithContext(httptrace.WithClientTrace(parent, &httptrace.ClientTrace{
			WroteHeaderField: func(string, []string) { mark() },
			WroteHeaders:     mark,
		}))
	}
	t.requests.Add(1)
	if attempt > 1 {
		t.retries.Add(1)
	}
	var fields map[string]any
	if !t.logsOff {
		fields = map[string]any{"method": req.Method, "path": req.URL.EscapedPath(), "attempt": attempt}
		tflog.Trace(parent, "Sending "+t.what, fields)
	}

	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	start := time.Now()
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err == nil {
		resp, err = readBody(resp, t.maxBody)
	}
	if err != nil && parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		err = &AttemptTimeoutError{After: t.timeout}
	}
	if st != nil && sentNow.Load() && !settles(resp, err) {
		st.unsettled.Add(1)
	}
	if t.logsOff {
		return resp, err
	}
	fields["duration_ms"] = time.Since(start).Milliseconds()
	if err != nil {
		fields["error"] = err.Error()
	} else {
		fields["status"] = resp.StatusCode
	}
	tflog.Debug(parent, t.what, fields)
	return resp, err
}

// readBody reads and closes the body of resp, at most limit bytes: an answer that declares a larger
// body is refused before reading, and one that sends more is refused at the byte after the limit. A
// declared length is read into a buffer of that size, not grown to it.
func readBody(resp *http.Response, limit int64) (*http.Response, error) {
	defer func() { _ = resp.Body.Close() }()
	if resp.ContentLength > limit {
		return nil, &ResponseTooLargeError{Max: limit}
	}
	var buf bytes.Buffer
	if resp.ContentLength > 0 {
		buf.Grow(int(resp.ContentLength) + bytes.MinRead) // ReadFrom asks for MinRead free bytes before EOF
	}
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, limit+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > limit {
		return nil, &ResponseTooLargeError{Max: limit}
	}
	body := buf.Bytes()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// CheckRetry is the retry policy: 429, 5xx other than 501, connection resets,
// unexpected EOFs and timeouts are retried; other answers and errors, and
// anything after ctx is done, are not.
// The returned error is ctx's error once ctx is done, and nil otherwise: the
// transport error itself, if any, is what the request fails with.
func CheckRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	switch {
	case ctx.Err() != nil:
		return false, ctx.Err()
	case maybeCarriedOut(ctx):
		return false, nil
	case err != nil:
		return RetryableError(err), nil
	case resp == nil:
		return false, nil
	default:
		return RetryableStatus(resp.StatusCode), nil
	}
}

// maybeCarriedOut reports whether ctx is an AtMostOnce call one of whose attempts may have been carried out.
func maybeCarriedOut(ctx context.Context) bool {
	st, ok := ctx.Value(callKey{}).(*callState)
	return ok && st.atMostOnce && st.unsettled.Load() > 0
}

// RetryableStatus reports whether an answer with status code is retried.
func RetryableStatus(code int) bool {
	if code == http.StatusTooManyRequests {
		return true
	}
	return code >= 500 && code <= 599 && code != http.StatusNotImplemented
}

// RetryableError reports whether a transport error is transient: a
// connection reset or abort, a connection closed before a complete answer,
// a timeout, or a request that provably never left this machine (connection
// refused, a failed name lookup, a failed dial or TLS handshake), which is
// as safe to repeat as a 503. Certificate errors and an answer that is not
// TLS at all are never retried: they fail the same way every time.
func RetryableError(err error) bool {
	if err == nil {
		return false
	}
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	var recordErr tls.RecordHeaderError
	if errors.As(err, &certErr) || errors.As(err, &unknownAuth) || errors.As(err, &hostErr) ||
		errors.As(err, &invalid) || errors.As(err, &recordErr) {
		return false
	}
	if NeverSent(err) {
		return true
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "server closed idle connection") ||
		strings.Contains(msg, "connection reset by peer") ||
		strings.Contains(msg, "transport connection broken")
}

// Backoff is the wait before retry number attempt+1: the Retry-After of a
// 429 or 503 answer (seconds or HTTP date) capped by waitMax, otherwise an
// exponential backoff from waitMin, capped by waitMax, with jitter.
func Backoff(waitMin, waitMax time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := RetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return clamp(d, 0, waitMax)
		}
	}
	d := waitMax
	if attempt < 32 {
		if e := waitMin << uint(attempt); e > 0 && e < waitMax {
			d = e
		}
	}
	half := d / 2
	d = half + rand.N(d-half+1)
	return clamp(d, waitMin, waitMax)
}

// RetryAfter parses a Retry-After header value given in seconds or as an HTTP
// date relative to now.
func RetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(24*time.Hour/time.Second) {
			n = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(n) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := t.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

func clamp(d, lo, hi time.Duration) time.Duration {
	if d < lo {
		return lo
	}
	if d > hi {
		return hi
	}
	return d
}

// NeverSent reports whether err proves that the request never reached the
// service: the connection was refused or could not be dialled, the host name
// did not resolve, or the TLS handshake failed before any request byte was
// written.
func NeverSent(err error) bool {
	if err == nil {
		return false
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH) {
		return true
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return true
	}
	var alert tls.AlertError
	if errors.As(err, &alert) {
		return true
	}
	return strings.Contains(err.Error(), "tls: handshake")
}
