package eventmesh

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/emulator/core"
)

// Webhook subscriptions of the Event Mesh messaging REST API
// (/messagingrest/v1/subscriptions) and the push delivery behind them. The
// sources are the project's reference note event-mesh-webhooks.md, which
// marks what SAP documents [SAP], what community code shows [COM] and what
// is inferred [INF]; each behaviour below names its source, or says
// "assumed" with the reason:
//
//   - Routes: POST /subscriptions creates, GET /subscriptions lists,
//     GET|DELETE /subscriptions/{name}, POST /subscriptions/{name}/handshake
//     runs the handshake again, PUT /subscriptions/{name}/state with
//     {"action":"pause"|"resume"} pauses and resumes [COM note §1, ABAP and
//     CDS samples; "resume" INF]. There is no update call [COM].
//   - The create body is {"name", "address":"queue:<queue>", "qos":0|1,
//     "pushConfig":{"type":"webhook", "endpoint", "exemptHandshake",
//     "defaultContentType", "securitySchema"}} [COM note §1]; securitySchema
//     is {"type":"oauth2","grantType":"client_credentials","clientId",
//     "clientSecret","tokenUrl"} or left out for none [COM]. Other kinds
//     (oauth2-x509, Basic, API key) are refused with 400 (assumed: their
//     JSON is not documented, so the emulator cannot emulate them).
//   - A create answers 201 with the subscription [COM CDS expects 201]; a
//     name in use answers 409 with error.code "CONFLICT" [COM CDS, OAS]. A
//     missing queue, an unknown qos or an endpoint that is not an absolute
//     http(s) URL answers 400 (assumed: no documented error response).
//   - GET shows subscriptionState (ACTIVE, PAUSED) and handshakeStatus
//     (NOT_INITIATED, REQUESTED, COMPLETED, FAILED, EXEMPTED), and never the
//     client secret (assumed: SAP documents the statuses [SAP
//     handshake-and-its-status-a65d213] but not their JSON names).
//   - At most Options.MaxWebhooks webhooks per instance, default 10
//     (assumed from the service descriptor: one webhook per resource unit,
//     10 units by default [SAP service-descriptor-syntax-b70eaad, INF]).
//   - Handshake [SAP a65d213]: OPTIONS <endpoint> with WebHook-Request-Origin
//     and the configured credentials; the answer's WebHook-Allowed-Origin
//     must be the same value or "*", else FAILED. Nothing is pushed before
//     it is COMPLETED, or EXEMPTED with exemptHandshake.
//   - QoS 0 [SAP create-a-webhook-subscription-e120b8b]: one try, no wait for
//     an acknowledgement, and the message is deleted after the try, whatever
//     the endpoint answered: a failure loses it.
//   - QoS 1 [SAP e120b8b]: a 2xx answer deletes the message; any other
//     answer, or none, keeps it and retries with an exponential backoff from
//     15 minutes up to once a day. The doubling factor is assumed (SAP says
//     "exponential", without the factor): 15, 30, 60 ... minutes, at most
//     1440. The waits run on the webhook clock (Options.WebhookMinute).
//   - At most 18 messages in flight per webhook [SAP e120b8b]: a message
//     waiting for its retry stays in flight, and with 18 of them the webhook
//     takes nothing more from the queue [SAP], so 18 failing messages stall
//     it [INF]. The emulator makes one delivery at a time per webhook
//     (assumed: the order of parallel deliveries is not documented, and one
//     at a time keeps the tests deterministic).
//   - A kept message lives until the queue's time to live, then goes to the
//     dead message queue if the queue has one, else it is purged [SAP e120b8b;
//     create-a-queue-95357fa steps 8 to 10]. The time to live is the queue's
//     maxTtl when respectTtl is set, else 7 days, the default and maximum
//     [SAP 95357fa step 10]. It is counted on the webhook clock from the
//     webhook's first delivery of the message (assumed: the queues count
//     their own time on Options.Now, not on the scaled clock).
//   - Each failed delivery counts toward the queue's maxRedeliveryCount; past
//     it the message goes to the dead message queue or is purged [INF note
//     §2: the webhook is a consumer of the queue].
//   - Content type: the message's own, else the configured default, else
//     application/json [SAP e120b8b].
//   - Paused webhooks push nothing; messages wait in the queue. A message
//     already in flight waits for resume too (assumed: SAP documents only
//     the manual pause). No automatic pause [SAP: none documented].
//   - The endpoint's response timeout is 10 s of real time (assumed: SAP
//     documents none).
//   - The emulator connects to loopback endpoints and token URLs only; any
//     other host fails the handshake or the delivery without a connection
//     (assumed: the emulator never leaves the machine, so tests and the
//     examples need no network).
//   - Webhook subscriptions live in memory only; the state file does not
//     keep them (assumed: a restarted emulator starts without webhooks).

