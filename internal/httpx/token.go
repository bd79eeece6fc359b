package httpx

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// tokenCache holds an oauth2.ReuseTokenSource; dropping the cached token
// replaces the source.
type tokenCache struct {
	c       *Client
	fetcher *tokenFetcher

	mu   sync.Mutex
	ts   oauth2.TokenSource
	gen  uint64
	last string
	// tok is the token ts last returned, from generation gen: while it is valid, get returns it
	// without asking ts, as ts itself would.
	tok *oauth2.Token
	// accepted is set once the API answered a request with a token other than 401: the
	// credentials work, so a later 401 to a new token means it expired meanwhile.
	accepted atomic.Bool
}

// tokenFetcher retrieves a new token on every call; ReuseTokenSource caches.
type tokenFetcher struct {
	c   *Client
	cc  *clientcredentials.Config
	ctx context.Context
}

func newTokenCache(c *Client, hc *http.Client) *tokenCache {
	cc := &clientcredentials.Config{
		ClientID:     c.cfg.ClientID,
		ClientSecret: c.cfg.ClientSecret,
		TokenURL:     c.cfg.TokenURL,
		AuthStyle:    oauth2.AuthStyleInHeader,
	}
	if c.cfg.ClientCertificate != "" {
		// Mutual TLS: the certificate authenticates the client, and the form
		// carries grant_type and client_id; no Basic header, no secret.
		cc.ClientSecret, cc.AuthStyle = "", oauth2.AuthStyleInParams
	}
	f := &tokenFetcher{
		c:   c,
		cc:  cc,
		ctx: context.WithValue(context.Background(), oauth2.HTTPClient, hc),
	}
	return &tokenCache{c: c, fetcher: f, ts: oauth2.ReuseTokenSource(nil, f), gen: 1}
}

// get returns a valid access token and the generation of the source it came
// from. It stops waiting when ctx is done; a fetch in progress still fills
// the cache.
func (tc *tokenCache) get(ctx context.Context) (string, uint64, error) {
	tc.mu.Lock()
	ts, gen, cached := tc.ts, tc.gen, tc.tok
	tc.mu.Unlock()
	// The common case: the token is cached and valid (oauth2.Token.Valid, the check
	// ReuseTokenSource makes), returned without the goroutine that lets a fetch be abandoned.
	if cached.Valid() {
		return cached.AccessToken, gen, nil
	}

	type result struct {
		tok *oauth2.Token
		err error
	}
	before := tc.c.tokenFetches.Load()
	start := time.Now()
	ch := make(chan result, 1)
	go func() {
		t, err := ts.Token()
		ch <- result{t, err}
	}()
	var r result
	select {
	case r = <-ch:
	case <-ctx.Done():
		return "", 0, fmt.Errorf("fetching an OAuth2 token: %w", ctx.Err())
	}
	if tc.c.tokenFetches.Load() != before {
		fields := map[string]any{"token_url_path": tokenURLPath(tc.c.cfg.TokenURL), "duration_ms": time.Since(start).Milliseconds()}
		if r.err != nil {
			fields["error"] = r.err.Error()
		}
		tflog.Debug(ctx, "Fetched OAuth2 token", fields)
	}
	if r.err != nil {
		return "", 0, r.err
	}
	if r.tok == nil || r.tok.AccessToken == "" {
		return "", 0, errors.New("the OAuth2 token endpoint answered without an access token; check the token URL of the service key")
	}
	tc.mu.Lock()
	if tc.gen == gen {
		tc.last, tc.tok = r.tok.AccessToken, r.tok
	}
	tc.mu.Unlock()
	return r.tok.AccessToken, gen, nil
}

// invalidate drops the cached token if it still comes from generation gen.
func (tc *tokenCache) invalidate(gen uint64) {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	if tc.gen != gen {
		return
	}
	tc.gen++
	tc.ts, tc.tok = oauth2.ReuseTokenSource(nil, tc.fetcher), nil
}

// replaced reports whether the token tok of generation gen is no longer the one get hands out:
// another call dropped it (a new generation) or the source replaced it with a new one.
func (tc *tokenCache) replaced(gen uint64, tok string) bool {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.gen != gen || (tc.tok != nil && tc.tok.AccessToken != tok)
}

func (tc *tokenCache) current() string {
	tc.mu.Lock()
	defer tc.mu.Unlock()
	return tc.last
}

func (f *tokenFetcher) Token() (*oauth2.Token, error) {
	f.c.tokenFetches.Add(1)
	st := &callState{}
	tok, err := f.cc.Token(context.WithValue(f.ctx, callKey{}, st))
	if err != nil {
		return nil, f.c.tokenError(err, int(st.attempts.Load()))
	}
	return tok, nil
}

// tokenError describes a failed token fetch without the response body, the
// client secret or the token.
func (c *Client) tokenError(err error, attempts int) error {
	where := tokenURLPath(c.cfg.TokenURL)
	if u, perr := url.Parse(c.cfg.TokenURL); perr == nil {
		where = u.Scheme + "://" + u.Host + u.Path
	}
	tries := ""
	if attempts > 1 {
		tries = fmt.Sprintf(" after %d attempts", attempts)
	}
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := "an error"
		code := 0
		if re.Response != nil {
			code = re.Response.StatusCode
			status = statusText(code)
		}
		msg := fmt.Sprintf("fetching an OAuth2 token from %s failed%s: the token endpoint answered %s", where, tries, status)
		if re.ErrorCode != "" {
			msg += fmt.Sprintf(" (%s", re.ErrorCode)
			if re.ErrorDescription != "" {
				msg += ": " + truncate(re.ErrorDescription, 200)
			}
			msg += ")"
		}
		switch {
		case code == http.StatusUnauthorized || code == http.StatusBadRequest || re.ErrorCode == "invalid_client" || re.ErrorCode == "unauthorized":
			if c.cfg.ClientCertificate != "" {
				msg += "; check the client ID and certificate of the service key (a certificate expires: create a new service key when it has)"
			} else {
				msg += "; check the client ID and client secret of the service key"
			}
		case code == http.StatusNotFound:
			msg += "; check the token URL of the service key"
		}
		return &TokenError{StatusCode: code, msg: c.scrub(msg)}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return &TokenError{msg: c.scrub(fmt.Sprintf("fetching an OAuth2 token from %s failed%s: %v", where, tries, err)), err: err}
}

// TokenError is a failed OAuth2 token fetch.
type TokenError struct {
	// StatusCode is the token endpoint's answer, 0 for a transport failure.
	StatusCode int
	msg        string
	err        error
}

// Error describes the failure without secrets.
func (e *TokenError) Error() string { return e.msg }

// Unwrap returns the transport error, if any.
func (e *TokenError) Unwrap() error { return e.err }

func tokenURLPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}
