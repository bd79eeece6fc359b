package core

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// OAuthClient is one OAuth client of the emulated XSUAA.
type OAuthClient struct {
	Audience string `json:"audience"`
	ID       string `json:"clientid"`
	Secret   string `json:"clientsecret"`
	// cert is the client certificate of certificate keys, issued at start.
	cert *issued
}

// TokenService is the room of the emulated XSUAA: the OAuth clients of the
// service keys, the token endpoint that issues their access tokens, the
// bearer check every API runs, and, for certificate keys or
// Options.TokenHost, the extra listener (HTTPS with mutual TLS) the token
// endpoint answers on.
type TokenService struct {
	*Core
	// apiURL is the base URL of the API listener (Server.URL).
	apiURL func() string

	Clients  map[string]*OAuthClient // audience -> client; fixed after New
	Instance InstanceInfo
	mu       sync.Mutex // guards tokens and expired
	tokens   map[string]tokenInfo
	// expired holds the access tokens invalidated by token-expiry faults.
	expired []string

	ca      *CA
	CertErr error

	lnMu   sync.Mutex // guards the token listener
	srv    *http.Server
	url    string
	served chan struct{}
}

func NewTokenService(c *Core, apiURL func() string) *TokenService {
	return &TokenService{Core: c, apiURL: apiURL, Clients: map[string]*OAuthClient{}, tokens: map[string]tokenInfo{}, ca: c.Opts.CA}
}

type tokenInfo struct {
	audience string
	expires  time.Time
}

// InstanceInfo identifies the emulated service instances.
type InstanceInfo struct {
	ServiceInstanceID string `json:"serviceinstanceid"`
	XSAppName         string `json:"xsappname"`
}

func RandomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func RandomUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// RandomSecret returns a secret shaped like an XSUAA one: "<uuid>$<base64url>=".
// The '$' and '=' make clients prove that they form-encode Basic credentials correctly.
func RandomSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return RandomUUID() + "$" + base64.RawURLEncoding.EncodeToString(b) + "="
}

// EnsureIdentity creates whatever client or instance identity the loaded state lacks.
func (s *TokenService) EnsureIdentity() {
	if s.Instance.ServiceInstanceID == "" {
		s.Instance.ServiceInstanceID = RandomUUID()
	}
	if s.Instance.XSAppName == "" {
		id := strings.ReplaceAll(s.Instance.ServiceInstanceID, "-", "")
		s.Instance.XSAppName = "clone" + id[:min(len(id), 24)] + "!b12345|xbem-service-broker-!b2436"
	}
	ids := map[string]string{
		AudienceManagement:       "sb-default-" + s.Instance.ServiceInstanceID + "-clone!b12345|xbem-service-broker-!b2436",
		AudienceMessaging:        "sb-default-" + s.Instance.ServiceInstanceID + "-messaging-clone!b12345|xbem-service-broker-!b2436",
		AudienceCloudIntegration: "sb-" + RandomUUID() + "!b67890|it!b117912",
	}
	for _, aud := range []string{AudienceManagement, AudienceMessaging, AudienceCloudIntegration} {
		if c, ok := s.Clients[aud]; ok && c.ID != "" && c.Secret != "" {
			continue
		}
		s.Clients[aud] = &OAuthClient{Audience: aud, ID: ids[aud], Secret: RandomSecret()}
	}
}

// Client returns the credentials of the OAuth client for audience.
func (s *TokenService) Client(audience string) OAuthClient {
	if c, ok := s.Clients[audience]; ok {
		return *c
	}
	return OAuthClient{}
}

// matchClient returns the audience of the client with these credentials. It
// accepts them raw and form-decoded (RFC 6749 section 2.3.1).
func (s *TokenService) matchClient(id, secret string) (string, bool) {
	try := func(id, secret string) (string, bool) {
		for aud, c := range s.Clients {
			idOK := subtle.ConstantTimeCompare([]byte(id), []byte(c.ID)) == 1
			secretOK := subtle.ConstantTimeCompare([]byte(secret), []byte(c.Secret)) == 1
			if idOK && secretOK {
				return aud, true
			}
		}
		return "", false
	}
	if aud, ok := try(id, secret); ok {
		return aud, true
	}
	did, err1 := url.QueryUnescape(id)
	dsecret, err2 := url.QueryUnescape(secret)
	if err1 != nil || err2 != nil {
		return "", false
	}
	return try(did, dsecret)
}

// Mount registers POST /oauth/token on mux.
func (s *TokenService) Mount(mux *http.ServeMux) {
	mux.HandleFunc("POST "+TokenPath, s.handleToken)
	s.Labels["POST "+TokenPath] = "POST " + TokenPath
}