// Defaults and limits of webhook delivery.
const (
	// DefaultMaxWebhooks: one webhook per resource unit, 10 units by default [SAP b70eaad, INF].
	DefaultMaxWebhooks = 10
	// DefaultWebhookMinute: the webhook clock runs in real time unless Options.WebhookMinute says otherwise.
	DefaultWebhookMinute = time.Minute
	// WebhookMaxInFlight: "a maximum of 18 messages can be in flight" per webhook [SAP e120b8b].
	WebhookMaxInFlight = 18
	// WebhookFirstRetryMinutes and WebhookMaxRetryMinutes: the QoS 1 backoff from 15 minutes up to once a day [SAP e120b8b].
	WebhookFirstRetryMinutes = 15
	WebhookMaxRetryMinutes   = 24 * 60
	// webhookTimeout is the endpoint's response timeout (assumed: none documented).
	webhookTimeout = 10 * time.Second
	// webhookPollMin and webhookPollMax bound how often an idle webhook looks
	// at its queue, in real time: the pause doubles while nothing is to do.
	webhookPollMin = time.Millisecond
	webhookPollMax = 20 * time.Millisecond
)

// Subscription states and handshake statuses as the emulator spells them
// (assumed JSON spelling of the states SAP documents in a65d213).
const (
	WebhookActive             = "ACTIVE"
	WebhookPaused             = "PAUSED"
	HandshakeNotInitiated     = "NOT_INITIATED"
	HandshakeRequested        = "REQUESTED"
	HandshakeCompleted        = "COMPLETED"
	HandshakeFailed           = "FAILED"
	HandshakeExempted         = "EXEMPTED"
	webhookRequestOriginValue = "eventmesh.emulator.local"
)

// WebhookSecurity is a webhook's securitySchema (OAuth2 client credentials).
type WebhookSecurity struct {
	Type         string `json:"type"`
	GrantType    string `json:"grantType,omitempty"`
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
	TokenURL     string `json:"tokenUrl,omitempty"`
}

// WebhookPushConfig is a webhook's pushConfig.
type WebhookPushConfig struct {
	Type               string           `json:"type"`
	Endpoint           string           `json:"endpoint"`
	ExemptHandshake    bool             `json:"exemptHandshake"`
	DefaultContentType string           `json:"defaultContentType,omitempty"`
	SecuritySchema     *WebhookSecurity `json:"securitySchema,omitempty"`
}

// WebhookSubscription is a webhook subscription as the messaging REST API shows it.
type WebhookSubscription struct {
	Name              string            `json:"name"`
	Address           string            `json:"address"`
	QoS               int               `json:"qos"`
	PushConfig        WebhookPushConfig `json:"pushConfig"`
	SubscriptionState string            `json:"subscriptionState"`
	HandshakeStatus   string            `json:"handshakeStatus"`
}

