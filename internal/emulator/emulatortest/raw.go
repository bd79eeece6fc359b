package emulatortest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

// The raw HTTP helpers of the emulator's own tests: they talk to the emulated
// APIs without the clients, so that the answers are checked as the
// emulator writes them.

// MgmtPath is the base path of the Event Mesh management API.
const MgmtPath = emulator.ManagementBasePath

// StartServer creates and starts an emulator that is closed when the test ends.
func StartServer(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	return Start(t, opts).Server
}

// EventMeshKey returns the Event Mesh service key of s, with one management
// and one messaging entry.
func EventMeshKey(t *testing.T, s *emulator.Server) emulator.EventMeshServiceKey {
	t.Helper()
	var k emulator.EventMeshServiceKey
	if err := json.Unmarshal(s.EventMeshKey(), &k); err != nil {
		t.Fatalf("event mesh key: %v", err)
	}
	if len(k.Management) != 1 || len(k.Messaging) != 1 {
		t.Fatalf("event mesh key has %d management and %d messaging entries, want 1 and 1", len(k.Management), len(k.Messaging))
	}
	return k
}

// Creds returns the client credentials of audience from the service keys.
func Creds(t *testing.T, s *emulator.Server, audience string) (id, secret string) {
	t.Helper()
	switch audience {
	case emulator.AudienceManagement:
		k := EventMeshKey(t, s).Management[0].OA2
		return k.ClientID, k.ClientSecret
	case emulator.AudienceMessaging:
		k := EventMeshKey(t, s).Messaging[0].OA2
		return k.ClientID, k.ClientSecret
	default:
		var k emulator.CloudIntegrationServiceKey
		if err := json.Unmarshal(s.CloudIntegrationKey(), &k); err != nil {
			t.Fatal(err)
		}
		return k.OAuth.ClientID, k.OAuth.ClientSecret
	}
}

// Resp is an answer: status, header and body.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into v.
func (r Resp) JSON(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.Body, err)
	}
}

// Message returns the "message" of an error body.
func (r Resp) Message(t *testing.T) string {
	t.Helper()
	var m struct {
		Message string `json:"message"`
	}
	r.JSON(t, &m)
	if m.Message == "" {
		t.Fatalf("error body %s has no message", r.Body)
	}
	return m.Message
}

// HTTPClient is the client of Do, with a timeout of 30 s.
var HTTPClient = &http.Client{Timeout: 30 * time.Second}

// Send performs one request without retries.
func Send(t *testing.T, c *http.Client, method, rawURL, token string, body []byte, header map[string]string) (Resp, error) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, rawURL, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := c.Do(req)
	if err != nil {
		return Resp{}, err
	}
	defer func() { _ = res.Body.Close() }()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return Resp{}, err
	}
	return Resp{Status: res.StatusCode, Header: res.Header, Body: b}, nil
}

// Do performs one request without retries; a transport error ends the test.
func Do(t *testing.T, method, rawURL, token string, body []byte, header map[string]string) Resp {
	t.Helper()
	r, err := Send(t, HTTPClient, method, rawURL, token, body, header)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	return r
}

// Expect ends the test unless r has status.
func Expect(t *testing.T, r Resp, status int) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Body)
	}
}

// FetchToken obtains a token with HTTP Basic credentials.
func FetchToken(t *testing.T, s *emulator.Server, id, secret string) Resp {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+emulator.TokenPath, strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	res, err := HTTPClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	return Resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// Token returns an access token of the client of audience.
func Token(t *testing.T, s *emulator.Server, audience string) string {
	t.Helper()
	id, secret := Creds(t, s, audience)
	r := FetchToken(t, s, id, secret)
	Expect(t, r, http.StatusOK)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	r.JSON(t, &tok)
	return tok.AccessToken
}

// QPath returns the management URL of a queue (name escaped with %2F).
func QPath(s *emulator.Server, name string, rest ...string) string {
	return s.URL() + MgmtPath + "/queues/" + url.PathEscape(name) + strings.Join(rest, "")
}

// MPath returns the messaging URL of a queue (name escaped with %2F).
func MPath(s *emulator.Server, name string, rest ...string) string {
	return s.URL() + emulator.MessagingBasePath + "/queues/" + url.PathEscape(name) + strings.Join(rest, "")
}

// PutQueue creates or updates queue name with body.
func PutQueue(t *testing.T, s *emulator.Server, tok, name, body string) Resp {
	t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return Do(t, "PUT", QPath(s, name), tok, b, map[string]string{"Content-Type": "application/json"})
}

// Clock is a settable clock for Options.Now.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a Clock at 2025-01-01 00:00 UTC.
func NewClock() *Clock { return &Clock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// ODataD decodes the {"d": ...} of an OData answer into v.
func (r Resp) ODataD(t *testing.T, v any) {
	t.Helper()
	var env struct {
		D json.RawMessage `json:"d"`
	}
	r.JSON(t, &env)
	if err := json.Unmarshal(env.D, v); err != nil {
		t.Fatalf("decoding d of %s: %v", r.Body, err)
	}
}

// ODataError returns the message of an OData error body and checks its shape.
func (r Resp) ODataError(t *testing.T) string {
	t.Helper()
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message struct {
				Lang  string `json:"lang"`
				Value string `json:"value"`
			} `json:"message"`
		} `json:"error"`
	}
	r.JSON(t, &e)
	if e.Error.Code == "" || e.Error.Message.Lang != "en" || e.Error.Message.Value == "" {
		t.Fatalf("error body %s is not an OData error", r.Body)
	}
	return e.Error.Message.Value
}
