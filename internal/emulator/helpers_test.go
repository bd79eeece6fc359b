package emulator_test

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
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

const mgmt = emulator.ManagementBasePath

// start creates and starts an emulator that is closed when the test ends.
func start(t *testing.T, opts emulator.Options) *emulator.Server {
	t.Helper()
	return emulatortest.Start(t, opts).Server
}

func eventMeshKey(t *testing.T, s *emulator.Server) emulator.EventMeshServiceKey {
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

// creds returns the client credentials of audience from the service keys.
func creds(t *testing.T, s *emulator.Server, audience string) (id, secret string) {
	t.Helper()
	switch audience {
	case emulator.AudienceManagement:
		k := eventMeshKey(t, s).Management[0].OA2
		return k.ClientID, k.ClientSecret
	case emulator.AudienceMessaging:
		k := eventMeshKey(t, s).Messaging[0].OA2
		return k.ClientID, k.ClientSecret
	default:
		var k emulator.CloudIntegrationServiceKey
		if err := json.Unmarshal(s.CloudIntegrationKey(), &k); err != nil {
			t.Fatal(err)
		}
		return k.OAuth.ClientID, k.OAuth.ClientSecret
	}
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

func (r resp) message(t *testing.T) string {
	t.Helper()
	var m struct {
		Message string `json:"message"`
	}
	r.json(t, &m)
	if m.Message == "" {
		t.Fatalf("error body %s has no message", r.body)
	}
	return m.Message
}

var httpClient = &http.Client{Timeout: 30 * time.Second}

// send performs one request without retries.
func send(t *testing.T, c *http.Client, method, rawURL, token string, body []byte, header map[string]string) (resp, error) {
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
		return resp{}, err
	}
	defer func() { _ = res.Body.Close() }()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return resp{}, err
	}
	return resp{status: res.StatusCode, header: res.Header, body: b}, nil
}

func do(t *testing.T, method, rawURL, token string, body []byte, header map[string]string) resp {
	t.Helper()
	r, err := send(t, httpClient, method, rawURL, token, body, header)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	return r
}

func expect(t *testing.T, r resp, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.body)
	}
}

// fetchToken obtains a token with HTTP Basic credentials.
func fetchToken(t *testing.T, s *emulator.Server, id, secret string) resp {
	t.Helper()
	req, err := http.NewRequest("POST", s.URL()+emulator.TokenPath, strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(id, secret)
	res, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = res.Body.Close() }()
	b, _ := io.ReadAll(res.Body)
	return resp{status: res.StatusCode, header: res.Header, body: b}
}

func token(t *testing.T, s *emulator.Server, audience string) string {
	t.Helper()
	id, secret := creds(t, s, audience)
	r := fetchToken(t, s, id, secret)
	expect(t, r, http.StatusOK)
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	r.json(t, &tok)
	return tok.AccessToken
}

// qpath returns the management URL of a queue (name escaped with %2F).
func qpath(s *emulator.Server, name string, rest ...string) string {
	return s.URL() + mgmt + "/queues/" + url.PathEscape(name) + strings.Join(rest, "")
}

func mpath(s *emulator.Server, name string, rest ...string) string {
	return s.URL() + emulator.MessagingBasePath + "/queues/" + url.PathEscape(name) + strings.Join(rest, "")
}

func putQueue(t *testing.T, s *emulator.Server, tok, name, body string) resp {
	t.Helper()
	var b []byte
	if body != "" {
		b = []byte(body)
	}
	return do(t, "PUT", qpath(s, name), tok, b, map[string]string{"Content-Type": "application/json"})
}

// fakeClock is a settable clock for Options.Now.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *fakeClock { return &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
