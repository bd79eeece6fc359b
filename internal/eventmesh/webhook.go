package eventmesh

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
)

// Webhook subscriptions of the messaging REST API (/messagingrest/v1/subscriptions).
// What is known about the API, and from where, is in the reference note
// event-mesh-webhooks.md: the create body and the routes come from SAP's own
// client code (CAP's EMManagement.js, the ABAP sample), not from a published
// reference, and the GET answer is not documented at all. So the create body
// follows that code and every answer is decoded leniently.

// ErrWebhookExists is returned by CreateWebhook when the name is in use (409, error code CONFLICT).
var ErrWebhookExists = errors.New("a webhook subscription with this name exists")

// States and handshake statuses as DecodeWebhook normalizes them: upper case,
// words joined by underscores. An empty value means the answer had none.
const (
	WebhookActive         = "ACTIVE"
	WebhookPaused         = "PAUSED"
	HandshakeNotInitiated = "NOT_INITIATED"
	HandshakeRequested    = "REQUESTED"
	HandshakeCompleted    = "COMPLETED"
	HandshakeFailed       = "FAILED"
	HandshakeExempted     = "EXEMPTED"
)

// WebhookOAuth2 is the endpoint's OAuth2 client credentials (securitySchema type oauth2).
type WebhookOAuth2 struct {
	ClientID     string
	ClientSecret string // never in an answer
	TokenURL     string
}

// WebhookSpec is what a webhook subscription is created with.
type WebhookSpec struct {
	Name               string
	Queue              string
	QoS                int
	Endpoint           string
	ExemptHandshake    bool
	DefaultContentType string
	// OAuth2 is nil for an endpoint without authentication.
	OAuth2 *WebhookOAuth2
}

// Webhook is a webhook subscription as the API answered it.
type Webhook struct {
	WebhookSpec
	// State is ACTIVE or PAUSED, or what else the service answered, normalized; empty when
	// the answer had no state.
	State string
	// HandshakeStatus is one of the Handshake constants or what else the service answered,
	// normalized; empty when the answer had none.
	HandshakeStatus string
	// AuthType is the securitySchema type the answer shows ("" for none or when absent).
	AuthType string
	// Present says which settings the answer carried: a field it left out is not a change.
	Present WebhookFields
}

// WebhookFields names the settings an answer carried.
type WebhookFields struct {
	Address, QoS, Endpoint, ExemptHandshake, DefaultContentType, SecuritySchema bool
}

// Paused reports whether the answer says the webhook is paused; known is false when it had no state.
func (w *Webhook) Paused() (paused, known bool) {
	if w.State == "" {
		return false, false
	}
	return w.State == WebhookPaused, true
}

// WebhookPath returns the escaped path of webhook subscription name.
func WebhookPath(name string) string {
	return MessagingBasePath + "/subscriptions/" + url.PathEscape(name)
}

type webhookSecurityJSON struct {
	Type         string `json:"type"`
	GrantType    string `json:"grantType"`
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
	TokenURL     string `json:"tokenUrl"`
}

type webhookPushJSON struct {
	Type               string               `json:"type"`
	Endpoint           string               `json:"endpoint"`
	ExemptHandshake    bool                 `json:"exemptHandshake"`
	DefaultContentType string               `json:"defaultContentType,omitempty"`
	SecuritySchema     *webhookSecurityJSON `json:"securitySchema,omitempty"`
}

type webhookJSON struct {
	Name       string          `json:"name"`
	Address    string          `json:"address"`
	QoS        int             `json:"qos"`
	PushConfig webhookPushJSON `json:"pushConfig"`
}

// CreateBody is the JSON body of a create (exported for tests; it holds the client secret).
func (s WebhookSpec) CreateBody() ([]byte, error) {
	b := webhookJSON{Name: s.Name, Address: "queue:" + s.Queue, QoS: s.QoS, PushConfig: webhookPushJSON{
		Type: "webhook", Endpoint: s.Endpoint, ExemptHandshake: s.ExemptHandshake, DefaultContentType: s.DefaultContentType,
	}}
	if a := s.OAuth2; a != nil {
		b.PushConfig.SecuritySchema = &webhookSecurityJSON{Type: "oauth2", GrantType: "client_credentials",
			ClientID: a.ClientID, ClientSecret: a.ClientSecret, TokenURL: a.TokenURL}
	}
	return json.Marshal(b)
}

// CreateWebhook creates a webhook subscription and returns it as the service shows it
// afterwards. 201 and 202 are success (the two sources disagree); 409 is
// ErrWebhookExists, unless an earlier attempt of the same call may have created it, then the
// subscription is read.
func (m *Messaging) CreateWebhook(ctx context.Context, spec WebhookSpec) (*Webhook, error) {
	body, err := spec.CreateBody()
	if err != nil {
		return nil, err
	}
	path := MessagingBasePath + "/subscriptions"
	resp, err := m.h.Do(ctx, http.MethodPost, path, body, http.Header{"Content-Type": {"application/json"}})
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusConflict && !resp.EarlierAttemptMayHaveApplied:
		return nil, fmt.Errorf("webhook subscription %q: %w", spec.Name, ErrWebhookExists)
	case resp.StatusCode == http.StatusConflict:
		// An attempt that got no answer created it; read what it made.
	case !ok2xx(resp.StatusCode):
		return nil, httpx.NewAPIError(http.MethodPost, path, resp)
	}
	return m.GetWebhook(ctx, spec.Name)
}

// GetWebhook reads webhook subscription name; a missing one is ErrNotFound.
func (m *Messaging) GetWebhook(ctx context.Context, name string) (*Webhook, error) {
	path := WebhookPath(name)
	resp, err := m.h.Do(ctx, http.MethodGet, path, nil, http.Header{"Accept": {"application/json"}})
	return decodeFound(resp, err, path, "webhook subscription", name, DecodeWebhook, func(w *Webhook) *string { return &w.Name })
}

