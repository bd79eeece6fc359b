package rules

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// Event Mesh webhook subscriptions push a queue's messages to an HTTP endpoint. The facts
// behind these rules (reference note event-mesh-webhooks.md): with QoS 0 Event Mesh tries
// once and deletes the message whatever the endpoint answered; with QoS 1 it retries with an
// exponential backoff from 15 minutes up to once a day until the message's time to live, and
// holds at most 18 messages in flight per webhook [SAP create-a-webhook-subscription]. That the
// tries count toward the queue's maxRedeliveryCount is inferred: the webhook is a consumer of
// the queue. The backoff doubles (assumed: SAP says "exponential" without the factor).

// Terraform attribute names of the webhook subscription resource.
const (
	attrWebhookQoS         = "qos"
	attrWebhookAcceptLoss  = "accept_message_loss"
	attrWebhookEndpoint    = "endpoint"
	attrWebhookExempt      = "exempt_handshake"
	attrWebhookAllowExempt = "allow_exempt_handshake_without_auth"
	attrWebhookAllowHTTP   = "allow_http_endpoint"
	attrWebhookQueue       = "queue"
)

// Webhook limits of SAP Event Mesh [SAP create-a-webhook-subscription].
const (
	WebhookMaxInFlight       = 18          // messages in flight per webhook
	WebhookFirstRetryMinutes = 15          // the first QoS 1 retry
	WebhookMaxRetryMinutes   = 24 * 60     // the longest wait: once a day
	webhookStallMinutes      = 60          // a failing message holding its slot longer than this is worth a warning
	secondsPerMinute         = 60          // seconds of a minute
	webhookDefaultTTLSeconds = MaxTTLLimit // a queue without its own TTL keeps messages 7 days
)

// Webhook holds the plan-time settings of a webhook subscription and what is known of its
// queue. Queue facts are unknown when the queue is neither in the service nor in this plan.
type Webhook struct {
	QoS               Value[int64]
	AcceptMessageLoss Value[bool]
	Endpoint          Value[string]
	ExemptHandshake   Value[bool]
	// HasAuthentication is whether the endpoint's authentication is configured.
	HasAuthentication Value[bool]
	// AllowExemptWithoutAuth is the configuration's explicit acceptance of a handshake exemption without
	// authentication on a subscription adopted as it is: the rule then warns instead of refusing.
	AllowExemptWithoutAuth bool
	// AllowHTTPEndpoint is the configuration's explicit acceptance of an http:// endpoint (not loopback) on a
	// subscription adopted as it is: the rule then warns instead of refusing.
	AllowHTTPEndpoint bool

	Queue                   Value[string]
	QueueDeadMessageQueue   Value[string] // "" for none
	QueueMaxRedeliveryCount Value[int64]
	QueueTTLSeconds         Value[int64] // WebhookTTLSeconds of the queue
	// OtherWebhooks names the other webhook subscriptions on the same queue.
	OtherWebhooks []string
}

// WebhookTTLSeconds is how long a queue keeps a message its webhook cannot deliver: its maxTtl
// when respectTtl is set, else 7 days, the default and maximum [SAP create-a-queue step 10].
func WebhookTTLSeconds(respectTTL bool, maxTTL int64) int64 {
	if respectTTL && maxTTL > 0 {
		return maxTTL
	}
	return webhookDefaultTTLSeconds
}

// WebhookRetryWait is the wait in minutes before QoS 1 retry n (1-based): 15 minutes, doubling,
// at most once a day.
func WebhookRetryWait(n int64) int64 {
	w := int64(WebhookFirstRetryMinutes)
	for i := int64(1); i < n && w < WebhookMaxRetryMinutes; i++ {
		w *= 2
	}
	return min(w, WebhookMaxRetryMinutes)
}

