package core_test

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
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/emulatortest"
)

func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	id, secret := emulatortest.Creds(t, s, emulator.AudienceManagement)

	r := emulatortest.FetchToken(t, s, id, secret)
	emulatortest.Expect(t, r, http.StatusOK)
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
		TokenType   string `json:"token_type"`
	}
	r.JSON(t, &tok)
	if tok.AccessToken == "" || tok.TokenType != "bearer" || tok.ExpiresIn != 43199 {
		t.Fatalf("token answer %s, want access_token, token_type bearer, expires_in 43199", r.Body)
	}
	if other := emulatortest.Token(t, s, emulator.AudienceManagement); other == tok.AccessToken {
		t.Fatal("two token requests returned the same token")
	}

	t.Run("bad secret", func(t *testing.T) {
		t.Parallel()
		r := emulatortest.FetchToken(t, s, id, secret+"x")
		emulatortest.Expect(t, r, http.StatusUnauthorized)
		if strings.Contains(string(r.Body), secret) {
			t.Fatal("the error answer contains the secret")
		}
	})
	t.Run("unknown client", func(t *testing.T) {
		t.Parallel()
		emulatortest.Expect(t, emulatortest.FetchToken(t, s, "nobody", secret), http.StatusUnauthorized)
	})
	t.Run("form-encoded basic credentials", func(t *testing.T) {
		t.Parallel()
		// golang.org/x/oauth2 escapes id and secret before Basic encoding (RFC 6749 2.3.1).
		emulatortest.Expect(t, emulatortest.FetchToken(t, s, url.QueryEscape(id), url.QueryEscape(secret)), http.StatusOK)
	})
	t.Run("credentials in the body", func(t *testing.T) {
		t.Parallel()
		form := url.Values{"grant_type": {"client_credentials"}, "client_id": {id}, "client_secret": {secret}}
		r := emulatortest.Do(t, "POST", s.URL()+emulator.TokenPath, "", []byte(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		emulatortest.Expect(t, r, http.StatusOK)
	})
	t.Run("wrong grant type", func(t *testing.T) {
		t.Parallel()
		form := url.Values{"grant_type": {"password"}, "client_id": {id}, "client_secret": {secret}}
		r := emulatortest.Do(t, "POST", s.URL()+emulator.TokenPath, "", []byte(form.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded"})
		emulatortest.Expect(t, r, http.StatusBadRequest)
	})
	t.Run("GET is refused", func(t *testing.T) {
		t.Parallel()
		emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulator.TokenPath, "", nil, nil), http.StatusMethodNotAllowed)
	})
}

func TestBearerChecks(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	mtok := emulatortest.Token(t, s, emulator.AudienceManagement)
	msgTok := emulatortest.Token(t, s, emulator.AudienceMessaging)

	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", mtok, nil, nil), http.StatusOK)

	r := emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", "", nil, nil)
	emulatortest.Expect(t, r, http.StatusUnauthorized)
	if r.Header.Get("WWW-Authenticate") == "" {
		t.Fatal("401 without WWW-Authenticate")
	}
	r = emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", "not-a-token", nil, nil)
	emulatortest.Expect(t, r, http.StatusUnauthorized)
	if !strings.Contains(r.Header.Get("WWW-Authenticate"), "invalid_token") {
		t.Fatalf("WWW-Authenticate %q lacks invalid_token", r.Header.Get("WWW-Authenticate"))
	}
	// A messaging token may not call the management API, and the other way round.
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", msgTok, nil, nil), http.StatusForbidden)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", emulatortest.MPath(s, "q", "/messages/consumption"), mtok, nil, map[string]string{"x-qos": "0"}), http.StatusForbidden)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/readinessCheck", mtok, nil, nil), http.StatusOK)
}

func TestExpireTokens(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusOK)
	s.ExpireTokens()
	r := emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil)
	emulatortest.Expect(t, r, http.StatusUnauthorized)
	if r.Header.Get("WWW-Authenticate") == "" {
		t.Fatal("401 without WWW-Authenticate")
	}
	// A fresh token works again.
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", emulatortest.Token(t, s, emulator.AudienceManagement), nil, nil), http.StatusOK)

	// The control endpoint does the same.
	tok = emulatortest.Token(t, s, emulator.AudienceManagement)
	emulatortest.Expect(t, emulatortest.Do(t, "POST", s.URL()+emulator.ControlBasePath+"/tokens/expire", "", nil, nil), http.StatusNoContent)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusUnauthorized)
}

func TestTokenTTL(t *testing.T) {
	t.Parallel()
	clock := emulatortest.NewClock()
	s := emulatortest.StartServer(t, emulator.Options{TokenTTL: time.Hour, Now: clock.Now})
	tok := emulatortest.Token(t, s, emulator.AudienceManagement)
	clock.Advance(59 * time.Minute)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusOK)
	clock.Advance(time.Minute)
	emulatortest.Expect(t, emulatortest.Do(t, "GET", s.URL()+emulatortest.MgmtPath+"/queues", tok, nil, nil), http.StatusUnauthorized)
}

func TestOAuth2ClientCredentialsLibrary(t *testing.T) {
	t.Parallel()
	s := emulatortest.StartServer(t, emulator.Options{})
	for _, style := range []oauth2.AuthStyle{oauth2.AuthStyleAutoDetect, oauth2.AuthStyleInHeader, oauth2.AuthStyleInParams} {
		for _, aud := range []string{emulator.AudienceManagement, emulator.AudienceMessaging, emulator.AudienceCloudIntegration} {
			id, secret := emulatortest.Creds(t, s, aud)
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
	id, secret := emulatortest.Creds(t, s, emulator.AudienceManagement)
	c := (&clientcredentials.Config{ClientID: id, ClientSecret: secret, TokenURL: s.URL() + emulator.TokenPath}).Client(context.Background())
	res, err := c.Get(s.URL() + emulatortest.MgmtPath + "/queues")
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
