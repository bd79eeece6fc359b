package emulator_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator"
)

func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
	s := start(t, emulator.Options{})
	id, secret := creds(t, s, emulator.AudienceManagement)

	r := fetchToken(t, s, id, secret)
	expect(t, r, http.StatusOK)
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
		TokenType   string `json:"token_type"`
	}
	r.json(t, &tok)
	if tok.AccessToken == "" || tok.TokenType != "bearer" || tok.ExpiresIn != 43199 {
		t.Fatalf("token answer %s, want access_token, token_type bearer, expires_in 43199", r.body)
	}
	if other := token(t, s, emulator.AudienceManagement); other == tok.AccessToken {
		t.Fatal("two token requests returned the same token")
	}

	t.Run("bad secret", func(t *testing.T) {
		t.Parallel()
		r := fetchToken(t, s, id, secret+"x")
		expect(t, r, http.StatusUnauthorized)
		if strings.Contains(string(r.body), secret) {
			t.Fatal("the error answer contains the secret")
		}
	})
	t.Run("unknown client", func(t *testing.T) {
		t.Parallel()
		expect(t, fetchToken(t, s, "nobody", secret), http.StatusUnauthorized)
	})
	t.Run("form-encoded basic credentials", func(t *testing.T) {
		t.Parallel()
		// golang.org/x/oauth2 escapes id and secret before Basic encoding (RFC 6749 2.3.1).
		expect(t, fetchToken(t, s, url.QueryEscape(id), url.QueryEscape(secret)), http.StatusOK)
	})
	t.Run("credentials in the body", func(t *testing.T) {
		t.Parallel()
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
		r := do(t, "POST", s.URL()+emulator.TokenPath, "", []byte(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		expect(t, r, http.StatusOK)
	})
	t.Run("wrong grant type", func(t *testing.T) {
		t.Parallel()
		form := url.Values{"grant_type": {"password"}, "client_id": {id}, "client_secret": {secret}}
		r := do(t, "POST", s.URL()+emulator.TokenPath, "", []byte(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		expect(t, r, http.StatusBadRequest)
	})
	t.Run("GET is refused", func(t *testing.T) {
		t.Parallel()
		expect(t, do(t, "GET", s.URL()+emulator.TokenPath, "", nil, nil), http.StatusMethodNotAllowed)
	})
}

func TestBearerChecks(t *testing.T) {
	t.Parallel()
	s := start(t, emulator.Options{})
	mtok := token(t, s, emulator.AudienceManagement)
	msgTok := token(t, s, emulator.AudienceMessaging)

	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", mtok, nil, nil), http.StatusOK)

	r := do(t, "GET", s.URL()+mgmt+"/queues", "", nil, nil)
	expect(t, r, http.StatusUnauthorized)
	if r.header.Get("WWW-Authenticate") == "" {
		t.Fatal("401 without WWW-Authenticate")
	}
	r = do(t, "GET", s.URL()+mgmt+"/queues", "not-a-token", nil, nil)
	expect(t, r, http.StatusUnauthorized)
	if !strings.Contains(r.header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("WWW-Authenticate %q lacks invalid_token", r.header.Get("WWW-Authenticate"))
	}
	// A messaging token may not call the management API, and the other way round.
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", msgTok, nil, nil), http.StatusForbidden)
	expect(t, do(t, "POST", mpath(s, "q", "/messages/consumption"), mtok, nil, map[string]string{"x-qos": "0"}), http.StatusForbidden)
	expect(t, do(t, "GET", s.URL()+mgmt+"/readinessCheck", mtok, nil, nil), http.StatusOK)
}

func TestExpireTokens(t *testing.T) {
	t.Parallel()
	s := start(t, emulator.Options{})
	tok := token(t, s, emulator.AudienceManagement)
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", tok, nil, nil), http.StatusOK)
	s.ExpireTokens()
	r := do(t, "GET", s.URL()+mgmt+"/queues", tok, nil, nil)
	expect(t, r, http.StatusUnauthorized)
	if r.header.Get("WWW-Authenticate") == "" {
		t.Fatal("401 without WWW-Authenticate")
	}
	// A fresh token works again.
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", token(t, s, emulator.AudienceManagement), nil, nil), http.StatusOK)

	// The control endpoint does the same.
	tok = token(t, s, emulator.AudienceManagement)
	expect(t, do(t, "POST", s.URL()+emulator.ControlBasePath+"/tokens/expire", "", nil, nil), http.StatusNoContent)
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", tok, nil, nil), http.StatusUnauthorized)
}

func TestTokenTTL(t *testing.T) {
	t.Parallel()
	clock := newClock()
	s := start(t, emulator.Options{TokenTTL: time.Hour, Now: clock.Now})
	tok := token(t, s, emulator.AudienceManagement)
	clock.Advance(59 * time.Minute)
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", tok, nil, nil), http.StatusOK)
	clock.Advance(time.Minute)
	expect(t, do(t, "GET", s.URL()+mgmt+"/queues", tok, nil, nil), http.StatusUnauthorized)
}

func TestOAuth2ClientCredentialsLibrary(t *testing.T) {
	t.Parallel()
	s := start(t, emulator.Options{})
	for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleAutoDetect, oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
		for _, aud := range []string{emulator.AudienceManagement, emulator.AudienceMessaging, emulator.AudienceCloudIntegration} {
			id, secret := creds(t, s, aud)
			if !strings.ContainsAny(id, "!|") || !strings.Contains(secret, "$") {
				t.Fatalf("credentials of %s are not XSUAA-shaped", aud)
			}
			cfg := clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: s.URL() + emulator.TokenPath, AuthStyle: style}
			tok, err := cfg.Token(context.Background())
			if err != nil {
				t.Fatalf("%s, auth style %d: %v", aud, style, err)
			}
			if tok.AccessToken == "" || tok.Expiry.IsZero() {
				t.Fatalf("%s: token %+v", aud, tok)
			}
		}
	}
	id, secret := creds(t, s, emulator.AudienceManagement)
	c := (&clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: s.URL() + emulator.TokenPath}).Client(context.Background())
	res, err := c.Get(s.URL() + mgmt + "/queues")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	bad := clientcredentials.Config{ClientID: id, ClientSecret: "wrong", TokenURL: s.URL() + emulator.TokenPath}
	if _, err := bad.Token(context.Background()); err == nil {
		t.Fatal("wrong secret accepted")
	}
}
