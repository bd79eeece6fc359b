package httpx

import (
	"context"
	"net/http"
	"testing"
)

// A call marked AtMostOnce is not repeated after an attempt that may have been carried out (no answer, or a
// 5xx): it fails with that attempt, so that the caller can find out what happened. Attempts refused before
// they were carried out (429) are repeated as for any call; an unmarked call repeats all of them.
func TestAtMostOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		first     func(t *testing.T, w http.ResponseWriter)
		marked    bool
		wantCalls int32
		wantErr   bool
		wantCode  int
	}{
		{"dropped", dropConnection, true, 1, true, 0},
		{"dropped, unmarked", dropConnection, false, 2, false, http.StatusOK},
		{"500", func(_ *testing.T, w http.ResponseWriter) { status(http.StatusInternalServerError, "{}")(w) }, true, 1, false, http.StatusInternalServerError},
		{"503, unmarked", func(_ *testing.T, w http.ResponseWriter) { status(http.StatusServiceUnavailable, "{}")(w) }, false, 2, false, http.StatusOK},
		{"429", func(_ *testing.T, w http.ResponseWriter) { status(http.StatusTooManyRequests, "{}")(w) }, true, 2, false, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ts := newTestServer(t, func(n int, w http.ResponseWriter, _ *http.Request) {
				if n == 1 {
					tc.first(t, w)
					return
				}
				_, _ = w.Write([]byte("{}"))
			})
			c := ts.client(func(cfg *Config) { cfg.TokenURL, cfg.ClientID, cfg.ClientSecret = "", "", "" })
			ctx := context.Background()
			if tc.marked {
				ctx = AtMostOnce(ctx)
			}
			resp, err := c.Do(ctx, http.MethodPut, "/copy", []byte("{}"), nil)
			if got := ts.apiCalls.Load(); got != tc.wantCalls {
				t.Errorf("%d attempts, want %d", got, tc.wantCalls)
			}
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want an error: %v", err, tc.wantErr)
			}
			if err != nil {
				if !MaybeSent(err) {
					t.Errorf("error %v does not say the request may have been sent", err)
				}
				return
			}
			if resp.StatusCode != tc.wantCode || (tc.marked && resp.EarlierAttemptMayHaveApplied) {
				t.Errorf("answer %d (earlier attempt may have applied: %v), want %d", resp.StatusCode, resp.EarlierAttemptMayHaveApplied, tc.wantCode)
			}
		})
	}
}