// WebhookReport counts what a webhook did with the messages of its queue.
type WebhookReport struct {
	// Attempts is every POST to the endpoint; Delivered those answered 2xx.
	Attempts  int64 `json:"attempts"`
	Delivered int64 `json:"delivered"`
	// Lost: QoS 0 messages whose only try failed; they were deleted.
	Lost int64 `json:"lost"`
	// Retried: failed QoS 1 deliveries that were tried again later.
	Retried int64 `json:"retried"`
	// DeadLettered and Purged: QoS 1 messages that left the queue after
	// their time to live or maxRedeliveryCount, to the DMQ or to nowhere.
	DeadLettered int64 `json:"deadLettered"`
	Purged       int64 `json:"purged"`
	// InFlight is the number of messages the webhook holds now (at most 18).
	InFlight int `json:"inFlight"`
	// Stalled is true while the webhook holds 18 messages and takes no more.
	Stalled bool `json:"stalled"`
	// Handshakes counts OPTIONS requests sent to the endpoint.
	Handshakes int64 `json:"handshakes"`
	// Tries lists, per QoS 1 message ID, when each try was due on the
	// webhook clock, as the time since the first try (the first 1000
	// messages). Due times follow the schedule: a late try does not move
	// the next one.
	Tries map[string][]time.Duration `json:"tries,omitempty"`
}

// maxTriesKept bounds WebhookReport.Tries.
const maxTriesKept = 1000

type webhookSub struct {
	WebhookSubscription
	queue    string
	inflight map[string]*webhookHold // message ID -> hold (QoS 1)
	report   WebhookReport
	tries    map[string][]time.Duration
	rehand   bool // a handshake is due
	stop     chan struct{}
	done     chan struct{}
}

// webhookHold is a QoS 1 message the webhook holds between tries.
type webhookHold struct {
	first time.Time // webhook clock: the first delivery
	due   time.Time // webhook clock: the next try
	end   time.Time // webhook clock: the end of the time to live (set at the first failure)
	tries int64
}

// next is when the webhook has to act on the held message: its next try, or the end of its time to live.
func (h *webhookHold) next() time.Time {
	if h.tries > 0 && h.end.Before(h.due) {
		return h.end
	}
	return h.due
}

// Webhooks is the room of the Event Mesh webhook subscriptions: the
// subscriptions under their own lock, the messaging API routes that manage
// them, and one delivery loop per subscription that takes messages from the
// Event Mesh queues through the broker's lock.
type Webhooks struct {
	*core.Core
	mesh *EventMesh
	auth *core.TokenService

	mu        sync.Mutex
	subs      map[string]*webhookSub
	closed    bool
	startReal time.Time
	startVirt time.Time
	minute    time.Duration
	hc        *http.Client
}

func NewWebhooks(c *core.Core, mesh *EventMesh, auth *core.TokenService) *Webhooks {
	return &Webhooks{Core: c, mesh: mesh, auth: auth, subs: map[string]*webhookSub{},
		startReal: time.Now(), startVirt: c.Now(), minute: core.OrDefault(c.Opts.WebhookMinute, DefaultWebhookMinute),
		hc: &http.Client{Timeout: webhookTimeout}}
}

// WebhookNow returns the webhook clock: real time scaled so that one minute lasts Options.WebhookMinute.
func (s *Webhooks) WebhookNow() time.Time {
	scale := float64(time.Minute) / float64(s.minute)
	return s.startVirt.Add(time.Duration(float64(time.Since(s.startReal)) * scale))
}

// Mount registers the webhook subscriptions of the messaging REST API on mux.
func (s *Webhooks) Mount(mux *http.ServeMux) {
	m := func(method, rel string, h http.HandlerFunc) {
		s.Route(mux, method, core.MessagingBasePath+rel, method+" "+core.MessagingBasePath+rel, s.auth.RequireAuth(core.AudienceMessaging, h))
	}
	m(http.MethodPost, "/subscriptions", s.HandleCreateWebhook)
	m(http.MethodGet, "/subscriptions", s.handleListWebhooks)
	m(http.MethodGet, "/subscriptions/{name}", s.handleGetWebhook)
	m(http.MethodDelete, "/subscriptions/{name}", s.handleDeleteWebhook)
	m(http.MethodPut, "/subscriptions/{name}/state", s.handleWebhookState)
	m(http.MethodPost, "/subscriptions/{name}/handshake", s.handleWebhookHandshake)
}