// handleToken implements POST /oauth/token with the client credentials grant.
func (s *TokenService) handleToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		RespondJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "The request body is not a valid form."})
		return
	}
	if gt := r.Form.Get("grant_type"); gt != "client_credentials" {
		RespondJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type", "error_description": fmt.Sprintf("The grant type %q is not supported; set grant_type=client_credentials.", gt)})
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	var aud string
	var ok bool
	switch {
	case s.Opts.KeyType.certificates():
		// Certificate clients authenticate with the certificate in the TLS
		// handshake (mutual TLS) and name themselves with client_id in the form.
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			w.Header().Set("WWW-Authenticate", `Basic realm="UAA/client", error="unauthorized", error_description="Client certificate required"`)
			RespondJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized",
				"error_description": "This client authenticates with its X.509 certificate: send the token request over TLS with the client certificate of the service key."})
			return
		}
		aud, ok = s.matchCertificateClient(r.PostForm.Get("client_id"), r.TLS.PeerCertificates[0])
		id = r.PostForm.Get("client_id")
	default:
		aud, ok = s.matchClient(id, secret)
	}
	if !ok || id == "" {
		w.Header().Set("WWW-Authenticate", `Basic realm="UAA/client", error="unauthorized", error_description="Bad credentials"`)
		RespondJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "error_description": "Bad credentials"})
		return
	}
	token := RandomHex(32)
	ttl := s.Opts.TokenTTL
	s.mu.Lock()
	now := s.Now()
	if len(s.tokens) > 10000 {
		for t, info := range s.tokens {
			if !now.Before(info.expires) {
				delete(s.tokens, t)
			}
		}
	}
	s.tokens[token] = tokenInfo{audience: aud, expires: now.Add(ttl)}
	s.mu.Unlock()
	s.Counters.countTokenIssued()

	expiresIn := int64(ttl/time.Second) - 1
	if expiresIn < 1 {
		expiresIn = 1
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	RespondJSON(w, http.StatusOK, map[string]any{
		"access_token": token,
		"token_type":   "bearer",
		"expires_in":   expiresIn,
	})
}

// ExpireTokens invalidates every issued access token; clients must fetch new ones.
func (s *TokenService) ExpireTokens() {
	s.mu.Lock()
	clear(s.tokens)
	s.mu.Unlock()
}

type AuthResult int

const (
	AuthOK AuthResult = iota
	AuthMissing
	AuthInvalid
	AuthWrongAudience
)

// CheckBearer checks that r carries a valid, unexpired bearer token issued to
// the client of audience ("management", "messaging" or "cloudintegration").
func (s *TokenService) CheckBearer(r *http.Request, audience string) AuthResult {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return AuthMissing
	}
	token = strings.TrimSpace(token)
	s.mu.Lock()
	info, found := s.tokens[token]
	if found && !s.Now().Before(info.expires) {
		delete(s.tokens, token)
		found = false
	}
	s.mu.Unlock()
	if !found {
		return AuthInvalid
	}
	if info.audience != audience {
		return AuthWrongAudience
	}
	return AuthOK
}

// Challenge sets the WWW-Authenticate header of a 401 answer for r.
func (s *TokenService) Challenge(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Header.Get("Authorization") == "":
		w.Header().Set("WWW-Authenticate", `Bearer realm="emulator"`)
	default:
		w.Header().Set("WWW-Authenticate", `Bearer realm="emulator", error="invalid_token", error_description="The access token is invalid or expired."`)
	}
}

// RequireAuth wraps h with the bearer check for audience. Missing, unknown or
// expired tokens get 401 with WWW-Authenticate; a token of another client gets 403.
func (s *TokenService) RequireAuth(audience string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch s.CheckBearer(r, audience) {
		case AuthOK:
			h(w, r)
		case AuthWrongAudience:
			w.Header().Set("WWW-Authenticate", `Bearer realm="emulator", error="insufficient_scope"`)
			RespondMessage(w, http.StatusForbidden, fmt.Sprintf("The access token was issued to a client that may not call this API; use the credentials of the %s part of the service key.", audience))
		default:
			s.Challenge(w, r)
			RespondMessage(w, http.StatusUnauthorized, "Full authentication is required to access this resource.")
		}
	}
}

// expireTokensRecorded expires all access tokens like ExpireTokens and
// remembers them for IssuedTokens.
func (s *TokenService) expireTokensRecorded() {
	s.mu.Lock()
	old := make([]string, 0, len(s.tokens))
	for t := range s.tokens {
		old = append(old, t)
	}
	clear(s.tokens)
	s.expired = append(s.expired, old...)
	s.mu.Unlock()
}

// IssuedTokens returns the access tokens that are valid now and those that
// injected token-expiry faults invalidated, so that tests can check that no
// token shows up in logs or error messages.
func (s *TokenService) IssuedTokens() []string {
	s.mu.Lock()
	out := append([]string(nil), s.expired...)
	for t := range s.tokens {
		out = append(out, t)
	}
	s.mu.Unlock()
	return out
}

// Certificate returns the PEM client certificate and private key of a
// certificate key's client; ok is false for a client with a secret.
func (c OAuthClient) Certificate() (certPEM, keyPEM string, ok bool) {
	if c.cert == nil {
		return "", "", false
	}
	return c.cert.certPEM, c.cert.keyPEM, true
}
