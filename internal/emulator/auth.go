package emulator

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

// oauthClient is one OAuth client of the emulated XSUAA.
type oauthClient struct {
	Audience string `json:"audience"`
	ID       string `json:"clientid"`
	Secret   string `json:"clientsecret"`
	// cert is the client certificate of certificate keys, issued at start.
	cert *issued
}

// tokenService is the room of the emulated XSUAA: the OAuth clients of the
// service keys, the token endpoint that issues their access tokens, the
// bearer check every API runs, and, for certificate keys or
// Options.TokenHost, the extra listener (HTTPS with mutual TLS) the token
// endpoint answers on.
type tokenService struct {
	*core
	// apiURL is the base URL of the API listener (Server.URL).
	apiURL func() string

	clients  map[string]*oauthClient // audience -> client; fixed after New
	instance instanceInfo
	mu       sync.Mutex // guards tokens and expired
	tokens   map[string]tokenInfo
	// expired holds the access tokens invalidated by token-expiry faults.
	expired []string

	ca      *CA
	certErr error

	lnMu   sync.Mutex // guards the token listener
	srv    *http.Server
	url    string
	served chan struct{}
}

func newTokenService(c *core, apiURL func() string) *tokenService {
	return &tokenService{core: c, apiURL: apiURL, clients: map[string]*oauthClient{}, tokens: map[string]tokenInfo{}, ca: c.opts.CA}
}

type tokenInfo struct {
	audience string
	expires  time.Time
}

// instanceInfo identifies the emulated service instances.
type instanceInfo struct {
	ServiceInstanceID string `json:"serviceinstanceid"`
	XSAppName         string `json:"xsappname"`
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// randomSecret returns a secret shaped like an XSUAA one: "<uuid>$<base64url>=".
// The '$' and '=' make clients prove that they form-encode Basic credentials correctly.
func randomSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return randomUUID() + "$" + base64.RawURLEncoding.EncodeToString(b) + "="
}

// ensureIdentity creates whatever client or instance identity the loaded state lacks.
func (s *tokenService) ensureIdentity() {
	if s.instance.ServiceInstanceID == "" {
		s.instance.ServiceInstanceID = randomUUID()
	}
	if s.instance.XSAppName == "" {
		id := strings.ReplaceAll(s.instance.ServiceInstanceID, "-", "")
		s.instance.XSAppName = "clone" + id[:min(len(id), 24)] + "!b12345|xbem-service-broker-!b2436"
	}
	ids := map[string]string{
		AudienceManagement:       "sb-default-" + s.instance.ServiceInstanceID + "-clone!b12345|xbem-service-broker-!b2436",
		AudienceMessaging:        "sb-default-" + s.instance.ServiceInstanceID + "-messaging-clone!b12345|xbem-service-broker-!b2436",
		AudienceCloudIntegration: "sb-" + randomUUID() + "!b67890|it!b117912",
	}
	for _, aud := range []string{AudienceManagement, AudienceMessaging, AudienceCloudIntegration} {
		if c, ok := s.clients[aud]; ok && c.ID != "" && c.Secret != "" {
			continue
		}
		s.clients[aud] = &oauthClient{Audience: aud, ID: ids[aud], Secret: randomSecret()}
	}
}

// client returns the credentials of the OAuth client for audience.
func (s *tokenService) client(audience string) oauthClient {
	if c, ok := s.clients[audience]; ok {
		return *c
	}
	return oauthClient{}
}