// ListWebhooks returns every webhook subscription of the instance.
func (m *Messaging) ListWebhooks(ctx context.Context) ([]Webhook, error) {
	path := MessagingBasePath + "/subscriptions"
	resp, err := m.h.Do(ctx, http.MethodGet, path, nil, http.Header{"Accept": {"application/json"}})
	if err != nil {
		return nil, err
	}
	if !ok2xx(resp.StatusCode) {
		return nil, httpx.NewAPIError(http.MethodGet, path, resp)
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(resp.Body, &raw); err != nil {
		// Some services wrap lists; accept {"subscriptions": [...]} or {"value": [...]}.
		var wrapped map[string][]json.RawMessage
		if json.Unmarshal(resp.Body, &wrapped) != nil {
			return nil, fmt.Errorf("GET %s: the answer is not a list of subscriptions: %w", path, err)
		}
		raw = wrapped["subscriptions"]
		if raw == nil {
			raw = wrapped["value"]
		}
	}
	out := make([]Webhook, 0, len(raw))
	for _, r := range raw {
		w, err := DecodeWebhook(r)
		if err != nil {
			return nil, fmt.Errorf("GET %s: %w", path, err)
		}
		out = append(out, *w)
	}
	return out, nil
}

// DeleteWebhook deletes webhook subscription name; a missing one is ErrNotFound.
func (m *Messaging) DeleteWebhook(ctx context.Context, name string) error {
	path := WebhookPath(name)
	resp, err := m.h.Do(ctx, http.MethodDelete, path, nil, nil)
	if err != nil {
		return err
	}
	if resp.StatusCode == http.StatusNotFound && resp.EarlierAttemptMayHaveApplied {
		return nil // an attempt without an answer deleted it
	}
	return check(resp, http.MethodDelete, path, "webhook subscription", name)
}

// SetWebhookPaused pauses or resumes webhook subscription name (PUT .../state).
func (m *Messaging) SetWebhookPaused(ctx context.Context, name string, paused bool) error {
	action := "resume"
	if paused {
		action = "pause"
	}
	path := WebhookPath(name) + "/state"
	resp, err := m.h.Do(ctx, http.MethodPut, path, []byte(`{"action":"`+action+`"}`), http.Header{"Content-Type": {"application/json"}})
	if err != nil {
		return err
	}
	return check(resp, http.MethodPut, path, "webhook subscription", name)
}

// RequestHandshake asks the service to run the endpoint's handshake again.
func (m *Messaging) RequestHandshake(ctx context.Context, name string) error {
	path := WebhookPath(name) + "/handshake"
	resp, err := m.h.Do(ctx, http.MethodPost, path, nil, nil)
	if err != nil {
		return err
	}
	return check(resp, http.MethodPost, path, "webhook subscription", name)
}

// DecodeWebhook decodes one subscription leniently: unknown fields are ignored, qos may be a
// number or a string, exemptHandshake a boolean or a string (also as the community spec spells
// it, excemptHandShake), and the state and handshake status are taken from the first of
// several names that is present (subscriptionState, state, subscriptionStatus, status;
// handshakeStatus, handshake.status, pushConfig.handshakeStatus), normalized to upper case
// with underscores ("Not Initiated" is NOT_INITIATED).
func DecodeWebhook(b []byte) (*Webhook, error) {
	var top map[string]any
	if err := json.Unmarshal(b, &top); err != nil {
		return nil, fmt.Errorf("the answer is not a subscription object: %w", err)
	}
	w := &Webhook{}
	w.Name = str(top["name"])
	_, w.Present.Address = top["address"].(string)
	_, w.Present.QoS = top["qos"]
	addr := str(top["address"])
	if q, ok := strings.CutPrefix(addr, "queue:"); ok {
		w.Queue = q
	} else {
		w.Queue = addr
	}
	w.QoS = int(number(top["qos"]))
	push, _ := top["pushConfig"].(map[string]any)
	if push != nil {
		w.Endpoint = str(push["endpoint"])
		_, w.Present.Endpoint = push["endpoint"].(string)
		exempt := first(push, "exemptHandshake", "excemptHandShake", "exemptHandShake")
		w.ExemptHandshake, w.Present.ExemptHandshake = boolean(exempt), exempt != nil
		w.DefaultContentType = str(push["defaultContentType"])
		_, w.Present.DefaultContentType = push["defaultContentType"]
		_, w.Present.SecuritySchema = push["securitySchema"]
		if sec, ok := push["securitySchema"].(map[string]any); ok {
			w.AuthType = str(sec["type"])
			if strings.HasPrefix(strings.ToLower(w.AuthType), "oauth2") {
				w.OAuth2 = &WebhookOAuth2{ClientID: str(sec["clientId"]), TokenURL: str(sec["tokenUrl"])}
			}
		}
	}
	w.State = normalize(str(first(top, "subscriptionState", "state", "subscriptionStatus", "status")))
	hs := first(top, "handshakeStatus", "handshake")
	if obj, ok := hs.(map[string]any); ok {
		hs = obj["status"]
	}
	if hs == nil && push != nil {
		hs = push["handshakeStatus"]
	}
	w.HandshakeStatus = normalize(str(hs))
	return w, nil
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case string:
		f, _ := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f
	}
	return 0
}

func boolean(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		b, _ := strconv.ParseBool(strings.TrimSpace(x))
		return b
	}
	return false
}

func normalize(s string) string {
	s = strings.TrimSpace(s)
	s = strings.NewReplacer(" ", "_", "-", "_").Replace(s)
	return strings.ToUpper(s)
}