func respondCode(w http.ResponseWriter, status int, code, msg string) {
	core.RespondJSON(w, status, map[string]any{"error": map[string]string{"code": code, "message": msg}, "message": msg})
}

// checkWebhook validates a create body and returns the queue name.
func (s *Webhooks) checkWebhook(sub *WebhookSubscription) (string, error) {
	if strings.TrimSpace(sub.Name) == "" {
		return "", core.Msgf("The subscription has no name. Set name.")
	}
	queue, ok := strings.CutPrefix(sub.Address, "queue:")
	if !ok || queue == "" {
		return "", core.Msgf("The address %q does not name a queue. Set address to queue:<queue name>.", sub.Address)
	}
	s.mesh.mu.Lock()
	_, exists := s.mesh.queues[queue]
	s.mesh.mu.Unlock()
	if !exists {
		return "", core.Msgf("Queue %q does not exist. Create the queue first.", queue)
	}
	if sub.QoS != 0 && sub.QoS != 1 {
		return "", core.Msgf("qos %d is not valid. Set qos to 0 or 1.", sub.QoS)
	}
	pc := sub.PushConfig
	if pc.Type != "webhook" {
		return "", core.Msgf("pushConfig.type %q is not supported. Set it to webhook.", pc.Type)
	}
	u, err := url.Parse(pc.Endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "", core.Msgf("pushConfig.endpoint %q is not an absolute http(s) URL. Set the webhook's URL.", pc.Endpoint)
	}
	if sec := pc.SecuritySchema; sec != nil {
		if sec.Type != "oauth2" || sec.GrantType != "client_credentials" {
			return "", core.Msgf("securitySchema type %q with grantType %q is not supported. Use oauth2 with client_credentials, or leave securitySchema out.", sec.Type, sec.GrantType)
		}
		if sec.ClientID == "" || sec.ClientSecret == "" || sec.TokenURL == "" {
			return "", core.Msgf("securitySchema needs clientId, clientSecret and tokenUrl. Set all three.")
		}
	}
	return queue, nil
}

func (s *Webhooks) HandleCreateWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := core.ReadBody(w, r, 1<<20)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var in WebhookSubscription
	if err := json.Unmarshal(body, &in); err != nil {
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The body is not a subscription: %v. Send JSON with name, address, qos and pushConfig.", err))
		return
	}
	queue, err := s.checkWebhook(&in)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	if _, dup := s.subs[in.Name]; dup {
		s.mu.Unlock()
		respondCode(w, http.StatusConflict, "CONFLICT", fmt.Sprintf("Subscription %q already exists. Choose another name or delete it first.", in.Name))
		return
	}
	limit := core.OrDefault(s.Opts.MaxWebhooks, DefaultMaxWebhooks)
	if len(s.subs) >= limit {
		s.mu.Unlock()
		core.RespondMessage(w, http.StatusBadRequest, fmt.Sprintf("The instance has %d webhook subscriptions, its limit. Delete one or add resource units.", limit))
		return
	}
	sub := &webhookSub{WebhookSubscription: in, queue: queue, inflight: map[string]*webhookHold{}, tries: map[string][]time.Duration{},
		stop: make(chan struct{}), done: make(chan struct{})}
	sub.SubscriptionState = WebhookActive
	if in.PushConfig.ExemptHandshake {
		sub.HandshakeStatus = HandshakeExempted
	} else {
		sub.HandshakeStatus, sub.rehand = HandshakeRequested, true
	}
	s.subs[in.Name] = sub
	view := sub.view()
	closed := s.closed
	s.mu.Unlock()
	if !closed {
		go s.deliver(sub)
	} else {
		close(sub.done)
	}
	s.Logf("emulator: webhook %q on queue %q created (qos %d)", in.Name, queue, in.QoS)
	core.RespondJSON(w, http.StatusCreated, view)
}