// matchClient returns the audience of the client with these credentials. It
// accepts them raw and form-decoded (RFC 6749 section 2.3.1).
func (s *tokenService) matchClient(id, secret string) (string, bool) {
	try := func(id, secret string) (string, bool) {
		for aud, c := range s.clients {
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

// mountTokenEndpoint registers POST /oauth/token on mux.
func (s *tokenService) mountTokenEndpoint(mux *http.ServeMux) {
	mux.HandleFunc("POST "+TokenPath, s.handleToken)
	s.labels["POST "+TokenPath] = "POST " + TokenPath
}

// handleToken implements POST /oauth/token with the client credentials grant.
func (s *tokenService) handleToken(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		respondJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request", "error_description": "The request body is not a valid form."})
		return
	}
	if gt := r.Form.Get("grant_type"); gt != "client_credentials" {
		respondJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type", "error_description": fmt.Sprintf("The grant type %q is not supported; set grant_type=client_credentials.", gt)})
		return
	}
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	var aud string
	var ok bool
	switch {
	case s.opts.KeyType.certificates():
		// Certificate clients authenticate with the certificate in the TLS
		// handshake (mutual TLS) and name themselves with client_id in the form.
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			w.Header().Set("WWW-Authenticate", `Basic realm="UAA/client", error="unauthorized", error_description="Client certificate required"`)
			respondJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized",
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
		respondJSON(w, http.StatusUnauthorized, map[string]string{"error": "unauthorized", "error_description": "Bad credentials"})
		return
	}
	token := randomHex(32)
	ttl := s.opts.TokenTTL
	s.mu.Lock()
	now := s.now()
	if len(s.tokens) > 10000 {
		for t, info := range s.tokens {
			if !now.Before(info.expires) {
				delete(s.tokens, t)
			}
		}
	}
	s.tokens[token] = tokenInfo{audience: aud, expires: now.Add(ttl)}
	s.mu.Unlock()
	s.stats.countTokenIssued()

	expiresIn := int64(ttl/time.Second) - 1
	if expiresIn < 1 {
		expiresIn = 1
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	respondJSON(w, http.StatusOK, map[string]any{
		"access_token": token,
		"token_type":   "bearer",
		"expires_in":   expiresIn,
	})
}

// ExpireTokens invalidates every issued access token; clients must fetch new ones.
func (s *tokenService) ExpireTokens() {
	s.mu.Lock()
	clear(s.tokens)
	s.mu.Unlock()
}

type authResult int

const (
	authOK authResult = iota
	authMissing
	authInvalid
	authWrongAudience
)

// checkBearer checks that r carries a valid, unexpired bearer token issued to
// the client of audience ("management", "messaging" or "cloudintegration").
func (s *tokenService) checkBearer(r *http.Request, audience string) authResult {
	h := r.Header.Get("Authorization")
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return authMissing
	}
	token = strings.TrimSpace(token)
	s.mu.Lock()
	info, found := s.tokens[token]
	if found && !s.now().Before(info.expires) {
		delete(s.tokens, token)
		found = false
	}
	s.mu.Unlock()
	if !found {
		return authInvalid
	}
	if info.audience != audience {
		return authWrongAudience
	}
	return authOK
}

// challenge sets the WWW-Authenticate header of a 401 answer for r.
func (s *tokenService) challenge(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Header.Get("Authorization") == "":
		w.Header().Set("WWW-Authenticate", `Bearer realm="emulator"`)
	default:
		w.Header().Set("WWW-Authenticate", `Bearer realm="emulator", error="invalid_token", error_description="The access token is invalid or expired."`)
	}
}

// requireAuth wraps h with the bearer check for audience. Missing, unknown or
// expired tokens get 401 with WWW-Authenticate; a token of another client gets 403.
func (s *tokenService) requireAuth(audience string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch s.checkBearer(r, audience) {
		case authOK:
			h(w, r)
		case authWrongAudience:
			w.Header().Set("WWW-Authenticate", `Bearer realm="emulator", error="insufficient_scope"`)
			respondMessage(w, http.StatusForbidden, fmt.Sprintf("The access token was issued to a client that may not call this API; use the credentials of the %s part of the service key.", audience))
		default:
			s.challenge(w, r)
			respondMessage(w, http.StatusUnauthorized, "Full authentication is required to access this resource.")
		}
	}
}

// expireTokensRecorded expires all access tokens like ExpireTokens and
// remembers them for IssuedTokens.
func (s *tokenService) expireTokensRecorded() {
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
func (s *tokenService) IssuedTokens() []string {
	s.mu.Lock()
	out := append([]string(nil), s.expired...)
	for t := range s.tokens {
		out = append(out, t)
	}
	s.mu.Unlock()
	return out
}