// WebhookGiveUp says how a QoS 1 message that always fails ends: after how many tries, how
// many minutes after the first, and whether the queue's time to live (rather than its
// maxRedeliveryCount) ends it. redeliveries 0 means unlimited.
func WebhookGiveUp(redeliveries, ttlSeconds int64) (tries, minutes int64, byTTL bool) {
	ttlMinutes := ttlSeconds / secondsPerMinute
	tries = 1
	for n := int64(1); redeliveries == 0 || n <= redeliveries; n++ {
		next := minutes + WebhookRetryWait(n)
		if next >= ttlMinutes {
			return tries, ttlMinutes, true
		}
		minutes, tries = next, tries+1
	}
	return tries, minutes, false
}

// CheckWebhook applies the webhook rules: QoS 0 without an explicit acceptance of losing
// messages, an endpoint that is not https (loopback excepted), a handshake exemption without
// authentication; and the warnings about the queue: no dead message queue under QoS 1,
// unlimited redelivery, other webhooks competing for the queue, and the 18-in-flight stall.
// Unknown values are skipped.
func CheckWebhook(w Webhook) []Finding {
	var r report
	qos, qosKnown := w.QoS.get()
	accept, acceptKnown := w.AcceptMessageLoss.get()
	switch {
	case qosKnown && qos == 0 && accept:
		r.warnf("webhook.qos0_loses_messages_accepted", attrWebhookQoS, "QoS 0 Loses Messages Accepted",
			"`%s = true` keeps `qos = 0`: Event Mesh pushes each message once and deletes it after that try, whatever the endpoint answers, "+
				"so any failure or timeout of the endpoint loses the message without a trace, and nothing reaches a dead message queue. "+
				"Set `qos = 1` and remove `%s`, unless losing messages is what this subscription is for.", attrWebhookAcceptLoss, attrWebhookAcceptLoss)
	case qosKnown && qos == 0 && !w.AcceptMessageLoss.IsUnknown():
		r.errorf("webhook.qos0_loses_messages", attrWebhookQoS, "QoS 0 Loses Messages",
			"`qos = 0` makes Event Mesh push each message once and delete it after that try, whatever the endpoint answers: "+
				"any failure or timeout of the endpoint loses the message without a trace, and nothing reaches a dead message queue. "+
				"Set `qos = 1`, or, if losing messages is acceptable, set `%s = true`.", attrWebhookAcceptLoss)
	case qosKnown && qos == 1 && acceptKnown && accept:
		r.warnf("webhook.accept_message_loss_unused", attrWebhookAcceptLoss, "Accept Message Loss Has No Effect",
			"`qos = 1` makes Event Mesh retry a message the endpoint refuses, so `%s = true` changes nothing. Set `%s = false`, or remove it.",
			attrWebhookAcceptLoss, attrWebhookAcceptLoss)
	}
	if qosKnown && qos != 0 && qos != 1 {
		r.errorf("webhook.qos_range", attrWebhookQoS, "Invalid QoS",
			"`qos = %d` would be rejected: Event Mesh webhooks take QoS 0 or 1. Set `qos = 1`.", qos)
	}
	checkWebhookEndpoint(&r, w)
	checkWebhookExempt(&r, w)
	if !qosKnown || qos != 1 {
		checkCompeting(&r, w)
		return r.fs
	}
	queue, _ := w.Queue.get()
	ttl, ttlKnown := w.QueueTTLSeconds.get()
	if dmq, ok := w.QueueDeadMessageQueue.get(); ok && dmq == "" && ttlKnown {
		r.warnf("webhook.no_dead_message_queue", attrWebhookQueue, "Webhook Queue Without Dead Message Queue",
			"Queue %q has no dead message queue: a message the endpoint keeps refusing is retried at most once a day for up to "+
				"its time to live (%s), then purged without a trace. Set the queue's `dead_message_queue`.", queue, formatMinutes(ttl/secondsPerMinute))
	}
	r0, rKnown := w.QueueMaxRedeliveryCount.get()
	if rKnown && r0 == 0 && ttlKnown {
		tries, _, _ := WebhookGiveUp(0, ttl)
		r.warnf("webhook.redelivery_unlimited", attrWebhookQueue, "Webhook Retries Until the Time to Live",
			"Queue %q has `max_redelivery_count = 0` (unlimited): a message the endpoint keeps refusing is tried %d times over %s "+
				"before it leaves the queue, and holds one of the webhook's %d slots all that time. "+
				"Set the queue's `max_redelivery_count`, for example 2 (3 tries within 45 minutes).",
			queue, tries, formatMinutes(ttl/secondsPerMinute), WebhookMaxInFlight)
	}
	if rKnown && ttlKnown {
		_, minutes, _ := WebhookGiveUp(r0, ttl)
		if minutes > webhookStallMinutes {
			r.warnf("webhook.in_flight_stall", attrWebhookQoS, "Failing Messages Can Stall the Webhook",
				"Event Mesh holds at most %d messages in flight per QoS 1 webhook and takes nothing more from the queue while "+
					"they wait for their retries; with queue %q a failing message leaves only %s after its first try, so %d failing "+
					"messages stop every other message for that long. Set the queue's `max_redelivery_count` to 2 or less (a failing "+
					"message leaves within 45 minutes) and give the queue a dead message queue.",
				WebhookMaxInFlight, queue, formatMinutes(minutes), WebhookMaxInFlight)
		}
	}
	checkCompeting(&r, w)
	return r.fs
}

