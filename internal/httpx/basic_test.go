package httpx

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// basicConfig is the configuration of a client of the SEMP v2 API: HTTP Basic authentication, no
// OAuth2 credentials.
func basicConfig(cfg *Config) {
	cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = "", "", ""
	cfg.Username, cfg.Password = "semp-admin", "s3mp-pa55word"
}

func TestBasicAuthSentOnEveryAttempt(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &buf)
	ts := newTestServer(t, failFirst(status(503, "busy, the password is s3mp-pa55word"), status(http.StatusOK, "")))
	c := ts.client(basicConfig)
	resp, err := c.Do(ctx, http.MethodGet, "/SEMP/v2/config/about/api", nil, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("got %v %v, want 200", resp, err)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte("semp-admin:s3mp-pa55word"))
	reqs := ts.recorded()
	if len(reqs) != 2 {
		t.Fatalf("API requests = %d, want 2 (one retry of the 503)", len(reqs))
	}
	for i, r := range reqs {
		if got := r.Header.Get("Authorization"); got != want {
			t.Errorf("attempt %d: Authorization = %q, want %q", i+1, got, want)
		}
	}
	if ts.tokenCalls.Load() != 0 {
		t.Errorf("token calls = %d, want none with Basic authentication", ts.tokenCalls.Load())
	}
	assertNoSecrets(t, "logs", buf.String(), "s3mp-pa55word", base64.StdEncoding.EncodeToString([]byte("semp-admin:s3mp-pa55word")))
}

func TestBasicAuthPasswordScrubbedFromErrors(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, nil)
	c := ts.client(basicConfig, func(cfg *Config) { cfg.MaxRetries = -1 })
	ts.Close()
	_, err := c.Do(t.Context(), http.MethodGet, "/SEMP/v2/config/msgVpns/v/queues/s3mp-pa55word", nil, nil)
	if err == nil {
		t.Fatal("want an error from a closed server")
	}
	if strings.Contains(err.Error(), "s3mp-pa55word") {
		t.Errorf("error contains the password: %v", err)
	}
}

func TestBasicAuthConfigChecked(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"password without username", func(c *Config) { basicConfig(c); c.Username = "" }, "the username is empty"},
		{"username without password", func(c *Config) { basicConfig(c); c.Password = "" }, "the password is empty"},
		{"colon in username", func(c *Config) { basicConfig(c); c.Username = "a:b" }, "contains a colon"},
		{"both kinds of credentials", func(c *Config) {
			basicConfig(c)
			c.TokenURL, c.ClientID, c.ClientSecret = "http://127.0.0.1:1/oauth/token", "id", "secret"
		}, "set one of them"},
		{"plain http to a remote host", func(c *Config) { basicConfig(c); c.BaseURL = "http://broker.example.com:943" }, "plain http"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{BaseURL: "http://127.0.0.1:1"}
			tc.mutate(&cfg)
			_, err := New(cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New: %v, want an error containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "s3mp-pa55word") {
				t.Errorf("error contains the password: %v", err)
			}
		})
	}
}