// view is the API's view of sub, without the client secret. The caller holds s.mu.
func (sub *webhookSub) view() WebhookSubscription {
	v := sub.WebhookSubscription
	if sec := v.PushConfig.SecuritySchema; sec != nil {
		c := *sec
		c.ClientSecret = ""
		v.PushConfig.SecuritySchema = &c
	}
	return v
}

func (s *Webhooks) handleListWebhooks(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	out := make([]WebhookSubscription, 0, len(s.subs))
	for _, sub := range s.subs {
		out = append(out, sub.view())
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	core.RespondJSON(w, http.StatusOK, out)
}

func webhookNotFound(w http.ResponseWriter, name string) {
	core.RespondMessage(w, http.StatusNotFound, fmt.Sprintf("Subscription %q does not exist.", name))
}

func (s *Webhooks) handleGetWebhook(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.Lock()
	sub := s.subs[name]
	var v WebhookSubscription
	if sub != nil {
		v = sub.view()
	}
	s.mu.Unlock()
	if sub == nil {
		webhookNotFound(w, name)
		return
	}
	core.RespondJSON(w, http.StatusOK, v)
}

func (s *Webhooks) handleDeleteWebhook(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	if !s.DeleteWebhook(name) {
		webhookNotFound(w, name)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// DeleteWebhook deletes the webhook name and hands the messages it holds back
// to the queue (assumed: deleting a subscription deletes no message [SAP
// configure-a-message-client-867c517 keeps queues when webhooks go]). It
// reports whether the webhook existed.
func (s *Webhooks) DeleteWebhook(name string) bool {
	s.mu.Lock()
	sub := s.subs[name]
	if sub != nil {
		delete(s.subs, name)
		close(sub.stop)
	}
	s.mu.Unlock()
	if sub == nil {
		return false
	}
	<-sub.done
	s.mu.Lock()
	ids := make([]string, 0, len(sub.inflight))
	for id := range sub.inflight {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	for _, id := range ids {
		s.mesh.releaseMessage(sub.queue, id)
	}
	return true
}

func (s *Webhooks) handleWebhookState(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	body, err := core.ReadBody(w, r, 4096)
	if err != nil {
		core.RespondMessage(w, http.StatusBadRequest, err.Error())
		return
	}
	var in struct {
		Action string `json:"action"`
	}
	if err := json.Unmarshal(body, &in); err != nil || (in.Action != "pause" && in.Action != "resume") {
		core.RespondMessage(w, http.StatusBadRequest, `The body must be {"action":"pause"} or {"action":"resume"}.`)
		return
	}
	if !s.SetWebhookPaused(name, in.Action == "pause") {
		webhookNotFound(w, name)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// SetWebhookPaused pauses or resumes the webhook name, as the cockpit does;
// it reports whether the webhook exists.
func (s *Webhooks) SetWebhookPaused(name string, paused bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := s.subs[name]
	if sub == nil {
		return false
	}
	if paused {
		sub.SubscriptionState = WebhookPaused
	} else {
		sub.SubscriptionState = WebhookActive
	}
	return true
}

func (s *Webhooks) handleWebhookHandshake(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	s.mu.Lock()
	sub := s.subs[name]
	if sub != nil && !sub.PushConfig.ExemptHandshake {
		sub.HandshakeStatus, sub.rehand = HandshakeRequested, true
	}
	s.mu.Unlock()
	if sub == nil {
		webhookNotFound(w, name)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// Webhook returns the webhook name as the API shows it, and its report.
func (s *Webhooks) Webhook(name string) (WebhookSubscription, WebhookReport, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sub := s.subs[name]
	if sub == nil {
		return WebhookSubscription{}, WebhookReport{}, false
	}
	rep := sub.report
	rep.InFlight = len(sub.inflight)
	rep.Stalled = rep.InFlight >= WebhookMaxInFlight
	rep.Tries = make(map[string][]time.Duration, len(sub.tries))
	for id, t := range sub.tries {
		rep.Tries[id] = append([]time.Duration(nil), t...)
	}
	return sub.view(), rep, true
}

// WebhookView is what GET /emulator/v1/webhooks/{name} answers.
type WebhookView struct {
	Subscription WebhookSubscription `json:"subscription"`
	Report       WebhookReport       `json:"report"`
}

// MountControl registers GET /emulator/v1/webhooks/{name}: the
// subscription and what its delivery did, for the demo.
func (s *Webhooks) MountControl(mux *http.ServeMux) {
	mux.HandleFunc("GET "+core.ControlBasePath+"/webhooks/{name}", func(w http.ResponseWriter, r *http.Request) {
		sub, rep, ok := s.Webhook(r.PathValue("name"))
		if !ok {
			webhookNotFound(w, r.PathValue("name"))
			return
		}
		core.RespondJSON(w, http.StatusOK, WebhookView{Subscription: sub, Report: rep})
	})
}

// WebhookSecret returns the OAuth2 client secret webhook name was created
// with ("" without one), for tests that check what reached the service.
func (s *Webhooks) WebhookSecret(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sub := s.subs[name]; sub != nil && sub.PushConfig.SecuritySchema != nil {
		return sub.PushConfig.SecuritySchema.ClientSecret
	}
	return ""
}

// StopWebhooks ends every delivery loop; Close and Shutdown call it.
func (s *Webhooks) StopWebhooks() {
	s.mu.Lock()
	s.closed = true
	subs := make([]*webhookSub, 0, len(s.subs))
	for _, sub := range s.subs {
		select {
		case <-sub.stop:
		default:
			close(sub.stop)
		}
		subs = append(subs, sub)
	}
	s.mu.Unlock()
	for _, sub := range subs {
		<-sub.done
	}
}

// deliver is the delivery loop of one webhook.
func (s *Webhooks) deliver(sub *webhookSub) {
	defer close(sub.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-sub.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	pause := webhookPollMin
	for {
		if s.step(ctx, sub) {
			pause = webhookPollMin
		} else {
			select {
			case <-sub.stop:
				return
			case <-time.After(pause):
			}
			pause = min(2*pause, webhookPollMax)
		}
		select {
		case <-sub.stop:
			return
		default:
		}
	}
}

// step does one thing the webhook has to do (a handshake, a retry, or the
// delivery of a new message) and reports whether it did anything.
func (s *Webhooks) step(ctx context.Context, sub *webhookSub) bool {
	s.mu.Lock()
	rehand, state, hs := sub.rehand, sub.SubscriptionState, sub.HandshakeStatus
	sub.rehand = false
	s.mu.Unlock()
	if rehand {
		ok := s.handshake(ctx, sub)
		s.mu.Lock()
		sub.report.Handshakes++
		if sub.HandshakeStatus == HandshakeRequested && !sub.rehand {
			if ok {
				sub.HandshakeStatus = HandshakeCompleted
			} else {
				sub.HandshakeStatus = HandshakeFailed
			}
		}
		s.mu.Unlock()
		return true
	}
	if state != WebhookActive || (hs != HandshakeCompleted && hs != HandshakeExempted) {
		return false
	}
	// A held QoS 1 message whose retry is due, or whose time to live ended.
	now := s.WebhookNow()
	s.mu.Lock()
	var dueID string
	var due *webhookHold
	for id, h := range sub.inflight {
		if at := h.next(); !now.Before(at) && (due == nil || at.Before(due.next())) {
			dueID, due = id, h
		}
	}
	full := len(sub.inflight) >= WebhookMaxInFlight
	s.mu.Unlock()
	if due != nil {
		s.retry(ctx, sub, dueID, due)
		return true
	}
	if full {
		return false // 18 in flight: nothing more is taken from the queue [SAP e120b8b]
	}
	m, ok := s.take(sub)
	if !ok {
		return false
	}
	if sub.QoS == 0 {
		if !s.post(ctx, sub, m) {
			s.mu.Lock()
			sub.report.Lost++
			s.mu.Unlock()
			s.Logf("emulator: webhook %q lost message %s (QoS 0, delivery failed)", sub.Name, m.ID)
		}
		return true
	}
	h := &webhookHold{first: now, due: now}
	s.mu.Lock()
	sub.inflight[m.ID] = h
	s.mu.Unlock()
	s.retry(ctx, sub, m.ID, h)
	return true
}

// take takes the oldest available message of the webhook's queue: QoS 0
// removes it, QoS 1 marks it in flight.
func (s *Webhooks) take(sub *webhookSub) (core.Message, bool) {
	s.mesh.mu.Lock()
	q := s.mesh.queues[sub.queue]
	if q == nil {
		s.mesh.mu.Unlock()
		return core.Message{}, false
	}
	s.mesh.sweepLocked(q)
	for i, m := range q.msgs {
		if m.InFlight {
			continue
		}
		m.DeliveryCount++
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Delivered++ })
		if sub.QoS == 0 {
			q.remove(i)
		} else {
			m.InFlight = true
		}
		v := m.view()
		s.mesh.mu.Unlock()
		s.SaveState()
		return v, true
	}
	s.mesh.mu.Unlock()
	return core.Message{}, false
}

// retry tries the held message id once more, or ends it when its time to
// live or the queue's maxRedeliveryCount is spent.
func (s *Webhooks) retry(ctx context.Context, sub *webhookSub, id string, h *webhookHold) {
	s.mesh.mu.Lock()
	q := s.mesh.queues[sub.queue]
	var m *message
	if q != nil {
		_, m = q.find(id)
	}
	if m == nil {
		s.mesh.mu.Unlock()
		s.mu.Lock()
		delete(sub.inflight, id)
		s.mu.Unlock()
		return
	}
	ttl := time.Duration(MaxTTLLimit) * time.Second
	if st := q.settings; st.RespectTTL != nil && *st.RespectTTL && st.MaxTTL != nil && *st.MaxTTL > 0 {
		ttl = time.Duration(*st.MaxTTL) * time.Second
	}
	if h.tries == 0 {
		h.end = h.first.Add(ttl)
	}
	if h.tries > 0 && !h.due.Before(h.end) {
		// The next try would come after the time to live: the message ends at it.
		s.endLocked(sub, q, id, "time to live")
		return
	}
	s.mu.Lock()
	if t, ok := sub.tries[id]; ok || len(sub.tries) < maxTriesKept {
		sub.tries[id] = append(t, h.due.Sub(h.first))
	}
	s.mu.Unlock()
	if h.tries > 0 {
		m.DeliveryCount++
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Delivered++; b.Redelivered++ })
	}
	view := m.view()
	s.mesh.mu.Unlock()

	ok := s.post(ctx, sub, view)
	s.mesh.mu.Lock()
	q = s.mesh.queues[sub.queue]
	if q != nil {
		_, m = q.find(id)
	}
	if q == nil || m == nil {
		s.mesh.mu.Unlock()
		s.mu.Lock()
		delete(sub.inflight, id)
		s.mu.Unlock()
		return
	}
	if ok {
		i, _ := q.find(id)
		q.remove(i)
		s.Counters.CountBroker(func(b *core.BrokerStats) { b.Acknowledged++ })
		s.mesh.mu.Unlock()
		s.mu.Lock()
		delete(sub.inflight, id)
		s.mu.Unlock()
		s.SaveState()
		return
	}
	s.Counters.CountBroker(func(b *core.BrokerStats) { b.Rejected++ })
	if limit := q.settings.MaxRedeliveryCount; limit > 0 && m.DeliveryCount > limit {
		s.endLocked(sub, q, id, "maxRedeliveryCount")
		return
	}
	s.mesh.mu.Unlock()
	s.mu.Lock()
	h.tries++
	wait := int64(WebhookFirstRetryMinutes) << min(h.tries-1, 10)
	if wait > WebhookMaxRetryMinutes {
		wait = WebhookMaxRetryMinutes
	}
	h.due = h.due.Add(time.Duration(wait) * time.Minute)
	sub.report.Retried++
	s.mu.Unlock()
}

// endLocked removes the held message id from queue q and sends it to the
// dead message queue or purges it. The caller holds s.mesh.mu; endLocked
// releases it.
func (s *Webhooks) endLocked(sub *webhookSub, q *queue, id, why string) {
	i, m := q.find(id)
	q.remove(i)
	outcome, detail := s.mesh.deadLetterLocked(q, m)
	s.mesh.mu.Unlock()
	s.mu.Lock()
	delete(sub.inflight, id)
	if outcome == core.OutcomeDeadLettered {
		sub.report.DeadLettered++
	} else {
		sub.report.Purged++
	}
	s.mu.Unlock()
	s.Logf("emulator: webhook %q gave up message %s after its %s: %s %s", sub.Name, id, why, outcome, detail)
	s.SaveState()
}

// bearer fetches a token with the webhook's OAuth2 client credentials; empty
// without a securitySchema, and "" with ok false when the token request fails.
func (s *Webhooks) bearer(ctx context.Context, sub *webhookSub) (string, bool) {
	s.mu.Lock()
	sec := sub.PushConfig.SecuritySchema
	s.mu.Unlock()
	if sec == nil {
		return "", true
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sec.TokenURL, strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		return "", false
	}
	if !loopbackOnly(req) {
		return "", false
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(sec.ClientID, sec.ClientSecret)
	res, err := s.hc.Do(req)
	if err != nil {
		return "", false
	}
	defer func() { _ = res.Body.Close() }()
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if res.StatusCode/100 != 2 || json.NewDecoder(io.LimitReader(res.Body, 1<<16)).Decode(&tok) != nil || tok.AccessToken == "" {
		return "", false
	}
	return tok.AccessToken, true
}

// loopbackOnly refuses requests to hosts other than loopback ones, so that
// the emulator never reaches out of the machine.
func loopbackOnly(req *http.Request) bool {
	host := req.URL.Hostname()
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// handshake sends the OPTIONS request [SAP a65d213] and reports whether the endpoint allowed the origin.
func (s *Webhooks) handshake(ctx context.Context, sub *webhookSub) bool {
	tok, ok := s.bearer(ctx, sub)
	if !ok {
		return false
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, sub.PushConfig.Endpoint, nil)
	if err != nil {
		return false
	}
	if !loopbackOnly(req) {
		return false
	}
	req.Header.Set("WebHook-Request-Origin", webhookRequestOriginValue)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := s.hc.Do(req)
	if err != nil {
		return false
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
	_ = res.Body.Close()
	allowed := strings.TrimSpace(res.Header.Get("WebHook-Allowed-Origin"))
	return res.StatusCode/100 == 2 && (allowed == "*" || allowed == webhookRequestOriginValue)
}

// post pushes message m to the endpoint once and reports whether it answered 2xx.
func (s *Webhooks) post(ctx context.Context, sub *webhookSub, m core.Message) bool {
	s.mu.Lock()
	sub.report.Attempts++
	s.mu.Unlock()
	tok, ok := s.bearer(ctx, sub)
	if ok {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, sub.PushConfig.Endpoint, bytes.NewReader([]byte(m.Body)))
		if err == nil && !loopbackOnly(req) {
			err = fmt.Errorf("the emulator pushes to loopback endpoints only")
		}
		if err == nil {
			ct := m.ContentType
			if ct == "" {
				ct = sub.PushConfig.DefaultContentType
			}
			if ct == "" {
				ct = "application/json"
			}
			req.Header.Set("Content-Type", ct)
			req.Header.Set("X-Message-Id", m.ID)
			if tok != "" {
				req.Header.Set("Authorization", "Bearer "+tok)
			}
			res, err := s.hc.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<16))
				_ = res.Body.Close()
				ok = res.StatusCode/100 == 2
			} else {
				ok = false
			}
		} else {
			ok = false
		}
	}
	if ok {
		s.mu.Lock()
		sub.report.Delivered++
		s.mu.Unlock()
	}
	return ok
}