func checkWebhookExempt(r *report, w Webhook) {
	exempt, exemptKnown := w.ExemptHandshake.get()
	auth, authKnown := w.HasAuthentication.get()
	switch {
	case !exemptKnown || !authKnown:
	case exempt && !auth && w.AllowExemptWithoutAuth:
		r.warnf("webhook.exempt_without_auth_allowed", attrWebhookExempt, "Handshake Exempted Without Authentication Allowed",
			"`%s = true` keeps `exempt_handshake = true` without authentication: nothing proves that the endpoint is the intended one, "+
				"so Event Mesh pushes the queue's messages to whatever answers at that URL. "+
				"Set `exempt_handshake = false`, or configure the endpoint's authentication, and remove `%s`.", attrWebhookAllowExempt, attrWebhookAllowExempt)
	case exempt && !auth:
		r.errorf("webhook.exempt_without_auth", attrWebhookExempt, "Handshake Exempted Without Authentication",
			"`exempt_handshake = true` skips the handshake in which the endpoint agrees to receive messages, and without "+
				"authentication nothing else proves that the endpoint is the intended one: Event Mesh would push the queue's "+
				"messages to whatever answers at that URL. Set `exempt_handshake = false`, or configure the endpoint's authentication "+
				"(or, only to import a subscription that already works this way as it is and change it later, set `%s = true` for now).", attrWebhookAllowExempt)
	case w.AllowExemptWithoutAuth:
		r.warnf("webhook.allow_exempt_without_auth_unused", attrWebhookAllowExempt, "Allow Exempted Handshake Without Authentication Has No Effect",
			"The subscription does not skip the handshake without authentication (`exempt_handshake = %t`, authentication %s), so `%s = true` changes nothing. "+
				"Set `%s = false`, or remove it.", exempt, map[bool]string{true: "configured", false: "none"}[auth], attrWebhookAllowExempt, attrWebhookAllowExempt)
	}
}

