package eventmesh

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestWebhookLifecycleAgainstEmulator(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := t.Context()
	queue := e.key.Namespace + "/orders"
	if _, _, err := e.mgmt.PutQueue(ctx, queue, QueueSettings{}); err != nil {
		t.Fatal(err)
	}
	ep := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodOptions {
			w.Header().Set("WebHook-Allowed-Origin", r.Header.Get("WebHook-Request-Origin"))
		}
	}))
	t.Cleanup(ep.Close)
	spec := WebhookSpec{Name: queue + "/hook", Queue: queue, QoS: 1, Endpoint: ep.URL, DefaultContentType: "application/json",
		OAuth2: &WebhookOAuth2{ClientID: "c", ClientSecret: "never-shown", TokenURL: ep.URL + "/token"}}
	w, err := e.messaging.CreateWebhook(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != spec.Name || w.Queue != queue || w.QoS != 1 || w.Endpoint != ep.URL || w.OAuth2 == nil ||
		w.OAuth2.ClientID != "c" || w.OAuth2.ClientSecret != "" || w.State != WebhookActive {
		t.Fatalf("created = %+v", w)
	}
	if _, err := e.messaging.CreateWebhook(ctx, spec); !errors.Is(err, ErrWebhookExists) {
		t.Fatalf("second create: %v, want ErrWebhookExists", err)
	}
	if err := e.messaging.SetWebhookPaused(ctx, spec.Name, true); err != nil {
		t.Fatal(err)
	}
	w, err = e.messaging.GetWebhook(ctx, spec.Name)
	if err != nil {
		t.Fatal(err)
	}
	if p, known := w.Paused(); !p || !known {
		t.Fatalf("paused = %v, %v after pause", p, known)
	}
	if err := e.messaging.SetWebhookPaused(ctx, spec.Name, false); err != nil {
		t.Fatal(err)
	}
	if err := e.messaging.RequestHandshake(ctx, spec.Name); err != nil {
		t.Fatal(err)
	}
	list, err := e.messaging.ListWebhooks(ctx)
	if err != nil || len(list) != 1 || list[0].Name != spec.Name {
		t.Fatalf("list = %+v, %v", list, err)
	}
	if err := e.messaging.DeleteWebhook(ctx, spec.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := e.messaging.GetWebhook(ctx, spec.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get after delete: %v, want ErrNotFound", err)
	}
	if err := e.messaging.DeleteWebhook(ctx, spec.Name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete after delete: %v, want ErrNotFound", err)
	}
	if err := e.messaging.SetWebhookPaused(ctx, spec.Name, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("pause after delete: %v, want ErrNotFound", err)
	}
}

func TestCreateBodyFollowsSAPsClients(t *testing.T) {
	t.Parallel()
	b, err := WebhookSpec{Name: "n", Queue: "a/b/c/q", QoS: 1, Endpoint: "https://x", ExemptHandshake: true,
		OAuth2: &WebhookOAuth2{ClientID: "id", ClientSecret: "s", TokenURL: "https://t"}}.CreateBody()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"n","address":"queue:a/b/c/q","qos":1,"pushConfig":{"type":"webhook","endpoint":"https://x","exemptHandshake":true,` +
		`"securitySchema":{"type":"oauth2","grantType":"client_credentials","clientId":"id","clientSecret":"s","tokenUrl":"https://t"}}}`
	if string(b) != want {
		t.Fatalf("body\n%s\nwant\n%s", b, want)
	}
}

func TestDecodeWebhookLeniently(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body            string
		state, handshake, q   string
		qos                   int
		exempt, oauth, paused bool
		known                 bool
	}{
		{"emulator form", `{"name":"n","address":"queue:a/b","qos":1,"pushConfig":{"endpoint":"https://e","exemptHandshake":true},"subscriptionState":"ACTIVE","handshakeStatus":"EXEMPTED"}`,
			WebhookActive, HandshakeExempted, "a/b", 1, true, false, false, true},
		{"words and strings", `{"name":"n","address":"queue:a","qos":"0","pushConfig":{"excemptHandShake":"true","securitySchema":{"type":"oauth2","clientId":"c"}},"state":"Paused","handshake":{"status":"Not Initiated"}}`,
			WebhookPaused, HandshakeNotInitiated, "a", 0, true, true, true, true},
		{"status names", `{"name":"n","address":"a","subscriptionStatus":"active","pushConfig":{"handshakeStatus":"completed"},"extra":[1,2]}`,
			WebhookActive, HandshakeCompleted, "a", 0, false, false, false, true},
		{"nothing known", `{"name":"n"}`, "", "", "", 0, false, false, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w, err := DecodeWebhook([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			p, known := w.Paused()
			if w.State != tc.state || w.HandshakeStatus != tc.handshake || w.Queue != tc.q || w.QoS != tc.qos ||
				w.ExemptHandshake != tc.exempt || (w.OAuth2 != nil) != tc.oauth || p != tc.paused || known != tc.known {
				t.Fatalf("decoded %+v (paused %v, known %v)", w, p, known)
			}
		})
	}
	if _, err := DecodeWebhook([]byte(`[1]`)); err == nil || !strings.Contains(err.Error(), "not a subscription") {
		t.Fatalf("a list decoded as a subscription: %v", err)
	}
}
