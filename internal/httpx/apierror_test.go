package httpx

import (
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestNewAPIError(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 600)
	cases := []struct {
		name, body, want string
	}{
		{"message", `{"message":"queue already exists"}`, "queue already exists"},
		{"odata", `{"error":{"code":"Not Found","message":{"lang":"en","value":"Artifact X not found"}}}`, "Artifact X not found"},
		{"error string message", `{"error":{"message":"plain inner"}}`, "plain inner"},
		{"oauth", `{"error":"invalid_client","error_description":"Bad credentials"}`, "invalid_client: Bad credentials"},
		{"text", "  Service\nUnavailable \r\n", "Service Unavailable"},
		{"json without message", `{"foo":1}`, `{"foo":1}`},
		{"empty", "", ""},
		{"long text", long, strings.Repeat("x", 500) + "…"},
		{"invalid utf8", "bad \xff byte", "bad \uFFFD byte"},
	}
	for _, c := range cases {
		e := NewAPIError(http.MethodPut, "/queues/a%2Fb?x=1", &Response{StatusCode: 409, Body: []byte(c.body)})
		if e.Message != c.want {
			t.Errorf("%s: message = %q, want %q", c.name, e.Message, c.want)
		}
	}
	e := NewAPIError(http.MethodPut, "/queues/x", &Response{StatusCode: 409, Body: []byte(`{"message":"exists"}`)})
	if got, want := e.Error(), "PUT /queues/x: 409 Conflict: exists"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	e = NewAPIError(http.MethodGet, "/x?token=abc", &Response{StatusCode: 599})
	if got, want := e.Error(), "GET /x: 599"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func FuzzNewAPIError(f *testing.F) {
	for _, s := range []string{
		`{"message":"m"}`, `{"error":{"message":{"value":"v"}}}`, `{"error":"e","error_description":"d"}`,
		"text", "", `{"message":{"value":1}}`, `[1,2]`, "\x00\x01\xff",
	} {
		f.Add([]byte(s), 400)
	}
	f.Fuzz(func(t *testing.T, body []byte, code int) {
		e := NewAPIError("GET", "/p", &Response{StatusCode: code, Body: body})
		if !utf8.ValidString(e.Message) {
			t.Fatalf("message is not valid UTF-8: %q", e.Message)
		}
		if n := utf8.RuneCountInString(e.Message); n > maxMessageRunes+1 {
			t.Fatalf("message has %d runes", n)
		}
		if strings.ContainsAny(e.Message, "\r\n\t") {
			t.Fatalf("message spans lines: %q", e.Message)
		}
		if !strings.HasPrefix(e.Error(), "GET /p: ") {
			t.Fatalf("Error() = %q", e.Error())
		}
	})
}

func TestBackoff(t *testing.T) {
	t.Parallel()
	lo, hi := 100*time.Millisecond, 2*time.Second
	for attempt := range 40 {
		for range 20 {
			d := Backoff(lo, hi, attempt, nil)
			if d < lo || d > hi {
				t.Fatalf("attempt %d: backoff %s outside [%s, %s]", attempt, d, lo, hi)
			}
			if exp := lo << uint(attempt); attempt < 5 && d > exp {
				t.Fatalf("attempt %d: backoff %s above %s", attempt, d, exp)
			}
		}
	}
	mk := func(code int, ra string) *http.Response {
		return &http.Response{StatusCode: code, Header: http.Header{"Retry-After": {ra}}}
	}
	if d := Backoff(lo, hi, 0, mk(429, "1")); d != time.Second {
		t.Errorf("Retry-After 1 = %s, want 1s", d)
	}
	if d := Backoff(lo, hi, 0, mk(429, "3600")); d != hi {
		t.Errorf("Retry-After 3600 = %s, want the cap %s", d, hi)
	}
	if d := Backoff(lo, hi, 0, mk(503, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat))); d != hi {
		t.Errorf("Retry-After date = %s, want the cap %s", d, hi)
	}
	if d := Backoff(lo, hi, 0, mk(429, "soon")); d < lo || d > hi {
		t.Errorf("invalid Retry-After = %s, want the backoff", d)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := map[string]struct {
		d  time.Duration
		ok bool
	}{
		"":                              {0, false},
		"7":                             {7 * time.Second, true},
		"-1":                            {0, false},
		"Fri, 02 Jan 2026 03:04:15 GMT": {10 * time.Second, true},
		"Fri, 02 Jan 2026 03:00:00 GMT": {0, true},
		"later":                         {0, false},
	}
	for v, want := range cases {
		d, ok := RetryAfter(v, now)
		if d != want.d || ok != want.ok {
			t.Errorf("RetryAfter(%q) = %s, %v; want %s, %v", v, d, ok, want.d, want.ok)
		}
	}
}

func TestRetryPolicy(t *testing.T) {
	t.Parallel()
	for code, want := range map[int]bool{200: false, 400: false, 401: false, 403: false, 404: false, 409: false, 429: true, 500: true, 501: false, 502: true, 503: true, 504: true} {
		if got := RetryableStatus(code); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", code, got, want)
		}
	}
}