func checkCompeting(r *report, w Webhook) {
	if len(w.OtherWebhooks) == 0 {
		return
	}
	queue, _ := w.Queue.get()
	r.warnf("webhook.competing", attrWebhookQueue, "Several Webhooks on One Queue",
		"Queue %q is also pushed by %s: webhooks on one queue compete for its messages, each message goes to one of them, "+
			"not to each. Set each webhook's queue to a queue of its own, subscribed to the same topics.", queue, strings.Join(quoteAll(w.OtherWebhooks), ", "))
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

func checkWebhookEndpoint(r *report, w Webhook) {
	ep, ok := w.Endpoint.get()
	if !ok {
		return
	}
	u, err := url.Parse(ep)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		r.errorf("webhook.endpoint_invalid", attrWebhookEndpoint, "Invalid Webhook Endpoint",
			"endpoint = %q is not an absolute URL, so Event Mesh cannot push to it. Set the endpoint's full https:// URL.", RedactEndpoint(ep))
		return
	}
	inClear := WebhookEndpointInClear(ep)
	switch {
	case inClear && w.AllowHTTPEndpoint:
		r.warnf("webhook.endpoint_not_https_allowed", attrWebhookEndpoint, "Webhook Endpoint Not HTTPS Allowed",
			"`%s = true` keeps endpoint = %q, which receives the queue's messages, and the endpoint's credentials, in clear text over the network. "+
				"Set an https:// URL, and remove `%s`.", attrWebhookAllowHTTP, RedactEndpoint(ep), attrWebhookAllowHTTP)
	case inClear:
		r.errorf("webhook.endpoint_not_https", attrWebhookEndpoint, "Webhook Endpoint Not HTTPS",
			"endpoint = %q would receive the queue's messages, and the endpoint's credentials, in clear text over the network. "+
				"Set an https:// URL (or, only to import a subscription that already works this way as it is and change it later, set `%s = true` for now).",
			RedactEndpoint(ep), attrWebhookAllowHTTP)
	case w.AllowHTTPEndpoint:
		r.warnf("webhook.allow_http_endpoint_unused", attrWebhookAllowHTTP, "Allow HTTP Endpoint Has No Effect",
			"endpoint = %q is an https:// URL or a loopback address, so `%s = true` changes nothing. Set `%s = false`, or remove it.",
			RedactEndpoint(ep), attrWebhookAllowHTTP, attrWebhookAllowHTTP)
	}
}

// RedactEndpoint is a webhook endpoint as findings, states and diagrams may show it: without
// userinfo, query and fragment, which can carry credentials (a password, an API key in the query).
// A value that is not a URL is shown up to its first "?" or "#", without anything before an "@".
func RedactEndpoint(ep string) string {
	u, err := url.Parse(ep)
	if err != nil {
		if i := strings.IndexAny(ep, "?#"); i >= 0 {
			ep = ep[:i]
		}
		if i := strings.LastIndex(ep, "@"); i >= 0 {
			scheme := ""
			if j := strings.Index(ep, "://"); j >= 0 && j < i {
				scheme = ep[:j+3]
			}
			ep = scheme + ep[i+1:]
		}
		return ep
	}
	u.User = nil
	u.RawQuery, u.ForceQuery = "", false
	u.Fragment, u.RawFragment = "", ""
	if i := strings.LastIndex(u.Opaque, "@"); i >= 0 {
		// "user:password@host/…" without "//" parses as scheme "user" and an opaque part:
		// what follows the "@" is all that can be shown.
		return u.Opaque[i+1:]
	}
	return u.String()
}

// WebhookEndpointInClear reports whether Event Mesh would push to ep in clear text over the network: an
// absolute http:// URL whose host is not a loopback address.
func WebhookEndpointInClear(ep string) bool {
	u, err := url.Parse(ep)
	return err == nil && u.Host != "" && u.Scheme == "http" && !isLoopback(u.Hostname())
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// WebhookScheduleText describes the QoS 1 retries of a queue for docs and plans, e.g.
// "3 tries within 45 minutes, then the dead message queue".
func WebhookScheduleText(redeliveries, ttlSeconds int64, hasDMQ bool) string {
	tries, minutes, _ := WebhookGiveUp(redeliveries, ttlSeconds)
	end := "then purged"
	if hasDMQ {
		end = "then the dead message queue"
	}
	return fmt.Sprintf("%d tries within %s, %s", tries, formatMinutes(minutes), end)
}
