package rules

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// goodWebhook passes every rule: QoS 1 to an https endpoint with authentication, on a queue
// with a dead message queue and 2 redeliveries.
func goodWebhook() Webhook {
	return Webhook{
		QoS: Known[int64](1), AcceptMessageLoss: Known(false), Endpoint: Known("https://orders.example.com/events"),
		ExemptHandshake: Known(false), HasAuthentication: Known(true),
		Queue: Known("acme/crm/prod/orders"), QueueDeadMessageQueue: Known("acme/crm/prod/orders/dmq"),
		QueueMaxRedeliveryCount: Known[int64](2), QueueTTLSeconds: Known[int64](604800),
	}
}

func webhookWith(change func(*Webhook)) Webhook {
	w := goodWebhook()
	change(&w)
	return w
}

func TestCheckWebhook(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		w    Webhook
		want []string // rule IDs, errors and warnings in order
	}{
		{"good", goodWebhook(), nil},
		{"all unknown", Webhook{}, nil},
		{"qos 0 refused", webhookWith(func(w *Webhook) { w.QoS = Known[int64](0) }), []string{"webhook.qos0_loses_messages"}},
		{"qos 0 with `accept_message_loss` null", webhookWith(func(w *Webhook) { w.QoS, w.AcceptMessageLoss = Known[int64](0), Null[bool]() }),
			[]string{"webhook.qos0_loses_messages"}},
		{"qos 0 accepted", webhookWith(func(w *Webhook) { w.QoS, w.AcceptMessageLoss = Known[int64](0), Known(true) }),
			[]string{"webhook.qos0_loses_messages_accepted"}},
		{"accept message loss, qos 1", webhookWith(func(w *Webhook) { w.AcceptMessageLoss = Known(true) }),
			[]string{"webhook.accept_message_loss_unused"}},
		{"accept message loss, qos unknown", webhookWith(func(w *Webhook) { w.QoS, w.AcceptMessageLoss = Unknown[int64](), Known(true) }), nil},
		{"qos 0, acceptance unknown", webhookWith(func(w *Webhook) { w.QoS, w.AcceptMessageLoss = Known[int64](0), Unknown[bool]() }), nil},
		{"qos 2", webhookWith(func(w *Webhook) { w.QoS = Known[int64](2) }), []string{"webhook.qos_range"}},
		{"http endpoint", webhookWith(func(w *Webhook) { w.Endpoint = Known("http://orders.example.com/events") }),
			[]string{"webhook.endpoint_not_https"}},
		{"http loopback", webhookWith(func(w *Webhook) { w.Endpoint = Known("http://127.0.0.1:8080/hook") }), nil},
		{"http endpoint allowed", webhookWith(func(w *Webhook) {
			w.Endpoint, w.AllowHTTPEndpoint = Known("http://orders.example.com/events"), true
		}), []string{"webhook.endpoint_not_https_allowed"}},
		{"allow http endpoint, https", webhookWith(func(w *Webhook) { w.AllowHTTPEndpoint = true }), []string{"webhook.allow_http_endpoint_unused"}},
		{"allow http endpoint, loopback", webhookWith(func(w *Webhook) {
			w.Endpoint, w.AllowHTTPEndpoint = Known("http://127.0.0.1:8080/hook"), true
		}), []string{"webhook.allow_http_endpoint_unused"}},
		{"allow http endpoint, endpoint unknown", webhookWith(func(w *Webhook) { w.Endpoint, w.AllowHTTPEndpoint = Unknown[string](), true }), nil},
		{"http localhost", webhookWith(func(w *Webhook) { w.Endpoint = Known("http://localhost/hook") }), nil},
		{"http ::1", webhookWith(func(w *Webhook) { w.Endpoint = Known("http://[::1]:80/hook") }), nil},
		{"not a URL", webhookWith(func(w *Webhook) { w.Endpoint = Known("orders.example.com/events") }), []string{"webhook.endpoint_invalid"}},
		{"ftp", webhookWith(func(w *Webhook) { w.Endpoint = Known("ftp://orders.example.com/") }), []string{"webhook.endpoint_invalid"}},
		{"exempt without auth", webhookWith(func(w *Webhook) { w.ExemptHandshake, w.HasAuthentication = Known(true), Known(false) }),
			[]string{"webhook.exempt_without_auth"}},
		{"exempt with auth", webhookWith(func(w *Webhook) { w.ExemptHandshake = Known(true) }), nil},
		{"exempt without auth allowed", webhookWith(func(w *Webhook) {
			w.ExemptHandshake, w.HasAuthentication, w.AllowExemptWithoutAuth = Known(true), Known(false), true
		}), []string{"webhook.exempt_without_auth_allowed"}},
		{"allow exempt without auth, with auth", webhookWith(func(w *Webhook) {
			w.ExemptHandshake, w.AllowExemptWithoutAuth = Known(true), true
		}), []string{"webhook.allow_exempt_without_auth_unused"}},
		{"allow exempt without auth, handshake kept", webhookWith(func(w *Webhook) {
			w.HasAuthentication, w.AllowExemptWithoutAuth = Known(false), true
		}), []string{"webhook.allow_exempt_without_auth_unused"}},
		{"allow exempt without auth, authentication unknown", webhookWith(func(w *Webhook) {
			w.ExemptHandshake, w.HasAuthentication, w.AllowExemptWithoutAuth = Known(true), Unknown[bool](), true
		}), nil},
		{"no dmq", webhookWith(func(w *Webhook) { w.QueueDeadMessageQueue = Known("") }), []string{"webhook.no_dead_message_queue"}},
		{"no dmq under qos 0", webhookWith(func(w *Webhook) {
			w.QoS, w.AcceptMessageLoss, w.QueueDeadMessageQueue = Known[int64](0), Known(true), Known("")
		}), []string{"webhook.qos0_loses_messages_accepted"}},
		{"R = 0", webhookWith(func(w *Webhook) { w.QueueMaxRedeliveryCount = Known[int64](0) }),
			[]string{"webhook.redelivery_unlimited", "webhook.in_flight_stall"}},
		{"R = 3: 105 minutes", webhookWith(func(w *Webhook) { w.QueueMaxRedeliveryCount = Known[int64](3) }), []string{"webhook.in_flight_stall"}},
		{"queue unknown", webhookWith(func(w *Webhook) {
			w.QueueDeadMessageQueue, w.QueueMaxRedeliveryCount, w.QueueTTLSeconds = Unknown[string](), Unknown[int64](), Unknown[int64]()
		}), nil},
		{"competing", webhookWith(func(w *Webhook) { w.OtherWebhooks = []string{"orders-b"} }), []string{"webhook.competing"}},
		{"competing under qos 0", webhookWith(func(w *Webhook) {
			w.QoS, w.AcceptMessageLoss, w.OtherWebhooks = Known[int64](0), Known(true), []string{"orders-b"}
		}), []string{"webhook.qos0_loses_messages_accepted", "webhook.competing"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fs := CheckWebhook(tc.w)
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule)
				wantSev := SeverityWarning
				if slices.Contains([]string{"webhook.qos0_loses_messages", "webhook.qos_range", "webhook.endpoint_not_https",
					"webhook.endpoint_invalid", "webhook.exempt_without_auth"}, f.Rule) {
					wantSev = SeverityError
				}
				if f.Severity != wantSev {
					t.Errorf("%s: severity %v, want %v", f.Rule, f.Severity, wantSev)
				}
				if p := StyleProblems(f.Summary, f.Detail, FixOpenings); len(p) > 0 {
					t.Errorf("%s: style: %v\n%s\n%s", f.Rule, p, f.Summary, f.Detail)
				}
				if f.Attribute == "" {
					t.Errorf("%s: no attribute", f.Rule)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("rules %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCheckWebhookMessages(t *testing.T) {
	t.Parallel()
	fs := CheckWebhook(webhookWith(func(w *Webhook) { w.QoS = Known[int64](0) }))
	if !strings.Contains(fs[0].Detail, "any failure or timeout of the endpoint loses the message") ||
		!strings.Contains(fs[0].Detail, "`accept_message_loss = true`") {
		t.Errorf("QoS 0 detail: %s", fs[0].Detail)
	}
	fs = CheckWebhook(webhookWith(func(w *Webhook) { w.ExemptHandshake, w.HasAuthentication = Known(true), Known(false) }))
	if !strings.Contains(fs[0].Detail, "set `allow_exempt_handshake_without_auth = true` for now") {
		t.Errorf("exempt without auth detail does not say how to adopt: %s", fs[0].Detail)
	}
	fs = CheckWebhook(webhookWith(func(w *Webhook) { w.QueueMaxRedeliveryCount = Known[int64](0) }))
	if !strings.Contains(fs[0].Detail, "tried 13 times over 10080 minutes (7 d 0 h 0 min)") {
		t.Errorf("R = 0 detail: %s", fs[0].Detail)
	}
	if !strings.Contains(fs[1].Detail, "leaves only 10080 minutes") {
		t.Errorf("stall detail: %s", fs[1].Detail)
	}
}

func TestWebhookRetrySchedule(t *testing.T) {
	t.Parallel()
	var waits []int64
	for n := int64(1); n <= 9; n++ {
		waits = append(waits, WebhookRetryWait(n))
	}
	if fmt.Sprint(waits) != "[15 30 60 120 240 480 960 1440 1440]" {
		t.Fatalf("waits = %v", waits)
	}
	for _, tc := range []struct {
		r, ttl         int64
		tries, minutes int64
		byTTL          bool
	}{
		{0, 3600, 3, 60, true},       // 0, 15, 45; the next at 105 is past the hour
		{2, 604800, 3, 45, false},    // 1 + 2 redeliveries
		{3, 604800, 4, 105, false},   //
		{0, 604800, 13, 10080, true}, // 7 days: ..., 7665, 9105; 10545 is past 10080
		{255, 604800, 13, 10080, true},
		{1, 600, 1, 10, true}, // the first retry at 15 minutes comes after a 10-minute TTL
	} {
		tries, minutes, byTTL := WebhookGiveUp(tc.r, tc.ttl)
		if tries != tc.tries || minutes != tc.minutes || byTTL != tc.byTTL {
			t.Errorf("WebhookGiveUp(%d, %d) = %d, %d, %v; want %d, %d, %v", tc.r, tc.ttl, tries, minutes, byTTL, tc.tries, tc.minutes, tc.byTTL)
		}
	}
	if got := WebhookTTLSeconds(false, 3600); got != 604800 {
		t.Errorf("TTL without respectTtl = %d", got)
	}
	if got := WebhookTTLSeconds(true, 3600); got != 3600 {
		t.Errorf("TTL with respectTtl = %d", got)
	}
	if got := WebhookScheduleText(2, 604800, true); got != "3 tries within 45 minutes, then the dead message queue" {
		t.Errorf("schedule text = %q", got)
	}
}

func TestRedactEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"https://orders.example.com/events", "https://orders.example.com/events"},
		{"http://user:s3cret@orders.example.com:8080/events?apikey=k3y#frag", "http://orders.example.com:8080/events"},
		{"https://token@orders.example.com/events?", "https://orders.example.com/events"},
		{"orders.example.com/events?apikey=k3y", "orders.example.com/events"},
		{"user:s3cret@orders.example.com/events", "orders.example.com/events"},
		{"http://us er:s3cret@orders.example.com/%zz?apikey=k3y", "http://orders.example.com/%zz"},
	}
	for _, tt := range tests {
		if got := RedactEndpoint(tt.in); got != tt.want {
			t.Errorf("RedactEndpoint(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// The endpoint findings show the endpoint without its credentials: userinfo, query and fragment.
func TestCheckWebhookEndpointFindingsHideCredentials(t *testing.T) {
	t.Parallel()
	for _, ep := range []string{
		"http://user:s3cret@orders.example.com/events?apikey=k3y#t0ken",
		"ftp://user:s3cret@orders.example.com/events?apikey=k3y#t0ken",
		"user:s3cret@orders.example.com/events?apikey=k3y#t0ken",
	} {
		fs := CheckWebhook(webhookWith(func(w *Webhook) { w.Endpoint = Known(ep) }))
		if len(fs) == 0 {
			t.Fatalf("%s: no finding", ep)
		}
		for _, f := range fs {
			for _, secret := range []string{"s3cret", "k3y", "t0ken", "user"} {
				if strings.Contains(f.Summary+f.Detail, secret) {
					t.Errorf("%s: finding %s shows %q: %s", ep, f.Rule, secret, f.Detail)
				}
			}
		}
	}
}
